import DuoCore
import Foundation
import XCTest

/// A shot list's `script:` (issue 35): resolved against the shot list's folder; a file outside it (by
/// path, `..` or a symbolic link) or one that is not a .md/.txt script is refused at start, in one line
/// naming the shot, before any camera is opened, whichever shot names it; `--allow-any-script` lets it through.
final class ShotScriptTests: XCTestCase {
    private func shotList(_ dir: String, scripts: [String]) throws -> String {
        var text = "# Shots\n\n## 01 — Opening\nSay your name.\n\n"
        for (i, script) in scripts.enumerated() {
            text += "## \(String(format: "%02d", i + 2)) — Part \(i + 2)\nRead it.\nscript: \(script)\n\n"
        }
        let path = "\(dir)/shots.md"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func run(_ dir: String, _ list: String, _ extra: [String] = []) throws -> Run {
        try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record-dir", dir,
                        "--shots", list, "--duration", "1"] + extra)
    }

    func testAScriptOutsideTheShotListsFolderIsRefusedAtStart() throws {
        let dir = try scratchDirectory(self)
        try FileManager.default.createDirectory(atPath: "\(dir)/list", withIntermediateDirectories: true)
        try Data("# Intro\n\nHello there.\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/list/intro.md"))
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/secret.md"))
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/list/link.md", withDestinationPath: "\(dir)/secret.md")
        let cases: [(String, String)] = [
            ("/etc/passwd", "is not a .md or .txt script"),
            ("../secret.md", "is outside the shot list's folder"),
            ("\(dir)/secret.md", "is outside the shot list's folder"),
            ("link.md", "is outside the shot list's folder"),
            ("missing.md", "does not exist"),
        ]
        for (script, why) in cases {
            // The bad script is the third shot's: checked at start, not when reached.
            let list = try shotList("\(dir)/list", scripts: ["intro.md", script])
            let result = try run(dir, list)
            XCTAssertNotEqual(result.status, 0, script)
            let lines = result.stderr.split(separator: "\n").filter { $0.contains("shot 03") }
            XCTAssertEqual(lines.count, 1, "\(script): \(result.stderr)")
            XCTAssertTrue(lines.first?.contains(why) ?? false, "\(script): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("capturing"), "refused before the camera: \(result.stderr)")
            XCTAssertFalse(result.stdout.contains("root:"), "the file reached the output")
        }
        // A script in the folder (or below it) is taken; --allow-any-script lets an outside one through.
        try FileManager.default.createDirectory(atPath: "\(dir)/list/sub", withIntermediateDirectories: true)
        try Data("# Sub\n\nMore words.\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/list/sub/more.txt"))
        let good = try run(dir, try shotList("\(dir)/list", scripts: ["intro.md", "sub/more.txt"]))
        XCTAssertEqual(good.status, 0, good.stderr)
        let allowed = try run(dir, try shotList("\(dir)/list", scripts: ["../secret.md"]), ["--allow-any-script"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
    }
}
