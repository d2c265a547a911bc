import DuoCore
import DuoMedia
import Foundation

/// The settings file's values as defaults for the long options: each key is an option's name, its values
/// go in after the command word, and an option the command line gives wins over the file's. Every
/// setting is checked as the option it stands for; a bad one is a one-line error naming the file and line.
///
/// Thread: main task at start-up; pure apart from reading the file.
enum SettingsDefaults {
    /// Commands whose arguments are their own (files, cameras): settings do not apply.
    static let ownArguments: Set<String> = ["render-subject", "inspect", "remux", "check-script", "formats", "cameras", "monitors", "report"]

    struct Applied {
        var arguments: [String]
        /// Each setting: `key = values`, and where it came from (or why it did not apply).
        var report: [String]
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
        for entry in file.entries {
            let option = "--\(entry.key)"
            let shown = "\(entry.key) = \(entry.values.joined(separator: ";"))"
            var args: [String] = []
            let isFlag = (try? Options.parse(head + [option])) != nil
            if isFlag {
                guard entry.values.count == 1, let value = entry.values.first, value == "true" || value == "false" else {
                    throw .input("\(file.path):\(entry.line): \(entry.key) is a switch: write \(entry.key)=true or \(entry.key)=false")
                }
                if value == "true" { args = [option] }
            } else {
                guard !entry.values.isEmpty else { throw .input("\(file.path):\(entry.line): \(entry.key) has no value") }
                for value in entry.values { args += [option, value] }
            }
            // Checked in the company of the settings before it (--faces and --rotate follow a --camera).
            do throws(DuoError) { _ = try Options.parse(head + fromFile + args) } catch {
                throw .input("\(file.path):\(entry.line): \(entry.key): \(error.message)")
            }
            // A setting the command line also gives is checked all the same, and then left out.
            if given.contains(option) {
                report.append("\(shown)\t(\(file.path):\(entry.line), but the command line's \(option) wins)")
                continue
            }
            fromFile += args
            report.append("\(shown)\t(\(file.path):\(entry.line))")
        }
        return Applied(arguments: head + fromFile + Array(rest), report: report)
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
