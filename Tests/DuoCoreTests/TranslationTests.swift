import DuoCore
import Foundation
import XCTest

/// Issue 41's pure parts: the `%s` formatter, the `.mo` reader with its plural rule (a catalogue compiled
/// by msgfmt, as install.sh compiles them), and language names from the environment and from browsers.
final class TranslationTests: XCTestCase {
    func testArgumentsGoInOrderOrByNumberAndAPercentStaysWhenAsked() {
        XCTAssertEqual(Translator.format("cannot read %s: %s", ["a.md", "gone"]), "cannot read a.md: gone")
        XCTAssertEqual(Translator.format("%2$s 里的 %1$s", ["a.md", "takes"]), "takes 里的 a.md")
        XCTAssertEqual(Translator.format("%d %% done, %s", [40, "ok"]), "40 % done, ok")
        XCTAssertEqual(Translator.format("50 % left %s", ["x"]), "50 % left x", "a lone % is kept")
        XCTAssertEqual(Translator.format("%s and %s", ["one"]), "one and ", "a missing argument is empty, never a crash")
        XCTAssertEqual(Translator.english.text("50 % of %s"), "50 % of %s", "no arguments: the text as written")
    }

    func testPluralRulesOfSeveralLanguages() throws {
        let english = try PluralRule("(n != 1)")
        XCTAssertEqual([0, 1, 2, 5].map(english.form), [1, 0, 1, 1])
        let chinese = try PluralRule("0")
        XCTAssertEqual([0, 1, 2, 21].map(chinese.form), [0, 0, 0, 0])
        let russian = try PluralRule("(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)")
        XCTAssertEqual([1, 2, 5, 11, 21, 22, 25, 112].map(russian.form), [0, 1, 2, 2, 0, 1, 2, 2])
        let french = try PluralRule("n > 1")
        XCTAssertEqual([0, 1, 2].map(french.form), [0, 0, 1])
        XCTAssertThrowsError(try PluralRule("n ~ 1"))
        XCTAssertThrowsError(try PluralRule("(n != 1"))
    }

    /// A catalogue with a three-form plural rule, compiled by msgfmt, read back.
    func testACatalogueCompiledByMsgfmtIsReadWithItsPlurals() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-tr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let po = """
        msgid ""
        msgstr ""
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

        msgid "move left"
        msgstr "шаг влево"

        #, c-format
        msgid "%d take"
        msgid_plural "%d takes"
        msgstr[0] "%d дубль"
        msgstr[1] "%d дубля"
        msgstr[2] "%d дублей"

        msgid "not yet translated"
        msgstr ""

        """
        try po.write(to: dir.appendingPathComponent("ru.po"), atomically: true, encoding: .utf8)
        let mo = dir.appendingPathComponent("ru/LC_MESSAGES/duo-capture.mo")
        try FileManager.default.createDirectory(at: mo.deletingLastPathComponent(), withIntermediateDirectories: true)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        p.arguments = ["--check", "-o", mo.path, dir.appendingPathComponent("ru.po").path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "msgfmt (gettext, Scripts/install-deps.sh)")

        XCTAssertEqual(MessageCatalog.find("ru_RU.UTF-8", in: dir.path), mo.path, "ru_RU.UTF-8 falls back to ru")
        XCTAssertNil(MessageCatalog.find("de", in: dir.path))
        XCTAssertEqual(MessageCatalog.installed(in: dir.path), ["ru"])
        let t = Translator(catalog: try MessageCatalog(language: "ru", path: mo.path))
        XCTAssertEqual(t.text("move left"), "шаг влево")
        XCTAssertEqual(t.text("not yet translated"), "not yet translated", "an empty translation is English")
        XCTAssertEqual(t.text("never marked"), "never marked")
        XCTAssertEqual([1, 3, 5, 21].map { t.plural("%d take", "%d takes", $0, [$0]) }, ["1 дубль", "3 дубля", "5 дублей", "21 дубль"])
        XCTAssertEqual(Translator.english.plural("%d take", "%d takes", 1, [1]), "1 take")
        XCTAssertEqual(Translator.english.plural("%d take", "%d takes", 0, [0]), "0 takes")

        var damaged = Array(try Data(contentsOf: mo))
        damaged.removeLast(damaged.count / 2)
        XCTAssertThrowsError(try MessageCatalog(language: "ru", data: damaged)) { error in
            XCTAssertTrue("\(error)".contains("reinstall duo-capture"), "\(error)")
        }
        XCTAssertThrowsError(try MessageCatalog(language: "ru", data: Array("not a catalogue at all, no".utf8)))
    }

    func testLanguageNamesFromTheEnvironmentAndFromBrowsers() {
        XCTAssertEqual(LanguageTag.candidates("zh_CN.UTF-8"), ["zh_CN.UTF-8", "zh_CN", "zh"])
        XCTAssertEqual(LanguageTag.candidates("zh-cn"), ["zh_CN", "zh"])
        XCTAssertEqual(LanguageTag.candidates("sr_RS.UTF-8@latin"), ["sr_RS.UTF-8@latin", "sr_RS.UTF-8", "sr_RS", "sr"])
        XCTAssertEqual(LanguageTag.candidates("de"), ["de"])
        XCTAssertEqual(LanguageTag.accepted("en;q=0.5, zh-CN,zh;q=0.9,*;q=0.1,fr;q=0"), ["zh-CN", "zh", "en"])
        XCTAssertEqual(LanguageTag.accepted(""), [])
        XCTAssertTrue(LanguageTag.isEnglish("en-GB"))
        XCTAssertTrue(LanguageTag.isEnglish("C"))
        XCTAssertFalse(LanguageTag.isEnglish("zh_CN"))
    }
}
