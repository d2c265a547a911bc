import DuoCore
import Foundation
import XCTest

/// A file's stamp and its watch: a save by rewriting in place or by renaming a new file into place is
/// seen, even at the same size within the same second; an unchanged file never is; looks are at most
/// twice a second.
final class FileStampTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("duo-filestamp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(atPath: directory) }
    }

    func testASaveIsSeenWhetherRewrittenOrRenamedIntoPlaceAtTheSameSize() throws {
        let path = directory + "/talk.md"
        try "version one".write(toFile: path, atomically: false, encoding: .utf8)
        let first = try XCTUnwrap(FileStamp(path))
        XCTAssertEqual(FileStamp(path), first, "unchanged: the same stamp")
        // Renamed into place (what most editors do), the same size: a new inode.
        try "version two".write(toFile: path, atomically: true, encoding: .utf8)
        try setModified(path, 1_700_000_000.25)
        let renamed = try XCTUnwrap(FileStamp(path))
        XCTAssertEqual(renamed.size, first.size)
        XCTAssertNotEqual(renamed.inode, first.inode)
        XCTAssertNotEqual(renamed, first)
        // Rewritten in place at the same size within the same second: the nanoseconds tell.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("version 3!!".utf8))
        try handle.close()
        try setModified(path, 1_700_000_000.75)
        let rewritten = try XCTUnwrap(FileStamp(path))
        XCTAssertEqual(rewritten.inode, renamed.inode)
        XCTAssertEqual(rewritten.size, renamed.size)
        XCTAssertEqual(rewritten.seconds, renamed.seconds)
        XCTAssertNotEqual(rewritten, renamed)
        XCTAssertNil(FileStamp(directory + "/missing.md"))
    }

    func testAWatchSaysEachSaveOnceAndLooksAtMostTwiceASecond() throws {
        let path = directory + "/shots.md"
        try "## 01 — One".write(toFile: path, atomically: true, encoding: .utf8)
        var watch = FileWatch(path)
        let second: Int64 = 1_000_000_000
        XCTAssertTrue(watch.due(at: 10 * second))
        XCTAssertNil(watch.look(at: 10 * second), "the version known: no save")
        try "## 01 — Two".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertFalse(watch.due(at: 10 * second + 400_000_000), "0.4 s after the last look: not yet")
        XCTAssertTrue(watch.due(at: 10 * second + 500_000_000))
        let save = try XCTUnwrap(watch.look(at: 10 * second + 500_000_000))
        XCTAssertNotEqual(save.previous, save.saved)
        XCTAssertNil(watch.look(at: 11 * second), "said once")
        // Gone mid-save: no change; the file back (a new version) is a save.
        try FileManager.default.removeItem(atPath: path)
        XCTAssertNil(watch.look(at: 12 * second))
        try "## 01 — Three".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNotNil(watch.look(at: 13 * second))
        // A file that was not there when the watch began: its first version is taken as known.
        var later = FileWatch(directory + "/later.md")
        try "x".write(toFile: directory + "/later.md", atomically: true, encoding: .utf8)
        XCTAssertNil(later.look(at: second))
        try "y".write(toFile: directory + "/later.md", atomically: true, encoding: .utf8)
        XCTAssertNotNil(later.look(at: 2 * second))
    }

    private func setModified(_ path: String, _ seconds: Double) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
    }
}
