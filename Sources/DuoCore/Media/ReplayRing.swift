import Foundation

//  The replay buffer's memory (`--replay SECONDS`, issue 39): the last SECONDS of encoded video and sound,
//  as packets in pipeline running time. Pure: DuoMedia's replay branch feeds it the encoder's packets
//  (their payload a held GstBuffer) and asks it for the packets to write when a replay is saved.
//
//   video: K d d d … K d d d … K d d     (K: a keyframe; whole GOPs leave from the front)
//   audio: a a a a a a a a a a a a a a     (kept from the first video packet kept on)
//
//  Two bounds: time (the oldest GOP leaves once the newest keyframe at or before now − SECONDS is
//  later than it), and bytes (a cap from the bitrate: whole GOPs leave from the front until the ring
//  is under it; a GOP larger than the whole cap is dropped too, and the ring waits for the next keyframe).

/// One encoded packet kept by the replay buffer.
///
/// Thread: value type; Sendable when its payload is.
public struct ReplayPacket<Payload> {
    public enum Track: Sendable { case video, audio }
    public var track: Track
    /// Presentation time, pipeline running time, ns.
    public var pts: Int64
    /// ns (0 when the encoder gave none).
    public var duration: Int64
    /// Bytes of payload.
    public var size: Int
    /// A video keyframe (every audio packet starts a stream by itself).
    public var isKeyframe: Bool
    public var payload: Payload

    public init(track: Track, pts: Int64, duration: Int64, size: Int, isKeyframe: Bool, payload: Payload) {
        self.track = track; self.pts = pts; self.duration = duration; self.size = size
        self.isKeyframe = isKeyframe; self.payload = payload
    }

    /// Where the packet ends, ns.
    public var end: Int64 { pts + max(duration, 0) }
}

extension ReplayPacket: Sendable where Payload: Sendable {}

/// The replay buffer's packets, bounded by time and by bytes.
///
/// Thread: value type; the replay branch keeps it behind a lock (appended on the streaming threads,
/// read on the capture session's actor).
public struct ReplayRing<Payload> {
    public typealias Packet = ReplayPacket<Payload>

    /// The span kept, ns.
    public let window: Int64
    /// The most bytes kept (video and sound together).
    public let byteCap: Int
    public private(set) var video: [Packet] = []
    public private(set) var audio: [Packet] = []
    /// Bytes held now.
    public private(set) var bytes = 0
    /// The most bytes ever held (after each append's eviction).
    public private(set) var peakBytes = 0
    /// Packets left out since the start because the ring waited for a keyframe (the first GOP's start,
    /// after a GOP larger than the cap, after `reset`).
    public private(set) var skippedPackets = 0
    private var waitingForKeyframe = true

    public init(seconds: Int, byteCap: Int) {
        window = Int64(seconds) * 1_000_000_000
        self.byteCap = max(byteCap, 1)
    }

    /// The cap for `seconds` of video at `videoKbps` and sound at `audioKbps`: one and a half times what
    /// the bitrates say (an encoder over its rate for a while, a keyframe's burst), plus two seconds of
    /// slack, so the time bound is what normally acts.
    public static func byteCap(seconds: Int, videoKbps: Int, audioKbps: Int) -> Int {
        let bytesPerSecond = Double(videoKbps + audioKbps) * 1000 / 8
        return Int((bytesPerSecond * (Double(seconds) * 1.5 + 2)).rounded(.up))
    }

    /// What `seconds` of video at `videoKbps` and sound at `audioKbps` hold at their rates, bytes.
    public static func nominalBytes(seconds: Int, videoKbps: Int, audioKbps: Int) -> Int {
        Int(Double(videoKbps + audioKbps) * 1000 / 8 * Double(seconds))
    }

    /// Adds the encoder's next packet and evicts what falls out of either bound.
    public mutating func append(_ packet: Packet) {
        switch packet.track {
        case .video:
            if waitingForKeyframe {
                guard packet.isKeyframe else { skippedPackets += 1; return }
                waitingForKeyframe = false
            }
            video.append(packet)
        case .audio:
            // Sound before the first video kept has no picture to go with; it is not kept.
            guard let first = video.first, packet.pts >= first.pts else { skippedPackets += 1; return }
            audio.append(packet)
        }
        bytes += packet.size
        evictByTime()
        evictByBytes()
        peakBytes = max(peakBytes, bytes)
    }

    /// Drops everything; the ring starts again at the next keyframe (the encoder's caps changed).
    public mutating func reset() {
        video.removeAll()
        audio.removeAll()
        bytes = 0
        waitingForKeyframe = true
    }

    /// The newest video packet's end, ns (nil when empty).
    public var newestVideoEnd: Int64? { video.last?.end }

    /// The span held, ns: from the first keyframe to the newest video packet's end.
    public var heldSpan: Int64 { guard let first = video.first, let end = newestVideoEnd else { return 0 }; return end - first.pts }

    /// What a replay writes: the video from its first keyframe (the ring always starts at one) and the
    /// sound from that keyframe's time on; nil when no keyframe has arrived yet.
    public func snapshot() -> (video: [Packet], audio: [Packet])? {
        guard let first = video.first, first.isKeyframe else { return nil }
        return (video, audio.filter { $0.pts >= first.pts })
    }

    /// Drops whole GOPs from the front while the next GOP already starts at or before newest − window:
    /// the ring keeps from the newest keyframe at or before that instant.
    private mutating func evictByTime() {
        guard let newest = newestVideoEnd else { return }
        let horizon = newest - window
        var keep = 0
        for (index, packet) in video.enumerated() where packet.isKeyframe {
            if packet.pts <= horizon { keep = index } else { break }
        }
        if keep > 0 { dropVideo(first: keep) }
    }

    /// Drops whole GOPs from the front while over the byte cap; a single GOP over the cap is dropped as
    /// well, and the ring waits for the next keyframe.
    private mutating func evictByBytes() {
        while bytes > byteCap, !video.isEmpty {
            if let next = video.indices.dropFirst().first(where: { video[$0].isKeyframe }) {
                dropVideo(first: next)
            } else {
                reset()
                skippedPackets += 1
            }
        }
    }

    private mutating func dropVideo(first count: Int) {
        for packet in video.prefix(count) { bytes -= packet.size }
        video.removeFirst(count)
        guard let first = video.first else { return }
        let stale = audio.prefix { $0.pts < first.pts }.count
        for packet in audio.prefix(stale) { bytes -= packet.size }
        audio.removeFirst(stale)
    }
}

extension ReplayRing: Sendable where Payload: Sendable {}

/// The replay buffer's length: `--replay SECONDS`, 1 to 300.
///
/// Thread: value type, Sendable; pure.
public enum ReplayLength {
    public static let range = 1...300

    /// Parses `--replay`'s value; a one-line error saying the range otherwise.
    public static func parse(_ text: String) throws(DuoError) -> Int {
        guard let seconds = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(seconds) else {
            throw .usage(.text("--replay takes whole seconds from %s to %s (the span kept in memory), such as --replay 60; got \"%s\"",
                               range.lowerBound, range.upperBound, TerminalText.escaped(text, limit: 20)))
        }
        return seconds
    }
}
