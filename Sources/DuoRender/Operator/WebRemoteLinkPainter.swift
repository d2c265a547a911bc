import CCairo
import DuoCore

/// Draws the web remote's pairing card over the operator picture: a white card, centred, holding the QR
/// code (black modules on white, the quiet zone of 4 modules, every module a whole number of device
/// pixels so a phone's camera sees crisp squares) and, under it, a caption and the address as text.
///
/// Thread: whichever thread owns `cr` (the GTK main thread for the operator window; tests draw offscreen).
public enum WebRemoteLinkPainter {
    /// Draws `card` onto a Cairo context of `width` × `height` logical units, `scale` device pixels each.
    public static func draw(_ card: WebRemoteLinkCard, cr: OpaquePointer, width: Double, height: Double, scale: Double = 1) {
        let scale = max(1, scale)
        let w = Int((width * scale).rounded()), h = Int((height * scale).rounded())
        guard w > 0, h > 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // Device pixels from here on: the modules land on whole pixels.
        cairo_scale(cr, 1 / scale, 1 / scale)

        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        configureFontOptions(pango_layout_get_context(layout))
        let font = pango_font_description_from_string(HudRenderer.fontFamilies)
        pango_font_description_set_absolute_size(font, max(14, Double(h) / 45) * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_auto_dir(layout, 0)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        pango_layout_set_wrap(layout, PANGO_WRAP_CHAR)
        pango_layout_set_text(layout, card.caption + "\n" + card.url, -1)
        func measure() -> (Int, Int) {
            var tw: Int32 = 0, th: Int32 = 0
            pango_layout_get_pixel_size(layout, &tw, &th)
            return (Int(tw), Int(th))
        }
        // Laid out once unwrapped, then again with the text wrapped to the card's width.
        let unwrapped = measure()
        var geometry = card.layout(width: w, height: h, textHeight: unwrapped.1, textWidth: unwrapped.0)
        pango_layout_set_width(layout, Int32(max(1, geometry.text.width) * Int(PANGO_SCALE)))
        let wrapped = measure()
        geometry = card.layout(width: w, height: h, textHeight: wrapped.1 + geometry.module, textWidth: unwrapped.0)
        pango_layout_set_width(layout, Int32(max(1, geometry.text.width) * Int(PANGO_SCALE)))

        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
        cairo_set_source_rgb(cr, 1, 1, 1)
        let c = geometry.card
        cairo_rectangle(cr, Double(c.x), Double(c.y), Double(c.width), Double(c.height))
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        let m = geometry.module, origin = (geometry.symbol.x + QRMatrix.quietZone * m, geometry.symbol.y + QRMatrix.quietZone * m)
        let matrix = card.matrix
        for y in 0..<matrix.size {
            // One rectangle per run of dark modules along a row.
            var x = 0
            while x < matrix.size {
                guard matrix[x, y] else { x += 1; continue }
                let start = x
                while x < matrix.size, matrix[x, y] { x += 1 }
                cairo_rectangle(cr, Double(origin.0 + start * m), Double(origin.1 + y * m), Double((x - start) * m), Double(m))
            }
        }
        cairo_fill(cr)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT)
        cairo_move_to(cr, Double(geometry.text.x), Double(geometry.text.y))
        pango_cairo_show_layout(cr, layout)
    }

    /// The card drawn over a plain dark picture of `width` × `height` (tests).
    public static func image(_ card: WebRemoteLinkCard, width: Int, height: Int) -> CairoImage {
        .overDarkPicture(width: width, height: height) { draw(card, cr: $0, width: Double(width), height: Double(height)) }
    }
}
