import Foundation
import CCairo
import DuoCore

/// A pose cue's sprite: a small Cairo-drawn pictogram (a head looking at the lens, turning, chin up or
/// down) and the instruction beside it, on the dark backdrop the recording light uses. Made when a scene
/// is built (off the streaming thread), blitted per frame like the other sprites.
///
/// Thread: any thread except the streaming thread.
enum PoseSprite {
    static let colour = RGBA(1.0, 0.86, 0.35)

    static func render(_ cue: PoseCue, fontSize: Double, mirror: MirrorFlags) -> CairoImage {
        // The text's own image, unmirrored; the whole sprite is mirrored once at the end.
        let label = renderLabel(cue.text, fontSize: fontSize, bold: true, colour: RGBA(1, 1, 1), mirror: .none)
        let pad = (fontSize * 0.35).rounded()
        let icon = (Double(label.height) * 1.5).rounded()
        let w = Int(pad + icon + pad + Double(label.width) + pad)
        let h = Int(max(icon, Double(label.height)) + 2 * pad)
        let plain = CairoImage(width: w, height: h)
        plain.draw { cr in
            SubjectPalette.backdrop.setSource(cr)
            cairo_rectangle(cr, 0, 0, Double(w), Double(h))
            cairo_fill(cr)
            drawPictogram(cue.pictogram, cr: cr, x: pad, y: (Double(h) - icon) / 2, size: icon)
            cairo_set_source_surface(cr, label.surface, pad + icon + pad, ((Double(h) - Double(label.height)) / 2).rounded())
            cairo_paint(cr)
        }
        guard mirror.horizontal || mirror.vertical else { return plain }
        let image = CairoImage(width: w, height: h)
        image.draw { cr in
            if mirror.horizontal { cairo_translate(cr, Double(w), 0); cairo_scale(cr, -1, 1) }
            if mirror.vertical { cairo_translate(cr, 0, Double(h)); cairo_scale(cr, 1, -1) }
            cairo_set_source_surface(cr, plain.surface, 0, 0)
            cairo_paint(cr)
        }
        return image
    }

    /// A head in a `size` square at (x, y): a circle with eyes, turned, tilted or looking straight out, and
    /// an arrow for a movement. Left and right are the subject's own (they face the screen: screen left).
    static func drawPictogram(_ kind: PosePictogram, cr: OpaquePointer, x: Double, y: Double, size: Double) {
        let cx = x + size / 2, cy = y + size / 2, r = size * 0.36
        let line = max(1.5, size / 14)
        cairo_set_line_width(cr, line)
        colour.setSource(cr)
        // The head.
        cairo_new_path(cr)
        cairo_arc(cr, cx, cy, r, 0, 2 * Double.pi)
        cairo_stroke(cr)
        // Eyes, shifted the way the head turns or tilts.
        var dx = 0.0, dy = 0.0
        switch kind {
        case .turnLeft: dx = -r * 0.45
        case .turnRight: dx = r * 0.45
        case .up: dy = -r * 0.35
        case .down: dy = r * 0.35
        case .lens, .head: break
        }
        for side in [-1.0, 1.0] {
            cairo_new_path(cr)
            cairo_arc(cr, cx + dx + side * r * 0.38, cy + dy - r * 0.12, max(1, r * 0.13), 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        func arrow(from: (Double, Double), to: (Double, Double)) {
            cairo_new_path(cr)
            cairo_move_to(cr, from.0, from.1)
            cairo_line_to(cr, to.0, to.1)
            cairo_stroke(cr)
            let angle = atan2(to.1 - from.1, to.0 - from.0), head = size * 0.14
            cairo_new_path(cr)
            cairo_move_to(cr, to.0, to.1)
            cairo_line_to(cr, to.0 - head * cos(angle - 0.5), to.1 - head * sin(angle - 0.5))
            cairo_line_to(cr, to.0 - head * cos(angle + 0.5), to.1 - head * sin(angle + 0.5))
            cairo_close_path(cr)
            cairo_fill(cr)
        }
        switch kind {
        case .lens:
            // A lens ring in front of the eyes' line.
            cairo_new_path(cr)
            cairo_arc(cr, cx, cy + r * 0.35, r * 0.22, 0, 2 * Double.pi)
            cairo_stroke(cr)
        case .turnLeft: arrow(from: (cx + r * 0.2, y + size * 0.95), to: (x + size * 0.02, y + size * 0.95))
        case .turnRight: arrow(from: (cx - r * 0.2, y + size * 0.95), to: (x + size * 0.98, y + size * 0.95))
        case .up: arrow(from: (x + size * 0.95, cy + r * 0.5), to: (x + size * 0.95, y + size * 0.04))
        case .down: arrow(from: (x + size * 0.95, cy - r * 0.5), to: (x + size * 0.95, y + size * 0.96))
        case .head: break
        }
    }
}
