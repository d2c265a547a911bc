//  Chapters in an MP4 (issue 39: "the MP4 remux keeps them where the container allows"). mp4mux takes
//  no GstToc, so the chapters go into the finished file's index as a Nero `chpl` box, what ffmpeg,
//  ffprobe, mpv, VLC and many players read,
//
//   moov ─┬─ mvhd
//         ├─ trak … stbl ─ stco/co64   chunk offsets: every one past the old moov moves by what moov grew
//         └─ udta ─ chpl               version 1, 0, count (1 byte), then per chapter:
//                                      start (8 bytes, 100 ns units), title length (1 byte), UTF-8 title
//
//  and, for Apple's players, a QuickTime chapter track (MP4ChapterTrack.swift): a disabled text track
//  whose samples (the titles) go in a small mdat appended at the end of the file.
//
//  With `faststart` the moov comes before the media data, so a larger moov shifts every chunk: the
//  offsets are adjusted here, on the moov in memory; the file is rewritten by the caller.

/// The byte work of putting chapters into an MP4's `moov` box, and reading them back.
///
/// Thread: stateless; any thread (pure functions on bytes in memory).
public enum MP4Chapters {
    /// The most chapters a `chpl` box holds (its count is one byte).
    public static let maxChapters = 255
    /// The longest title in bytes (its length is one byte); longer titles are cut at a character.
    public static let maxTitleBytes = 255

    /// Why a moov cannot take chapters. Thread: value type, Sendable.
    public enum Problem: Error, Equatable, Sendable {
        /// Not a whole `moov` box (its sizes do not add up).
        case notAMovieIndex
        /// A fragmented MP4 (`mvex`): its fragments' offsets are not in the moov.
        case fragmented
        /// A 32-bit chunk offset (`stco`) would pass 4 GiB once the moov grows.
        case offsetsOverflow
    }

    /// The `chpl` box for `chapters` in time order (at most `maxChapters`, titles cut to `maxTitleBytes`
    /// at a character boundary, control characters left out).
    public static func chplBox(_ chapters: [TakeChapter]) -> [UInt8] {
        let sorted = ordered(chapters)
        var body: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, UInt8(sorted.count)]
        for chapter in sorted {
            body += bigEndian(UInt64((max(chapter.atSeconds, 0) * 1e7).rounded()), bytes: 8)
            let title = titleBytes(chapter.title)
            body.append(UInt8(title.count))
            body += title
        }
        return box("chpl", body)
    }

    /// The chapters a file gets: in time order, at most `maxChapters`.
    static func ordered(_ chapters: [TakeChapter]) -> [TakeChapter] {
        Array(chapters.enumerated().sorted { ($0.element.atSeconds, $0.offset) < ($1.element.atSeconds, $1.offset) }.map(\.element).prefix(maxChapters))
    }

    /// What a file gains: its new `moov`, to write where the old one was, and `appendix` (a small `mdat`
    /// holding the chapter track's titles) to write at the very end of the file.
    ///
    /// Thread: value type, Sendable.
    public struct Rewrite: Sendable, Equatable {
        public var moov: [UInt8]
        public var appendix: [UInt8]
    }

    /// `moov` (the whole box as it is in the file, ending at file offset `moovEnd`, in a file `fileSize`
    /// bytes long) with `chapters` twice: a `chpl` box in its `udta` (made when missing) and a QuickTime
    /// chapter track (a disabled text track the first video track names in `tref/chap`, what Apple's
    /// players read), whose samples are the appendix. Chapters written before (a chpl, a chapter track)
    /// are replaced. Every chunk offset at or past `moovEnd` moves by what the box grew (a moov after the
    /// media data moves nothing). No chapters: the moov as it is, nothing appended.
    public static func rewrite(moov: [UInt8], endingAt moovEnd: UInt64, fileSize: UInt64, adding chapters: [TakeChapter]) throws(Problem) -> Rewrite {
        guard !chapters.isEmpty else { return Rewrite(moov: moov, appendix: []) }
        guard let top = header(moov, at: 0), top.type == "moov", top.size == moov.count,
              let children = boxes(moov, in: top.bodyStart..<moov.count),
              let mvhd = children.first(where: { $0.type == "mvhd" }), let movie = MovieHeader(moov, mvhd) else { throw .notAMovieIndex }
        if children.contains(where: { $0.type == "mvex" }) { throw .fragmented }
        let traks = children.filter { $0.type == "trak" }
        let oldChapterTracks = Set(traks.flatMap { chapterReferences(moov, $0) })
        let kept = traks.filter { !oldChapterTracks.contains(trackID(moov, $0) ?? 0) }
        let owner = kept.first { handler(moov, $0) == "vide" } ?? kept.first
        let newID = max(movie.nextTrackID, (traks.compactMap { trackID(moov, $0) }.max() ?? 0) + 1)
        let track = chapterTrack(chapters, id: newID, movie: movie, wide: fileSize > UInt64(UInt32.max) - (64 << 20))
        let chpl = chplBox(chapters)
        var body: [UInt8] = [], trackAt = 0, placedUdta = false
        for child in children {
            switch child.type {
            case "mvhd":
                body += movie.with(nextTrackID: newID + 1)
            case "trak":
                guard !oldChapterTracks.contains(trackID(moov, child) ?? 0) else { break }
                body += try referencing(moov, child, chapterTrack: child.range == owner?.range ? newID : nil)
                if child.range == kept.last?.range {
                    trackAt = body.count
                    body += track.bytes
                }
            case "udta" where !placedUdta:
                // The first udta keeps what it holds (tags), minus an older chpl, and gains the new one.
                guard let inner = boxes(moov, in: child.bodyStart..<child.range.upperBound) else { throw .notAMovieIndex }
                body += box("udta", inner.filter { $0.type != "chpl" }.flatMap { moov[$0.range] } + chpl)
                placedUdta = true
            default:
                body += moov[child.range]
            }
        }
        if kept.isEmpty {
            trackAt = body.count
            body += track.bytes
        }
        if !placedUdta { body += box("udta", chpl) }
        var result = box("moov", body)
        let delta = Int64(result.count) - Int64(moov.count)
        try shiftChunkOffsets(&result, from: moovEnd, by: delta)
        // The titles go after everything: the track's one chunk starts past the appendix's mdat header.
        let at = (result.count - body.count) + trackAt + track.chunkOffsetAt, width = track.wide ? 8 : 4
        let chunk = UInt64(Int64(fileSize) + delta) + 8
        guard track.wide || chunk <= UInt64(UInt32.max) else { throw .offsetsOverflow }
        result.replaceSubrange(at..<at + width, with: bigEndian(chunk, bytes: width))
        return Rewrite(moov: result, appendix: box("mdat", track.samples))
    }

    /// The chapters of a moov's `chpl` box (empty without one): what `rewrite` wrote.
    public static func read(moov: [UInt8]) -> [TakeChapter] {
        guard let top = header(moov, at: 0), top.type == "moov", top.size <= moov.count,
              let udta = boxes(moov, in: top.bodyStart..<top.size)?.first(where: { $0.type == "udta" }),
              let chpl = boxes(moov, in: udta.bodyStart..<udta.range.upperBound)?.first(where: { $0.type == "chpl" }) else { return [] }
        let bytes = Array(moov[chpl.bodyStart..<chpl.range.upperBound])
        guard bytes.count >= 5 else { return [] }
        var at = bytes[0] == 0 ? 4 : 8
        guard at < bytes.count else { return [] }
        let count = Int(bytes[at])
        at += 1
        var chapters: [TakeChapter] = []
        for _ in 0..<count {
            guard at + 9 <= bytes.count else { break }
            let start = bytes[at..<at + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let length = Int(bytes[at + 8])
            at += 9
            guard at + length <= bytes.count else { break }
            chapters.append(TakeChapter(atSeconds: Double(start) / 1e7, title: String(decoding: bytes[at..<at + length], as: UTF8.self)))
            at += length
        }
        return chapters
    }

    /// The chunk offsets of every track (`stco` and `co64`), in file order of the tracks: for tests and checks.
    public static func chunkOffsets(moov: [UInt8]) -> [[UInt64]] {
        tables(in: moov).map { table in
            (0..<table.count).map { i in
                let at = table.first + i * table.width
                return moov[at..<at + table.width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
        }
    }

    // MARK: - Boxes

    /// A box inside a byte array: its type, where its body starts and the bytes it covers.
    struct Box {
        var type: String
        var bodyStart: Int
        var range: Range<Int>
        var size: Int { range.count }
    }

    /// The box whose header is at `at` (8 bytes, or 16 with a 64-bit size; size 0: to the end of `bytes`).
    static func header(_ bytes: [UInt8], at: Int, end: Int? = nil) -> Box? {
        let end = end ?? bytes.count
        guard at + 8 <= end else { return nil }
        var size = bytes[at..<at + 4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var bodyStart = at + 8
        if size == 1 {
            guard at + 16 <= end else { return nil }
            size = bytes[at + 8..<at + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            bodyStart = at + 16
        } else if size == 0 {
            size = UInt64(end - at)
        }
        guard size >= UInt64(bodyStart - at), size <= UInt64(end - at) else { return nil }
        let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
        return Box(type: type, bodyStart: bodyStart, range: at..<at + Int(size))
    }

    /// The boxes filling `range` exactly, or nil when their sizes do not add up.
    static func boxes(_ bytes: [UInt8], in range: Range<Int>) -> [Box]? {
        var list: [Box] = []
        var at = range.lowerBound
        while at < range.upperBound {
            guard let box = header(bytes, at: at, end: range.upperBound) else { return nil }
            list.append(box)
            at = box.range.upperBound
        }
        return list
    }

    /// A box of `type` around `body`, with a 64-bit size only when it needs one.
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt64(body.count) + 8
        if size <= UInt64(UInt32.max) { return bigEndian(size, bytes: 4) + Array(type.utf8) + body }
        return bigEndian(1, bytes: 4) + Array(type.utf8) + bigEndian(size + 8, bytes: 8) + body
    }

    static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// A title as at most `maxTitleBytes` of UTF-8, cut before a character that would not fit whole.
    static func titleBytes(_ title: String) -> [UInt8] {
        var out: [UInt8] = []
        for character in title where !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            let utf8 = Array(String(character).utf8)
            guard out.count + utf8.count <= maxTitleBytes else { break }
            out += utf8
        }
        return out
    }

    // MARK: - Chunk offsets

    /// Where a chunk-offset table's entries are: the first byte, how many, and their width (4 or 8).
    private struct Table { var first: Int; var count: Int; var width: Int }

    /// The `stco`/`co64` tables of every track: moov → trak → mdia → minf → stbl.
    private static func tables(in moov: [UInt8]) -> [Table] {
        func walk(_ range: Range<Int>, _ path: ArraySlice<String>) -> [Box] {
            guard let children = boxes(moov, in: range) else { return [] }
            guard let next = path.first else { return children.filter { $0.type == "stco" || $0.type == "co64" } }
            return children.filter { $0.type == next }.flatMap { walk($0.bodyStart..<$0.range.upperBound, path.dropFirst()) }
        }
        guard let top = header(moov, at: 0), top.type == "moov" else { return [] }
        return walk(top.bodyStart..<top.range.upperBound, ["trak", "mdia", "minf", "stbl"]).compactMap { box in
            // A full box: version and flags, then the entry count.
            let width = box.type == "co64" ? 8 : 4, countAt = box.bodyStart + 4
            guard countAt + 4 <= box.range.upperBound else { return nil }
            let count = Int(moov[countAt..<countAt + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            guard count <= (box.range.upperBound - countAt - 4) / width else { return nil }
            return Table(first: countAt + 4, count: count, width: width)
        }
    }

    /// Adds `delta` to every chunk offset at or past `from` (the media data after the moov).
    private static func shiftChunkOffsets(_ moov: inout [UInt8], from: UInt64, by delta: Int64) throws(Problem) {
        guard delta != 0 else { return }
        for table in tables(in: moov) {
            for i in 0..<table.count {
                let at = table.first + i * table.width
                let offset = moov[at..<at + table.width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard offset >= from else { continue }
                let moved = Int64(offset) + delta
                guard moved >= 0, table.width == 8 || moved <= Int64(UInt32.max) else { throw .offsetsOverflow }
                moov.replaceSubrange(at..<at + table.width, with: bigEndian(UInt64(moved), bytes: table.width))
            }
        }
    }
}
