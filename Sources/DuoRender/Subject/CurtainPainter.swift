import CCairo
import DuoCore

/// Draws the subject's curtain: a plain dark surface with the curtain's one short line (the standby line
/// and the run's accessory) in dim grey, centred. Everything it draws comes from `CurtainModel`, which is
/// made only from the whitelisted `SubjectViewModel`. Drawn once per size or text: there is no clock in it.
///
/// Thread: any thread, with a Cairo context of its own (the desktop draws on the GTK main thread).
public enum CurtainPainter {
    /// The surface's colour: near black, so a monitor facing the subject is dark, not a glaring panel.
    static let background = (r: 0.03, g: 0.03, b: 0.035)

    /// Paints a window's whole `width`×`height` (logical pixels) at the monitor's scale, in device pixels.
    public static func draw(_ curtain: CurtainModel, cr: OpaquePointer, width: Double, height: Double, logicalScale: Double) {
        cairo_save(cr)
        cairo_scale(cr, 1 / logicalScale, 1 / logicalScale)
        draw(curtain, cr: cr, width: width * logicalScale, height: height * logicalScale)
        cairo_restore(cr)
    }

    /// Paints the whole `width`×`height` (device pixels) area.
    public static func draw(_ curtain: CurtainModel, cr: OpaquePointer, width: Double, height: Double) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgb(cr, background.r, background.g, background.b)
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_fill(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        configureFontOptions(pango_layout_get_context(layout))
        let font = pango_font_description_from_string(HudRenderer.fontFamilies)
        pango_font_description_set_absolute_size(font, max(12, min(width, height) / 24) * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_text(layout, curtain.text, -1)
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        cairo_set_source_rgb(cr, 0.42, 0.42, 0.45)
        cairo_move_to(cr, ((width - Double(w)) / 2).rounded(), ((height - Double(h)) / 2).rounded())
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }

    /// The curtain as an image (tests, and anything that wants its pixels).
    public static func render(_ curtain: CurtainModel, width: Int, height: Int) -> CairoImage {
        let image = CairoImage(width: width, height: height)
        image.draw { draw(curtain, cr: $0, width: Double(width), height: Double(height)) }
        return image
    }
}
