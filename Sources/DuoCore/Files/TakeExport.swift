import Foundation

//  `duo-capture export DIR --format otio|edl|csv`: a folder's takes for an editor, from their sidecars
//  (issue 39). Every time is a whole frame at the take's own rate (the note's time rounded to the nearest
//  frame), so a marker lands on the frame the note was made at.
//
//   sidecars + session notes ─▶ TakeExport.Take (rate, frames, notes, shot, mark, headings)
//                               ─▶ otio (a clip per take, markers) / edl (an event per take, LOC lines) / csv

/// The export's formats, from the take sidecars of a folder.
///
/// Thread: pure; builds strings.
public enum TakeExport {
    public enum Format: String, Sendable, CaseIterable { case otio, edl, csv }

    /// One take as the export sees it.
    public struct Take: Sendable {
        /// The file's path (absolute for the OTIO media reference).
        public var path: String
        public var sidecar: TakeSidecar
        public init(path: String, sidecar: TakeSidecar) { self.path = path; self.sidecar = sidecar }

        /// Frames a second, from the sidecar's `WxH@FPS` (30 when it names none).
        public var rate: FrameRate { VideoFormat.parse(sidecar.format)?.frameRate ?? FrameRate(30) }
        /// The take's length in frames: counted by the sidecar, else its duration at its rate.
        public var frames: Int64 {
            if let f = sidecar.frames, f > 0 { return f }
            return Int64(((sidecar.durationSeconds ?? 0) * rate.value).rounded())
        }
        /// The frame `seconds` into the take falls on (within the take).
        public func frame(_ seconds: Double) -> Int64 {
            guard seconds.isFinite else { return 0 }
            return min(max(Int64((seconds * rate.value).rounded()), 0), max(frames - 1, 0))
        }
        public var name: String { (path as NSString).lastPathComponent }
    }

    /// A marker on a take: a frame, a colour (OTIO's names), a name and a comment.
    public struct Marker: Sendable, Equatable {
        public var frame: Int64
        public var colour: String
        public var name: String
        public var comment: String
    }

    /// Each note and flag, the take's shot (at its first frame), its mark (at its last) and each script
    /// heading passed, in time order.
    public static func markers(_ take: Take) -> [Marker] {
        let s = take.sidecar
        var list: [Marker] = []
        if let replay = s.replay {
            // A replay (save-replay) is no take of its shot: its span says what it holds.
            list.append(.init(frame: 0, colour: "CYAN", name: "replay \(s.take)\(s.shot.map { " (shot \($0))" } ?? "")",
                              comment: "replay \(replay.spanStart) to \(replay.spanEnd)"))
        } else if let shot = s.shot {
            list.append(.init(frame: 0, colour: "CYAN", name: "shot \(shot) take \(s.shotTake ?? 0)", comment: "shot"))
        }
        for m in s.markersPassed { list.append(.init(frame: take.frame(m.atSeconds), colour: "BLUE", name: m.title, comment: "script heading")) }
        // A replay's notes are its own (timed from its first frame); they are also its take's or the session's.
        for n in (s.notes ?? []) + (s.replay?.notes ?? []) {
            list.append(.init(frame: take.frame(n.atSeconds ?? 0), colour: colour(n.code), name: n.title, comment: "\(n.kind) \(n.code) \(n.wall)"))
        }
        if let mark = s.mark {
            list.append(.init(frame: max(take.frames - 1, 0), colour: mark == "good" ? "GREEN" : "RED", name: mark == "good" ? "GOOD TAKE" : "NO GOOD", comment: "mark"))
        }
        return list.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
    }

    static func colour(_ code: String) -> String {
        ["BUG": "RED", "Q": "YELLOW", "GOOD": "GREEN", "PII": "PURPLE", NoteCodeBook.flagCode: "ORANGE"][code] ?? "PINK"
    }

    // MARK: OpenTimelineIO

    /// An OpenTimelineIO timeline (JSON, `.otio`): one video track, a clip per take in take order with
    /// its file as the media, and a marker per note, flag, shot, heading and mark.
    public static func otio(_ takes: [Take], name: String) -> String {
        func time(_ value: Int64, _ rate: FrameRate) -> [String: Any] {
            ["OTIO_SCHEMA": "RationalTime.1", "rate": rate.value, "value": Double(value)]
        }
        func range(_ start: Int64, _ duration: Int64, _ rate: FrameRate) -> [String: Any] {
            ["OTIO_SCHEMA": "TimeRange.1", "start_time": time(start, rate), "duration": time(duration, rate)]
        }
        let clips: [[String: Any]] = takes.map { t in
            let s = t.sidecar
            let markers: [[String: Any]] = markers(t).map { m in
                ["OTIO_SCHEMA": "Marker.2", "name": m.name, "color": m.colour, "comment": m.comment,
                 "marked_range": range(m.frame, 0, t.rate), "metadata": [String: Any]()]
            }
            var meta: [String: Any] = ["take": s.take, "file": t.name, "format": s.format, "started": s.started]
            if let shot = s.shot { meta["shot"] = shot }
            if let mark = s.mark { meta["mark"] = mark }
            if let replay = s.replay { meta["replay"] = ["start": replay.spanStart, "end": replay.spanEnd] }
            let media: [String: Any] = ["OTIO_SCHEMA": "ExternalReference.1", "name": t.name, "target_url": URL(fileURLWithPath: t.path).absoluteString,
                                        "available_range": range(0, t.frames, t.rate), "metadata": [String: Any]()]
            return ["OTIO_SCHEMA": "Clip.2", "name": t.name, "source_range": range(0, t.frames, t.rate),
                    "media_references": ["DEFAULT_MEDIA": media], "active_media_reference_key": "DEFAULT_MEDIA",
                    "markers": markers, "effects": [Any](), "enabled": true, "metadata": ["duo-capture": meta]]
        }
        let track: [String: Any] = ["OTIO_SCHEMA": "Track.1", "name": "V1", "kind": "Video", "children": clips,
                                    "markers": [Any](), "effects": [Any](), "metadata": [String: Any](), "enabled": true, "source_range": NSNull()]
        let stack: [String: Any] = ["OTIO_SCHEMA": "Stack.1", "name": "tracks", "children": [track], "markers": [Any](),
                                    "effects": [Any](), "metadata": [String: Any](), "enabled": true, "source_range": NSNull()]
        let timeline: [String: Any] = ["OTIO_SCHEMA": "Timeline.1", "name": name, "global_start_time": NSNull(),
                                       "metadata": ["duo-capture": ["takes": takes.count]], "tracks": stack]
        let data = (try? JSONSerialization.data(withJSONObject: timeline, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: CMX 3600

    /// `HH:MM:SS:FF` at a whole (nominal) rate, non-drop.
    static func timecode(_ frame: Int64, fps: Int64) -> String {
        let f = max(frame, 0), fps = max(fps, 1)
        let seconds = f / fps
        return String(format: "%02lld:%02lld:%02lld:%02lld", seconds / 3600, (seconds / 60) % 60, seconds % 60, f % fps)
    }

    /// The EDL's rate: the first take's, as a whole number of frames a second (takes at another rate are
    /// converted to it, to the nearest frame).
    public static func edlRate(_ takes: [Take]) -> Int64 { Int64((takes.first?.rate.value ?? 30).rounded()) }

    /// A CMX 3600 EDL: an event per take, cut one after another on a record timeline from 01:00:00:00,
    /// with the file's name as a comment and a `* LOC:` line per marker (as DaVinci Resolve and OTIO read).
    public static func edl(_ takes: [Take], title: String) -> String {
        let fps = edlRate(takes)
        var out = "TITLE: \(clean(title, 70))\nFCM: NON-DROP FRAME\n\n"
        var record = 3600 * fps
        for (i, t) in takes.enumerated() {
            func convert(_ frame: Int64) -> Int64 { Int64((Double(frame) / t.rate.value * Double(fps)).rounded()) }
            let length = max(convert(t.frames), 1)
            let reel = (t.sidecar.replay == nil ? "TAKE" : "REPLAY") + String(format: "%02d", t.sidecar.take)
            out += String(format: "%03d  ", i + 1) + reel.padding(toLength: 8, withPad: " ", startingAt: 0)
                + " V     C        \(timecode(0, fps: fps)) \(timecode(length, fps: fps)) \(timecode(record, fps: fps)) \(timecode(record + length, fps: fps))\n"
            out += "* FROM CLIP NAME: \(clean(t.name, 200))\n"
            for m in markers(t) {
                out += "* LOC: \(timecode(record + min(convert(m.frame), length - 1), fps: fps)) \(m.colour.padding(toLength: 7, withPad: " ", startingAt: 0)) \(clean(m.name, 200))\n"
            }
            out += "\n"
            record += length
        }
        return out
    }

    /// One line of text: line breaks become spaces, and it is cut at `limit` characters.
    static func clean(_ text: String, _ limit: Int) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }.prefix(limit))
    }

    // MARK: CSV

    /// The notes as CSV (RFC 4180): `take,time,code,text,shot,frame,wall,file`, the session's notes
    /// (between takes: no take, time or frame) first, then each take's in order.
    public static func csv(_ takes: [Take], session: [TakeNote]) -> String {
        func field(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        var out = "take,time,code,text,shot,frame,wall,file\r\n"
        for n in session {
            out += ["", "", n.code, n.text, n.shot ?? "", "", n.wall, ""].map(field).joined(separator: ",") + "\r\n"
        }
        for t in takes {
            for n in t.sidecar.notes ?? [] {
                let frame = t.frame(n.atSeconds ?? 0)
                let time = String(format: "%.3f", Double(frame) / t.rate.value)
                out += ["\(t.sidecar.take)", time, n.code, n.text, n.shot ?? t.sidecar.shot ?? "", "\(frame)", n.wall, t.name]
                    .map(field).joined(separator: ",") + "\r\n"
            }
        }
        return out
    }
}
