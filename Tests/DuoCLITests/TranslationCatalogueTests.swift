import Foundation
import XCTest

/// The translations' catalogues kept whole (issue 41): no user-visible string escapes `tr`, every
/// catalogue compiles, the template matches the sources, zh_CN leaves nothing untranslated, and an
/// installed duo-capture says its errors in Chinese under `LANGUAGE=zh_CN`.
final class TranslationCatalogueTests: XCTestCase {
    private var root: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// `Scripts/po-extract.py check`: a literal reaching an error, notice or log line (po/sinks.txt)
    /// without `tr` fails with the file and the text, unless po/untranslated.txt names it.
    func testEveryUserVisibleStringIsMarked() throws {
        let check = try shell("python3 Scripts/po-extract.py check")
        XCTAssertEqual(check.status, 0, "unmarked strings:\n\(check.stdout)\(check.stderr)")
    }

    /// `msgfmt --check` on every catalogue in po/LINGUAS (the format arguments of each translation
    /// match its English; the header is whole), and zh_CN has no untranslated or fuzzy entry.
    func testEveryCatalogueCompilesAndChineseIsComplete() throws {
        let languages = try String(contentsOfFile: "\(root)/po/LINGUAS", encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        XCTAssertTrue(languages.contains("zh_CN"), "po/LINGUAS: \(languages)")
        for language in languages {
            let compiled = try shell("msgfmt --check --statistics -o /dev/null po/\(language).po", environment: ["LC_ALL": "C"])
            XCTAssertEqual(compiled.status, 0, "po/\(language).po: \(compiled.stderr)")
            if language == "zh_CN" {
                // "N translated messages." alone: no ", M fuzzy translations" nor ", K untranslated messages".
                XCTAssertTrue(compiled.stderr.contains("translated message"), compiled.stderr)
                XCTAssertFalse(compiled.stderr.contains("untranslated") || compiled.stderr.contains("fuzzy"),
                               "po/zh_CN.po is not complete (run Scripts/update-po.sh, then translate): \(compiled.stderr)")
            }
        }
    }

    /// po/duo-capture.pot holds exactly the msgids the sources mark: extracted again into a scratch file,
    /// the two sets are equal (dates and line numbers aside).
    func testTheTemplateMatchesTheSources() throws {
        let fresh = try scratchDirectory(self) + "/fresh.pot"
        let extract = try shell("python3 Scripts/po-extract.py extract --pot '\(fresh)'")
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let kept = try msgids("\(root)/po/duo-capture.pot"), made = try msgids(fresh)
        XCTAssertGreaterThan(made.count, 100)
        XCTAssertEqual(made.subtracting(kept).sorted(), [], "marked in the sources but not in po/duo-capture.pot: run Scripts/update-po.sh")
        XCTAssertEqual(kept.subtracting(made).sorted(), [], "in po/duo-capture.pot but no longer in the sources: run Scripts/update-po.sh")
    }

    /// Installed as a user installs it (Scripts/install.sh compiles po/*.po into share/locale), typed by
    /// name from another folder with a fresh HOME: a missing script is one line in Chinese under
    /// LANGUAGE=zh_CN, with the same exit code and the same path as the English line, and English without it.
    func testAnInstalledDuoCaptureSaysAMissingScriptInChinese() throws {
        let prefix = try scratchDirectory(self)
        let install = try shell("bash Scripts/install.sh --prefix '\(prefix)' --binary '\(builtBinary)'")
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(prefix)/share/locale/zh_CN/LC_MESSAGES/duo-capture.mo"))
        let home = try scratchDirectory(self), elsewhere = try scratchDirectory(self)
        var fresh = ["HOME": home, "PATH": "\(prefix)/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "DUO_CAPTURE_DATA": "", "LANGUAGE": "", "LC_ALL": "",
                     "LC_MESSAGES": "", "DUO_CAPTURE_LOCALEDIR": ""]
        for name in ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"] { fresh[name] = "" }
        let command = "duo-capture --headless --camera inner --format 320x180@30 --script talk-missing.md --duration 1"
        let english = try shell(command, in: elsewhere, environment: fresh)
        fresh["LANGUAGE"] = "zh_CN"
        let chinese = try shell(command, in: elsewhere, environment: fresh)
        XCTAssertEqual(english.status, 65, english.stderr)
        XCTAssertEqual(chinese.status, english.status, chinese.stderr)
        XCTAssertTrue(english.stderr.contains("script ") && english.stderr.contains("does not exist"), english.stderr)
        let line = chinese.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(line.contains("\n"), "more than one line: \(line)")
        XCTAssertTrue(line.contains("脚本") && line.contains("不存在") && line.contains("talk-missing.md") && line.contains("--script"), line)
        XCTAssertFalse(line.contains("does not exist"), line)
    }

    // MARK: - Helpers

    /// The duo-capture built for the tests (installed as is), as InstallTests installs it.
    private var builtBinary: String {
        let next = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("duo-capture")
        return FileManager.default.fileExists(atPath: next.path) ? next.path : "\(root)/.build/debug/duo-capture"
    }

    /// Runs `command` under bash in `directory` (the checkout by default); an empty value in
    /// `environment` removes that variable.
    private func shell(_ command: String, in directory: String? = nil, environment: [String: String] = [:]) throws -> Run {
        var set: [String: String] = [:], removing: [String] = []
        for (key, value) in environment { if value.isEmpty { removing.append(key) } else { set[key] = value } }
        return try runToEnd(URL(fileURLWithPath: "/bin/bash"), ["-c", "cd '\(directory ?? root)' && \(command)"],
                            removing: removing, environment: set, timeout: 120)
    }

    /// The msgids of a .po/.pot file (msgcat normalises the wrapping; the header's empty msgid left out).
    private func msgids(_ path: String) throws -> Set<String> {
        let flat = try shell("msgcat --no-wrap --no-location '\(path)'")
        XCTAssertEqual(flat.status, 0, flat.stderr)
        var ids = Set<String>()
        for line in flat.stdout.split(separator: "\n") where line.hasPrefix("msgid ") || line.hasPrefix("msgid_plural ") {
            let value = line.drop { $0 != "\"" }
            if value != "\"\"" { ids.insert(String(line.hasPrefix("msgid_plural ") ? "plural " + value : value)) }
        }
        return ids
    }
}
