import CCairo
import DuoCore

//  The HUD's confidence strip (the subject view's lines around the reading line, the reading line marked,
//  the operator's private notes inline and marked as private) and the key list over the picture.
//
//  Thread: as HudRenderer (whichever thread owns `cr`).

extension HudRenderer {
    /// Draws the strip's `lines` in the top of `region` (their own height, at most the region's), one
    /// line each (cut short with … rather than wrapped, so each is one of the subject's lines). Returns
    /// the strip's box and the reading line's band.
    static func drawStrip(_ lines: [ConfidenceLine], cr: OpaquePointer, text: TextLayout, in region: FrameRect,
                          unit u: Double) -> (strip: FrameRect, reading: FrameRect?) {
        let size = 1.1 * u, pad = 0.6 * u, rowHeight = size * 1.45
        let label = u
        let height = min(region.height, 2 * pad + label * 1.4 + Double(lines.count) * rowHeight)
        let box = FrameRect(x: region.x, y: region.y, width: region.width, height: height)
        backdrop(cr, box)
        let inner = box.width - 2 * pad
        text.set(tr("THE SUBJECT READS"), size: label, bold: true, width: inner, oneLine: true)
        cairo_set_source_rgb(cr, 0.6, 0.75, 0.9)
        text.show(at: box.x + pad, box.y + pad)
        var y = box.y + pad + label * 1.4
        var reading: FrameRect?
        let marker = 1.4 * u
        for line in lines {
            let rowTop = y
            switch line.kind {
            case .subject(let isReading):
                text.set(line.text, size: size, bold: isReading, width: inner - marker, oneLine: true)
                if isReading {
                    let band = FrameRect(x: box.x, y: rowTop, width: box.width, height: rowHeight)
                    cairo_set_source_rgba(cr, 1, 1, 1, 0.16)
                    cairo_rectangle(cr, band.x, band.y, band.width, band.height)
                    cairo_fill(cr)
                    // The reading-line mark: a red triangle at the left, as the subject's reading band.
                    cairo_set_source_rgb(cr, 1, 0.25, 0.2)
                    cairo_move_to(cr, box.x + pad * 0.5, rowTop + rowHeight * 0.2)
                    cairo_line_to(cr, box.x + pad * 0.5 + marker * 0.6, rowTop + rowHeight / 2)
                    cairo_line_to(cr, box.x + pad * 0.5, rowTop + rowHeight * 0.8)
                    cairo_close_path(cr)
                    cairo_fill(cr)
                    cairo_set_source_rgb(cr, 1, 1, 1)
                    reading = band
                } else {
                    cairo_set_source_rgb(cr, 0.8, 0.8, 0.8)
                }
                text.show(at: box.x + pad + marker, rowTop + (rowHeight - text.size.height) / 2)
            case .privateNote:
                // Marked as private: an amber tag and amber italics on a tinted band.
                text.set(tr("PRIVATE"), size: 0.85 * u, bold: true, width: inner, oneLine: true)
                let tag = text.size
                cairo_set_source_rgba(cr, 1, 0.8, 0.3, 0.18)
                cairo_rectangle(cr, box.x + pad, rowTop + 1, inner, rowHeight - 2)
                cairo_fill(cr)
                cairo_set_source_rgb(cr, 1, 0.8, 0.3)
                cairo_rectangle(cr, box.x + pad + marker * 0.2, rowTop + (rowHeight - tag.height) / 2 - 1, tag.width + 0.4 * u, tag.height + 2)
                cairo_fill(cr)
                cairo_set_source_rgb(cr, 0, 0, 0)
                text.show(at: box.x + pad + marker * 0.2 + 0.2 * u, rowTop + (rowHeight - tag.height) / 2)
                let left = marker * 0.2 + tag.width + 0.9 * u
                text.set(line.text, size: size, bold: false, italic: true, width: inner - left, oneLine: true)
                cairo_set_source_rgb(cr, 1, 0.8, 0.3)
                text.show(at: box.x + pad + left, rowTop + (rowHeight - text.size.height) / 2)
            }
            y += rowHeight
        }
        cairo_restore(cr)
        return (box, reading)
    }

    /// The key list in the middle of `area`: each key bold, what it does beside it, on a dark card; laid
    /// out again smaller when it would not fit. Returns the card's box.
    static func drawKeyHelp(_ keys: [KeyHelp], cr: OpaquePointer, text: TextLayout, in area: FrameRect, unit: Double) -> FrameRect {
        var u = unit
        var card = FrameRect(x: 0, y: 0, width: 0, height: 0)
        var keyWidth = 0.0, rows: [Double] = []
        for _ in 0..<4 {
            let maxWidth = area.width * 0.92
            keyWidth = 0
            for k in keys {
                text.set(k.key, size: u, bold: true, width: maxWidth)
                keyWidth = max(keyWidth, text.size.width)
            }
            let pad = u, doesWidth = maxWidth - 2 * pad - keyWidth - u
            var widest = 0.0
            rows = keys.map { k in
                text.set(k.does, size: u, bold: false, width: doesWidth)
                widest = max(widest, text.size.width)
                return max(text.size.height, u * 1.3)
            }
            text.set(tr("KEYS  (? or Esc closes)"), size: 1.3 * u, bold: true, width: maxWidth)
            let title = text.size.height + 0.5 * u
            let w = 2 * pad + keyWidth + u + widest, h = 2 * pad + title + rows.reduce(0, +)
            card = FrameRect(x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h)
            if h <= area.height * 0.96 { break }
            u *= max(0.6, area.height * 0.94 / h)
        }
        let pad = u
        cairo_save(cr)
        cairo_set_source_rgba(cr, 0.05, 0.05, 0.07, 0.94)
        cairo_rectangle(cr, card.x, card.y, card.width, card.height)
        cairo_fill(cr)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.5)
        cairo_set_line_width(cr, max(1, u / 10))
        cairo_rectangle(cr, card.x, card.y, card.width, card.height)
        cairo_stroke(cr)
        text.set(tr("KEYS  (? or Esc closes)"), size: 1.3 * u, bold: true, width: card.width - 2 * pad)
        cairo_set_source_rgb(cr, 0.6, 0.8, 1)
        text.show(at: card.x + pad, card.y + pad)
        var y = card.y + pad + text.size.height + 0.5 * u
        let doesWidth = card.width - 2 * pad - keyWidth - u + 1
        for (i, k) in keys.enumerated() {
            text.set(k.key, size: u, bold: true, width: keyWidth + 1)
            cairo_set_source_rgb(cr, 1, 0.85, 0.4)
            text.show(at: card.x + pad, y)
            text.set(k.does, size: u, bold: false, width: doesWidth)
            cairo_set_source_rgb(cr, 0.95, 0.95, 0.95)
            text.show(at: card.x + pad + keyWidth + u, y)
            y += rows[i]
        }
        cairo_restore(cr)
        return card
    }
}
