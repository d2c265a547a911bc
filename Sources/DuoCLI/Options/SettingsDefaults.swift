import DuoCore
import DuoMedia
import DuoPlatform
import Foundation

/// The settings file's values as defaults for the long options: each key is an option's name, its values
/// go in after the command word, and an option the command line gives wins over the file's. Every
/// setting is checked as the option it stands for; a bad one is a one-line error naming the file and line.
///
/// Thread: main task at start-up; pure apart from reading the file.
enum SettingsDefaults {
    /// Commands whose arguments are their own (files, cameras): settings do not apply.
    static let ownArguments: Set<String> = ["render-subject", "inspect", "remux", "check-script", "formats", "cameras", "monitors", "report", "microphones", "captions"]

    struct Applied {
        var arguments: [String]
        /// Each setting: `key = values`, and where it came from (or why it did not apply).
        var report: [String]
        /// The settings the file gave this run (`key=value`), for the line at its start.
        var fromFile: [String] = []
    }

    /// Options that act once (start a take, end or drive the run), replace the capture graph, or lower
    /// the run's protection: what a command line asks for, never a default kept in a file (a forgotten
    /// `record=true` would record every plain run). Each with what it would do on every run
    /// (marked for translation, translated where it is shown).
    static let notSettings: [String: String] = [
        "record": N_("it would start a take in every run"),
        "duration": N_("it would end every run after a set time"),
        "timeline": N_("it would replay commands in every run"),
        "resume": N_("it would take up the last shot-list session in every run"),
        "pipelines": N_("it would replace the capture graph in every run"),
        "no-encryption": N_("it would send the subject view unencrypted in every run"),
        "help": N_("it would print the help instead of every run"),
        "version": N_("it would print the version instead of every run"),
    ]

    /// What `audio=` may be in the file: a kind of source or a device, never a pipeline. `file:PATH`
    /// only reads a sound file, so it is kept; a device is one source element with its device's name
    /// (`pulsesrc device=NAME`, `alsasrc device=hw:1`, `pipewiresrc target-object=NAME`).
    static func isSafeAudioSetting(_ value: String) -> Bool {
        if ["auto", "none", "test"].contains(value) || (value.hasPrefix("file:") && value.count > 5) { return true }
        // A microphone by identity (`id:NODE`, as duo-capture microphones shows it): one source, never a pipeline.
        if value.hasPrefix("id:"), value.count > 3, !value.contains("!") { return true }
        let words = value.split(separator: " ", omittingEmptySubsequences: true)
        guard let element = words.first, ["pulsesrc", "alsasrc", "pipewiresrc"].contains(element), words.count <= 2 else { return false }
        guard words.count == 2 else { return true }
        let property = words[1].split(separator: "=", maxSplits: 1)
        let name = property.count == 2 ? property[1] : ""
        return property.count == 2 && ["device", "target-object"].contains(property[0]) && !name.isEmpty
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._:@,+-".contains($0)) }
    }

    static func apply(_ arguments: [String], file: SettingsFile?) throws(DuoError) -> Applied {
        guard let file, !file.entries.isEmpty else {
            return Applied(arguments: arguments, report: [])
        }
        var head: [String] = [], rest = arguments[...]
        if let first = rest.first, Options.commands.contains(first) {
            if ownArguments.contains(first) { return Applied(arguments: arguments, report: []) }
            head = [first]
            rest = rest.dropFirst()
        }
        let given = Set(rest.filter { $0.hasPrefix("--") }.map { String($0.split(separator: "=", maxSplits: 1)[0]) })
        var fromFile: [String] = []
        var report: [String] = []
        var applied: [String] = []
        for entry in file.entries {
            let option = "--\(entry.key)"
            let shown = "\(entry.key) = \(entry.values.joined(separator: ";"))"
            if let why = notSettings[entry.key] {
                throw .input(tr("%s:%s: %s cannot be a setting (%s); remove it and pass %s on the command line instead", file.path, entry.line, entry.key, tr(why), option))
            }
            if entry.key == "audio", let bad = entry.values.first(where: { !isSafeAudioSetting($0) }) {
                throw .input(tr("%s:%s: audio=%s is not a setting: the file takes auto, none, test, file:PATH, a microphone's id:NODE (duo-capture microphones) or a device (pulsesrc device=NAME); pass a pipeline with --audio on the command line instead", file.path, entry.line, bad))
            }
            var args: [String] = []
            let isFlag = (try? Options.parse(head + [option])) != nil
            if isFlag, Options.valueMayBeLeftOut.contains(option), entry.values.count == 1, let value = entry.values.first,
               value != "true", value != "false" {
                args = [option, value]   // screen = 1: --screen with its MONITOR
            } else if isFlag {
                guard entry.values.count == 1, let value = entry.values.first, value == "true" || value == "false" else {
                    throw .input(tr("%s:%s: %s is a switch: write %s=true or %s=false", file.path, entry.line, entry.key, entry.key, entry.key))
                }
                if value == "true" { args = [option] }
            } else {
                guard !entry.values.isEmpty else { throw .input(tr("%s:%s: %s has no value", file.path, entry.line, entry.key)) }
                for value in entry.values { args += [option, value] }
            }
            // Checked in the company of the settings before it (--faces and --rotate follow a --camera).
            do throws(DuoError) { _ = try Options.parse(head + fromFile + args) } catch {
                throw .input(tr("%s:%s: %s: %s", file.path, entry.line, entry.key, error.message))
            }
            // A setting the command line also gives is checked all the same, and then left out.
            if given.contains(option) {
                report.append("\(shown)\t(\(file.path):\(entry.line), but the command line's \(option) wins)")
                continue
            }
            fromFile += args
            applied.append("\(entry.key)=\(entry.values.joined(separator: ";"))")
            report.append("\(shown)\t(\(file.path):\(entry.line))")
        }
        return Applied(arguments: head + fromFile + Array(rest), report: report, fromFile: applied)
    }

    /// The options of the command line with the file's settings; which of them came from the file where
    /// that matters (a shot list's `note-codes:` wins over the file's, not over the command line's).
    static func options(_ applied: Applied) throws(DuoError) -> Options {
        var options = try Options.parse(applied.arguments)
        options.noteCodesFromSettings = applied.fromFile.contains { $0.hasPrefix("note-codes=") }
        return options
    }

    /// The line a run starts with when the file gave it settings: which, and from where.
    static func startLine(_ applied: Applied, file: SettingsFile?) -> String? {
        guard let file, !applied.fromFile.isEmpty else { return nil }
        return tr("duo-capture: settings from %s: %s", file.path, applied.fromFile.joined(separator: ", "))
    }

    /// `--print-config`: the settings in effect and where each came from.
    static func describe(_ applied: Applied, file: SettingsFile?, path: String, commandLine: [String]) -> String {
        var lines = [file == nil ? "settings file: none at \(path)" : "settings file: \(path)"]
        lines += applied.report
        let cli = commandLine.filter { $0 != "--print-config" }
        lines.append("command line: \(cli.isEmpty ? "(nothing else)" : cli.joined(separator: " "))")
        lines.append("everything else: the defaults in duo-capture --help")
        return lines.joined(separator: "\n")
    }
}
