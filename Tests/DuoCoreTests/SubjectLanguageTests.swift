import DuoCore
import Foundation
import XCTest

/// Issue 41, the screens: the subject view's own words come from the subject's language
/// (`--subject-language`, read from the installed catalogue), the HUD's from the operator's, and the
/// script's and shot list's text from neither. The shipped po/zh_CN.po is compiled by msgfmt here, as
/// install.sh compiles it.
final class SubjectLanguageTests: XCTestCase {
    /// A locale folder holding the shipped Chinese catalogue (zh_CN/LC_MESSAGES/duo-capture.mo).
    static func chineseLocaleDirectory() throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-subject-language-\(UUID().uuidString)")
        let mo = dir.appendingPathComponent("zh_CN/LC_MESSAGES/duo-capture.mo")
        try FileManager.default.createDirectory(at: mo.deletingLastPathComponent(), withIntermediateDirectories: true)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        p.arguments = ["--check", "-o", mo.path, root.appendingPathComponent("po/zh_CN.po").path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "msgfmt --check po/zh_CN.po")
        return dir
    }

    private static func isChinese(_ s: String) -> Bool {
        s.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }
    }

    func testTheSubjectsWordsAreInTheSubjectsLanguageAndTheScriptsAsWritten() throws {
        let dir = try Self.chineseLocaleDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let zh = try SubjectLanguage.translator("zh-CN", localeDirectory: dir.path, operatorLanguage: .english)
        XCTAssertEqual(zh.language, "zh_CN")
        // Every hint, cue preset and the standby line: Chinese, none left in English.
        for hint in FramingHint.allCases {
            let shown = hint.text(in: zh)
            XCTAssertTrue(Self.isChinese(shown), "\(hint.rawValue) → \(shown)")
            XCTAssertEqual(hint.text, hint.rawValue, "events keep the English words")
        }
        XCTAssertEqual(FramingHint.moveLeft.text(in: zh), "向左移")
        XCTAssertEqual(PersonHint(person: .right, hint: .closer).text(in: zh), "右边的人：再近一点")
        XCTAssertEqual(PersonHint(person: .right, hint: .closer).text, "right: a little closer")
        for preset in CuePreset.allCases {
            XCTAssertTrue(Self.isChinese(SubjectCue.preset(preset).text(in: zh)), preset.rawValue)
        }
        // A free-text cue is the operator's own words: as written.
        XCTAssertEqual(try SubjectCue.text("smile").text(in: zh), "smile")
        var session = PrompterSessionState(accessory: .teleprompter)
        session.framingHints = [PersonHint(person: nil, hint: .stepBack)]
        let curtain = CurtainModel.whitelisted(from: .whitelisted(from: session), language: zh)
        XCTAssertEqual(curtain.text, "准备中 · 提词器")
        XCTAssertEqual(CurtainModel.whitelisted(from: .whitelisted(from: session)).text, "standing by · teleprompter")

        // en is English whatever the operator reads; no option is the operator's language.
        XCTAssertEqual(try SubjectLanguage.translator("en", localeDirectory: dir.path, operatorLanguage: zh).text("move left"), "move left")
        XCTAssertEqual(try SubjectLanguage.translator(nil, localeDirectory: dir.path, operatorLanguage: zh).language, "zh_CN")
        // A language with no catalogue: one line naming the installed ones.
        XCTAssertThrowsError(try SubjectLanguage.translator("fr", localeDirectory: dir.path, operatorLanguage: .english)) { error in
            let line = "\(error)"
            XCTAssertTrue(line.contains("--subject-language fr") && line.contains("en, zh_CN"), line)
            XCTAssertFalse(line.contains("\n"), line)
        }
        var setup = SubjectSetup()
        var reader = OptionReader(["--subject-language", "zh_CN"], help: "")
        XCTAssertTrue(try setup.apply(reader.next()!, from: &reader))
        try setup.resolveLanguage(localeDirectory: dir.path, operatorLanguage: .english)
        XCTAssertEqual(setup.language.text("no one in frame"), "画面里没有人")
    }

    /// The HUD in the operator's language: every line of a recording, a shot list and a framing session
    /// in Chinese, with the camera's name, the take's file and the notes as they are.
    func testTheHudIsInTheOperatorsLanguage() throws {
        let dir = try Self.chineseLocaleDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let zh = try SubjectLanguage.translator("zh_CN", localeDirectory: dir.path, operatorLanguage: .english)
        var hud = HudModel()
        hud.cameraLabel = "inner"
        hud.format = "1280x720@30"
        hud.recording = true
        hud.takeNumber = 3
        hud.elapsedSeconds = 12
        hud.scriptProgress = 0.4
        hud.secondsLeft = 75
        hud.scrollPaused = true
        hud.takeFile = "take-003.mkv"
        hud.notes = ["smile"]
        hud.framing = "single"
        hud.audioPeakDB = -12
        hud.enabled = true
        hud.available = false
        hud.reasons = [.operatorNotFullscreen]
        let english = hud.lines
        Translation.use(zh)
        defer { Translation.use(.english) }
        let lines = hud.lines
        XCTAssertEqual(lines.count, english.count)
        for (line, was) in zip(lines, english) {
            XCTAssertTrue(Self.isChinese(line), "\(was) → \(line)")
        }
        XCTAssertEqual(lines[0], "● 录制中  第 3 条  0:12")
        XCTAssertTrue(lines.contains("已保存 take-003.mkv"), "\(lines)")
        XCTAssertTrue(lines.contains("备注：smile"), "the note as written: \(lines)")
        XCTAssertTrue(lines.contains { $0.contains("操作员窗口没有全屏（F11）") }, "\(lines)")
        let panel = hud.panel
        XCTAssertEqual(panel.headline.text, "● 录制中  0:12")
        XCTAssertEqual(panel.facts, "第 3 条  ·  剩 1:15")
        XCTAssertNotNil(panel.meterRow, "the meter finds its line in Chinese too")
        XCTAssertTrue(Self.isChinese(OperatorControl.record.tooltip), OperatorControl.record.tooltip)
    }
}
