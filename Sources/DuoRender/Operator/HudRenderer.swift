import CCairo
import DuoCore

/// Draws the operator HUD over the preview: the safe frame on the aspect-fit preview, the HUD panel
/// (`HudModel.panel`: the state and elapsed time large, the take and time left, the other lines, a sound
/// meter), the confidence strip of what the subject reads (HudRenderer+Strip.swift) and, when asked, the
/// key list. Everything scales with the window (a unit of about 1/48 of its height), so the panel reads the
/// same at 1280x720 and 3840x2160. Text is laid out by Pango, like the subject view, so a note in Arabic
/// or Chinese is shaped and drawn with its own font.
///
/// Thread: whichever thread owns `cr` (the GTK main thread for the operator window; tests draw offscreen).
public enum HudRenderer {
    /// Monospace first for the figures; Pango falls back per character to the CJK and Arabic fonts.
    static let fontFamilies = "DejaVu Sans Mono, Noto Sans CJK SC, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans"
    /// The panel's text: a sans face, read at a glance from a distance.
    /// The gap between the HUD's parts and the usable area's edges (logical px).
    static let margin = 8.0
    static let panelFamilies = "DejaVu Sans, Noto Sans CJK SC, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans"

    /// Where the HUD's parts landed (logical pixels of the area drawn in): for tests and for checking
    /// that nothing overlaps.
    public struct Boxes: Equatable, Sendable {
        /// The panel's backdrop, and the headline (state and elapsed) inside it.
        public var panel = FrameRect(x: 0, y: 0, width: 0, height: 0)
        public var headline = FrameRect(x: 0, y: 0, width: 0, height: 0)
        public var meter: FrameRect?
        /// The confidence strip and, inside it, the reading line's band.
        public var strip: FrameRect?
        public var readingLine: FrameRect?
        /// The key list over the picture.
        public var keys: FrameRect?
        /// The size unit the HUD was laid out with (px): text is this size, the headline about 2.2 times.
        public var unit = 0.0
    }

    /// The HUD's size unit for an area of `width` × `height`: 1/50 of the height (14.4 px at 720 lines,
    /// 43 px at 2160), no wider than 1/64 of the width, at least 12 px.
    static func unit(width: Double, height: Double) -> Double {
        max(12, min(height / 50, width / 64))
    }

    /// The sound meter's length, in units.
    static let meterWidth = 12.0

    /// Draws `hud` onto a Cairo context (`cairo_t *`) of `width` × `height`; returns where its parts went.
    @discardableResult
    public static func draw(_ hud: HudModel, cr: OpaquePointer, width: Double, height: Double) -> Boxes {
        var boxes = Boxes()
        drawSafeFrame(hud, cr: cr, width: width, height: height)
        let panel = hud.panel
        let (region, beside) = hud.panelRegion(width: width, height: height)
        let usable = hud.usableArea(width: width, height: height)
        var u = unit(width: width, height: height)
        boxes.unit = u
        let text = TextLayout(cr)
        defer { text.free() }

        // The confidence strip on the right of the usable area (the left when the panel sits in a bar on
        // the right); the panel keeps clear of it.
        var panelRegion = region
        if !panel.confidence.isEmpty {
            let stripWidth = (usable.width * 0.42).rounded()
            let onLeft = beside && region.x > usable.x + usable.width / 2
            let x = onLeft ? usable.x + margin : usable.x + usable.width - margin - stripWidth
            let strip = FrameRect(x: x, y: region.y, width: stripWidth, height: region.height)
            let drawn = drawStrip(panel.confidence, cr: cr, text: text, in: strip, unit: u)
            boxes.strip = drawn.strip
            boxes.readingLine = drawn.reading
            if !onLeft {
                panelRegion.width = min(panelRegion.width, max(0, x - margin - panelRegion.x))
            }
        }

        // Measured first; a panel taller than its region is laid out again smaller.
        var measured = measure(panel, text: text, width: panelRegion.width, unit: u)
        if measured.height > panelRegion.height, measured.height > 0 {
            u *= max(0.5, panelRegion.height / measured.height)
            measured = measure(panel, text: text, width: panelRegion.width, unit: u)
        }
        let pad = measured.pad
        let box = FrameRect(x: panelRegion.x, y: panelRegion.y, width: min(panelRegion.width, measured.width + 2 * pad),
                            height: min(panelRegion.height, measured.height))
        boxes.panel = box
        // A window too small for every line (a few hundred pixels) cuts the last ones at the backdrop.
        backdrop(cr, box)
        let wrap = max(40, box.width - 2 * pad)
        var y = box.y + pad
        // The state and the take's elapsed time.
        text.set(panel.headline.text, size: 2.2 * u, bold: true, width: wrap)
        let headline = text.size
        setTone(cr, panel.headline.tone)
        text.show(at: box.x + pad, y)
        boxes.headline = FrameRect(x: box.x + pad, y: y, width: headline.width, height: headline.height)
        y += headline.height
        text.set(panel.facts, size: 1.3 * u, bold: true, width: wrap)
        cairo_set_source_rgb(cr, 1, 1, 1)
        text.show(at: box.x + pad, y)
        y += text.size.height + 0.4 * u
        for (i, row) in panel.rows.enumerated() {
            text.set(row.text, size: u, bold: false, width: wrap)
            setTone(cr, row.tone)
            text.show(at: box.x + pad, y)
            if let level = panel.meter, i == panel.meterRow {
                // The sound meter at the end of the audio line.
                let x = box.x + pad + text.size.width + u
                let meter = FrameRect(x: x, y: y + 0.3 * u, width: max(0, min(meterWidth * u, box.x + box.width - pad - x)), height: 0.7 * u)
                drawMeter(level, cr: cr, in: meter)
                boxes.meter = meter
            }
            y += max(u * 1.3, text.size.height)
        }
        cairo_restore(cr)

        if let keys = panel.keyHelp {
            boxes.keys = drawKeyHelp(keys, cr: cr, text: text, in: usable, unit: unit(width: width, height: height))
        }
        return boxes
    }

    /// The panel's size at unit `u` when its lines wrap to `width`: its text's widest line and the
    /// backdrop's height, with the padding.
    private static func measure(_ panel: HudPanel, text: TextLayout, width: Double, unit u: Double) -> (width: Double, height: Double, pad: Double) {
        let pad = 0.7 * u
        let wrap = max(40, width - 2 * pad)
        var widest = 0.0, height = 2 * pad
        text.set(panel.headline.text, size: 2.2 * u, bold: true, width: wrap)
        widest = max(widest, text.size.width); height += text.size.height
        text.set(panel.facts, size: 1.3 * u, bold: true, width: wrap)
        widest = max(widest, text.size.width); height += text.size.height + 0.4 * u
        for (i, row) in panel.rows.enumerated() {
            text.set(row.text, size: u, bold: false, width: wrap)
            let meter = panel.meter != nil && i == panel.meterRow ? (1 + meterWidth) * u : 0
            widest = max(widest, min(wrap, text.size.width + meter)); height += max(u * 1.3, text.size.height)
        }
        return (widest, height, pad)
    }

    private static func setTone(_ cr: OpaquePointer, _ tone: HudModel.Tone) {
        switch tone {
        case .live: cairo_set_source_rgb(cr, 1, 0.25, 0.2)
        case .attention: cairo_set_source_rgb(cr, 1, 0.8, 0.3)
        case .plain: cairo_set_source_rgb(cr, 0.95, 0.95, 0.95)
        }
    }

    /// The sound meter: a bar filled to `level` (0…1 of -60…0 dBFS), green, amber above -12 dB, red above -3.
    private static func drawMeter(_ level: Double, cr: OpaquePointer, in r: FrameRect) {
        cairo_set_source_rgba(cr, 1, 1, 1, 0.25)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        cairo_fill(cr)
        let bands: [(from: Double, to: Double, rgb: (Double, Double, Double))] = [
            (0, 48.0 / 60, (0.3, 0.9, 0.4)), (48.0 / 60, 57.0 / 60, (1, 0.8, 0.3)), (57.0 / 60, 1, (1, 0.25, 0.2)),
        ]
        for band in bands where level > band.from {
            cairo_set_source_rgb(cr, band.rgb.0, band.rgb.1, band.rgb.2)
            cairo_rectangle(cr, r.x + band.from * r.width, r.y, (min(level, band.to) - band.from) * r.width, r.height)
            cairo_fill(cr)
        }
    }

    /// The safe frame (the recorded composition, --aspect, and its action-safe area) and the faces found.
    private static func drawSafeFrame(_ hud: HudModel, cr: OpaquePointer, width: Double, height: Double) {
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
            for families in [fontFamilies, panelFamilies] {
                let font = pango_font_description_from_string(families)
                pango_layout_set_font_description(layout, font)
                pango_font_description_free(font)
                for line in hud.lines + hud.run.confidence.map(\.text) {
                    pango_layout_set_text(layout, line, -1)
                    missing += Int(pango_layout_get_unknown_glyphs_count(layout))
                }
            }
        }
        return missing
    }

    /// The HUD drawn over a plain dark picture of `width` × `height` (tests, and `render-hud` previews).
    public static func image(_ hud: HudModel, width: Int, height: Int) -> CairoImage {
        .overDarkPicture(width: width, height: height) { draw(hud, cr: $0, width: Double(width), height: Double(height)) }
    }

    /// Where the HUD's parts land on an area of `width` × `height` (drawn offscreen and thrown away).
    public static func boxes(_ hud: HudModel, width: Int, height: Int) -> Boxes {
        var boxes = Boxes()
        _ = CairoImage.overDarkPicture(width: width, height: height) { boxes = draw(hud, cr: $0, width: Double(width), height: Double(height)) }
        return boxes
    }
}

/// One Pango layout reused for every piece of the HUD's text: set its text, font size and wrap width,
/// read its size, show it.
///
/// Thread: the thread drawing with `cr`.
final class TextLayout {
    let cr: OpaquePointer
    let layout: OpaquePointer
    private(set) var size = (width: 0.0, height: 0.0)

    init(_ cr: OpaquePointer) {
        self.cr = cr
        layout = pango_cairo_create_layout(cr)!
        configureFontOptions(pango_layout_get_context(layout))
        pango_layout_set_auto_dir(layout, 0)   // the panel reads left to right; an RTL note keeps its own order
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    }

    func free() { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// `text` at `size` px, wrapped to `width` (or cut short with … when `oneLine`).
    func set(_ text: String, size: Double, bold: Bool, italic: Bool = false, width: Double, oneLine: Bool = false,
             families: String = HudRenderer.panelFamilies) {
        let font = pango_font_description_from_string(families)
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(font, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
        pango_layout_set_ellipsize(layout, oneLine ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE)
        pango_layout_set_text(layout, text, -1)
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        self.size = (Double(w), Double(h))
    }

    func show(at x: Double, _ y: Double) {
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }
}

extension HudRenderer {
    /// Saves the context, fills `box` with the HUD's dark backdrop and clips to it (the caller restores).
    static func backdrop(_ cr: OpaquePointer, _ box: FrameRect) {
        cairo_save(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.74)
        cairo_rectangle(cr, box.x, box.y, box.width, box.height)
        cairo_fill(cr)
        cairo_rectangle(cr, box.x, box.y, box.width, box.height)
        cairo_clip(cr)
    }
}
