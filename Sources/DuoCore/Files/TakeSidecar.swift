import Foundation

/// The JSON file written next to each take (`duo-…-take01.json` beside `duo-…-take01.mkv`): what was
/// recorded, with what, and what happened during it. A preliminary copy (`complete: false`) is written
/// when the take starts, so even a killed run leaves its metadata; the final copy replaces it when the
/// take ends.
///
/// Thread: value type; written synchronously by whoever ends the take.
public struct TakeSidecar: Codable, Sendable, Equatable {
    public struct Camera: Codable, Sendable, Equatable {
        /// Which of the configured cameras (`A`, later `B` for the second one).
        public var role: String
        public var label: String
        /// The mode the camera was opened in, e.g. `1920x1080@30 I420`.
        public var mode: String
        /// True when the camera delivers depth as well (absent otherwise).
        public var depth: Bool?
        public init(role: String, label: String, mode: String, depth: Bool? = nil) {
            self.role = role; self.label = label; self.mode = mode; self.depth = depth
        }
    }
    /// A camera swap during the take (none yet: swaps arrive with the second camera).
    public struct Swap: Codable, Sendable, Equatable {
        public var atSeconds: Double
        public var from: String
        public var to: String
        public var format: String
        public init(atSeconds: Double, from: String, to: String, format: String) {
            self.atSeconds = atSeconds; self.from = from; self.to = to; self.format = format
        }
    }
    /// A device lost or restored during the take: camera A or B (the take went on with the other), or the
    /// microphone (the take went on without sound).
    public struct Interruption: Codable, Sendable, Equatable {
        public var atSeconds: Double
        /// "A", "B" or "microphone".
        public var device: String
        /// "lost" or "restored".
        public var what: String
        public var reason: String?
        public init(atSeconds: Double, device: String, what: String, reason: String? = nil) {
            self.atSeconds = atSeconds; self.device = device; self.what = what; self.reason = reason
        }
    }
    /// A cue to the talent sent while the take recorded (`{"cmd":"cue"}`): its words and preset, for how
    /// long (absent: until cleared), or `cleared`.
    public struct Cue: Codable, Sendable, Equatable {
        public var atSeconds: Double
        public var text: String?
        public var preset: String?
        public var seconds: Double?
        public var cleared: Bool?
        public init(atSeconds: Double, text: String?, preset: String?, seconds: Double?, cleared: Bool?) {
            self.atSeconds = atSeconds; self.text = text; self.preset = preset; self.seconds = seconds; self.cleared = cleared
        }
    }
    /// A script marker (heading) the teleprompter passed during the take.
    public struct Marker: Codable, Sendable, Equatable {
        public var title: String
        public var atSeconds: Double
        public init(title: String, atSeconds: Double) { self.title = title; self.atSeconds = atSeconds }
    }
    public struct Audio: Codable, Sendable, Equatable {
        public var source: String
        public var encoder: String
        public var buffers: Int64?
        /// A named microphone lost during the take: each span the take holds silence instead of its
        /// sound, seconds from the take's start (absent when the sound never went).
        public var gaps: [Gap]?
        public struct Gap: Codable, Sendable, Equatable {
            public var fromSeconds: Double
            public var toSeconds: Double
            public init(fromSeconds: Double, toSeconds: Double) { self.fromSeconds = fromSeconds; self.toSeconds = toSeconds }
        }
        public init(source: String, encoder: String, buffers: Int64?) { self.source = source; self.encoder = encoder; self.buffers = buffers }
    }

    public var tool = "duo-capture"
    public var toolVersion: String
    public var gstreamerVersion: String
    public var take: Int
    public var file: String
    /// False while the take records (and after a crash); true once the file was finalised.
    public var complete: Bool
    /// ISO 8601 with milliseconds, local offset.
    public var started: String
    public var ended: String?
    public var countdownSeconds: Int
    public var cameras: [Camera]
    /// The recorded picture after the --aspect crop, e.g. `1080x1080@30`.
    public var format: String
    public var aspect: String?
    public var encoder: String
    public var container: String
    public var audio: Audio?
    public var swaps: [Swap]
    /// The camera that recorded this file ("A" or "B"; with two cameras in individual mode each segment
    /// is one camera's). Absent with one camera.
    public var recordedBy: String?
    /// In individual mode a take swapped to a camera of another format goes on in a new file: every
    /// segment of one take shares `takeId` and counts up `segment` from 1; the last one lists them all.
    public var takeId: String?
    public var segment: Int?
    public var segments: [String]?
    /// A take recorded in segments, joined into one file: this sidecar's file is the join (see `Join`).
    public var join: Join?
    public struct Join: Codable, Sendable, Equatable {
        /// The segment files joined, in order.
        public var segments: [String]
        /// The first segment's format, which every segment was scaled into (with borders).
        public var format: String
        public var frames: Int64
        public var durationSeconds: Double
        /// Whether the segments were kept (`--keep-segments`) after the joined file decoded completely.
        public var segmentsKept: Bool
        /// Each segment as it was recorded and how it was brought to the joined format.
        public var sources: [Source]?
        /// Frames the rate conversion repeated (a slower camera's) and left out (a faster one's) in all.
        public var framesRepeated: Int64?
        public var framesDropped: Int64?
        public struct Source: Codable, Sendable, Equatable {
            public var file: String
            /// The segment's own format, e.g. `480x360@15`.
            public var format: String
            /// Frames its camera recorded (from its sidecar; absent when it had none).
            public var frames: Int64?
            public var durationSeconds: Double
            /// `none` (the joined rate), `repeated` (a slower camera: frames repeated up to the joined
            /// rate) or `dropped` (a faster one: frames left out down to it).
            public var rateConversion: String
            /// Scaled into the joined picture size, with borders (never stretched).
            public var scaled: Bool
            public init(file: String, format: String, frames: Int64?, durationSeconds: Double, rateConversion: String, scaled: Bool) {
                self.file = file; self.format = format; self.frames = frames; self.durationSeconds = durationSeconds
                self.rateConversion = rateConversion; self.scaled = scaled
            }
        }
        public init(segments: [String], format: String, frames: Int64, durationSeconds: Double, segmentsKept: Bool,
                    sources: [Source]? = nil, framesRepeated: Int64? = nil, framesDropped: Int64? = nil) {
            self.segments = segments; self.format = format; self.frames = frames
            self.durationSeconds = durationSeconds; self.segmentsKept = segmentsKept
            self.sources = sources; self.framesRepeated = framesRepeated; self.framesDropped = framesDropped
        }
    }
    /// `--require`: the hard requirements the run started with, and what a camera did not meet.
    public var requirements: [String]?
    public var unmetWishes: [String]?
    /// Devices lost and restored while the take recorded (absent when none).
    public var interruptions: [Interruption]?
    public var markersPassed: [Marker]
    /// Cues to the talent sent while the take recorded, seconds from its start (absent when none).
    public var cues: [Cue]?
    /// The script range the take covered (absent without a teleprompter script; TakeSidecar+ScriptRange.swift).
    public var scriptRange: ScriptRange?
    /// With a shot list (`--shots`): the shot's id, the take's number within the shot, and the
    /// operator's mark ("good" or "no-good"; absent while unmarked). A mark given after the take
    /// ended rewrites the sidecar.
    public var shot: String?
    public var shotTake: Int?
    public var mark: String?
    /// The shot list's file (absolute), so `duo-capture report` can list the shots never recorded.
    public var shotList: String?
    /// Notes and flags made while the take recorded (issue 39), in order; absent when none. Written as
    /// each is made, so a killed run's sidecar keeps them.
    public var notes: [TakeNote]?
    /// How many chapters the file was given once its notes were known (absent: only the take's start,
    /// written by the muxer; a killed take's chapters are written at the next start).
    public var chapters: Int?
    public var frames: Int64?
    public var droppedFrames: Int64?
    public var durationSeconds: Double?
    /// First recorded frame's capture time after the countdown's end, ms.
    public var startLatencyMs: Double?
    public var error: String?
    /// What the take did with its script (issue 38): lines read, skipped, repeated, partly; written
    /// after the take by the captioner, with `captions` naming the caption files or why there are none.
    public var review: CaptionReview?
    public var captions: String?
    /// The camera delivered too few frames for the take's length (issue 37, `KeepUp.message`); absent when it kept up.
    public var keepUp: String?
    /// This file is a replay (`--replay`, `save-replay`): the buffer's moments before the save, not a take
    /// that was recorded; absent for a take.
    public var replay: Replay?
    public struct Replay: Codable, Sendable, Equatable {
        /// The buffer's length (`--replay SECONDS`).
        public var bufferSeconds: Int
        /// The wall-clock span the file holds, ISO 8601: its first frame (a keyframe) and its end.
        public var spanStart: String
        public var spanEnd: String
        /// The buffer's memory when saved: bytes held, the most it held so far, its cap (from the bitrate).
        public var bufferBytes: Int?
        public var bufferPeakBytes: Int?
        public var bufferCapBytes: Int?
        /// The notes and flags made in the span (their `atSeconds` from its start): the replay's chapters.
        /// Here, not in the sidecar's `notes`, so a report never counts a note twice (the take's or the
        /// session's, and the replay's).
        public var notes: [TakeNote]?
        public init(bufferSeconds: Int, spanStart: String, spanEnd: String, buffer: ReplayFigures? = nil) {
            self.bufferSeconds = bufferSeconds; self.spanStart = spanStart; self.spanEnd = spanEnd
            bufferBytes = buffer?.bytes; bufferPeakBytes = buffer?.peakBytes; bufferCapBytes = buffer?.byteCap
        }
    }

    public init(toolVersion: String, gstreamerVersion: String, take: Int, file: String, started: Date,
                countdownSeconds: Int, cameras: [Camera], format: String, aspect: String?, encoder: String,
                container: String, audio: Audio?) {
        self.toolVersion = toolVersion
        self.gstreamerVersion = gstreamerVersion
        self.take = take
        self.file = file
        self.complete = false
        self.started = Self.timestamp(started)
        self.countdownSeconds = countdownSeconds
        self.cameras = cameras
        self.format = format
        self.aspect = aspect
        self.encoder = encoder
        self.container = container
        self.audio = audio
        self.swaps = []
        self.markersPassed = []
    }

    /// The sidecar's path for a take file: same name, `.json`.
    public static func path(forTake file: String) -> String {
        ((file as NSString).deletingPathExtension as NSString).appendingPathExtension("json")!
    }

    public static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = .current
        return f.string(from: date)
    }

    public static func date(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }

    public var json: Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(self)) ?? Data()
    }

    /// Writes (atomically: a crash leaves the old copy or the new one, never half of one) next to `file`.
    public func write(nextTo file: String) throws(DuoError) {
        let path = Self.path(forTake: file)
        do {
            try json.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .runtime(.text("cannot write the take's sidecar %s: %s", path, WriteProblem.said(error)))
        }
    }

    public static func read(_ path: String) throws(DuoError) -> TakeSidecar {
        guard let data = FileManager.default.contents(atPath: path) else { throw .input(.text("sidecar %s cannot be read", path)) }
        do { return try JSONDecoder().decode(TakeSidecar.self, from: data) } catch {
            throw .input(.text("sidecar %s is not a duo-capture take sidecar: %s", path, String(describing: error)))
        }
    }
}
