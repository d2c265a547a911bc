import CCairo
import DuoCore
import Foundation

/// The shot card on the subject monitor (`--shots`): the current shot's id and title in bold, what it
/// asks of the subject under it, wrapped to `width` pixels, on the countdown's backdrop. Shown during
/// standby and the countdown; the script takes its place once the take records. Made only from a
/// `SubjectShot`, which has no field for the operator's notes.
///
/// Thread: call off the streaming thread (scene building); the result is immutable.
func renderShotCard(_ shot: SubjectShot, width: Int, fontSize: Double, mirror: MirrorFlags) -> CairoImage {
    func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
    let padding = (fontSize * 0.6).rounded()
    let fontMap = pango_cairo_font_map_get_default()
    let context = pango_font_map_create_context(fontMap)!
    configureFontOptions(context)
    let layout = pango_layout_new(context)
    let font = pango_font_description_from_string(subjectFontFamilies)
    pango_font_description_set_absolute_size(font, fontSize * Double(PANGO_SCALE))
    pango_layout_set_font_description(layout, font)
    pango_font_description_free(font)
    pango_layout_set_width(layout, Int32(max(1, Double(width) - 2 * padding)) * PANGO_SCALE)
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    var markup = "<b>\(escape("Shot \(shot.id) · \(shot.title)"))</b>"
    if !shot.instruction.isEmpty { markup += "\n\(escape(shot.instruction))" }
    pango_layout_set_markup(layout, markup, -1)
    var logical = PangoRectangle()
    pango_layout_get_pixel_extents(layout, nil, &logical)
    let w = Int((Double(logical.width) + 2 * padding).rounded(.up)) + 1
    let h = Int((Double(logical.height) + 2 * padding).rounded(.up)) + 1
    let image = CairoImage(width: max(w, 2), height: max(h, 2))
    image.draw { cr in
        if mirror.horizontal { cairo_translate(cr, Double(image.width), 0); cairo_scale(cr, -1, 1) }
        if mirror.vertical { cairo_translate(cr, 0, Double(image.height)); cairo_scale(cr, 1, -1) }
        SubjectPalette.backdrop.setSource(cr)
        cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
        cairo_fill(cr)
        RGBA(1, 1, 1).setSource(cr)
        cairo_move_to(cr, padding - Double(logical.x), padding - Double(logical.y))
        pango_cairo_show_layout(cr, layout)
    }
    g_object_unref(UnsafeMutableRawPointer(layout))
    g_object_unref(UnsafeMutableRawPointer(context))
    return image
}
