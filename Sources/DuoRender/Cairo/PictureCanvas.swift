import CCairo
import DuoCore

/// The operator window's frame, composed client-side before the display server sees it: the picture and
/// the HUD layer's boxes are painted into this image, then the image is handed to the window in one
/// paint. Made with `cairo_surface_create_similar_image` on the window's own surface, so on X11 it lives in
/// shared memory (MIT-SHM): the server copies each frame once, straight from it, as it does for a bare
/// `ximagesink`, instead of reading it through the socket and compositing it (perf, issue 36).
///
/// Thread: the GTK main thread (the operator picture's draw handler).
public final class PictureCanvas {
    private var surface: OpaquePointer?
    private var size = (0, 0)

    public init() {}

    deinit { if let surface { cairo_surface_destroy(surface) } }

    /// Paints `picture` with `overlay` (see `PicturePainter.paint`) into the canvas, then the canvas into
    /// `cr` (the window's context, `width`×`height` logical units, `scale` device pixels each).
    public func paint(_ picture: PictureBytes?, cr: OpaquePointer, width: Double, height: Double, scale: Double,
                      into target: FrameRect?, overlay: HudLayer?) {
        let w = Int((width * scale).rounded()), h = Int((height * scale).rounded())
        guard w > 0, h > 0 else { return }
        if surface == nil || size != (w, h) {
            if let surface { cairo_surface_destroy(surface) }
            surface = cairo_surface_create_similar_image(cairo_get_target(cr), CAIRO_FORMAT_RGB24, Int32(w), Int32(h))
            size = (w, h)
        }
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            return PicturePainter.paint(picture, cr: cr, width: width, height: height, scale: scale, into: target, overlay: overlay)
        }
        let ccr = cairo_create(surface)!
        cairo_scale(ccr, scale, scale)
        PicturePainter.paint(picture, cr: ccr, width: width, height: height, scale: scale, into: target, overlay: overlay)
        cairo_destroy(ccr)
        cairo_surface_flush(surface)
        cairo_surface_mark_dirty(surface)
        cairo_save(cr)
        cairo_scale(cr, 1 / scale, 1 / scale)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
