import DuoCore
import DuoMedia
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's voice-follow: the model for a new script built off the director (VoicePort), and follow events.
//
//  Thread: the run director's actor.

extension RunDirector {
    /// The script changed while voice-follow listens: its model is built and the recogniser loads it off
    /// the director (reading the pronouncing dictionary, and pocketsphinx reading a large script's model,
    /// take a moment); the recogniser is replaced when it is ready.
    func rebuildVoiceModel() {
        guard plan.voice != nil, let path = scriptPath else { return }
        voiceBuilds += 1
        let sink = inputSink, ticket = voiceBuilds, plan = self.plan, voice = self.voice
        Task.detached {
            var notices: [String] = []
            let result: Result<(any PreparedRecogniser)?, DuoError>
            do throws(DuoError) {
                result = .success(try voice.prepare(scriptPath: path, plan: plan, notices: &notices))
            } catch { result = .failure(error) }
            sink.yield(.voiceModel(result, notices: notices, ticket: ticket))
        }
    }

    func voiceModelReady(_ result: Result<(any PreparedRecogniser)?, DuoError>, notices: [String], ticket: Int) async {
        guard ticket == voiceBuilds else { return }
        for notice in notices { log("duo-capture: \(notice)") }
        switch result {
        case .success(let loaded?):
            do throws(DuoError) {
                try await capture.installRecogniser(loaded)
                log("duo-capture: voice-follow listens for the new script's words")
            } catch {
                log("duo-capture: warning: voice-follow keeps the previous script's words: \(error.message)")
            }
        case .success(nil): break
        case .failure(let error): log("duo-capture: warning: voice-follow keeps the previous script's words: \(error.message)")
        }
        await reportFollow()
    }


    func reportFollow() async {
        let now = clock.now()
        let s = await presenter.status(at: now)
        let f = s.follow
        let said = [f == nil ? "time" : "voice", f?.stateName ?? "", f?.word ?? ""]
        if let last = lastFollow, last.said == said, abs(s.position - last.position) < 1 { return }
        lastFollow = (said, s.position)
        events.emit(.follow(mode: said[0], state: f?.stateName, word: f?.word,
                            position: (s.position * 10).rounded() / 10, at: (Double(now) / 1e6).rounded() / 1e3))
    }
}
