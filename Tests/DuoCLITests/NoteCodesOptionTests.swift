@testable import DuoCLI
import DuoCore
import DuoPlatform
import Foundation
import XCTest

/// Issue 39: where a run's note codes come from, through the real settings-file reader and option parser
/// (what `duo-capture` itself calls): the command line wins over the shot list's `note-codes:` line,
/// which wins over the settings file's `note-codes=`, which wins over the default.
final class NoteCodesOptionTests: XCTestCase {
    func testTheCommandLineThenTheShotListThenTheSettingsFile() throws {
        let dir = try scratchDirectory(self)
        let conf = dir + "/duo-capture.conf", shots = dir + "/shots.md", plainShots = dir + "/plain.md"
        try Data("[duo-capture]\nnote-codes=FILE1,FILE2\n".utf8).write(to: URL(fileURLWithPath: conf))
        try Data("note-codes: LIST1, LIST2\n\n## 01 — Sign in\nSign in.\n".utf8).write(to: URL(fileURLWithPath: shots))
        try Data("## 01 — Sign in\nSign in.\n".utf8).write(to: URL(fileURLWithPath: plainShots))
        func codes(_ arguments: [String], settings: Bool = true) throws -> [String] {
            let file = settings ? try SettingsFile.load(conf) : nil
            return try SettingsDefaults.options(try SettingsDefaults.apply(arguments, file: file)).noteCodeBook.codes
        }
        XCTAssertEqual(try codes(["--headless", "--shots", shots, "--note-codes", "CLI"]), ["CLI"])
        XCTAssertEqual(try codes(["--headless", "--shots", shots]), ["LIST1", "LIST2"])
        XCTAssertEqual(try codes(["--headless", "--shots", plainShots]), ["FILE1", "FILE2"])
        XCTAssertEqual(try codes(["--headless", "--shots", shots], settings: false), ["LIST1", "LIST2"])
        XCTAssertEqual(try codes(["--headless"], settings: false), ["BUG", "Q", "GOOD", "PII"])
        XCTAssertEqual(try codes(["--headless", "--note-codes", "CLI"], settings: false), ["CLI"])
    }
}
