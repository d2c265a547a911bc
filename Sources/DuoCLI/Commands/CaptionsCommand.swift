import DuoCore
import DuoMedia
import Foundation

/// `duo-capture captions TAKE.mkv|FOLDER --script FILE [--language en]`: captions in the script's own
/// words, timed to the take's speech, beside each take (`TAKE.vtt`, `TAKE.srt`), inside its Matroska
/// file, and the take review in its sidecar.
///
/// Thread: main task; synchronous (one take after another).
enum CaptionsCommand {
    static func run(_ arguments: [String]) throws(DuoError) -> String {
        var targets: [String] = [], script: String?, language = "en"
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "--script", "--language":
                guard i + 1 < arguments.count else { throw .usage(tr("captions %s needs a value: duo-capture captions TAKE.mkv --script FILE [--language en]", a)) }
                if a == "--script" { script = arguments[i + 1] } else { language = arguments[i + 1] }
                i += 2
            default:
                guard !a.hasPrefix("-") else { throw .usage(tr("captions: unknown option %s; use duo-capture captions TAKE.mkv|FOLDER --script FILE [--language en]", a)) }
                targets.append(a)
                i += 1
            }
        }
        guard !targets.isEmpty else { throw .usage(tr("captions needs a take or a folder of takes: duo-capture captions TAKE.mkv --script FILE")) }
        guard let script else { throw .usage(tr("captions needs --script FILE: the captions are the script's own words")) }
        try TakeCaptioner.requireLanguage(language)
        let subject = try ScriptParser.load(path: script).subject
        var takes: [String] = []
        for target in targets {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) else {
                throw .input(tr("captions: %s does not exist; give a take (.mkv, .mp4) or a folder of takes", target))
            }
            if isFolder.boolValue {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []).sorted()
                let found = names.filter { ["mkv", "mp4"].contains(($0 as NSString).pathExtension.lowercased()) }
                guard !found.isEmpty else { throw .input(tr("captions: %s holds no takes (.mkv or .mp4)", target)) }
                takes += found.map { (target as NSString).appendingPathComponent($0) }
            } else {
                takes.append(target)
            }
        }
        var lines: [String] = [], failures = 0
        for take in takes {
            do {
                lines.append(try TakeCaptioner.caption(take, subject: subject))
            } catch {
                failures += 1
                lines.append(tr("%s: no captions: %s", take, error.message))
                TakeCaptioner.recordWhy(take, error.message)
            }
        }
        if failures == takes.count, takes.count == 1 {
            throw DuoError.input(lines[0])
        }
        return lines.joined(separator: "\n")
    }
}

/// Captions one take with a script: the recogniser over its sound, the alignment, the files, the mux
/// and the sidecar's review. Used by `captions` and after each take of a run.
///
/// Thread: any; synchronous (about a quarter of the take's length on one core).
enum TakeCaptioner {
    /// Languages with a speech model here (Debian's pocketsphinx-en-us).
    static let languages: Set<String> = ["en", "en-us", "en_us", "english"]

    static func requireLanguage(_ language: String) throws(DuoError) {
        guard languages.contains(language.lowercased()) else {
            throw .usage(tr("captions: there is no speech model for %s here; only English (--language en, the pocketsphinx-en-us package) can be captioned", language))
        }
    }

    /// Captions `take`; returns a line saying what was written.
    static func caption(_ take: String, subject: SubjectScript) throws(DuoError) -> String {
        try GStreamer.require(["pocketsphinx"], for: "captions")
        var notices: [String] = []
        guard let model = try VoiceModelSetup.files(for: subject, notices: &notices) else {
            throw .input(notices.first ?? tr("the script cannot be recognised in English"))
        }
        let script = CaptionScript(script: subject)
        let (heard, seconds) = try TakeListening.listen(take, model: model, timeoutSeconds: 600 + 4 * max(0, takeSeconds(take)))
        let result = CaptionAligner().align(script, heard: heard)
        let stem = (take as NSString).deletingPathExtension
        let vtt = stem + ".vtt", srt = stem + ".srt"
        do {
            try Data(CaptionFiles.webVTT(result.captions).utf8).write(to: URL(fileURLWithPath: vtt), options: .atomic)
            try Data(CaptionFiles.subRip(result.captions).utf8).write(to: URL(fileURLWithPath: srt), options: .atomic)
        } catch {
            throw .runtime(tr("cannot write the captions beside %s: %s", take, WriteProblem.describe(error)))
        }
        if take.lowercased().hasSuffix(".mkv"), !result.captions.isEmpty {
            try TakeListening.muxSubtitles(into: take, srt: srt)
        }
        let sidecarPath = TakeSidecar.path(forTake: take)
        if FileManager.default.fileExists(atPath: sidecarPath), var sidecar = try? TakeSidecar.read(sidecarPath) {
            sidecar.review = result.review
            sidecar.captions = "\((vtt as NSString).lastPathComponent), \((srt as NSString).lastPathComponent)"
            try sidecar.write(nextTo: take)
        }
        let read = result.review.lines.filter { $0.state != .skipped }.count
        let stretches = result.review.unscripted.count
        return trn("%s: %d captions, %d of %d lines read, %d unscripted stretch (%s s of sound)",
                   "%s: %d captions, %d of %d lines read, %d unscripted stretches (%s s of sound)", stretches,
                   vtt, result.captions.count, read, result.review.lines.count, stretches, String(format: "%.1f", seconds))
    }

    /// The take's length from its sidecar, when it has one (for the time allowed); 0 otherwise.
    static func takeSeconds(_ take: String) -> Double {
        (try? TakeSidecar.read(TakeSidecar.path(forTake: take)))?.durationSeconds ?? 0
    }

    /// Says in the take's sidecar (when it has one) why it has no captions.
    static func recordWhy(_ take: String, _ why: String) {
        let path = TakeSidecar.path(forTake: take)
        guard FileManager.default.fileExists(atPath: path), var sidecar = try? TakeSidecar.read(path) else { return }
        // The file's name only: no folder (a path can name a person) in the sidecar.
        sidecar.captions = "none: " + why.replacingOccurrences(of: take, with: (take as NSString).lastPathComponent)
        try? sidecar.write(nextTo: take)
    }
}
