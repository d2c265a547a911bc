import CCairo
import DuoCore

/// Draws the operator HUD over the preview: the safe frame on the aspect-fit preview, and a translucent
/// panel of text lines (recording, camera, accessory and why it is unavailable, script position, time
/// left, private notes, dropped frames). Text is laid out by Pango, like the subject view, so a note in
/// Arabic or Chinese is shaped and drawn with its own font.
///
/// Thread: whichever thread owns `cr` (the GTK main thread for the operator window; tests draw offscreen).
public enum HudRenderer {
    /// Monospace first for the figures; Pango falls back per character to the CJK and Arabic fonts.
    static let fontFamilies = "DejaVu Sans Mono, Noto Sans CJK SC, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans"

    /// Draws `hud` onto a Cairo context (`cairo_t *`) of `width` × `height`.
    public static func draw(_ hud: HudModel, cr: OpaquePointer, width: Double, height: Double) {
        // Safe frame: the recorded composition (--aspect) and its action-safe area.
        let (composition, actionSafe) = hud.safeFrame(width: width, height: height)
        cairo_save(cr)
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
        // The faces the framing detector found, amber when a hint is shown.
        if hud.framingHint != nil { cairo_set_source_rgba(cr, 1, 0.8, 0.3, 0.9) } else { cairo_set_source_rgba(cr, 0.3, 0.95, 0.4, 0.9) }
        for face in hud.faceRects(width: width, height: height) {
            cairo_rectangle(cr, face.x, face.y, face.width, face.height)
            cairo_stroke(cr)
        }

        // Text panel: beside the composition when it leaves room, else over the picture's top left (inside
        // the operator display profile either way). One Pango layout per line, wrapped to the region's
        // width, measured, then drawn over a backdrop.
        let (region, _) = hud.panelRegion(width: width, height: height)
        let toned = hud.toned
        let lines = toned.map(\.text)
        let size = max(11, min(18, height / 40))
        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        configureFontOptions(pango_layout_get_context(layout))
        let font = pango_font_description_from_string(fontFamilies)
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, PANGO_WEIGHT_BOLD)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_auto_dir(layout, 0)   // the panel reads left to right; an RTL note keeps its own order
        let pad = size * 0.6
        pango_layout_set_width(layout, Int32(max(40, region.width - 2 * pad) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)

        var extents: [(width: Double, height: Double)] = []
        for line in lines {
            pango_layout_set_text(layout, line, -1)
            var w: Int32 = 0, h: Int32 = 0
            pango_layout_get_pixel_size(layout, &w, &h)
            extents.append((Double(w), Double(h)))
        }
        let widest = extents.map(\.width).max() ?? 0
        // A line that wrapped takes its own height; one line each at least size × 1.35.
        let heights = extents.map { max(size * 1.35, $0.height) }
        cairo_set_source_rgba(cr, 0, 0, 0, 0.6)
        cairo_rectangle(cr, region.x, region.y, widest + 2 * pad, heights.reduce(0, +) + 2 * pad)
        cairo_fill(cr)
        var y = region.y + pad
        for (i, line) in lines.enumerated() {
            switch toned[i].tone {
            case .live: cairo_set_source_rgb(cr, 1, 0.25, 0.2)
            case .attention: cairo_set_source_rgb(cr, 1, 0.8, 0.3)
            case .plain: cairo_set_source_rgb(cr, 0.95, 0.95, 0.95)
            }
            pango_layout_set_text(layout, line, -1)
            cairo_move_to(cr, region.x + pad, y)
            pango_cairo_show_layout(cr, layout)
            y += heights[i]
        }
        cairo_restore(cr)
    }

    /// Characters of the HUD's lines that no installed font can draw (shown as boxes): 0 when every note,
    /// in whatever script, is drawn with real glyphs.
    public static func missingGlyphs(_ hud: HudModel) -> Int {
        let image = CairoImage(width: 16, height: 16)
        var missing = 0
        image.draw { cr in
            let layout = pango_cairo_create_layout(cr)!
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            let font = pango_font_description_from_string(fontFamilies)
            pango_layout_set_font_description(layout, font)
            pango_font_description_free(font)
            for line in hud.lines {
                pango_layout_set_text(layout, line, -1)
                missing += Int(pango_layout_get_unknown_glyphs_count(layout))
            }
        }
        return missing
    }

    /// The HUD drawn over a plain dark picture of `width` × `height` (tests, and `render-hud` previews).
    public static func image(_ hud: HudModel, width: Int, height: Int) -> CairoImage {
        .overDarkPicture(width: width, height: height) { draw(hud, cr: $0, width: Double(width), height: Double(height)) }
    }
}
