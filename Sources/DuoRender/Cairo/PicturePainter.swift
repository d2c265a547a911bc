import CCairo
import DuoCore

/// Paints a BGRx picture (the operator preview) into a window's Cairo context, black around it: into
/// the rectangle the window lays the picture out in (the HUD's safe frame is drawn over the same one), so
/// a frame of the previous size, while the graph catches up with a resize, is stretched to it for that
/// moment rather than shown small or cropped; frames of the new size are copied 1:1.
///
/// Thread: whichever thread owns `cr` (the GTK main thread).
public enum PicturePainter {
    /// The rectangle the picture takes in a `width`×`height` area (logical units), as drawn.
    public static func rect(pictureWidth: Int, pictureHeight: Int, scale: Double, width: Double, height: Double) -> FrameRect {
        let pw = Double(max(1, pictureWidth)) / scale, ph = Double(max(1, pictureHeight)) / scale
        let k = min(width / pw, height / ph, 1)
        let w = pw * k, h = ph * k
        return FrameRect(x: ((width - w) / 2).rounded(), y: ((height - h) / 2).rounded(), width: w, height: h)
    }

    /// Paints `picture` (nil: black only) into `cr` of `width`×`height` logical units, `scale` device pixels each.
    /// `into`: the picture's rectangle (logical units); nil: centred, shrunk to fit, never enlarged.
    public static func paint(_ picture: PictureBytes?, cr: OpaquePointer, width: Double, height: Double, scale: Double, into target: FrameRect? = nil) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_source_rgb(cr, 0, 0, 0)
        guard let picture, picture.width > 0, picture.height > 0 else { cairo_paint(cr); return }
        guard let surface = cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: picture.base.assumingMemoryBound(to: UInt8.self)),
                                                                CAIRO_FORMAT_RGB24, Int32(picture.width), Int32(picture.height), Int32(picture.stride)) else { return }
        defer { cairo_surface_destroy(surface) }
        let r = target ?? rect(pictureWidth: picture.width, pictureHeight: picture.height, scale: scale, width: width, height: height)
        // Black only around the picture (every frame fills the picture's own pixels anyway).
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        cairo_fill(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_translate(cr, r.x, r.y)
        cairo_scale(cr, r.width / Double(picture.width), r.height / Double(picture.height))
        cairo_set_source_surface(cr, surface, 0, 0)
        // Unscaled (the usual case) a plain copy; scaled, the filter that costs least and looks fine moving.
        // Edges padded: stretched for a moment, the picture's border pixels are not blended with nothing.
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(cairo_get_source(cr), abs(r.width * scale - Double(picture.width)) < 0.5 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
        cairo_rectangle(cr, 0, 0, Double(picture.width), Double(picture.height))
        cairo_fill(cr)
    }
}
