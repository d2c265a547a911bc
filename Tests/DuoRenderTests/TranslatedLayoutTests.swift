import DuoCore
import Foundation
import XCTest
@testable import DuoRender

/// Issue 41: layout that survives translation. Every marked string is made 40 % longer with accented
/// letters (a pseudo-translation made here from po/duo-capture.pot, compiled by msgfmt), and the shipped
/// Chinese is tried too: the subject's hint, cue, shot card and recording light, and the HUD's lines, stay
/// inside their boxes (no ink on a box's edge, where a clipped glyph would be cut).
final class TranslatedLayoutTests: XCTestCase {
    private static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The pseudo-translation of one msgid as the .pot writes it (C escapes kept): letters accented,
    /// `%s`/`%1$d`/`%%` and escapes untouched, then 40 % more accented letters glued to the last word.
    static func pseudo(_ escaped: String) -> String {
        let accents: [Character: Character] = ["a": "á", "e": "é", "i": "î", "o": "ö", "u": "ü", "c": "ç", "n": "ñ", "s": "š", "y": "ý",
                                                "A": "Å", "E": "É", "I": "Î", "O": "Ö", "U": "Ü", "C": "Ç", "N": "Ñ", "S": "Š", "T": "Ŧ"]
        var out = "", chars = Array(escaped), i = 0, letters = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count { out.append(c); out.append(chars[i + 1]); i += 2; continue }
            if c == "%" {
                var j = i + 1
                while j < chars.count, chars[j].isNumber || chars[j] == "$" { j += 1 }
                if j < chars.count { out += String(chars[i...j]); i = j + 1; continue }
            }
            out.append(accents[c] ?? c)
            if c.isLetter { letters += 1 }
            i += 1
        }
        let extra = Int((Double(escaped.count) * 0.4).rounded(.up))
        let filler = Array("ŵéäöüßñçÅÉ")
        return out + String((0..<extra).map { filler[$0 % filler.count] })
    }

    /// A locale folder with `xx` (the pseudo-translation of every msgid of po/duo-capture.pot) and zh_CN.
    static func locales() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-layout-\(UUID().uuidString)")
        let pot = try String(contentsOf: root.appendingPathComponent("po/duo-capture.pot"), encoding: .utf8)
        var po = "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\n"
        // Entries: msgid (and msgid_plural), each possibly continued on "…" lines.
        var id: String?, plural: String?, field = ""
        func flush() {
            if let id, !id.isEmpty {
                po += "msgid \"\(id)\"\n"
                if let plural {
                    po += "msgid_plural \"\(plural)\"\nmsgstr[0] \"\(pseudo(id))\"\nmsgstr[1] \"\(pseudo(plural))\"\n\n"
                } else {
                    po += "msgstr \"\(pseudo(id))\"\n\n"
                }
            }
            id = nil; plural = nil; field = ""
        }
        func quoted(_ line: Substring) -> String { String(line.drop { $0 != "\"" }.dropFirst().dropLast()) }
        for line in pot.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgid_plural ") { plural = quoted(line); field = "plural" }
            else if line.hasPrefix("msgid ") { flush(); id = quoted(line); field = "id" }
            else if line.hasPrefix("msgstr") { field = "" }
            else if line.hasPrefix("\"") {
                if field == "id" { id! += quoted(line) } else if field == "plural" { plural! += quoted(line) }
            }
        }
        flush()
        let source = dir.appendingPathComponent("xx.po")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try po.write(to: source, atomically: true, encoding: .utf8)
        for (name, file) in [("xx", source), ("zh_CN", root.appendingPathComponent("po/zh_CN.po"))] {
            let mo = dir.appendingPathComponent("\(name)/LC_MESSAGES/duo-capture.mo")
            try FileManager.default.createDirectory(at: mo.deletingLastPathComponent(), withIntermediateDirectories: true)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
            p.arguments = ["-o", mo.path, file.path]
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "msgfmt \(file.lastPathComponent)")
        }
        return dir
    }

    /// The key list's texts: the msgids po/duo-capture.pot has from DesktopKeys.swift.
    static func keyHelpMsgids() throws -> [String] {
        let pot = try String(contentsOf: root.appendingPathComponent("po/duo-capture.pot"), encoding: .utf8)
        var fromKeys = false, out: [String] = []
        for line in pot.split(separator: "\n") {
            if line.hasPrefix("#:") { fromKeys = line.contains("DesktopKeys.swift") }
            else if fromKeys, line.hasPrefix("msgid \""), line.count > 8 {
                out.append(String(line.dropFirst(7).dropLast()).replacingOccurrences(of: "\\\"", with: "\""))
            }
        }
        return out
    }

    /// Pixels of `image` on its outermost rows and columns that differ from its backdrop (the middle of
    /// its left edge), the rounded corners left out: a glyph cut by the box's edge leaves ink there.
    private func inkOnEdges(_ image: CairoImage) -> Int {
        let b = image.packedBytes(), w = image.width, h = image.height
        let r = min(w, h) / 4 + 1, ref = (h / 2 * w) * 4
        func differs(_ x: Int, _ y: Int) -> Bool {
            let i = (y * w + x) * 4
            return (0..<4).contains { abs(Int(b[i + $0]) - Int(b[ref + $0])) > 60 }
        }
        var n = 0
        for y in 0..<h { for x in 0..<w where x == 0 || x == w - 1 || y == 0 || y == h - 1 {
            let corner = (x < r || x >= w - r) && (y < r || y >= h - r)
            if !corner, differs(x, y) { n += 1 }
        } }
        return n
    }

    func testTheSubjectsWordsStayInsideTheirBoxesLongAndInChinese() throws {
        let dir = try Self.locales()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shot = try XCTUnwrap(ShotList.load(path: Checkout.path("Assets/example-shots.md")).shots.first).subject
        for language in ["en", "xx", "zh_CN"] {
            let t = try SubjectLanguage.translator(language, localeDirectory: dir.path, operatorLanguage: .english)
            XCTAssertEqual(t.text("a little closer") == "a little closer", language == "en", "\(language) is read")
            for recording in [false, true] {
                var s = PrompterSessionState(accessory: .countdown, aspect: AspectRatio(16, 9))
                s.framingHints = [PersonHint(person: .left, hint: .raiseCamera), PersonHint(person: .right, hint: .closer)]
                s.cue = .preset(.lens)
                s.talentClock = TalentClock(items: TalentClock.Item.allCases)
                s.shot = recording ? nil : shot
                s.recordingStartedAt = recording ? 0 : nil
                let vm = SubjectViewModel.whitelisted(from: s)
                for (w, h) in [(1280, 720), (720, 1280), (1920, 1080)] {
                    let scene = SubjectScene(viewModel: vm, width: w, height: h, format: .argb, language: t)
                    if let out = ProcessInfo.processInfo.environment["DUO_LAYOUT_PNG"] {
                        try SubjectRenderer.render(scene, at: 1_000_000_000).writePNG(to: "\(out)/subject-\(language)-\(w)x\(h)-\(recording).png")
                    }
                    let at = "\(language) \(w)x\(h) recording \(recording)"
                    // The boxes with a backdrop around their words (the recording light has none: it is
                    // its words, sized to them, and only has to be on the monitor whole).
                    var sprites: [(String, CairoImage)] = [("hint", try XCTUnwrap(scene.framingHintLabel, at)),
                                                           ("cue", try XCTUnwrap(scene.cueLabel, at))]
                    if !recording { sprites.append(("shot card", try XCTUnwrap(scene.shotCard, at))) }
                    for (name, image) in sprites {
                        XCTAssertEqual(inkOnEdges(image), 0, "\(name) \(at): the words reach the edge of their box")
                        XCTAssertLessThanOrEqual(image.width, w, "\(name) \(at) is wider than the monitor")
                    }
                    // Each drawn whole on the monitor, the recording light too, and none over another.
                    sprites.append(("recording light", scene.recordingLabel))
                    var placed: [(String, FrameRect)] = []
                    for item in scene.items(at: 1_000_000_000) {
                        guard case .sprite(let image, let x, let y) = item, let name = sprites.first(where: { $0.1 === image })?.0 else { continue }
                        XCTAssertTrue(x >= 0 && y >= 0 && x + image.width <= w && y + image.height <= h, "\(at): the \(name) at \(x),\(y) leaves the monitor")
                        let box = FrameRect(x: Double(x), y: Double(y), width: Double(image.width), height: Double(image.height))
                        // (A cue over the recording light on a portrait monitor is as old as cues, English too:
                        // left to the cues' own layout.)
                        for (other, was) in placed where Set([name, other]) != ["cue", "recording light"] {
                            XCTAssertFalse(box.intersects(was), "\(at): the \(name) covers the \(other)")
                        }
                        placed.append((name, box))
                    }
                    // The talent's clock, its labels in the subject's language, on the monitor whole.
                    if recording {
                        let clock = try XCTUnwrap(scene.talentClockBox(at: 1_000_000_000), at).box
                        XCTAssertTrue(clock.minX >= 0 && clock.minY >= 0 && clock.maxX <= Double(w) && clock.maxY <= Double(h), "\(at): the talent clock \(clock)")
                    }
                    // The hint stays large enough to read from the subject's place: at least half the
                    // size it has in English.
                    let english = SubjectScene(viewModel: vm, width: w, height: h, format: .argb)
                    let lines = scene.framingHintLabel!.height > english.framingHintLabel!.height * 3 / 2 ? 2 : 1
                    XCTAssertGreaterThanOrEqual(scene.framingHintLabel!.height * 2, english.framingHintLabel!.height * lines, "\(at): the hint is made too small")
                }
            }
        }
    }

    func testTheHudsLinesStayInsideThePanelLongAndInChinese() throws {
        let dir = try Self.locales()
        defer { try? FileManager.default.removeItem(at: dir); Translation.use(.english) }
        var hud = HudModel()
        hud.cameraLabel = "inner"
        hud.format = "1280x720@30"
        hud.videoWidth = 1280
        hud.videoHeight = 720
        hud.recording = true
        hud.takeNumber = 12
        hud.elapsedSeconds = 754
        hud.scriptProgress = 0.4
        hud.secondsLeft = 75
        hud.speed = "160 wpm"
        hud.scrollReversed = true
        hud.mirrored = true
        hud.takeFile = "take-012.mkv"
        hud.shot = "shot 03 Logout  (3/5)  2 takes"
        hud.notes = ["smile"]
        hud.framing = "interview"
        hud.framingHint = "right: a little closer"
        hud.audioPeakDB = -12
        hud.soundNote = "no sound"
        hud.enabled = true
        hud.reasons = [.operatorNotFullscreen, .noSubjectMonitor]
        hud.previewFps = 30
        hud.cameraFps = 60
        hud.subjectSkipped = 3
        for language in ["xx", "zh_CN"] {
            let t = try SubjectLanguage.translator(language, localeDirectory: dir.path, operatorLanguage: .english)
            Translation.use(t)
            hud.fullscreenNotice = tr(FullscreenLeave.notice)
            for (w, h) in [(1280, 720), (1920, 1080)] {
                let image = HudRenderer.image(hud, width: w, height: h)
                if let out = ProcessInfo.processInfo.environment["DUO_LAYOUT_PNG"] { try image.writePNG(to: "\(out)/hud-\(language)-\(w)x\(h).png") }
                let panel = HudRenderer.boxes(hud, width: w, height: h).panel
                let bytes = image.packedBytes()
                func ink(_ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> Int {
                    var n = 0
                    for y in max(0, y0)..<min(h, y1) { for x in max(0, x0)..<min(w, x1) {
                        let i = (y * w + x) * 4
                        if max(bytes[i], bytes[i + 1], bytes[i + 2]) > 160 { n += 1 }
                    } }
                    return n
                }
                let at = "\(language) \(w)x\(h)"
                let (x0, y0) = (Int(panel.x.rounded(.up)), Int(panel.y.rounded(.up)))
                let (x1, y1) = (Int((panel.x + panel.width).rounded(.down)), Int((panel.y + panel.height).rounded(.down)))
                XCTAssertGreaterThan(ink(x0, x1, y0, y1), 2000, "\(at): the panel has its text")
                // The panel's bottom and right edges: a line cut by the panel's clip would leave ink there.
                XCTAssertEqual(ink(x0, x1, y1 - 3, y1), 0, "\(at): a line is cut at the panel's bottom")
                XCTAssertEqual(ink(x1 - 3, x1, y0, y1), 0, "\(at): a line runs into the panel's right edge")
                // The key list (the ? key), every key of the operator window: its card, which holds every
                // row it lays out, stays on the screen.
                var keys = hud
                keys.keyHelp = try Self.keyHelpMsgids().map { KeyHelp(key: "PgUp / PgDn", does: tr($0)) }
                XCTAssertGreaterThan(keys.keyHelp!.count, 15)
                let card = try XCTUnwrap(HudRenderer.boxes(keys, width: w, height: h).keys)
                XCTAssertTrue(card.x >= 0 && card.y >= 0 && card.x + card.width <= Double(w) && card.y + card.height <= Double(h),
                              "\(at): the key list \(card) leaves the screen")
                if let out = ProcessInfo.processInfo.environment["DUO_LAYOUT_PNG"] {
                    try HudRenderer.image(keys, width: w, height: h).writePNG(to: "\(out)/keys-\(language)-\(w)x\(h).png")
                }
            }
        }
    }
}
