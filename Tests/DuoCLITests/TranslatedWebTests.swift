import DuoCore
import Foundation
import XCTest

/// po/zh_CN.po compiled as Scripts/install.sh does (msgfmt --check), into a scratch `share/locale` for
/// DUO_CAPTURE_LOCALEDIR.
func compiledLocaleDirectory(_ test: XCTestCase) throws -> String {
    let dir = try scratchDirectory(test) + "/locale"
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    try FileManager.default.createDirectory(atPath: "\(dir)/zh_CN/LC_MESSAGES", withIntermediateDirectories: true)
    let msgfmt = try runToEnd(URL(fileURLWithPath: "/usr/bin/msgfmt"),
                              ["--check", "-o", "\(dir)/zh_CN/LC_MESSAGES/duo-capture.mo", root.appendingPathComponent("po/zh_CN.po").path], timeout: 60)
    XCTAssertEqual(msgfmt.status, 0, msgfmt.stderr)
    return dir
}

/// A test-only `de` catalogue of the phone page's texts, each 40 % longer than its English (a long-word
/// language's stress test, issue 41), compiled into `directory`.
func addPseudoGerman(to directory: String) throws {
    func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
    func longer(_ text: String) -> String { text + " " + String(repeating: "ä", count: max(1, text.count * 4 / 10 - 1)) }
    var po = "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\nLanguage: de\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\n"
    for text in WebRemotePage.texts { po += "msgid \(quoted(text))\nmsgstr \(quoted(longer(text)))\n\n" }
    for (one, other) in WebRemotePage.plurals {
        po += "msgid \(quoted(one))\nmsgid_plural \(quoted(other))\nmsgstr[0] \(quoted(longer(one)))\nmsgstr[1] \(quoted(longer(other)))\n\n"
    }
    try FileManager.default.createDirectory(atPath: "\(directory)/de/LC_MESSAGES", withIntermediateDirectories: true)
    try Data(po.utf8).write(to: URL(fileURLWithPath: "\(directory)/de.po"))
    let msgfmt = try runToEnd(URL(fileURLWithPath: "/usr/bin/msgfmt"), ["--check", "-o", "\(directory)/de/LC_MESSAGES/duo-capture.mo", "\(directory)/de.po"], timeout: 60)
    XCTAssertEqual(msgfmt.status, 0, msgfmt.stderr)
}

/// Issue 41: the phone remote in the phone's language, the report in the operator's.
final class TranslatedWebTests: XCTestCase {
    /// One run with the Chinese catalogue installed, one headless Chromium: the page opened by an English
    /// phone is English, by a Chinese one (Accept-Language: zh-CN) Chinese (its lang, title, header,
    /// buttons, the shot's place and the last take's line; the shot list's own words as written), no box
    /// moves between English, Chinese and a language 40 % longer (a test-only pseudo-German) or between
    /// idle and REC, and a browser without the token is refused in its language.
    func testThePhonePageFollowsThePhonesLanguage() throws {
        let dir = try scratchDirectory(self)
        try Data(RemoteShotsTests.shots.utf8).write(to: URL(fileURLWithPath: dir + "/shots.md"))
        let locale = try compiledLocaleDirectory(self)
        try addPseudoGerman(to: locale)
        let remote = try RemoteRun(self, extra: ["--shots", dir + "/shots.md"], osc: false,
                                   environment: ["DUO_CAPTURE_LOCALEDIR": locale, "LANGUAGE": "", "LANG": "C.UTF-8"])
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/remote-language.py").path
        let python = try runToEnd(URL(fileURLWithPath: "/usr/bin/python3"),
                                  [fixture, "http://127.0.0.1:\(remote.webPort)/?token=\(remote.token)", remote.socketPath], timeout: 120)
        XCTAssertEqual(python.status, 0, python.stderr + remote.run.stderr)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any], python.stderr)
        let en = try XCTUnwrap(result["en"] as? [String: Any], "\(result)")
        let zh = try XCTUnwrap(result["zh"] as? [String: Any], "\(result)")
        let enIdle = try XCTUnwrap(en["idle"] as? [String: String]), zhIdle = try XCTUnwrap(zh["idle"] as? [String: String])

        XCTAssertEqual(en["lang"] as? String, "en")
        XCTAssertEqual(en["title"] as? String, "duo-capture remote")
        XCTAssertEqual(enIdle["record"], "● Record")
        XCTAssertEqual(enIdle["rec"], "IDLE")
        XCTAssertEqual(enIdle["shot-place"], "shot 1 of 2 · 0 takes · next 08", "\(enIdle)")
        XCTAssertEqual((en["recording"] as? [String: String])?["rec"], "REC")
        XCTAssertEqual(en["lastTake"] as? String, "last take: shot 07 take 1 (1) · not marked")

        XCTAssertEqual(zh["lang"] as? String, "zh-CN")
        XCTAssertEqual(zh["title"] as? String, "duo-capture 遥控")
        XCTAssertEqual(zhIdle["rec"], "待机")
        XCTAssertEqual(zhIdle["link"], "已连接")
        XCTAssertEqual(zhIdle["record"], "● 录制")
        XCTAssertEqual(zhIdle["pause"], "暂停 / 继续")
        XCTAssertEqual(zhIdle["good"], "✓ 好")
        // The list's own words stay as written; the page's words around them are Chinese.
        XCTAssertEqual(zhIdle["shot-title"], "07 · Harbour at dawn")
        // (The English phone's take is counted: 0 or 1 while the snapshot arrives.)
        let place = zhIdle["shot-place"] ?? ""
        XCTAssertTrue(place.hasPrefix("镜头 1/2 · ") && place.hasSuffix(" 条 · 下一个 08"), place)
        for id in ["rec", "link", "record", "pause", "cancel", "slower", "faster", "marker-previous", "marker-next",
                   "shot-previous", "shot-next", "last-take", "good", "no-good"] {
            let shown = zhIdle[id] ?? ""
            XCTAssertNil(shown.range(of: "[A-Za-z]", options: .regularExpression), "#\(id) is not Chinese: \(shown)")
        }
        let recording = try XCTUnwrap(zh["recording"] as? [String: String])
        XCTAssertEqual(recording["rec"], "录制中")
        XCTAssertEqual(recording["record"], "■ 停止")
        XCTAssertTrue((zh["lastTake"] as? String ?? "").hasPrefix("上一条：镜头 07 第 "), "\(zh)")
        XCTAssertTrue((zh["lastTake"] as? String ?? "").hasSuffix("· 未标记"), "\(zh)")

        // The long-word language is shown (its own words, 40 % longer).
        let de = try XCTUnwrap(result["de"] as? [String: Any], "\(result)")
        XCTAssertEqual(de["lang"] as? String, "de")
        XCTAssertTrue((de["idle"] as? [String: String])?["cancel"]?.hasPrefix("Cancel countdown ääää") ?? false, "\(de)")

        // No box moves with the language or the state.
        let layout = try XCTUnwrap(en["layoutIdle"] as? [[Any]]).map { "\($0)" }
        for (name, seen) in [("en", en), ("zh", zh), ("de", de)] {
            for state in ["layoutIdle", "layoutRecording", "layoutAfter"] {
                XCTAssertEqual(try XCTUnwrap(seen[state] as? [[Any]]).map { "\($0)" }, layout, "\(name) \(state): the boxes moved")
            }
            XCTAssertEqual(seen["clipped"] as? [String], [], "\(name): text bigger than its box")
        }
        let refusal = try XCTUnwrap(result["refusal"] as? [String: String])
        XCTAssertTrue(refusal["en"]?.contains("this remote needs its token") ?? false, "\(refusal)")
        XCTAssertTrue(refusal["zh"]?.contains("这个遥控需要它的令牌") ?? false, "\(refusal)")
        XCTAssertEqual(refusal["zhHost"], "403 duo-capture：已拒绝：Host evil.example 不是这个遥控服务的地址（请打开启动时打印的地址）\n")
        XCTAssertEqual(remote.quit(try ControlClient(path: remote.socketPath)), 0, remote.run.stderr)
    }

    /// `duo-capture report DIR` with LANGUAGE=zh_CN writes a Chinese report (its lang, headings, badges and
    /// notes; the shot list's titles and file names as written), and `report --json` is byte for byte the
    /// English one (also a damaged take's reason).
    func testTheReportIsInTheOperatorsLanguageAndItsJSONIsNot() throws {
        let dir = try scratchDirectory(self), takes = dir + "/takes"
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        let launch = try runToEnd(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), [
            "-q", "videotestsrc", "num-buffers=20", "!", "video/x-raw,width=320,height=240,framerate=30/1", "!", "x264enc", "!",
            "matroskamux", "!", "filesink", "location=\(takes)/take-001.mkv"], timeout: 60)
        XCTAssertEqual(launch.status, 0, launch.stderr)
        // A take that does not decode: its "damaged" reason is in the JSON too.
        try Data(repeating: 0x5a, count: 4096).write(to: URL(fileURLWithPath: takes + "/take-002.mkv"))
        try Data(RemoteShotsTests.shots.utf8).write(to: URL(fileURLWithPath: dir + "/shots.md"))
        let locale = try compiledLocaleDirectory(self)
        var html: [String: String] = [:], json: [String: String] = [:]
        for (name, language) in [("en", ""), ("zh", "zh_CN")] {
            let run = try duoCapture(["report", takes, "--json", "--shots", dir + "/shots.md"],
                                     environment: ["DUO_CAPTURE_LOCALEDIR": locale, "LANGUAGE": language, "LANG": "C.UTF-8", "LC_ALL": ""])
            XCTAssertEqual(run.status, 0, run.stderr)
            json[name] = run.stdout
            html[name] = try String(contentsOfFile: takes + "/report.html", encoding: .utf8)
        }
        XCTAssertEqual(json["zh"], json["en"], "report --json is machine-read: the same in every language")
        XCTAssertTrue(json["en"]?.contains(#""neverRecorded""#) ?? false, json["en"] ?? "")
        XCTAssertTrue(json["en"]?.contains(#""damaged" : ""#) ?? false, json["en"] ?? "")
        let en = html["en"] ?? "", zh = html["zh"] ?? ""
        for words in ["<html lang=\"en\">", "duo-capture session", "never recorded", "Takes without a shot", "no sound in this take",
                      "Shot 07 — Harbour at dawn"] {
            XCTAssertTrue(en.contains(words), "English report without \(words)")
        }
        for words in ["<html lang=\"zh-CN\">", "duo-capture 拍摄记录", "从未录制", "已损坏：", "不属于任何镜头的条目", "这一条没有声音", "2 条",
                      "镜头 07 — Harbour at dawn", "镜头 08 — The long road home", "take-001.mkv"] {
            XCTAssertTrue(zh.contains(words), "Chinese report without \(words)")
        }
        for words in ["never recorded", "Takes without a shot", "no sound in this take", "dropped frames"] {
            XCTAssertFalse(zh.contains(words), "Chinese report still says \(words)")
        }
    }
}
