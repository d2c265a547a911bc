import DuoCore
import Foundation
import XCTest

/// Notes and flags (issue 39) as pure values: the command's JSON and OSC forms, the code book, where a
/// note belongs and at what time, and the exports' frames, markers, EDL and CSV.
final class TakeNotesTests: XCTestCase {
    func testTheCommandsAndTheirErrors() throws {
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"note","code":"BUG","text":"menu hides the button"}"#),
                       .note(code: "BUG", text: "menu hides the button"))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"note","text":"no code"}"#), .note(code: nil, text: "no code"))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"flag"}"#), .flag)
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"note","text":""# + String(repeating: "é", count: 500) + #""}"#),
                       .note(code: nil, text: String(repeating: "é", count: 500)))
        for bad in [#"{"cmd":"note"}"#, #"{"cmd":"note","text":3}"#, #"{"cmd":"note","code":7,"text":"a"}"#,
                    #"{"cmd":"note","text":""# + String(repeating: "a", count: 501) + #""}"#] {
            XCTAssertThrowsError(try ControlCommand.parse(bad)) { error in
                let message = (error as? DuoError)?.message ?? ""
                XCTAssertFalse(message.contains("\n"), message)
                XCTAssertTrue(message.hasPrefix("control: note"), message)
            }
        }
        // The web remote and OSC send both; OSC's note takes the code and the text.
        XCTAssertEqual(try WebRemoteCommands.parse(json: #"{"cmd":"flag"}"#), .flag)
        XCTAssertEqual(try WebRemoteCommands.osc(OSCMessage("/duo/note", [.string("Q"), .string("what is this?")])),
                       .command(.note(code: "Q", text: "what is this?")))
        XCTAssertEqual(try WebRemoteCommands.osc(OSCMessage("/duo/flag", [])), .command(.flag))
        XCTAssertThrowsError(try WebRemoteCommands.osc(OSCMessage("/duo/note", [.string("only a code")])))
    }

    func testTheCodeBookAndWhereANoteBelongs() throws {
        XCTAssertEqual(NoteCodeBook.standard.codes, ["BUG", "Q", "GOOD", "PII"])
        XCTAssertEqual(try NoteCodeBook.parse(" bug, ux ,Q").codes, ["BUG", "UX", "Q"])
        for bad in ["", "BUG,,Q", "BUG,BUG", "FLAG", "with space", String(repeating: "A", count: 17)] {
            XCTAssertThrowsError(try NoteCodeBook.parse(bad), bad)
        }
        var book = NoteBook()
        let wall = Date(timeIntervalSince1970: 1_800_000_000)
        // In a take started at 5 s (running time), 7.2345 s in: 2.235 s into the take (to the ms).
        let inTake = try book.make(flag: false, code: "pii", text: "email on screen", at: 7_234_500_000, wall: wall,
                                   take: (3, 5_000_000_000), shot: "02")
        XCTAssertEqual(inTake, TakeNote(kind: "note", take: 3, atSeconds: 2.235, wall: TakeSidecar.timestamp(wall), shot: "02",
                                        code: "PII", text: "email on screen"))
        let between = try book.make(flag: false, code: nil, text: "", at: 9_000_000_000, wall: wall, take: nil, shot: nil)
        XCTAssertEqual(between.code, "BUG")
        XCTAssertNil(between.take)
        XCTAssertNil(between.atSeconds)
        let flag = try book.make(flag: true, code: nil, text: "ignored", at: 6_000_000_000, wall: wall, take: (3, 5_000_000_000), shot: nil)
        XCTAssertEqual(flag.title, "FLAG")
        XCTAssertEqual(flag.atSeconds, 1)
        XCTAssertThrowsError(try book.make(flag: false, code: "NOPE", text: "x", at: 0, wall: wall, take: nil, shot: nil)) {
            XCTAssertEqual(($0 as? DuoError)?.message, "note: unknown code \"NOPE\"; use one of BUG, Q, GOOD, PII (set them with --note-codes)")
        }
        XCTAssertEqual(book.notes(ofTake: 3).map(\.code), ["PII", "FLAG"])
        XCTAssertEqual(TakeChapter.of(take: 3, shot: "02", notes: book.notes),
                       [.init(atSeconds: 0, title: "Take 3 · shot 02"), .init(atSeconds: 1, title: "FLAG"),
                        .init(atSeconds: 2.235, title: "PII: email on screen")])
        // Script headings passed join the chapters in time order, after the take's start.
        XCTAssertEqual(TakeChapter.of(take: 3, shot: nil, notes: book.notes(ofTake: 3),
                                      headings: [.init(title: "Intro", atSeconds: 0.5), .init(title: "Pay", atSeconds: 2.0)]).map(\.title),
                       ["Take 3", "§ Intro", "FLAG", "§ Pay", "PII: email on screen"])
        // The session file's lines read back; a damaged line is counted, not fatal.
        var file = inTake.jsonLine + Data("\n{broken\n".utf8) + between.jsonLine
        file.append(10)
        let read = TakeNote.readSession(file)
        XCTAssertEqual(read.notes, [inTake, between])
        XCTAssertEqual(read.unreadable, 1)
    }

    /// A take at 25 fps and one at 30000/1001: notes land on the nearest frame at each take's own rate.
    func testExportsAreFrameAccurateAtEachTakesRate() throws {
        func take(_ n: Int, format: String, frames: Int64, notes: [(Double, String, String)], mark: String? = nil) -> TakeExport.Take {
            var s = TakeSidecar(toolVersion: "t", gstreamerVersion: "g", take: n, file: "duo-take0\(n).mkv", started: Date(timeIntervalSince1970: Double(n)),
                                countdownSeconds: 0, cameras: [], format: format, aspect: nil, encoder: "x264enc", container: "matroskamux", audio: nil)
            s.frames = frames
            s.mark = mark
            s.notes = notes.map { TakeNote(kind: $0.1 == "FLAG" ? "flag" : "note", take: n, atSeconds: $0.0, wall: "w", shot: nil, code: $0.1, text: $0.2) }
            return TakeExport.Take(path: "/takes/duo-take0\(n).mkv", sidecar: s)
        }
        let a = take(1, format: "640x360@25", frames: 250, notes: [(1.019, "BUG", "x, \"y\""), (3.0, "FLAG", "")], mark: "good")
        let b = take(2, format: "640x360@30000/1001", frames: 300, notes: [(2.0, "Q", "line\nbreak")])
        XCTAssertEqual(TakeExport.markers(a).map(\.frame), [25, 75, 249])
        XCTAssertEqual(TakeExport.markers(b).map(\.frame), [60])   // 2 s × 29.97 = 59.94
        let edl = TakeExport.edl([a, b], title: "t")
        XCTAssertTrue(edl.contains("001  TAKE01   V     C        00:00:00:00 00:00:10:00 01:00:00:00 01:00:10:00\n"), edl)
        XCTAssertTrue(edl.contains("* LOC: 01:00:01:00 RED     BUG: x, \"y\"\n"), edl)
        // Take 2 at 25 fps in the EDL: 300 frames at 29.97 are 250 frames; its note 60 → 50 frames in.
        XCTAssertTrue(edl.contains("002  TAKE02   V     C        00:00:00:00 00:00:10:00 01:00:10:00 01:00:20:00\n"), edl)
        XCTAssertTrue(edl.contains("* LOC: 01:00:12:00 YELLOW  Q: line break\n"), edl)
        let csv = TakeExport.csv([a, b], session: [TakeNote(kind: "note", take: nil, atSeconds: nil, wall: "w0", shot: "01", code: "GOOD", text: "ok")])
        XCTAssertEqual(csv.components(separatedBy: "\r\n"), [
            "take,time,code,text,shot,frame,wall,file", ",,GOOD,ok,01,,w0,",
            "1,1.000,BUG,\"x, \"\"y\"\"\",,25,w,duo-take01.mkv", "1,3.000,FLAG,,,75,w,duo-take01.mkv",
            "2,2.002,Q,\"line\nbreak\",,60,w,duo-take02.mkv", ""])
        let otio = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(TakeExport.otio([a, b], name: "s").utf8)) as? [String: Any])
        let clips = try XCTUnwrap(((otio["tracks"] as? [String: Any])?["children"] as? [[String: Any]])?.first?["children"] as? [[String: Any]])
        XCTAssertEqual(clips.count, 2)
        XCTAssertEqual((clips[1]["markers"] as? [[String: Any]])?.count, 1)
    }

    /// A replay (save-replay) in a shot session is no take of its shot: its reel, its first marker and its
    /// metadata say replay with the span, and the notes made in it are its markers.
    func testAReplayIsExportedAsAReplayWithItsNotes() throws {
        var s = TakeSidecar(toolVersion: "t", gstreamerVersion: "g", take: 1, file: "duo-shot02-replay01.mkv", started: Date(timeIntervalSince1970: 5),
                            countdownSeconds: 0, cameras: [], format: "640x360@30", aspect: nil, encoder: "x264enc", container: "matroskamux", audio: nil)
        s.frames = 240
        s.shot = "02"
        s.replay = .init(bufferSeconds: 8, spanStart: "2026-12-02T12:41:51Z", spanEnd: "2026-12-02T12:41:59Z")
        s.replay?.notes = [TakeNote(kind: "note", take: nil, atSeconds: 6.5, wall: "w", shot: "02", code: "Q", text: "missed it")]
        let r = TakeExport.Take(path: "/takes/duo-shot02-replay01.mkv", sidecar: s)
        XCTAssertEqual(TakeExport.markers(r).map(\.name), ["replay 1 (shot 02)", "Q: missed it"])
        XCTAssertEqual(TakeExport.markers(r).map(\.frame), [0, 195])
        let edl = TakeExport.edl([r], title: "t")
        XCTAssertTrue(edl.contains("001  REPLAY01 V     C        00:00:00:00 00:00:08:00 01:00:00:00 01:00:08:00\n"), edl)
        XCTAssertTrue(edl.contains("* LOC: 01:00:06:15 YELLOW  Q: missed it\n"), edl)
        let otio = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(TakeExport.otio([r], name: "s").utf8)) as? [String: Any])
        let clip = try XCTUnwrap(((otio["tracks"] as? [String: Any])?["children"] as? [[String: Any]])?.first?["children"] as? [[String: Any]])[0]
        let meta = try XCTUnwrap((clip["metadata"] as? [String: Any])?["duo-capture"] as? [String: Any])
        XCTAssertEqual(meta["replay"] as? [String: String], ["start": "2026-12-02T12:41:51Z", "end": "2026-12-02T12:41:59Z"])
    }
}
