import DuoCore
import DuoMedia
import Foundation

/// Writes each take's JSON sidecar: a preliminary one when the take starts (so a killed run still leaves
/// its metadata) and the final one when it ends.
///
/// Thread: called from the run director's actor, one call at a time; the open takes sit behind a mutex.
final class SidecarWriter: Sendable {
    private let plan: GraphPlan
    private let countdown: Countdown
    private let log: @Sendable (String) -> Void
    /// Each open take's sidecar, and the camera it records from (its frame interval is the file's).
    private let open = Locked<[Int: (sidecar: TakeSidecar, camera: Int)]>([:])
    /// Every device lost and restored during the run (running time), for the takes they happened in.
    private let interruptions = Locked<[(at: Int64, device: String, what: String, reason: String?)]>([])
    /// Every cue to the talent sent during the run (running time), for the takes that recorded then.
    private let cues = Locked<[(at: Int64, cue: SubjectCue?, seconds: Double?)]>([])

    init(plan: GraphPlan, countdown: Countdown, log: @escaping @Sendable (String) -> Void) {
        self.plan = plan
        self.countdown = countdown
        self.log = log
    }

    private func recordedFormat(camera: Int) -> String {
        let f = plan.format(ofCamera: camera)
        guard let crop = plan.aspect?.centredCrop(frameWidth: f.width, frameHeight: f.height) else { return f.description }
        return VideoFormat(width: f.width - crop.left - crop.right, height: f.height - crop.top - crop.bottom,
                           frameRate: f.frameRate).description
    }

    private var cameras: [TakeSidecar.Camera] {
        let depth = plan.depth.map { $0 ? true : nil }
        var list: [TakeSidecar.Camera] = [.init(role: "A", label: plan.camera.label, mode: "\(plan.cameraMode.format) \(plan.cameraMode.pixelFormat)",
                                                depth: depth.first ?? nil)]
        if let b = plan.secondCamera, let mode = plan.secondCameraMode {
            list.append(.init(role: "B", label: b.label, mode: "\(mode.format) \(mode.pixelFormat)", depth: depth.count > 1 ? depth[1] : nil))
        }
        return list
    }

    /// `camera`: the one on the air (its format is the file's); `segment`: the take's id and this file's
    /// number when the take is split by camera (individual mode).
    /// `shot`: with a shot list, the take's shot and its number within it.
    /// `scriptStart`: where the teleprompter was when the take began (its script range's start).
    func started(take number: Int, path: String, camera: Int = 0, segment: (id: String, number: Int)? = nil,
                 shot: (id: String, take: Int, list: String?)? = nil, scriptStart: ScriptPlace? = nil) {
        let audio = plan.audio == .none ? nil
            : TakeSidecar.Audio(source: plan.audio.label, encoder: plan.container == .mkv ? "opusenc" : "avenc_aac", buffers: nil)
        var s = TakeSidecar(
            toolVersion: DuoCaptureMain.version, gstreamerVersion: GStreamer.version, take: number,
            file: (path as NSString).lastPathComponent, started: Date(), countdownSeconds: countdown.seconds,
            cameras: cameras,
            format: recordedFormat(camera: camera), aspect: plan.aspect?.description, encoder: plan.encoder.element,
            container: plan.container.element, audio: audio)
        if plan.secondCamera != nil { s.recordedBy = camera == 0 ? "A" : "B" }
        s.takeId = segment?.id
        if !plan.requirements.isEmpty { s.requirements = plan.requirements.map(\.description) }
        if !plan.unmetWishes.isEmpty { s.unmetWishes = plan.unmetWishes }
        s.segment = segment?.number
        s.shot = shot?.id
        s.shotTake = shot?.take
        s.shotList = shot?.list
        s.scriptRange = scriptStart.map(TakeSidecar.ScriptRange.init(start:))
        let sidecar = s
        open.update { $0[number] = (sidecar, camera) }
        write(sidecar, path)
    }

    /// A device (camera A or B, the microphone) was lost or restored at running time `at`: every take
    /// recording then lists it.
    func interrupted(at: Int64, device: String, what: String, reason: String?) {
        interruptions.update { $0.append((at, device, what, reason)) }
    }

    /// A cue to the talent was shown (or cleared: nil) at running time `at`: the take recording then lists it.
    func cued(at: Int64, _ cue: SubjectCue?, seconds: Double?) {
        cues.update { $0.append((at, cue, seconds)) }
    }

    /// `segments`: with the take's last segment, every segment's file name.
    func ended(_ result: TakeResult, markers: [TakeSidecar.Marker] = [], scriptEnd: ScriptPlace? = nil,
               segments: [String]? = nil,
               soundGaps: [(from: Double, to: Double)] = []) {
        var taken: (sidecar: TakeSidecar, camera: Int)?
        open.update { taken = $0.removeValue(forKey: result.number) }
        guard var s = taken?.sidecar else { return }
        let camera = taken?.camera ?? 0
        s.segments = segments
        s.markersPassed = markers
        if let scriptEnd { s.scriptRange?.end(at: scriptEnd) }
        let during = interruptions.value.filter { $0.at >= result.startRunningTime && $0.at <= result.endRunningTime }
        s.interruptions = during.isEmpty ? nil : during.map {
            .init(atSeconds: Double($0.at - result.startRunningTime) / 1e9, device: $0.device, what: $0.what, reason: $0.reason)
        }
        let cued = cues.value.filter { $0.at >= result.startRunningTime && $0.at <= result.endRunningTime }
        s.cues = cued.isEmpty ? nil : cued.map {
            .init(atSeconds: Double($0.at - result.startRunningTime) / 1e9, text: $0.cue?.text, preset: $0.cue?.preset?.rawValue,
                  seconds: $0.seconds, cleared: $0.cue == nil ? true : nil)
        }
        s.swaps = result.swaps.map { .init(atSeconds: Double($0.runningTime - result.startRunningTime) / 1e9, from: $0.from, to: $0.to, format: $0.format) }
        let interval = result.frameInterval(or: plan.format(ofCamera: camera))
        s.started = TakeSidecar.timestamp(result.startDate)
        s.ended = TakeSidecar.timestamp(result.endDate)
        s.complete = result.failure == nil
        s.frames = result.frames.frames
        s.droppedFrames = result.frames.dropped(interval: interval)
        s.durationSeconds = Double(result.frames.frames) * Double(interval) / 1e9
        s.startLatencyMs = result.startLatency.map { Double($0) / 1e6 }
        s.audio?.buffers = result.audio?.frames
        if !soundGaps.isEmpty { s.audio?.gaps = soundGaps.map { .init(fromSeconds: $0.from, toSeconds: $0.to) } }
        s.error = result.failure?.message
        s.keepUp = result.keepUp(format: plan.format(ofCamera: camera))?.message
        guard FileManager.default.fileExists(atPath: result.path) else {
            // No frame was recorded and no file kept: no metadata for a file that does not exist.
            try? FileManager.default.removeItem(atPath: TakeSidecar.path(forTake: result.path))
            return
        }
        write(s, result.path)
    }

    /// Replay `number` was written (`clip`): its sidecar, marked `replay` with the buffer's length and the
    /// wall-clock span, with the notes made in the span (their times from its start) and its chapters.
    func replay(_ clip: ReplayClip, number: Int, bufferSeconds: Int, span: (start: Date, end: Date), notes: [TakeNote],
                chapters: Int, shot: String?) {
        let audio = plan.audio == .none || clip.audioPackets == 0 ? nil
            : TakeSidecar.Audio(source: plan.audio.label, encoder: plan.container == .mkv ? "opusenc" : "avenc_aac", buffers: Int64(clip.audioPackets))
        var s = TakeSidecar(
            toolVersion: DuoCaptureMain.version, gstreamerVersion: GStreamer.version, take: number,
            file: (clip.path as NSString).lastPathComponent, started: span.start, countdownSeconds: 0, cameras: cameras,
            format: recordedFormat(camera: 0), aspect: plan.aspect?.description, encoder: plan.encoder.element,
            container: "matroskamux", audio: audio)
        s.ended = TakeSidecar.timestamp(span.end)
        s.complete = true
        s.replay = .init(bufferSeconds: bufferSeconds, spanStart: TakeSidecar.timestamp(span.start), spanEnd: TakeSidecar.timestamp(span.end),
                         buffer: clip.buffer)
        s.shot = shot
        s.frames = Int64(clip.videoFrames)
        s.durationSeconds = clip.seconds
        s.replay?.notes = notes.isEmpty ? nil : notes.map { note in
            var n = note
            n.atSeconds = TakeSidecar.date(note.wall).map { ($0.timeIntervalSince(span.start) * 1000).rounded() / 1000 }
            return n
        }
        s.chapters = chapters
        write(s, clip.path)
    }

    /// The operator marked take `number` (in the file `path`): its sidecar says so, whether the take
    /// still records (the final copy keeps it) or has ended (the written sidecar is rewritten).
    func mark(take number: Int, path: String, mark: String) {
        var openSidecar: TakeSidecar?
        open.update { open in
            guard var entry = open[number] else { return }
            entry.sidecar.mark = mark
            open[number] = entry
            openSidecar = entry.sidecar
        }
        if let openSidecar { return write(openSidecar, path) }
        let sidecarPath = TakeSidecar.path(forTake: path)
        guard FileManager.default.fileExists(atPath: sidecarPath) else { return }
        do throws(DuoError) {
            var s = try TakeSidecar.read(sidecarPath)
            s.mark = mark
            try s.write(nextTo: path)
        } catch { log(tr("duo-capture: warning: take %s marked %s, but its sidecar was not updated: %s", number, mark, error.message)) }
    }

    /// A note or flag made during take `number` (recording into `path`): its sidecar lists it at once, so
    /// a killed run keeps it (the final copy keeps it too). False when the take is not open.
    @discardableResult
    func note(take number: Int, path: String, note: TakeNote) -> Bool {
        var openSidecar: TakeSidecar?
        open.update { open in
            guard var entry = open[number] else { return }
            entry.sidecar.notes = (entry.sidecar.notes ?? []) + [note]
            open[number] = entry
            openSidecar = entry.sidecar
        }
        guard let openSidecar else { return false }
        write(openSidecar, path)
        return true
    }

    /// Take `path`'s file was given `count` chapters after it ended: its sidecar says so.
    func chaptersWritten(_ count: Int, path: String) {
        let sidecarPath = TakeSidecar.path(forTake: path)
        do throws(DuoError) {
            var s = try TakeSidecar.read(sidecarPath)
            s.chapters = count
            try s.write(nextTo: path)
        } catch { log(tr("duo-capture: warning: %s", error.message)) }
    }

    private func write(_ sidecar: TakeSidecar, _ path: String) {
        do { try sidecar.write(nextTo: path) } catch { log(tr("duo-capture: warning: %s", error.message)) }
    }
}
