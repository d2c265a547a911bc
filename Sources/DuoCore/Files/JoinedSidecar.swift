import Foundation

/// The sidecar of a take joined from its segments (`--swap-policy segment`, `duo-capture join`): the take's
/// own, not its last segment's. Its number and start are the first segment's, its end the last's; every
/// swap, marker and interruption of every segment is there at its time in the joined file (each segment's
/// times shifted by the length of the segments before it, a swap both segments saw told once); it lists
/// the segments it was made from, and says how each was brought to the joined format (scaled with
/// borders, frames repeated or dropped to the first segment's rate).
///
/// Thread: value type, Sendable; pure.
public struct JoinedSidecar: Sendable, Equatable {
    /// One segment as the join found it: its file's name, its own sidecar (nil: none was found), and what
    /// its headers say (format and length).
    public struct Segment: Sendable, Equatable {
        public var name: String
        public var sidecar: TakeSidecar?
        public var format: VideoFormat
        public var durationSeconds: Double
        public init(name: String, sidecar: TakeSidecar?, format: VideoFormat, durationSeconds: Double) {
            self.name = name; self.sidecar = sidecar; self.format = format; self.durationSeconds = durationSeconds
        }
    }

    /// How a segment at `from` is brought to the joined format `to`: "none", "repeated" (a slower camera:
    /// frames repeated up to the rate) or "dropped" (a faster one: frames dropped down to it).
    public static func rateConversion(from: FrameRate, to: FrameRate) -> String {
        let a = from.value, b = to.value
        if abs(a - b) < 0.01 { return "none" }
        return a < b ? "repeated" : "dropped"
    }

    /// The number in a take file's name (`duo-…-take07.mkv` → 7), or nil.
    public static func takeNumber(inName name: String) -> Int? {
        guard let r = name.range(of: "take", options: .backwards) else { return nil }
        let digits = name[r.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits)
    }

    /// Where each segment begins in the joined file, s (the lengths of those before it).
    public static func offsets(_ segments: [Segment]) -> [Double] {
        var t = 0.0
        return segments.map { s in defer { t += max(0, s.durationSeconds) }; return t }
    }

    /// The joined take's sidecar. `file`: the joined file's name; `format`: the joined format (the first
    /// segment's); `frames`, `durationSeconds`: what decoding the joined file found; `audioBuffers`: its
    /// sound (nil: it has none); `repeated`, `dropped`: frames the join's rate conversion added and left
    /// out (nil: not known); `take`: the take's number when the caller knows it (else the first
    /// segment's, else 1); `toolVersion`, `gstreamerVersion`: for a sidecar made without any segment's.
    public static func make(_ segments: [Segment], file: String, format: VideoFormat, frames: Int64, durationSeconds: Double,
                            audioBuffers: Int64?, repeated: Int64?, dropped: Int64?, segmentsKept: Bool, take: Int? = nil,
                            toolVersion: String, gstreamerVersion: String, encoder: String, container: String,
                            now: Date = Date()) -> TakeSidecar {
        let sidecars = segments.compactMap(\.sidecar)
        let first = sidecars.first, last = sidecars.last
        var s = first ?? TakeSidecar(toolVersion: toolVersion, gstreamerVersion: gstreamerVersion, take: take ?? 1, file: file,
                                     started: now, countdownSeconds: 0, cameras: [], format: format.description, aspect: nil,
                                     encoder: encoder, container: container, audio: nil)
        s.take = take ?? first?.take ?? segments.first.flatMap { takeNumber(inName: $0.name) } ?? 1
        s.file = file
        s.format = format.description
        s.ended = last?.ended
        // The joined file is finished: it was proved to hold every frame encoded, each decoding.
        s.complete = true
        s.error = sidecars.compactMap(\.error).first
        s.mark = sidecars.compactMap(\.mark).last
        s.recordedBy = nil
        s.segment = nil
        s.segments = segments.map(\.name)
        s.frames = frames
        s.durationSeconds = durationSeconds
        // The cameras' own drops (each counted at its own rate); the join's rate conversion is told apart.
        let drops = sidecars.compactMap(\.droppedFrames)
        s.droppedFrames = drops.isEmpty ? nil : drops.reduce(0, +)
        s.startLatencyMs = first?.startLatencyMs
        if audioBuffers == nil { s.audio = nil } else if s.audio != nil { s.audio?.buffers = audioBuffers; s.audio?.gaps = nil }

        let offsets = self.offsets(segments)
        // How near a told swap must be to a boundary to be that boundary's swap: within half a second, and
        // within half of the shorter segment beside it.
        func near(_ i: Int) -> Double {
            min(0.5, segments[max(0, i - 1)].durationSeconds / 2, segments[i].durationSeconds / 2)
        }
        var swaps: [TakeSidecar.Swap] = [], markers: [TakeSidecar.Marker] = [], interruptions: [TakeSidecar.Interruption] = []
        var gaps: [TakeSidecar.Audio.Gap] = []
        for (i, segment) in segments.enumerated() {
            let at = offsets[i], end = at + max(0, segment.durationSeconds)
            func place(_ t: Double) -> Double { ((min(end, at + max(0, t))) * 1000).rounded() / 1000 }
            guard let own = segment.sidecar else { continue }
            for w in own.swaps {
                let moved = TakeSidecar.Swap(atSeconds: place(w.atSeconds), from: w.from, to: w.to, format: w.format)
                // The swap that ended one segment may be told again by the next: once is enough.
                if !swaps.contains(where: { $0.from == moved.from && $0.to == moved.to && abs($0.atSeconds - moved.atSeconds) < 0.5 }) {
                    swaps.append(moved)
                }
            }
            for m in own.markersPassed where !markers.contains(where: { $0.title == m.title && abs($0.atSeconds - place(m.atSeconds)) < 0.5 }) {
                markers.append(.init(title: m.title, atSeconds: place(m.atSeconds)))
            }
            for r in own.interruptions ?? [] {
                interruptions.append(.init(atSeconds: place(r.atSeconds), device: r.device, what: r.what, reason: r.reason))
            }
            for g in own.audio?.gaps ?? [] { gaps.append(.init(fromSeconds: place(g.fromSeconds), toSeconds: place(g.toSeconds))) }
        }
        // A boundary no sidecar told of (segments without sidecars): the swap is still the take's.
        // (A take in segments swaps between them, after one segment ends and before the next begins, so
        // the segments' own sidecars rarely tell it.)
        for i in segments.indices.dropFirst() where !swaps.contains(where: { abs($0.atSeconds - offsets[i]) <= near(i) }) {
            let from = segments[i - 1].sidecar?.recordedBy ?? segments[i - 1].name, to = segments[i].sidecar?.recordedBy ?? segments[i].name
            swaps.append(.init(atSeconds: (offsets[i] * 1000).rounded() / 1000, from: from, to: to, format: segments[i].format.description))
        }
        s.swaps = swaps.sorted { $0.atSeconds < $1.atSeconds }
        s.markersPassed = markers.sorted { $0.atSeconds < $1.atSeconds }
        s.interruptions = interruptions.isEmpty ? nil : interruptions.sorted { $0.atSeconds < $1.atSeconds }
        if !gaps.isEmpty, s.audio != nil { s.audio?.gaps = gaps }

        let sources = segments.map { seg in
            TakeSidecar.Join.Source(file: seg.name, format: seg.format.description, frames: seg.sidecar?.frames,
                                    durationSeconds: (seg.durationSeconds * 1000).rounded() / 1000,
                                    rateConversion: rateConversion(from: seg.format.frameRate, to: format.frameRate),
                                    scaled: seg.format.width != format.width || seg.format.height != format.height)
        }
        s.join = .init(segments: segments.map(\.name), format: format.description, frames: frames, durationSeconds: durationSeconds,
                       segmentsKept: segmentsKept, sources: sources, framesRepeated: repeated, framesDropped: dropped)
        return s
    }
}
