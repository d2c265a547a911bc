@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// The command line in the operator's language (issue 41): duo-capture installed by Scripts/install.sh
/// (once for the class) and typed by name from PATH in a fresh account prints its help and its errors in
/// Chinese under LANGUAGE=zh_CN, English where there is no catalogue, and its machine output the same
/// in every language.
final class TranslatedCommandLineTests: XCTestCase {
    private static var root: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    /// One install for every test here: PREFIX, and a fresh HOME and working folder beside it.
    private static let installed: Result<String, Error> = Result(catching: {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("duo-capture-i18n-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(base)/home", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(base)/work", withIntermediateDirectories: true)
        let next = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("duo-capture")
        let built = FileManager.default.fileExists(atPath: next.path) ? next.path : root.appendingPathComponent(".build/debug/duo-capture").path
        // Installed from a Chinese session: the man page must stay English all the same.
        let install = try runToEnd(URL(fileURLWithPath: "/bin/bash"), ["-c", "cd '\(root.path)' && bash Scripts/install.sh --prefix '\(base)/prefix' --binary '\(built)'"],
                                   environment: ["LANGUAGE": "zh_CN", "LANG": "zh_CN.UTF-8"], timeout: 120)
        guard install.status == 0 else { throw DuoError.runtime("install.sh failed: \(install.stderr)") }
        return base
    })

    override class func tearDown() {
        if case .success(let base) = installed { try? FileManager.default.removeItem(atPath: base) }
        super.tearDown()
    }

    /// `duo-capture ARGUMENTS` typed in the fresh account, in `language` (nil: no LANGUAGE) with `lang`.
    private func typed(_ arguments: String, language: String?, lang: String = "C.UTF-8") throws -> Run {
        let base = try Self.installed.get()
        var env = ["HOME": "\(base)/home", "PATH": "\(base)/prefix/bin:/usr/bin:/bin", "LANG": lang]
        if let language { env["LANGUAGE"] = language }
        let unset = ["DISPLAY", "WAYLAND_DISPLAY", "DUO_CAPTURE_DATA", "DUO_CAPTURE_LOCALEDIR", "LC_ALL", "LC_MESSAGES", "LANGUAGE",
                     "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_VIDEOS_DIR"]
        return try runToEnd(URL(fileURLWithPath: "/bin/bash"), ["-c", "cd '\(base)/work' && duo-capture \(arguments)"],
                            removing: unset, environment: env, timeout: 60)
    }

    private func hasChinese(_ text: String) -> Bool { text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } }

    func testHelpIsChineseWithEveryOptionNameAsTyped() throws {
        let zh = try typed("--help", language: "zh_CN")
        XCTAssertEqual(zh.status, 0, zh.stderr)
        for text in ["用法", "摄像头", "运行", "录制", "设置", "退出码", "远程显示（通过 SRT 把被摄者画面送到其他机器）",
                     "录制一条，从倒计时结束到运行结束", "录制 / 停止（先倒计时）", "操作员窗口上的按键"] {
            XCTAssertTrue(zh.stdout.contains(text), "the Chinese --help lacks \(text)")
        }
        // Options and commands stay as typed, each still a term at the start of its line.
        for term in ["  --record-dir DIR", "  --subject-remote srt://HOST:PORT", "  --accessory teleprompter|preview|countdown|off",
                     "  duo-capture export DIR --format otio|edl|csv [--out FILE]", "    Space        录制 / 停止"] {
            XCTAssertTrue(zh.stdout.contains("\n" + term), "the Chinese --help lacks the term \(term)")
        }
        // Every unit of the help has its translation in the installed catalogue.
        let catalog = Translator(catalog: try MessageCatalog(language: "zh_CN", path: "\(try Self.installed.get())/prefix/share/locale/zh_CN/LC_MESSAGES/duo-capture.mo"))
        let missing = Help.items.filter { $0.translated && catalog.text($0.text) == $0.text }.map(\.text)
        XCTAssertEqual(missing, [], "help units without a Chinese translation")
        let en = try typed("--help", language: nil)
        XCTAssertEqual(en.status, 0, en.stderr)
        XCTAssertFalse(hasChinese(en.stdout), "the English --help has Chinese in it")
        // Every option the English help names is named in the Chinese one.
        let options = Set(en.stdout.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }).filter { $0.hasPrefix("--") && $0.count > 3 })
        XCTAssertGreaterThan(options.count, 60)
        let named = Set(zh.stdout.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }))
        XCTAssertEqual(options.subtracting(named).sorted(), [], "options the Chinese --help lost")
        // Wrapped by display width: no translated line is wider than 100 columns (a CJK character is two).
        for line in zh.stdout.split(separator: "\n") where hasChinese(String(line)) {
            XCTAssertLessThanOrEqual(HelpWrap.width(line), 100, "too wide: \(line)")
            XCTAssertFalse(line.drop(while: { $0 == " " }).first.map { "，。；：、）".contains($0) } ?? false, "starts with closing punctuation: \(line)")
        }
        // No German catalogue: German asks for German and gets the English, byte for byte.
        let de = try typed("--help", language: nil, lang: "de_DE.UTF-8")
        XCTAssertEqual(de.status, 0, de.stderr)
        XCTAssertEqual(de.stdout, en.stdout, "LANG=de_DE.UTF-8 without a German catalogue is not the English help")
    }

    func testUsageErrorsAreOneChineseLineWithTheSuggestionAndTheSameExitCode() throws {
        let cases: [(String, [String], [String])] = [
            ("--acessory teleprompter", ["未知选项 --acessory；您是想用 --accessory 吗？"], ["did you mean --accessory?"]),
            ("--headless --theme high-constrast", ["您是想用 high-contrast 吗？"], ["did you mean high-contrast?"]),
            ("--headless --container avi", ["--container avi：应为 mkv 或 mp4"], ["--container avi: expected mkv or mp4"]),
            ("formats", ["formats：请给出一个摄像头；用法：duo-capture formats CAMERA"], ["formats: give a camera; usage: duo-capture formats CAMERA"]),
        ]
        for (arguments, chinese, english) in cases {
            let zh = try typed(arguments, language: "zh_CN", lang: "zh_CN.UTF-8")
            let en = try typed(arguments, language: nil)
            XCTAssertEqual(zh.status, 64, "\(arguments): \(zh.stderr)")
            XCTAssertEqual(zh.status, en.status, arguments)
            let lines = zh.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "one line for \(arguments): \(zh.stderr)")
            XCTAssertTrue(zh.stderr.hasPrefix("duo-capture：错误："), zh.stderr)
            for text in chinese { XCTAssertTrue(zh.stderr.contains(text), "\(arguments): \(zh.stderr)") }
            XCTAssertTrue(en.stderr.hasPrefix("duo-capture: error: "), en.stderr)
            for text in english { XCTAssertTrue(en.stderr.contains(text), "\(arguments): \(en.stderr)") }
        }
    }

    func testMachineOutputIsTheSameInChineseAndEnglish() throws {
        let zhConfig = try typed("--print-config --headless --wpm 150", language: "zh_CN", lang: "zh_CN.UTF-8")
        let enConfig = try typed("--print-config --headless --wpm 150", language: nil)
        XCTAssertEqual(zhConfig.status, 0, zhConfig.stderr)
        XCTAssertEqual(zhConfig.stdout, enConfig.stdout, "--print-config differs between zh_CN and English")
        XCTAssertFalse(zhConfig.stdout.isEmpty)
        // An events file: the same lines but for the clock; the terminal's lines (the settings file's
        // start line, the summary) in each language.
        let home = "\(try Self.installed.get())/home"
        try FileManager.default.createDirectory(atPath: "\(home)/.config/duo-capture", withIntermediateDirectories: true)
        try "[duo-capture]\nwpm=150\n".write(toFile: "\(home)/.config/duo-capture/duo-capture.conf", atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: "\(home)/.config/duo-capture/duo-capture.conf") }
        var events: [String] = []
        for (name, language) in [("zh", "zh_CN"), ("en", nil)] as [(String, String?)] {
            let run = try typed("--headless --source videotestsrc --format 320x180@30 --duration 0.3 --events \(name).jsonl", language: language)
            XCTAssertEqual(run.status, 0, run.stderr)
            let said = language == nil ? ["duo-capture: settings from ", "  camera    "] : ["duo-capture：来自 ", "的设置：wpm=150", "  摄像头    "]
            for text in said { XCTAssertTrue((run.stderr + run.stdout).contains(text), "\(name) lacks \(text): \(run.stderr)\(run.stdout)") }
            let text = try String(contentsOfFile: "\(try Self.installed.get())/work/\(name).jsonl", encoding: .utf8)
            events.append(text.split(separator: "\n").filter { $0.contains("\"event\":\"stopped\"") || $0.contains("\"event\":\"starting\"") }
                .map { $0.replacingOccurrences(of: #""t":[0-9.]+"#, with: "\"t\":T", options: .regularExpression) }.joined(separator: "\n"))
        }
        XCTAssertTrue(events[1].contains("\"reason\":\"duration reached\""), events[1])
        XCTAssertEqual(events[0], events[1], "the events differ between zh_CN and English")
    }

    /// Every catalogue compiles with msgfmt --check, and the installed man page is English (made with
    /// LANGUAGE= LC_ALL=C.UTF-8 although install.sh ran in a Chinese session) with no "???".
    func testCataloguesCheckAndTheManPageStaysEnglish() throws {
        let languages = try String(contentsOf: Self.root.appendingPathComponent("po/LINGUAS"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        XCTAssertTrue(languages.contains("zh_CN"), "\(languages)")
        for language in languages {
            let check = try runToEnd(URL(fileURLWithPath: "/usr/bin/msgfmt"), ["--check", "--statistics", "-o", "/dev/null",
                                                                               Self.root.appendingPathComponent("po/\(language).po").path], timeout: 60)
            XCTAssertEqual(check.status, 0, "\(language).po: \(check.stderr)")
        }
        let base = try Self.installed.get()
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(base)/prefix/share/locale/zh_CN/LC_MESSAGES/duo-capture.mo"))
        let page = try runToEnd(URL(fileURLWithPath: "/bin/zcat"), ["\(base)/prefix/share/man/man1/duo-capture.1.gz"], timeout: 30)
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertTrue(page.stdout.contains(".SH OPTIONS") && page.stdout.contains("record one take"), String(page.stdout.prefix(400)))
        XCTAssertFalse(hasChinese(page.stdout), "the man page has Chinese in it")
        XCTAssertFalse(page.stdout.contains("???"), "the man page has ???")
    }

    /// Line breaking for translated help: by display width, between CJK characters, never before closing
    /// or after opening punctuation, never inside an option or a path.
    func testHelpWrapBreaksByDisplayWidth() {
        let text = "把一条录制的各分段（--swap-policy segment）按第一段的格式和帧率合并为一个文件（FIRST-joined.mkv；较慢摄像头的帧会重复，较快的会丢弃），并显示进度条"
        for limit in [20, 33, 41, 61] {
            let lines = HelpWrap.wrap(text, width: limit)
            XCTAssertGreaterThan(lines.count, 1)
            XCTAssertEqual(lines.joined().replacingOccurrences(of: " ", with: ""), text.replacingOccurrences(of: " ", with: ""), "text lost at \(limit)")
            for line in lines {
                XCTAssertLessThanOrEqual(HelpWrap.width(Substring(line)), limit, "\(limit): \(line)")
                XCTAssertFalse("，。；：、）".contains(line.first!), "\(limit): starts with closing punctuation: \(line)")
                XCTAssertFalse("（".contains(line.last!), "\(limit): ends with opening punctuation: \(line)")
            }
            XCTAssertTrue(lines.contains { $0.contains("--swap-policy") }, "\(limit): the option was split: \(lines)")
            XCTAssertTrue(lines.contains { $0.contains("FIRST-joined.mkv") }, "\(limit): the file name was split: \(lines)")
        }
        XCTAssertEqual(HelpWrap.wrap("a short line", width: 61), ["a short line"])
        XCTAssertEqual(HelpWrap.width("摄像头 ok"), 9)
    }
}
