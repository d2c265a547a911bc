@testable import DuoCore
import Foundation
import XCTest

/// Chapters into an MP4's index (issue 39, the MP4 remux): a `chpl` box in moov/udta and a QuickTime
/// chapter track that read back, chunk offsets that still point at the same media bytes after the moov
/// grew (checked on a whole file laid out as mp4mux's faststart does, and read with MP4Layout), UTF-8
/// titles cut at a character, and the box's limits.
final class MP4ChaptersTests: XCTestCase {
    private func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be(UInt64(body.count + 8), 4) + Array(type.utf8) + body }
    private func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }

    /// Track `id` of kind `handler` whose chunks are at `offsets` (stco, or co64 when `wide`).
    private func trak(_ id: UInt64, _ handler: String, _ offsets: [UInt64], wide: Bool) -> [UInt8] {
        let table = box(wide ? "co64" : "stco", [0, 0, 0, 0] + be(UInt64(offsets.count), 4) + offsets.flatMap { be($0, wide ? 8 : 4) })
        let stbl = box("stbl", box("stsd", [0, 0, 0, 0, 0, 0, 0, 0]) + table)
        let hdlr = box("hdlr", be(0, 8) + Array(handler.utf8) + be(0, 13))
        return box("trak", box("tkhd", be(3, 4) + be(0, 8) + be(id, 4) + be(0, 68))
                   + box("mdia", box("mdhd", [UInt8](repeating: 0, count: 24)) + hdlr + box("minf", stbl)))
    }

    /// A movie of 5 s at 1000 per second whose next free track is 3.
    private var mvhd: [UInt8] { box("mvhd", be(0, 12) + be(1000, 4) + be(5000, 4) + be(0, 76) + be(3, 4)) }

    /// ftyp, moov (two tracks and a udta with tags), mdat whose chunks each begin with a marker byte.
    private func fastStartFile(udta: Bool = true) -> (file: [UInt8], moovAt: Int, moovLength: Int) {
        let ftyp = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8))
        func moov(_ mdatAt: UInt64) -> [UInt8] {
            let video = (0..<5).map { mdatAt + 8 + UInt64($0) * 100 }, audio = (0..<3).map { mdatAt + 58 + UInt64($0) * 100 }
            return box("moov", mvhd + trak(1, "vide", video, wide: false) + trak(2, "soun", audio, wide: true)
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
    /// moov, the bytes after it, the appendix.
    private func withChapters(_ original: (file: [UInt8], moovAt: Int, moovLength: Int), _ list: [TakeChapter]) throws -> [UInt8] {
        let end = original.moovAt + original.moovLength
        let r = try MP4Chapters.rewrite(moov: Array(original.file[original.moovAt..<end]), endingAt: UInt64(end),
                                        fileSize: UInt64(original.file.count), adding: list)
        return Array(original.file[..<original.moovAt]) + r.moov + Array(original.file[end...]) + r.appendix
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

    /// The QuickTime chapter track's titles, read as a player does: the track the video track names in
    /// tref/chap, its samples (sizes from stsz, all in the one chunk its stco points at) in `file`.
    private func trackTitles(_ moov: [UInt8], in file: [UInt8]) throws -> [String] {
        let top = try XCTUnwrap(MP4Chapters.header(moov, at: 0))
        let traks = try XCTUnwrap(MP4Chapters.boxes(moov, in: top.bodyStart..<moov.count)).filter { $0.type == "trak" }
        let video = try XCTUnwrap(traks.first { MP4Chapters.handler(moov, $0) == "vide" })
        let id = try XCTUnwrap(MP4Chapters.chapterReferences(moov, video).first)
        let text = try XCTUnwrap(traks.first { MP4Chapters.trackID(moov, $0) == id })
        XCTAssertEqual(MP4Chapters.handler(moov, text), "text")
        XCTAssertEqual(traks.filter { MP4Chapters.handler(moov, $0) == "text" }.count, 1, "one chapter track")
        let offsets = MP4Chapters.chunkOffsets(moov: Array(moov[text.range]).withMoovHeader())
        var at = Int(try XCTUnwrap(offsets.first?.first))
        let stsz = try XCTUnwrap(moov.indices.first { i in i >= text.range.lowerBound && i + 4 <= text.range.upperBound && moov[i..<i + 4].elementsEqual("stsz".utf8) })
        let count = Int(moov[stsz + 12..<stsz + 16].reduce(0) { $0 << 8 | UInt32($1) })
        var titles: [String] = []
        for i in 0..<count {
            let size = Int(moov[stsz + 16 + 4 * i..<stsz + 20 + 4 * i].reduce(0) { $0 << 8 | UInt32($1) })
            guard at >= 0, at + size <= file.count, size >= 2 else {
                XCTFail("sample \(i) at \(at), \(size) bytes, is not in the file")
                break
            }
            let length = Int(file[at]) << 8 | Int(file[at + 1])
            guard 2 + length <= size else {
                XCTFail("sample \(i) at \(at) says \(length) bytes of title in \(size)")
                break
            }
            titles.append(String(decoding: file[at + 2..<at + 2 + length], as: UTF8.self))
            XCTAssertEqual(Array(file[at + 2 + length..<at + size]), box("encd", [0, 0, 1, 0]))
            at += size
        }
        return titles
    }

    func testChaptersReadBackAndEveryChunkOffsetStillPointsAtItsMedia() throws {
        let original = fastStartFile()
        let file = try withChapters(original, chapters)
        XCTAssertEqual(try layout(file).map(\.type), ["ftyp", "moov", "mdat", "mdat"])
        let moov = try moov(of: file)
        XCTAssertEqual(MP4Chapters.read(moov: moov).map(\.title), chapters.map(\.title))
        for (read, written) in zip(MP4Chapters.read(moov: moov), chapters) { XCTAssertEqual(read.atSeconds, written.atSeconds, accuracy: 1e-7) }
        XCTAssertEqual(try trackTitles(moov, in: file), chapters.map(\.title))
        // The moov grew, the media moved with it, and each table still finds its chunks' marker bytes.
        let offsets = MP4Chapters.chunkOffsets(moov: moov)
        XCTAssertEqual(offsets.count, 3)
        XCTAssertGreaterThan(file.count, original.file.count)
        XCTAssertNotEqual(Array(offsets.prefix(2)), MP4Chapters.chunkOffsets(moov: Array(original.file[original.moovAt..<original.moovAt + original.moovLength])))
        XCTAssertEqual(offsets[0].map { file[Int($0)] }, [0x10, 0x11, 0x12, 0x13, 0x14], "stco")
        XCTAssertEqual(offsets[1].map { file[Int($0)] }, [0xA0, 0xA1, 0xA2], "co64")
        // The udta kept its tags (meta) beside the new chpl; the next free track number moved on.
        XCTAssertNotNil(moov.indices.dropLast(4).first { moov[$0..<$0 + 4].elementsEqual("meta".utf8) })
        let mvhd = try XCTUnwrap(MP4Chapters.boxes(moov, in: 8..<moov.count)?.first { $0.type == "mvhd" })
        XCTAssertEqual(MP4Chapters.MovieHeader(moov, mvhd)?.nextTrackID, 4)
    }

    func testAMoovWithoutUdtaGainsOneAndWritingAgainReplacesTheChapters() throws {
        let original = fastStartFile(udta: false)
        let once = try withChapters(original, chapters)
        XCTAssertEqual(MP4Chapters.read(moov: try moov(of: once)).count, 3)
        let moovBox = try XCTUnwrap(try layout(once).first { $0.type == "moov" })
        let twice = try withChapters((once, Int(moovBox.offset), Int(moovBox.length)), [TakeChapter(atSeconds: 4, title: "Q: only this")])
        let moov = try moov(of: twice)
        XCTAssertEqual(MP4Chapters.read(moov: moov).map(\.title), ["Q: only this"])
        // The track gets an untitled first chapter: a chapter track covers the movie from its start.
        XCTAssertEqual(try trackTitles(moov, in: twice), ["", "Q: only this"])
        XCTAssertEqual(MP4Chapters.chunkOffsets(moov: moov).count, 3, "the first chapter track is gone")
        XCTAssertEqual(MP4Chapters.chunkOffsets(moov: moov)[0].map { twice[Int($0)] }, [0x10, 0x11, 0x12, 0x13, 0x14])
        XCTAssertEqual(MP4Chapters.chunkOffsets(moov: moov)[1].map { twice[Int($0)] }, [0xA0, 0xA1, 0xA2])
    }

    func testAMoovAfterTheMediaMovesNoOffset() throws {
        let fast = fastStartFile()
        // The same boxes with the moov last: the chunks are before it, where they stay.
        let moovBytes = Array(fast.file[fast.moovAt..<fast.moovAt + fast.moovLength]), mdat = Array(fast.file[(fast.moovAt + fast.moovLength)...])
        let end = UInt64(fast.moovAt + mdat.count + moovBytes.count)
        let grown = try MP4Chapters.rewrite(moov: moovBytes, endingAt: end, fileSize: end, adding: chapters)
        XCTAssertEqual(Array(MP4Chapters.chunkOffsets(moov: grown.moov).prefix(2)), MP4Chapters.chunkOffsets(moov: moovBytes))
        XCTAssertEqual(MP4Chapters.read(moov: grown.moov).count, 3)
        let file = Array(fast.file[..<fast.moovAt]) + mdat + grown.moov + grown.appendix
        XCTAssertEqual(try trackTitles(grown.moov, in: file), chapters.map(\.title))
    }

    func testNoChaptersLeaveTheFileAsItIs() throws {
        let original = fastStartFile()
        XCTAssertEqual(try withChapters(original, []), original.file)
    }

    func testUTF8TitlesAreCutAtACharacterAndControlCharactersLeftOut() throws {
        let long = String(repeating: "汉", count: 100)   // 300 bytes: 85 characters fit in 255
        let original = fastStartFile()
        let file = try withChapters(original, [TakeChapter(atSeconds: 0, title: long), TakeChapter(atSeconds: 1, title: "a\u{7}b\nc")])
        let expected = [String(repeating: "汉", count: 85), "abc"]
        XCTAssertEqual(MP4Chapters.read(moov: try moov(of: file)).map(\.title), expected)
        XCTAssertEqual(try trackTitles(try moov(of: file), in: file), expected)
    }

    func testManyChaptersKeepTheFirst255InTimeOrder() throws {
        let many = (0..<300).reversed().map { TakeChapter(atSeconds: Double($0) * 0.5, title: "FLAG \($0)") }
        let file = try withChapters(fastStartFile(), many)
        let read = MP4Chapters.read(moov: try moov(of: file))
        XCTAssertEqual(read.count, MP4Chapters.maxChapters)
        XCTAssertEqual(read.first?.title, "FLAG 0")
        XCTAssertEqual(read.last?.title, "FLAG 254")
        XCTAssertEqual(read.last?.atSeconds ?? 0, 127, accuracy: 1e-7)
        XCTAssertEqual(try trackTitles(try moov(of: file), in: file), read.map(\.title))
    }

    func testFragmentedFilesAndOverflowingOffsetsAreRefused() throws {
        let fragmented = box("moov", mvhd + box("mvex", box("trex", [UInt8](repeating: 0, count: 24))))
        XCTAssertThrowsError(try MP4Chapters.rewrite(moov: fragmented, endingAt: UInt64(fragmented.count), fileSize: 1000, adding: chapters)) {
            XCTAssertEqual($0 as? MP4Chapters.Problem, .fragmented)
        }
        let nearEnd = box("moov", mvhd + trak(1, "vide", [UInt64(UInt32.max) - 4], wide: false))
        XCTAssertThrowsError(try MP4Chapters.rewrite(moov: nearEnd, endingAt: UInt64(nearEnd.count), fileSize: UInt64(UInt32.max), adding: chapters)) {
            XCTAssertEqual($0 as? MP4Chapters.Problem, .offsetsOverflow)
        }
        XCTAssertThrowsError(try MP4Chapters.rewrite(moov: Array(nearEnd.dropLast()), endingAt: 0, fileSize: 1000, adding: chapters)) {
            XCTAssertEqual($0 as? MP4Chapters.Problem, .notAMovieIndex)
        }
    }
}

private extension Array where Element == UInt8 {
    /// A trak's bytes inside a moov header, for `chunkOffsets`, which starts at a moov.
    func withMoovHeader() -> [UInt8] {
        let size = UInt64(count + 8)
        return (0..<4).reversed().map { UInt8(truncatingIfNeeded: size >> (8 * UInt64($0))) } + Array("moov".utf8) + self
    }
}
