import DuoCore
import Foundation
import XCTest

/// Chapters into an MP4's index (issue 39, the MP4 remux): a `chpl` box in moov/udta that reads back,
/// chunk offsets that still point at the same media bytes after the moov grew (checked on a whole file
/// laid out as mp4mux's faststart does, and read with MP4Layout), UTF-8 titles cut at a character, and
/// the box's limits.
final class MP4ChaptersTests: XCTestCase {
    private func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be(UInt64(body.count + 8), 4) + Array(type.utf8) + body }
    private func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }

    /// A track whose chunks are at `offsets` (stco, or co64 when `wide`).
    private func trak(_ offsets: [UInt64], wide: Bool) -> [UInt8] {
        let table = box(wide ? "co64" : "stco", [0, 0, 0, 0] + be(UInt64(offsets.count), 4) + offsets.flatMap { be($0, wide ? 8 : 4) })
        let stbl = box("stbl", box("stsd", [0, 0, 0, 0, 0, 0, 0, 0]) + table)
        return box("trak", box("tkhd", [UInt8](repeating: 0, count: 20)) + box("mdia", box("mdhd", [UInt8](repeating: 0, count: 24)) + box("minf", stbl)))
    }

    /// ftyp, moov (two tracks and a udta with tags), mdat whose chunks each begin with a marker byte:
    /// the file and the markers' offsets per track.
    private func fastStartFile(udta: Bool = true) -> (file: [UInt8], moovAt: Int, moovLength: Int) {
        let ftyp = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8))
        func moov(_ mdatAt: UInt64) -> [UInt8] {
            let video = (0..<5).map { mdatAt + 8 + UInt64($0) * 100 }, audio = (0..<3).map { mdatAt + 58 + UInt64($0) * 100 }
            return box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)) + trak(video, wide: false) + trak(audio, wide: true)
                + (udta ? box("udta", box("meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 25)))) : []))
        }
        let length = moov(0).count
        var media = [UInt8](repeating: 0xEE, count: 500)
        for i in 0..<5 { media[i * 100] = UInt8(0x10 + i) }
        for i in 0..<3 { media[50 + i * 100] = UInt8(0xA0 + i) }
        return (ftyp + moov(UInt64(ftyp.count + length)) + box("mdat", media), ftyp.count, length)
    }

    private let chapters = [TakeChapter(atSeconds: 0, title: "Take 1 · shot 3"), TakeChapter(atSeconds: 1.2345678, title: "BUG: 菜单遮住了“支付”按钮"),
                            TakeChapter(atSeconds: 2.5, title: "FLAG")]

    /// The file with `chapters` written the way MP4ChapterWriter does: the bytes before moov, the new
    /// moov, the bytes after it.
    private func withChapters(_ original: (file: [UInt8], moovAt: Int, moovLength: Int), _ list: [TakeChapter]) throws -> [UInt8] {
        let end = original.moovAt + original.moovLength
        let moov = try MP4Chapters.moov(Array(original.file[original.moovAt..<end]), endingAt: UInt64(end), adding: list)
        return Array(original.file[..<original.moovAt]) + moov + Array(original.file[end...])
    }

    private func layout(_ file: [UInt8]) throws -> [MP4Layout.TopBox] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mp4chapters-\(UUID().uuidString).mp4").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(file).write(to: URL(fileURLWithPath: path))
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        XCTAssertNil(MP4Layout.problem(path))
        return try XCTUnwrap(MP4Layout.topLevelBoxes(handle, size: UInt64(file.count)))
    }

    private func moov(of file: [UInt8]) throws -> [UInt8] {
        let box = try XCTUnwrap(try layout(file).first { $0.type == "moov" })
        return Array(file[Int(box.offset)..<Int(box.end)])
    }

    func testChaptersReadBackAndEveryChunkOffsetStillPointsAtItsMedia() throws {
        let original = fastStartFile()
        let file = try withChapters(original, chapters)
        XCTAssertEqual(try layout(file).map(\.type), ["ftyp", "moov", "mdat"])
        let moov = try moov(of: file)
        XCTAssertEqual(MP4Chapters.read(moov: moov).map(\.title), chapters.map(\.title))
        for (read, written) in zip(MP4Chapters.read(moov: moov), chapters) { XCTAssertEqual(read.atSeconds, written.atSeconds, accuracy: 1e-7) }
        // The moov grew, the media moved with it, and each table still finds its chunks' marker bytes.
        let offsets = MP4Chapters.chunkOffsets(moov: moov)
        XCTAssertEqual(offsets.count, 2)
        XCTAssertGreaterThan(file.count, original.file.count)
        XCTAssertNotEqual(offsets, MP4Chapters.chunkOffsets(moov: Array(original.file[original.moovAt..<original.moovAt + original.moovLength])))
        XCTAssertEqual(offsets[0].map { file[Int($0)] }, [0x10, 0x11, 0x12, 0x13, 0x14], "stco")
        XCTAssertEqual(offsets[1].map { file[Int($0)] }, [0xA0, 0xA1, 0xA2], "co64")
        // The udta kept its tags (meta) beside the new chpl.
        XCTAssertNotNil(moov.indices.dropLast(4).first { moov[$0..<$0 + 4].elementsEqual("meta".utf8) })
    }

    func testAMoovWithoutUdtaGainsOneAndWritingAgainReplacesTheChapters() throws {
        let original = fastStartFile(udta: false)
        let once = try withChapters(original, chapters)
        XCTAssertEqual(MP4Chapters.read(moov: try moov(of: once)).count, 3)
        let moovBox = try XCTUnwrap(try layout(once).first { $0.type == "moov" })
        let twice = try withChapters((once, Int(moovBox.offset), Int(moovBox.length)), [TakeChapter(atSeconds: 4, title: "Q: only this")])
        let moov = try moov(of: twice)
        XCTAssertEqual(MP4Chapters.read(moov: moov).map(\.title), ["Q: only this"])
        XCTAssertEqual(MP4Chapters.chunkOffsets(moov: moov)[0].map { twice[Int($0)] }, [0x10, 0x11, 0x12, 0x13, 0x14])
        XCTAssertEqual(MP4Chapters.chunkOffsets(moov: moov)[1].map { twice[Int($0)] }, [0xA0, 0xA1, 0xA2])
    }

    func testAMoovAfterTheMediaMovesNoOffset() throws {
        let fast = fastStartFile()
        // The same boxes with the moov last: the chunks are before it, where they stay.
        let moovBytes = Array(fast.file[fast.moovAt..<fast.moovAt + fast.moovLength]), mdat = Array(fast.file[(fast.moovAt + fast.moovLength)...])
        let end = UInt64(fast.moovAt + mdat.count + moovBytes.count)
        let grown = try MP4Chapters.moov(moovBytes, endingAt: end, adding: chapters)
        XCTAssertEqual(MP4Chapters.chunkOffsets(moov: grown), MP4Chapters.chunkOffsets(moov: moovBytes))
        XCTAssertEqual(MP4Chapters.read(moov: grown).count, 3)
    }

    func testNoChaptersLeaveTheIndexAsItIs() throws {
        let original = fastStartFile()
        XCTAssertEqual(try withChapters(original, []), original.file)
    }

    func testUTF8TitlesAreCutAtACharacterAndControlCharactersLeftOut() throws {
        let long = String(repeating: "汉", count: 100)   // 300 bytes: 85 characters fit in 255
        let grown = try MP4Chapters.moov(try moov(of: fastStartFile().file), endingAt: 0, adding: [TakeChapter(atSeconds: 0, title: long), TakeChapter(atSeconds: 1, title: "a\u{7}b\nc")])
        let read = MP4Chapters.read(moov: grown)
        XCTAssertEqual(read.map(\.title), [String(repeating: "汉", count: 85), "abc"])
    }

    func testManyChaptersKeepTheFirst255InTimeOrder() throws {
        let many = (0..<300).reversed().map { TakeChapter(atSeconds: Double($0) * 0.5, title: "FLAG \($0)") }
        let read = MP4Chapters.read(moov: try MP4Chapters.moov(try moov(of: fastStartFile().file), endingAt: 0, adding: many))
        XCTAssertEqual(read.count, MP4Chapters.maxChapters)
        XCTAssertEqual(read.first?.title, "FLAG 0")
        XCTAssertEqual(read.last?.title, "FLAG 254")
        XCTAssertEqual(read.last?.atSeconds ?? 0, 127, accuracy: 1e-7)
    }

    func testFragmentedFilesAndOverflowingOffsetsAreRefused() throws {
        let fragmented = box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)) + box("mvex", box("trex", [UInt8](repeating: 0, count: 24))))
        XCTAssertThrowsError(try MP4Chapters.moov(fragmented, endingAt: UInt64(fragmented.count), adding: chapters)) {
            XCTAssertEqual($0 as? MP4Chapters.Problem, .fragmented)
        }
        let nearEnd = box("moov", trak([UInt64(UInt32.max) - 4], wide: false))
        XCTAssertThrowsError(try MP4Chapters.moov(nearEnd, endingAt: UInt64(nearEnd.count), adding: chapters)) {
            XCTAssertEqual($0 as? MP4Chapters.Problem, .offsetsOverflow)
        }
        XCTAssertThrowsError(try MP4Chapters.moov(Array(nearEnd.dropLast()), endingAt: 0, adding: chapters)) {
            XCTAssertEqual($0 as? MP4Chapters.Problem, .notAMovieIndex)
        }
    }
}
