import Foundation
import XCTest
import DuoCore
@testable import DuoRender

final class RenderSubjectCommandTests: XCTestCase {
    private func error(_ arguments: [String]) -> DuoError? {
        do { _ = try RenderSubjectCommand.run(arguments: arguments); return nil } catch { return error }
    }

    func testBadOptionsAreOneLineUsageErrors() {
        let talk = Checkout.path("Assets/scripts/talk.md")
        let cases: [([String], String)] = [
            (["--script", talk, "--at", "1", "--out", "/tmp/x.png", "--speed", "3"], "unknown option '--speed'"),
            (["--script", talk, "--out", "/tmp/x.png"], "needs --at"),
            (["--script", talk, "--at", "1"], "needs --out"),
            (["--script", talk, "--at", "1", "--out", "/tmp/x.jpg"], "PNG"),
            (["--at", "1", "--out", "/tmp/x.png"], "needs --script"),
            (["--script", talk, "--at", "soon", "--out", "/tmp/x.png"], "--at soon"),
            (["--script", talk, "--at", "1", "--out", "/tmp/x.png", "--size", "12x480"], "--size 12x480"),
            (["--script", talk, "--at", "1", "--out", "/tmp/x.png", "--accessory", "banner"], "unknown accessory"),
            (["--script", talk, "--at", "1", "--out", "/tmp/x.png", "--aspect", "2:1"], "--aspect 2:1"),
            (["--script", talk, "--at", "1", "--out", "/tmp/x.png", "--countdown", "11"], "0 to 10"),
            (["--script", talk, "--at", "1", "--out", "/tmp/x.png", "--lines-per-minute", "10"], "use --wpm"),
            (["--script", talk, "--at"], "--at needs a value"),
        ]
        for (arguments, expected) in cases {
            let e = error(arguments)
            XCTAssertEqual(e?.kind, .usage, "\(arguments)")
            XCTAssertTrue(e?.message.contains(expected) ?? false, "\(arguments): \(e?.message ?? "no error")")
            XCTAssertFalse(e?.message.contains("\n") ?? true)
        }
    }

    func testBadScriptsAndProfilesAreInputErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-rs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("b.md").path
        XCTAssertTrue(FileManager.default.createFile(atPath: binary, contents: Data([0x7F, 0x45, 0x4C, 0x46, 0, 0, 0])))
        let badProfile = dir.appendingPathComponent("p.json").path
        XCTAssertTrue(FileManager.default.createFile(atPath: badProfile, contents: Data("{".utf8)))
        let out = dir.appendingPathComponent("o.png").path
        XCTAssertEqual(error(["--script", binary, "--at", "0", "--out", out])?.kind, .input)
        XCTAssertEqual(error(["--script", dir.appendingPathComponent("none.md").path, "--at", "0", "--out", out])?.kind, .input)
        XCTAssertEqual(error(["--script", Checkout.path("Assets/scripts/talk.md"), "--at", "0", "--out", out,
                              "--display-profile", badProfile])?.kind, .input)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testSummaryAndHelp() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("duo-rs-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let summary = try RenderSubjectCommand.run(arguments: ["--script", Checkout.path("Assets/scripts/talk.md"),
                                                               "--at", "60", "--size", "320x180", "--out", out])
        XCTAssertTrue(summary.contains("held at [PAUSE]"), summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        XCTAssertTrue(try RenderSubjectCommand.run(arguments: ["--help"]).hasPrefix("usage: duo-capture render-subject"))
    }

    /// `--lines N` sizes the text as a live run does (it was read and then ignored), and the lens and
    /// self-view options reach the frame.
    func testLinesLensAndSelfViewReachTheFrame() throws {
        let talk = Checkout.path("Assets/scripts/talk.md")
        let base = ["--script", talk, "--at", "6", "--size", "480x270"]
        let plain = try renderSubject(base).packedBytes()
        let four = try renderSubject(base + ["--lines", "4"]).packedBytes()
        XCTAssertFalse(four == plain, "--lines 4 changes the text size")
        XCTAssertFalse(four == (try renderSubject(base + ["--lines", "9"]).packedBytes()), "--lines 4 and 9 differ")
        for option in [["--lens", "bottom"], ["--lens", "top-left"], ["--self-view", "large"], ["--self-view", "off"]] {
            XCTAssertFalse(plain == (try renderSubject(base + option).packedBytes()), "\(option) changes the frame")
        }
        XCTAssertTrue(plain == (try renderSubject(base + ["--lens", "top", "--self-view", "small"]).packedBytes()), "the defaults")
    }
}
