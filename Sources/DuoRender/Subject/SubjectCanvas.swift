import CCairo
import DuoCore

/// The subject view drawn by the subject window itself, at the monitor's own resolution and on the
/// monitor's frame clock: the same scene and the same painter as `render-subject`, so a paused view and
/// `render-subject --size` of that state give the same pixels. The window asks `tick()` once per monitor
/// frame whether anything changed (the text moved a whole pixel, the clock or countdown stepped, a new
/// scene or tile arrived) and redraws only then, and only the panel when only the text moved.
///
/// Thread: the GTK main thread (the window's tick and draw callbacks). Scenes come from the overlay, which
/// builds them off this thread; `now` reads the pipeline's running time.
// Unchecked: used on the GTK main thread only; made elsewhere and handed over once.
public final class SubjectCanvas: @unchecked Sendable {
    /// What the window must redraw after a tick.
    public enum Redraw: Equatable, Sendable {
        case none
        case area(x: Int, y: Int, width: Int, height: Int)
        case all
    }

    private let overlay: SubjectOverlay
    private let now: @Sendable () -> Int64
    private var drawn: SubjectScene.FrameKey?
    /// The scene and window size of the last paint that covered the whole window. GTK clips a paint to what
    /// it invalidated, and after the window grows that can be only the newly exposed part: the rest would
    /// keep the scene drawn for the old size (seen: a 200-pixel teleprompter in the corner of a 1080p
    /// monitor, and bands of black, until the text next moved).
    private var whole: (scene: UInt64, width: Int, height: Int)?
    /// Frames painted (each whole or partial redraw), for tests and the benchmark's log.
    public private(set) var paints = 0

    public init(overlay: SubjectOverlay, now: @escaping @Sendable () -> Int64) {
        self.overlay = overlay
        self.now = now
    }

    /// Where the window's video widget shows the camera picture, device pixels: the self-view's
    /// rectangle, or nil for the whole window (the preview kind, or no scene yet).
    public var pictureRectangle: (x: Int, y: Int, width: Int, height: Int)? {
        guard let scene = overlay.currentScene, scene.viewModel.kind != .preview else { return nil }
        return scene.selfViewRectangle
    }

    /// Once per monitor frame: what to redraw for the frame about to be shown.
    /// `window`: the window's size in device pixels, when known.
    public func tick(window: (width: Int, height: Int)? = nil) -> Redraw {
        guard let scene = overlay.currentScene else { return drawn == nil ? .none : .all }
        let time = now()
        overlay.requestTiles(scene, at: time)
        let key = scene.frameKey(at: time)
        guard let last = drawn else { return .all }
        if let window, whole.map({ $0.scene != key.scene || $0.width != window.width || $0.height != window.height }) ?? true {
            return .all
        }
        if key == last { return .none }
        if key.differsOnlyInScroll(from: last), let p = scene.panelRectangle {
            return .area(x: p.x, y: p.y, width: p.width, height: p.height)
        }
        return .all
    }

    /// Paints the current scene at the current time into the window's `cr` (clipped by GTK to what needs
    /// redrawing). A scene built for another size (the monitor just changed) is drawn as it is until the
    /// new one arrives.
    /// `window`: the window's size in device pixels, when known (a paint that covers it all is noted).
    public func draw(cr: OpaquePointer, logicalScale: Double = 1, window: (width: Int, height: Int)? = nil) {
        paints += 1
        // The view is laid out in device pixels: undo GTK's logical scale (HiDPI) so text is drawn 1:1.
        if logicalScale != 1 { cairo_scale(cr, 1 / logicalScale, 1 / logicalScale) }
        guard let scene = overlay.currentScene else {
            SubjectRenderer.paintBlack(cr)
            return
        }
        let time = now()
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        SubjectRenderer.paint(scene, at: time, cr: cr, livePicture: true)
        let key = scene.frameKey(at: time)
        drawn = key
        if let window, x1 <= 0.5, y1 <= 0.5, x2 >= Double(window.width) - 0.5, y2 >= Double(window.height) - 0.5 {
            whole = (key.scene, window.width, window.height)
        }
    }
}
