import CGtk
import DuoCore

/// Draws the operator HUD over the preview with Cairo: the safe frame on the aspect-fit preview, and a
/// translucent panel of text lines (recording, camera, accessory and why it is unavailable, script
/// position, time left, private notes, dropped frames).
///
/// Thread: GTK main thread (the drawing area's draw signal).
enum HudPainter {
    static func draw(_ hud: HudModel, cr: OpaquePointer, width: Double, height: Double) {
        // Safe frame: the recorded composition (--aspect) and its action-safe area.
        let (composition, actionSafe) = hud.safeFrame(width: width, height: height)
        cairo_set_line_width(cr, 2)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.8)
        cairo_rectangle(cr, composition.x + 1, composition.y + 1, composition.width - 2, composition.height - 2)
        cairo_stroke(cr)
        let dashes: [Double] = [8, 6]
        cairo_set_dash(cr, dashes, 2, 0)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.5)
        cairo_rectangle(cr, actionSafe.x, actionSafe.y, actionSafe.width, actionSafe.height)
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)

        // Text panel, top left.
        let lines = hud.lines
        let size = max(11, min(18, height / 40))
        cairo_select_font_face(cr, "DejaVu Sans Mono", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, size)
        var widest = 0.0
        for line in lines {
            var ext = cairo_text_extents_t()
            cairo_text_extents(cr, line, &ext)
            widest = max(widest, ext.x_advance)
        }
        let lineHeight = size * 1.35
        let pad = size * 0.6
        cairo_set_source_rgba(cr, 0, 0, 0, 0.6)
        cairo_rectangle(cr, 8, 8, widest + 2 * pad, Double(lines.count) * lineHeight + 2 * pad)
        cairo_fill(cr)
        for (i, line) in lines.enumerated() {
            if i == 0 && (hud.recording || hud.countdown != nil) {
                cairo_set_source_rgb(cr, 1, 0.25, 0.2)
            } else if line.hasPrefix("accessory"), !hud.available {
                cairo_set_source_rgb(cr, 1, 0.8, 0.3)
            } else {
                cairo_set_source_rgb(cr, 0.95, 0.95, 0.95)
            }
            cairo_move_to(cr, 8 + pad, 8 + pad + Double(i) * lineHeight + size)
            cairo_show_text(cr, line)
        }
    }
}
