//  The QuickTime chapter track (what Apple's players show as chapters; ffmpeg reads it too): a text track,
//  disabled so it is never shown as subtitles, that the first video track names in `tref/chap`. Its
//  samples are the titles, one per chapter, each as long as its chapter; laid out as ffmpeg writes one:
//
//   trak ─┬─ tkhd (flags: in movie, not enabled)
//         └─ mdia ─┬─ mdhd (1000 per second) · hdlr "text"
//                  └─ minf ─┬─ gmhd (gmin, text) · dinf (dref: in this file)
//                           └─ stbl ─ stsd "text" (+ ftab) · stts · stsc (one chunk) · stsz · stco/co64
//   sample: title length (2 bytes), UTF-8 title, encd box (UTF-8)

extension MP4Chapters {
    /// The movie header's clock, length and next free track number.
    ///
    /// Thread: value type.
    struct MovieHeader {
        var bytes: [UInt8]
        var timescale: UInt64
        var duration: UInt64
        var nextTrackID: UInt32

        init?(_ moov: [UInt8], _ box: Box) {
            let body = Array(moov[box.bodyStart..<box.range.upperBound])
            func number(_ at: Int, _ width: Int) -> UInt64 { body[at..<at + width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            let wide = body.first == 1
            guard body.count >= (wide ? 112 : 100) else { return nil }
            bytes = Array(moov[box.range])
            timescale = number(wide ? 20 : 12, 4)
            duration = number(wide ? 24 : 16, wide ? 8 : 4)
            nextTrackID = UInt32(number(body.count - 4, 4))
            guard timescale > 0 else { return nil }
        }

        /// The box with another next free track number (its last four bytes).
        func with(nextTrackID: UInt32) -> [UInt8] {
            Array(bytes.dropLast(4)) + bigEndian(UInt64(nextTrackID), bytes: 4)
        }
    }

    /// The chapter track and where in it the one chunk offset is (to set once the moov's size is known).
    ///
    /// Thread: value type.
    struct ChapterTrack {
        var bytes: [UInt8]
        var chunkOffsetAt: Int
        var wide: Bool
        var samples: [UInt8]
    }

    /// The children of `box` (nil when their sizes do not add up).
    private static func children(_ moov: [UInt8], _ box: Box) -> [Box]? { boxes(moov, in: box.bodyStart..<box.range.upperBound) }

    private static func child(_ moov: [UInt8], _ box: Box, _ path: [String]) -> Box? {
        var at = box
        for type in path {
            guard let next = children(moov, at)?.first(where: { $0.type == type }) else { return nil }
            at = next
        }
        return at
    }

    private static func number(_ moov: [UInt8], _ at: Int, _ width: Int) -> UInt64? {
        guard at >= 0, at + width <= moov.count else { return nil }
        return moov[at..<at + width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// A track's number (`tkhd`).
    static func trackID(_ moov: [UInt8], _ trak: Box) -> UInt32? {
        guard let tkhd = child(moov, trak, ["tkhd"]) else { return nil }
        let at = tkhd.bodyStart + (moov[tkhd.bodyStart] == 1 ? 20 : 12)
        guard at + 4 <= tkhd.range.upperBound else { return nil }
        return number(moov, at, 4).map { UInt32($0) }
    }

    /// A track's kind: "vide", "soun", "text"… (`mdia/hdlr`).
    static func handler(_ moov: [UInt8], _ trak: Box) -> String? {
        guard let hdlr = child(moov, trak, ["mdia", "hdlr"]), hdlr.bodyStart + 12 <= hdlr.range.upperBound else { return nil }
        return String(decoding: moov[hdlr.bodyStart + 8..<hdlr.bodyStart + 12], as: UTF8.self)
    }

    /// The chapter tracks a track names (`tref/chap`).
    static func chapterReferences(_ moov: [UInt8], _ trak: Box) -> [UInt32] {
        guard let chap = child(moov, trak, ["tref", "chap"]) else { return [] }
        return stride(from: chap.bodyStart, to: chap.range.upperBound - 3, by: 4).compactMap { number(moov, $0, 4).map { UInt32($0) } }
    }

    /// `trak` without chapter references, naming `chapterTrack` when given (a `tref` after its `tkhd`).
    static func referencing(_ moov: [UInt8], _ trak: Box, chapterTrack: UInt32?) throws(Problem) -> [UInt8] {
        guard let inner = children(moov, trak) else { throw .notAMovieIndex }
        guard chapterTrack != nil || inner.contains(where: { $0.type == "tref" }) else { return Array(moov[trak.range]) }
        var body: [UInt8] = [], others: [UInt8] = []
        for box in inner where box.type == "tref" {
            guard let refs = children(moov, box) else { throw .notAMovieIndex }
            others += refs.filter { $0.type != "chap" }.flatMap { moov[$0.range] }
        }
        let chap = chapterTrack.map { box("chap", bigEndian(UInt64($0), bytes: 4)) } ?? []
        let tref = others.isEmpty && chap.isEmpty ? [] : box("tref", others + chap)
        for box in inner where box.type != "tref" {
            body += moov[box.range]
            if box.type == "tkhd" { body += tref }
        }
        if !inner.contains(where: { $0.type == "tkhd" }) { body = tref + body }
        return box("trak", body)
    }

    /// The chapter track numbered `id`, as long as the movie (or its last chapter), its chunk offset
    /// left 0 for the caller; 64-bit when `wide`.
    static func chapterTrack(_ chapters: [TakeChapter], id: UInt32, movie: MovieHeader, wide: Bool) -> ChapterTrack {
        var list = ordered(chapters)
        if let first = list.first, first.atSeconds > 0 { list.insert(TakeChapter(atSeconds: 0, title: ""), at: 0) }
        let starts = list.map { UInt64((max($0.atSeconds, 0) * 1000).rounded()) }
        let movieMs = movie.duration * 1000 / movie.timescale
        let total = max(movieMs, (starts.last ?? 0) + 1)
        let durations = starts.indices.map { i in (i + 1 < starts.count ? starts[i + 1] : total) - starts[i] }   // in order: never negative
        let encd = box("encd", [0, 0, 1, 0])   // the text is UTF-8
        let samples = list.map { chapter -> [UInt8] in
            let title = titleBytes(chapter.title)
            return bigEndian(UInt64(title.count), bytes: 2) + title + encd
        }
        func be(_ v: UInt64, _ n: Int) -> [UInt8] { bigEndian(v, bytes: n) }
        let matrix = be(0x10000, 4) + be(0, 12) + be(0x10000, 4) + be(0, 12) + be(0x4000_0000, 4)
        let trackLength = total * movie.timescale / 1000
        let tkhd = box("tkhd", be(2, 4) + be(0, 8) + be(UInt64(id), 4) + be(0, 4) + be(min(trackLength, UInt64(UInt32.max)), 4)
                       + be(0, 8) + be(0, 8) + matrix + be(0, 8))
        let mdhd = box("mdhd", be(0, 12) + be(1000, 4) + be(min(total, UInt64(UInt32.max)), 4) + be(0x55C4, 2) + be(0, 2))
        let hdlr = box("hdlr", be(0, 8) + Array("text".utf8) + be(0, 12) + Array("Chapters".utf8) + [0])
        let gmhd = box("gmhd", box("gmin", be(0, 4) + be(0x40, 2) + be(0x8000, 2) + be(0x8000, 2) + be(0x8000, 2) + be(0, 4))
                       + box("text", be(0x1_0000_0000_0000, 8) + be(0, 8) + be(0x1_0000_0000_0000, 8) + be(0, 8) + be(0x4000_0000, 4)))
        let dinf = box("dinf", box("dref", be(0, 4) + be(1, 4) + box("url ", be(1, 4))))
        // A QuickTime text description as ffmpeg writes it for chapters, and a font table of one font.
        let description = be(1, 4) + be(0, 20) + be(1, 4) + be(0, 2)
        let stsd = box("stsd", be(0, 4) + be(1, 4) + box("text", be(0, 6) + be(1, 2) + description + box("ftab", be(1, 2) + be(1, 2) + [0])))
        let stts = box("stts", be(0, 4) + be(UInt64(durations.count), 4) + durations.flatMap { be(1, 4) + be($0, 4) })
        let stsc = box("stsc", be(0, 4) + be(1, 4) + be(1, 4) + be(UInt64(samples.count), 4) + be(1, 4))
        let stsz = box("stsz", be(0, 4) + be(0, 4) + be(UInt64(samples.count), 4) + samples.flatMap { be(UInt64($0.count), 4) })
        let stco = box(wide ? "co64" : "stco", be(0, 4) + be(1, 4) + be(0, wide ? 8 : 4))
        let stbl = box("stbl", stsd + stts + stsc + stsz + stco)
        let trak = box("trak", tkhd + box("mdia", mdhd + hdlr + box("minf", gmhd + dinf + stbl)))
        return ChapterTrack(bytes: trak, chunkOffsetAt: trak.count - (wide ? 8 : 4), wide: wide, samples: samples.flatMap { $0 })
    }
}
