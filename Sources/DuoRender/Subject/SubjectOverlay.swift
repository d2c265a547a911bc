import Dispatch
import DuoCore

extension SubjectScene {
    /// Draws the frame at `time` into I420 video memory: the prompt panel as row copies from I420 tiles,
    /// fills blended as constant colours, sprites blended with transparent pixels skipped. Nothing here
    /// lays out or renders text; a tile that is not ready shows as the panel's background.
    ///
    /// Thread: the streaming thread (or any thread owning `planes`). The scene must use `.i420` format.
    public func draw(into planes: I420Planes, at time: Int64) {
        for item in items(at: time) {
            switch item {
            case .panel(let x, let y, let w, let h, let top, let flipped):
                guard let strip else { continue }
                let rows = PromptStrip.tileRows
                var cachedIndex = Int.min
                var cachedTile: I420Image? = nil
                I420Blend.copyRows(x: x, y: y, width: w, height: h, into: planes, background: YUV(strip.background)) { r in
                    let stripRow = top + (flipped ? h - 1 - r : r)
                    let k = PromptStrip.tileIndex(stripRow)
                    if k != cachedIndex {
                        cachedIndex = k
                        cachedTile = strip.isBlank(k) ? nil : strip.tile(k)?.i420
                    }
                    guard let tile = cachedTile else { return nil }
                    return (tile, stripRow - k * rows)
                }
            case .fill(let x, let y, let w, let h, let colour):
                I420Blend.fillRect(YUV(colour), alpha: Int((colour.a * 255).rounded()), x: x, y: y, width: w, height: h, into: planes)
            case .sprite(let image, let x, let y):
                I420Blend.blendPremultipliedBGRA(image.pixels, stride: image.stride, width: image.width,
                                                 height: image.height, into: planes, x: x, y: y)
            case .preview, .selfView:
                // Live, the subject branch's video is the picture itself (mirrored by the graph).
                continue
            }
        }
    }
}

/// The live subject overlay, for a pad probe on the subject branch (I420, fixed caps).
///
/// - The session actor calls `update(_:)` with each new `SubjectViewModel` (on commands, not per frame).
///   The new scene is built on a background queue, reusing the previous layout when the script and style
///   are unchanged, and swapped in under the lock when ready.
/// - The streaming thread calls `draw(into:at:)` once per frame. It only takes the current scene under
///   the lock and draws it; when the scroll nears tiles that are not rendered yet, it asks the background
///   queue to render them and carries on (never waits).
///
/// Wiring (DuoMedia, a buffer probe on the subject overlay's pad, after the downscale so the buffer is
/// writable and at the subject monitor's size):
///
/// ```swift
/// // gst_video_frame_map(&frame, &info, buffer, GST_MAP_READWRITE), format I420, then:
/// overlay.draw(into: I420Planes(y: plane0, yStride: stride0, u: plane1, uStride: stride1,
///                               v: plane2, vStride: stride2, width: info.width, height: info.height),
///              at: runningTime) // gst_segment_to_running_time(segment, GST_FORMAT_TIME, PTS), ns
/// ```
///
/// The scroll model's commands must use the same running-time timeline.
///
/// Thread: `update` from any thread (the session actor); `draw` on the streaming thread; scene building
/// and tile rendering on `work`, a private serial queue.
// Unchecked: scene swapped under a lock; building happens on its private serial queue.
public final class SubjectOverlay: @unchecked Sendable {
    public let profile: DisplayProfile
    /// How scenes are drawn: `.i420` into video frames (headless), `.argb` with Cairo (the subject window).
    public let format: PromptStrip.Format

    private let lock = Lock()
    private var size: (width: Int, height: Int)
    private var scene: SubjectScene?
    /// A scene laid out by `scrollModel(for:speed:)`, offered for reuse to the next `update`. Only touched on `work`.
    private var laidOut: SubjectScene?
    private var pendingPrepare = false
    private var generation = 0
    private let work = DispatchQueue(label: "duo.subject-overlay")

    /// The subject's language for the view's own words (`--subject-language`), for every scene built here.
    public let language: Translator

    public init(width: Int, height: Int, profile: DisplayProfile = .plain, format: PromptStrip.Format = .i420,
                language: Translator = .english) {
        size = (width, height)
        self.language = language
        self.profile = profile
        self.format = format
    }

    /// The size scenes are built for: the subject frames', or the subject monitor's.
    public var width: Int { lock.withLock { size.width } }
    public var height: Int { lock.withLock { size.height } }

    /// The subject monitor changed size (another monitor, a rotated one): the next scenes are built for
    /// `width`×`height`. The caller (the presenter) then asks for a new scroll model, since a script read
    /// in lines lays out differently.
    public func resize(width: Int, height: Int) {
        work.sync { lock.withLock { size = (max(16, width), max(16, height)) } }
    }

    /// Replaces the view model. The scene is rebuilt off the caller's thread; frames keep drawing the old
    /// scene until the new one is ready.
    public func update(_ viewModel: SubjectViewModel, preparingAt time: Int64 = 0) {
        let ticket: Int = lock.withLock { generation += 1; return generation }
        work.async { [self] in
            var previous = lock.withLock { scene }
            if previous?.viewModel.script != viewModel.script, laidOut?.viewModel.script == viewModel.script {
                previous = laidOut
            }
            let (width, height) = lock.withLock { size }
            let next = SubjectScene(viewModel: viewModel, width: width, height: height, profile: profile,
                                    format: format, language: language, reusing: previous)
            next.prepare(at: time)
            lock.withLock { if ticket == generation { scene = next } }
        }
    }

    /// A scroll model for `viewModel`'s script on this monitor, at `speed`: its length and `[PAUSE]` cues in
    /// the layout's units (words, or laid-out lines for scripts without spaces, which depend on the monitor
    /// width). The session keeps it in `PrompterSessionState.scroll` and applies commands to it.
    ///
    /// Thread: the session actor (it may lay the script out, tens of ms for 5,000 words; never the streaming
    /// thread). The layout is kept, so the next `update` with this script does not lay it out again.
    public func scrollModel(for viewModel: SubjectViewModel, speed: ScrollSpeed) -> ScrollModel? {
        work.sync {
            let (current, width, height) = lock.withLock { (scene, size.width, size.height) }
            let candidate = SubjectScene(viewModel: viewModel, width: width, height: height, profile: profile,
                                         format: format, language: language, reusing: current?.viewModel.script == viewModel.script ? current : laidOut)
            laidOut = candidate
            return candidate.strip?.layout.scrollModel(speed: speed)
        }
    }

    /// `viewModel` laid out for this overlay's size now, on the caller's thread, touching nothing of the
    /// overlay's: for a script being opened or reloaded, laid out off the session actor (seconds for a
    /// 2 MB script) and then handed to `offer(_:)`.
    ///
    /// Thread: any (a detached task); never the streaming thread.
    public func layOut(_ viewModel: SubjectViewModel) -> SubjectScene {
        let (width, height) = lock.withLock { size }
        return SubjectScene(viewModel: viewModel, width: width, height: height, profile: profile, format: format, language: language)
    }

    /// A scene from `layOut(_:)`, kept for reuse: the next `scrollModel(for:speed:)` and `update` with its
    /// script, style and size take its layout instead of laying the script out again.
    ///
    /// Thread: the session actor.
    public func offer(_ scene: SubjectScene) {
        work.sync { laidOut = scene }
    }

    /// Where the headings (markers) of the script last passed to `scrollModel(for:speed:)` start, in
    /// scroll units. Thread: the session actor.
    public var markerUnits: [Double] {
        work.sync { laidOut?.strip?.layout.markerUnits ?? [] }
    }

    /// Blocks until every queued update and tile render has finished. Not for the streaming thread:
    /// for tests, the benchmark and shutdown.
    public func waitUntilIdle() {
        work.sync {}
    }

    /// The scene frames draw now (nil before the first update finishes).
    public var currentScene: SubjectScene? { lock.withLock { scene } }

    /// Draws the subject overlay for pipeline time `time` into the frame. Streaming thread.
    public func draw(into planes: I420Planes, at time: Int64) {
        guard let scene = lock.withLock({ scene }) else { return }
        scene.draw(into: planes, at: time)
        requestTiles(scene, at: time)
    }

    /// Asks for the tiles a frame of `scene` at `time` lacks (the window, or the next tile) to be rendered
    /// on the background queue; never waits for them. Any thread (the streaming thread, the GTK thread).
    public func requestTiles(_ scene: SubjectScene, at time: Int64) {
        guard !scene.isReady(at: time) else { return }
        let shouldQueue: Bool = lock.withLock {
            if pendingPrepare { return false }
            pendingPrepare = true
            return true
        }
        if shouldQueue {
            work.async { [self] in
                scene.prepare(at: time)
                lock.withLock { pendingPrepare = false }
            }
        }
    }
}
