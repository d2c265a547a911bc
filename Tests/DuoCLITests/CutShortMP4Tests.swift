import DuoCore
import DuoMedia
import Foundation
import XCTest

/// An MP4 take whose moov index is lost (a recording killed before it finished, or a file truncated)
/// is reported as cut short by `inspect` and `report`, not as a file without a video stream (issue 35);
/// the whole take still decodes.
final class CutShortMP4Tests: XCTestCase {
    /// The top-level boxes of an MP4: name, offset, length.
    private func boxes(_ data: [UInt8]) -> [(String, Int, Int)] {
        var out: [(String, Int, Int)] = [], at = 0
        while at + 8 <= data.count {
            let length = Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
            out.append((String(decoding: data[(at + 4)..<(at + 8)], as: UTF8.self), at, length))
            guard length >= 8 else { break }
            at += length
        }
        return out
    }

    func testAnMP4WithoutItsIndexIsReportedCutShort() throws {
        let dir = try scratchDirectory(self)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--countdown", "0", "--record",
                                  "--duration", "1", "--record-dir", dir, "--container", "mp4", "--audio", "none", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".mp4") })
        let take = "\(dir)/\(name)"
        XCTAssertGreaterThan(try MediaInspector.decode(take).video.frames, 20, "the whole take decodes")
        XCTAssertNil(MP4Layout.problem(take))
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: take)))
        let layout = boxes(data)
        let ftyp = try XCTUnwrap(layout.first { $0.0 == "ftyp" }), moov = try XCTUnwrap(layout.first { $0.0 == "moov" })
        let mdat = try XCTUnwrap(layout.first { $0.0 == "mdat" })
        // As a kill leaves it (ftyp and frames, no moov), and truncated inside its moov.
        let killed = "\(dir)/killed.mp4", truncated = "\(dir)/truncated.mp4"
        try Data(data[ftyp.1..<(ftyp.1 + ftyp.2)] + data[mdat.1..<min(data.count, mdat.1 + mdat.2 / 2)]).write(to: URL(fileURLWithPath: killed))
        try Data(data[0..<(moov.1 + moov.2 / 2)]).write(to: URL(fileURLWithPath: truncated))
        for (file, why) in [(killed, "was never written"), (truncated, "is cut off")] {
            let inspect = try duoCapture(["inspect", file])
            XCTAssertNotEqual(inspect.status, 0)
            XCTAssertTrue(inspect.stderr.contains("\(file) is cut short: its index (the MP4 moov box) \(why)"), inspect.stderr)
            XCTAssertFalse(inspect.stderr.contains("no video") || inspect.stderr.contains("no playable"), inspect.stderr)
        }
        try FileManager.default.removeItem(atPath: truncated)
        let report = try duoCapture(["report", dir])
        XCTAssertEqual(report.status, 0, report.stderr)
        let html = try String(contentsOfFile: "\(dir)/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains("killed.mp4 is cut short"), html)
    }
}
