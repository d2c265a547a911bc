import DuoCore
import Foundation
import XCTest

/// Issue 41: the phone page's words come from marked strings, in the phone's language.
final class WebRemotePageTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var template: String {
        (try? String(contentsOf: root.appendingPathComponent("Assets/remote/remote.html"), encoding: .utf8)) ?? ""
    }

    /// Every word the page can show is marked in WebRemotePage (so xgettext extracts it): its elements
    /// marked data-t, its script's t("…") and tn("…", "…"); and no element with words of its own lacks data-t.
    func testEveryWordOfThePageIsMarkedForTranslation() throws {
        let page = Self.template
        XCTAssertFalse(page.isEmpty)
        func matches(_ pattern: String, _ group: Int = 1) throws -> [String] {
            let regex = try NSRegularExpression(pattern: pattern)
            return regex.matches(in: page, range: NSRange(page.startIndex..., in: page)).compactMap {
                Range($0.range(at: group), in: page).map { String(page[$0]) }
            }
        }
        let elements = try matches(#"<[a-z]+ [^>]*\bdata-t\b[^>]*>([^<]*)<"#) + matches(#"<title data-t>([^<]*)<"#)
        let calls = try matches(#"\bt\("((?:[^"\\]|\\.)*)""#)
        let plurals = try matches(#"\btn\("((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)""#)
        XCTAssertGreaterThan(elements.count, 15, "\(elements)")
        XCTAssertGreaterThan(calls.count, 10, "\(calls)")
        let marked = Set(WebRemotePage.texts)
        for text in elements + calls { XCTAssertTrue(marked.contains(text), "the page shows \"\(text)\": add N_(\"\(text)\") to WebRemotePage.texts") }
        XCTAssertEqual(Set(plurals), Set(WebRemotePage.plurals.map(\.one)), "the page's plurals: add them to WebRemotePage.plurals")
        // An element showing words of its own (not filled by the script) carries data-t.
        let bare = try matches(#"<(?:button|span|div|title)\b(?![^>]*\bdata-t\b)[^>]*>([^<]*[A-Za-z][^<]*)<"#)
        XCTAssertEqual(bare, [], "elements with English words and no data-t")
    }

    /// The page for a Chinese phone: lang="zh-CN", the table holds the translations (and the plural's
    /// forms for every n), nothing in it can end the script element; for English: lang="en" and an
    /// empty table (the page keeps its words).
    func testThePageCarriesItsLanguageAndTable() throws {
        let words = ["● Record": "● 录制", "connected": "已连接 </script>", "%d take": "%d 条"]
        let chinese = Translator(language: "zh_CN.UTF-8", lookup: { words[$0] }, plural: { one, _ in words[one] })
        let page = WebRemotePage.html(Self.template, language: chinese)
        XCTAssertTrue(page.contains("<html lang=\"zh-CN\">"), String(page.prefix(200)))
        let json = try XCTUnwrap(page.components(separatedBy: "<script id=\"texts\" type=\"application/json\">").last?
            .components(separatedBy: "</script>").first)
        XCTAssertFalse(json.contains("</"), json)
        let table = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let texts = try XCTUnwrap(table["texts"] as? [String: String])
        XCTAssertEqual(texts["● Record"], "● 录制")
        XCTAssertEqual(texts["connected"], "已连接 </script>")
        XCTAssertNil(texts["IDLE"], "untranslated words are left to the page")
        let plural = try XCTUnwrap((table["plurals"] as? [String: Any])?["%d take"] as? [String: Any])
        XCTAssertEqual(plural["forms"] as? [String], ["%d 条"])
        XCTAssertEqual((plural["at"] as? [Int])?.count, 200)

        let english = WebRemotePage.html(Self.template, language: .english)
        XCTAssertTrue(english.contains("<html lang=\"en\">"))
        XCTAssertTrue(english.contains(#"<script id="texts" type="application/json">{"plurals":{},"texts":{}}</script>"#), english)
    }

    /// A phone's Accept-Language picks the first language with a catalogue (the real zh_CN one, compiled
    /// from po/zh_CN.po); English first, or no catalogue of any, is English.
    func testAcceptLanguagePicksAnInstalledCatalogue() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-web-languages-\(UUID().uuidString)").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/zh_CN/LC_MESSAGES", withIntermediateDirectories: true)
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        msgfmt.arguments = ["--check", "-o", "\(dir)/zh_CN/LC_MESSAGES/duo-capture.mo", Self.root.appendingPathComponent("po/zh_CN.po").path]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        XCTAssertEqual(msgfmt.terminationStatus, 0)
        let languages = WebRemoteLanguages(directory: dir)
        for header in ["zh-CN,zh;q=0.9,en;q=0.8", "fr-FR, zh-CN;q=0.5", "de;q=0.9, zh-cn"] {
            let phone = languages.translator(acceptLanguage: header)
            XCTAssertEqual(phone.language, "zh_CN", header)
            XCTAssertEqual(phone.text("● Record"), "● 录制", header)
            XCTAssertEqual(phone.plural("%d take", "%d takes", 3, [3]), "3 条", header)
        }
        for header in ["en-US,en;q=0.9,zh-CN;q=0.8", "de-DE", "", "zh-CN;q=0"] {
            XCTAssertTrue(languages.translator(acceptLanguage: header).isEnglish, header)
        }
        XCTAssertTrue(languages.translator(acceptLanguage: nil).isEnglish)
    }
}
