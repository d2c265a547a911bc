import DuoCore
import DuoMedia
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's script on screen: opened, or saved and reloaded, read and laid out off the director.
//
//  Thread: the run director's actor.

extension RunDirector {
    /// Another script, opened while the run goes on: read and laid out off the director (the old one
    /// scrolls on meanwhile), then it becomes the one watched, remembered and scrolled.
    func openScript(_ path: String, at now: Int64) async {
        await loadScript(await presenter.openRequest(path), stamp: ScriptStamp(path))
    }

    /// The script load under way off the director: a newer one (a later save, another script opened)
    /// supersedes it, and its result is dropped when it comes.
    struct ScriptLoad { let ticket: Int; let path: String; let opening: Bool; let stamp: ScriptStamp?; let previousStamp: ScriptStamp? }

    /// Reads and lays out a script in a detached task (seconds for a 2 MB script); `scriptPrepared` swaps
    /// it in when it is ready.
    func loadScript(_ request: SubjectPresenter.ScriptRequest?, stamp: ScriptStamp?, previousStamp: ScriptStamp? = nil) async {
        guard let request else { return }
        // A save whose reload is superseded by opening another script is looked at again should the
        // opening fail.
        if request.opening, let superseded = scriptLoad, !superseded.opening { scriptStamp = superseded.previousStamp }
        scriptLoads += 1
        scriptLoad = ScriptLoad(ticket: scriptLoads, path: request.path, opening: request.opening, stamp: stamp, previousStamp: previousStamp)
        let sink = inputSink, ticket = scriptLoads
        Task.detached(priority: .utility) {
            let result: Result<SubjectPresenter.PreparedScript, DuoError>
            do throws(DuoError) { result = .success(try SubjectPresenter.prepare(request)) } catch { result = .failure(error) }
            sink.yield(.scriptPrepared(result, ticket: ticket))
        }
    }

    func scriptPrepared(_ result: Result<SubjectPresenter.PreparedScript, DuoError>, ticket: Int) async {
        guard let load = scriptLoad, load.ticket == ticket else { return }   // superseded
        scriptLoad = nil
        switch result {
        case .success(let prepared):
            let path = prepared.request.path
            let problems = await presenter.install(prepared, at: clock.now())
            if prepared.request.opening {
                scriptPath = path
                scriptStamp = load.stamp
                if let warning = ScriptChoice.standard().remember(path) { log("duo-capture: warning: \(warning.message)") }
                log("duo-capture: opened script \(path)")
            } else {
                log("duo-capture: script \(path) reloaded; the reading position is kept")
            }
            rebuildVoiceModel()
            for problem in problems { log("duo-capture: warning: script \(path) \(problem) (duo-capture check-script lists them)") }
            await updateSubjectPicture()
            await status(trigger: "script")
        case .failure(let error):
            if load.opening {
                // An opened script that cannot be read: the current one stays.
                refuse("script \(load.path): \(error.message)")
                face.say(error.message)
            } else {
                notify("script \(load.path) was saved but cannot be read (\(error.message)); the previous text stays on screen",
                       .plain, errorEvent: true)
            }
        }
    }

    /// What identifies a saved version of the script file: editors save by rewriting or by renaming a
    /// new file into place, so the inode, size and modification time together.
    ///
    /// Thread: value type.
    struct ScriptStamp: Equatable {
        let inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            inode = UInt64(info.st_ino); size = Int64(info.st_size)
            seconds = Int(info.st_mtim.tv_sec); nanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }

    /// A script saved while the run goes on is reloaded, keeping the reading position; a save that does
    /// not parse keeps the old text on screen and says why (event, log, HUD).
    func watchScript(_ now: Int64) async {
        lastScriptCheckAt = now
        // While another script is being opened, the one on screen is not reloaded (the opening wins).
        guard let path = scriptPath, scriptLoad?.opening != true else { return }
        let stamp = ScriptStamp(path)
        guard let previous = scriptStamp else { scriptStamp = stamp; return }
        guard let stamp, stamp != previous else { return }
        scriptStamp = stamp
        // Read and laid out off the director; the old text scrolls on until it is ready. A later save
        // supersedes this load.
        await loadScript(await presenter.reloadRequest(), stamp: stamp, previousStamp: previous)
    }
}
