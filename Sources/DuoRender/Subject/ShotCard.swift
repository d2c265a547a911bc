import CCairo
import DuoCore
import Foundation

/// The shot card on the subject monitor (`--shots`): the current shot's id and title in bold, what it
/// asks of the subject under it, wrapped to `width` pixels, on the countdown's backdrop. Shown during
/// standby and the countdown; the script takes its place once the take records. Made only from a
/// `SubjectShot`, which has no field for the operator's notes. The label ("Shot") is in the subject's
/// `language`; the shot list's id, title and instruction are shown as written.
///
/// Thread: call off the streaming thread (scene building); the result is immutable.
func renderShotCard(_ shot: SubjectShot, width: Int, fontSize: Double, mirror: MirrorFlags, language: Translator) -> CairoImage {
    func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
    let padding = (fontSize * 0.6).rounded()
    return withSubjectLayout(fontSize: fontSize, bold: false) { layout in
        pango_layout_set_width(layout, Int32(max(1, Double(width) - 2 * padding)) * PANGO_SCALE)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        let heading = language.text("Shot %1$s · %2$s", [shot.id, shot.title])
        var markup = "<b>\(escape(heading))</b>"
        if !shot.instruction.isEmpty { markup += "\n\(escape(shot.instruction))" }
        pango_layout_set_markup(layout, markup, -1)
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, nil, &logical)
        let w = Int((Double(logical.width) + 2 * padding).rounded(.up)) + 1
        let h = Int((Double(logical.height) + 2 * padding).rounded(.up)) + 1
        return mirroredSprite(width: w, height: h, mirror: mirror) { cr, image in
            SubjectPalette.backdrop.setSource(cr)
            cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
            cairo_fill(cr)
            RGBA(1, 1, 1).setSource(cr)
            cairo_move_to(cr, padding - Double(logical.x), padding - Double(logical.y))
            pango_cairo_show_layout(cr, layout)
        }
    }
}
