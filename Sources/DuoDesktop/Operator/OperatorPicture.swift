import CGtk
import DuoCore
import DuoRender

/// The operator window's picture: a drawing area that paints the preview branch's newest frame
/// (`LatestPicture`, from an appsink) on the monitor's frame clock, and reports its size in device pixels
/// whenever it changes (fullscreen on or off, a resize, another monitor or scale factor) so the graph
/// scales the following frames to it, once. It counts the frames it painted and the largest step between
/// them (their timestamps): what the operator really saw. The HUD and the pairing card are composed over
/// the picture here from a layer drawn only when they change (`HudLayer`), so each frame the display
/// server copies pictures and draws nothing.
///
/// Thread: GTK main thread.
@MainActor
final class OperatorPicture {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let picture: any LatestPicture
    /// Called with the area's size in device pixels when it changes.
    var onSize: (Int, Int) -> Void = { _, _ in }
    /// Called when a frame of another size is painted, or into a rectangle of another size: the frame's
    /// size, the rectangle's (device pixels) and how it was painted.
    var onPicture: (PictureShown) -> Void = { _ in }
    private var shown: PictureShown?
    /// Where the picture goes in a width×height area (logical units): the HUD's layout of the preview.
    var layout: (Double, Double) -> FrameRect? = { _, _ in nil }
    /// What the overlays show now (the HUD as the privacy rule lets it be seen, the pairing card).
    var overlay: () -> (hud: HudModel, link: WebRemoteLinkCard?) = { (HudModel(), nil) }
    /// The HUD and pairing card, drawn once per change.
    let hudLayer = HudLayer()
    /// Where each frame is composed before the window gets it (shared memory on X11).
    private let canvas = PictureCanvas()
    private var size: (Int, Int)?
    private var painted: UInt64 = 0
    private var connections: [SignalConnection] = []
    /// Frames painted, and the largest step between two painted frames' timestamps since last read, ns.
    private(set) var paintedFrames: Int64 = 0
    private var lastTime: Int64 = -1
    private var largestGap: Int64 = 0

    init(_ picture: any LatestPicture) {
        self.picture = picture
        widget = gtk_drawing_area_new()
        gtk_widget_set_hexpand(widget, 1)
        gtk_widget_set_vexpand(widget, 1)
        connections.append(SignalConnection(widget.raw, "draw", Self.drawCallback, self))
        connections.append(SignalConnection(widget.raw, "size-allocate", Self.sizeCallback, self))
        gtk_widget_add_tick_callback(widget, Self.tickCallback, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// The largest step between painted frames since the last call, ns (0 before two frames).
    func takeLargestGap() -> Int64 {
        defer { largestGap = 0 }
        return largestGap
    }

    func close() { connections.removeAll() }

    /// The overlays may have changed: if what they draw did (not merely a figure the HUD holds), the
    /// whole area is drawn again, the layer first.
    func overlayChanged() {
        guard hudLayer.differs(overlayContent()) else { return }
        gtk_widget_queue_draw(widget)
    }

    private func overlayContent() -> HudLayer.Content {
        let scale = Int(gtk_widget_get_scale_factor(widget))
        let shown = overlay()
        return HudLayer.Content(hud: shown.hud, link: shown.link, width: Int(gtk_widget_get_allocated_width(widget)) * scale,
                                height: Int(gtk_widget_get_allocated_height(widget)) * scale, scale: scale)
    }

    private func draw(_ cr: OpaquePointer) {
        let scale = Double(gtk_widget_get_scale_factor(widget))
        let w = Double(gtk_widget_get_allocated_width(widget)), h = Double(gtk_widget_get_allocated_height(widget))
        hudLayer.update(overlayContent())
        let generation = picture.generation
        let drawn = picture.withPicture { bytes in
            let target = layout(w, h)
            canvas.paint(bytes, cr: cr, width: w, height: h, scale: scale, into: target, overlay: hudLayer)
            report(bytes, in: target ?? PicturePainter.rect(pictureWidth: bytes.width, pictureHeight: bytes.height, scale: scale, width: w, height: h),
                   scale: scale)
            guard generation != painted else { return }
            painted = generation
            paintedFrames += 1
            if lastTime >= 0, bytes.time > lastTime { largestGap = max(largestGap, bytes.time - lastTime) }
            if bytes.time >= 0 { lastTime = bytes.time }
        }
        if !drawn { canvas.paint(nil, cr: cr, width: w, height: h, scale: scale, into: nil, overlay: hudLayer) }
    }

    private func report(_ bytes: PictureBytes, in r: FrameRect, scale: Double) {
        let filter = PictureFit.paintFilter(width: bytes.width, height: bytes.height, shownWidth: r.width * scale, shownHeight: r.height * scale)
        let now = filter == .copy ? PictureShown(width: bytes.width, height: bytes.height, shownWidth: bytes.width, shownHeight: bytes.height, filter: filter)
            : PictureShown(width: bytes.width, height: bytes.height, shownWidth: Int((r.width * scale).rounded()),
                           shownHeight: Int((r.height * scale).rounded()), filter: filter)
        guard now != shown else { return }
        shown = now
        onPicture(now)
    }

    private func allocated() {
        let scale = Int(gtk_widget_get_scale_factor(widget))
        let s = (Int(gtk_widget_get_allocated_width(widget)) * scale, Int(gtk_widget_get_allocated_height(widget)) * scale)
        guard s.0 > 1, s.1 > 1, size.map({ $0 != s }) ?? true else { return }
        size = s
        onSize(s.0, s.1)
    }

    private nonisolated static func this(_ data: UnsafeMutableRawPointer?) -> OperatorPicture {
        Unmanaged<OperatorPicture>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let drawCallback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, cr, data in
        let view = this(data)
        onGtkThread(with: cr) { context in if let context { view.draw(context) } }
        return 1
    }

    private static let sizeCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, data in
        let view = this(data)
        MainActor.assumeIsolated { view.allocated() }
    }

    /// Once a monitor frame: a new picture is drawn; nothing new, nothing is done.
    private static let tickCallback: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { w, _, data in
        let view = this(data)
        onGtkThread(with: w) { widget in
            guard let widget, view.picture.generation != view.painted else { return }
            // Only the picture's own rectangle: the black around it stays as it was drawn (a window
            // larger than the picture would otherwise send the whole window to the display every frame).
            let w = Double(gtk_widget_get_allocated_width(widget)), h = Double(gtk_widget_get_allocated_height(widget))
            if let r = view.layout(w, h), r.width > 0, r.height > 0 {
                let x = Int(r.x.rounded(.down)), y = Int(r.y.rounded(.down))
                gtk_widget_queue_draw_area(widget, gint(x), gint(y), gint(Int((r.x + r.width).rounded(.up)) - x), gint(Int((r.y + r.height).rounded(.up)) - y))
            } else {
                gtk_widget_queue_draw(widget)
            }
        }
        return 1
    }
}

/// A frame as the operator window painted it: its size, the rectangle it filled (device pixels), how.
///
/// Thread: value type.
public struct PictureShown: Equatable, Sendable {
    public var width: Int, height: Int, shownWidth: Int, shownHeight: Int
    public var filter: PictureFit.Filter
}
