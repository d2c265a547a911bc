import Foundation

/// An encoded video stream as a digest saw it: frames, bytes, a digest of their sizes and bytes in order,
/// and of the last caps' codec data (0: none).
///
/// Thread: value type, Sendable; pure.
public struct EncodedStreamFacts: Sendable, Equatable {
    public var frames: Int64
    public var bytes: Int64
    public var digest: UInt64
    public var codecData: UInt64
    public var keyframes: Int64

    public init(frames: Int64, bytes: Int64, digest: UInt64, codecData: UInt64, keyframes: Int64) {
        self.frames = frames
        self.bytes = bytes
        self.digest = digest
        self.codecData = codecData
        self.keyframes = keyframes
    }
}

/// Whether a joined file proves the join: it must hold exactly the frames the encoder gave the muxer
/// (same count, same bytes in the same order, same codec data: nothing lost, cut off or damaged on the
/// way to the disk), one for each picture that entered the encoder, and every one of them must decode.
/// The segments go only when `problem` is nil (`SegmentJoiner`).
///
/// Thread: value type, Sendable; pure.
public struct SegmentJoinProof: Sendable, Equatable {
    /// Raw pictures that entered the encoder (after scaling and pacing).
    public var pictures: Int64
    /// The encoded stream as the graph handed it to the muxer.
    public var encoded: EncodedStreamFacts
    /// The video stream as read back from the written file (demuxed, before decoding).
    public var stored: EncodedStreamFacts
    /// Frames that decoded from the written file.
    public var decoded: Int64
    /// Whether the join wrote sound, and how many sound buffers decoded from the file.
    public var audio: Bool
    public var decodedAudio: Int64
    /// The length the file's container states (nil: it does not say, as a file never finished; with
    /// sound, its longer stream's), and the joined format's frame interval, ns.
    public var duration: Int64?
    public var frameInterval: Int64

    public init(pictures: Int64, encoded: EncodedStreamFacts, stored: EncodedStreamFacts, decoded: Int64, audio: Bool, decodedAudio: Int64,
                duration: Int64?, frameInterval: Int64) {
        self.pictures = pictures
        self.encoded = encoded
        self.stored = stored
        self.decoded = decoded
        self.audio = audio
        self.decodedAudio = decodedAudio
        self.duration = duration
        self.frameInterval = frameInterval
    }

    /// What is wrong with the joined file (a clause for "the joined file …"), or nil when it proves the join.
    public var problem: String? {
        if encoded.frames == 0 || pictures == 0 { return "holds no frames" }
        if stored.frames != encoded.frames { return "holds \(stored.frames) of the \(encoded.frames) frames encoded" }
        if stored.bytes != encoded.bytes || stored.digest != encoded.digest { return "holds frames that differ from those encoded" }
        if stored.codecData != encoded.codecData { return "has codec data that differs from the encoder's" }
        if stored.keyframes != encoded.keyframes { return "marks \(stored.keyframes) of the \(encoded.keyframes) keyframes encoded" }
        if encoded.frames != pictures { return "got \(encoded.frames) encoded frames for \(pictures) pictures" }
        let length = stored.frames * frameInterval
        guard let duration else { return "does not state its length (it was not finished)" }
        // The container's length is its longest stream's: the sound may run a little past the pictures.
        if duration < length - frameInterval || (!audio && duration > length + frameInterval) {
            return "states a length of \(seconds(duration)) s for \(stored.frames) frames (\(seconds(length)) s)"
        }
        if decoded != stored.frames { return "decodes only \(decoded) of its \(stored.frames) frames" }
        if audio && decodedAudio == 0 { return "has no sound that decodes" }
        return nil
    }

    private func seconds(_ ns: Int64) -> String { String(format: "%.2f", Double(ns) / 1e9) }
}
