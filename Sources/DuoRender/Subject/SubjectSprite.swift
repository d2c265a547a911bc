import CCairo
import DuoCore

//  Sprites of the subject view: short texts (the recording light's label, countdown numbers, framing
//  hints, pose cues) and the shot card, each laid out once in the subject's fonts and rendered as a
//  small image that frames blit. Sprites are blitted, not row-mapped, so both mirror axes are baked in.
//
//  Thread: call off the streaming thread (scene building); the images are immutable once made.

/// Sets the subject's fonts at `fontSize` pixels on `layout`.
func setSubjectFont(_ layout: OpaquePointer, fontSize: Double, bold: Bool) {
    let font = pango_font_description_from_string(subjectFontFamilies)
    pango_font_description_set_absolute_size(font, fontSize * Double(PANGO_SCALE))
    if bold { pango_font_description_set_weight(font, PANGO_WEIGHT_BOLD) }
    pango_layout_set_font_description(layout, font)
    pango_font_description_free(font)
}

/// A layout in the subject's fonts at `fontSize` pixels for `body`, on a context of the calling thread's
/// own default font map (Pango font maps are per thread; not owned here); freed when `body` returns.
func withSubjectLayout<Result>(fontSize: Double, bold: Bool, _ body: (OpaquePointer) -> Result) -> Result {
    let fontMap = pango_cairo_font_map_get_default()
    let context = pango_font_map_create_context(fontMap)!
    configureFontOptions(context)
    let layout = pango_layout_new(context)!
    defer {
        g_object_unref(UnsafeMutableRawPointer(layout))
        g_object_unref(UnsafeMutableRawPointer(context))
    }
    setSubjectFont(layout, fontSize: fontSize, bold: bold)
    return body(layout)
}

/// A sprite of at least 2 × 2 pixels drawn by `body` in mirrored coordinates (`mirror` baked in).
func mirroredSprite(width: Int, height: Int, mirror: MirrorFlags, _ body: (OpaquePointer, CairoImage) -> Void) -> CairoImage {
    let image = CairoImage(width: max(width, 2), height: max(height, 2))
    image.draw { cr in
        if mirror.horizontal {
            cairo_translate(cr, Double(image.width), 0)
            cairo_scale(cr, -1, 1)
        }
        if mirror.vertical {
            cairo_translate(cr, 0, Double(image.height))
            cairo_scale(cr, 1, -1)
        }
        body(cr, image)
    }
    return image
}

/// Lays out and renders one short label (the recording time, a countdown number) as a tight sprite.
///
/// Thread: call off the streaming thread; the result is immutable.
func renderLabel(_ text: String, fontSize: Double, bold: Bool, colour: RGBA, mirror: MirrorFlags,
                 backdrop: RGBA? = nil, padding: Double = 0, dot: RGBA? = nil) -> CairoImage {
    withSubjectLayout(fontSize: fontSize, bold: bold) { layout in
        pango_layout_set_text(layout, text, -1)
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, nil, &logical)
        let dotSize = dot == nil ? 0 : Double(logical.height) * 0.55
        let dotGap = dot == nil ? 0 : dotSize * 0.6
        let w = Int((Double(logical.width) + 2 * padding + dotSize + dotGap).rounded(.up)) + 1
        let h = Int((Double(logical.height) + 2 * padding).rounded(.up)) + 1
        return mirroredSprite(width: w, height: h, mirror: mirror) { cr, image in
            if let backdrop {
                backdrop.setSource(cr)
                let r = min(Double(image.height), Double(image.width)) / 4
                let W = Double(image.width), H = Double(image.height)
                cairo_new_sub_path(cr)
                cairo_arc(cr, W - r, r, r, -Double.pi / 2, 0)
                cairo_arc(cr, W - r, H - r, r, 0, Double.pi / 2)
                cairo_arc(cr, r, H - r, r, Double.pi / 2, Double.pi)
                cairo_arc(cr, r, r, r, Double.pi, 3 * Double.pi / 2)
                cairo_close_path(cr)
                cairo_fill(cr)
            }
            if let dot {
                dot.setSource(cr)
                cairo_arc(cr, padding + dotSize / 2, Double(image.height) / 2, dotSize / 2, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
            colour.setSource(cr)
            cairo_move_to(cr, padding + dotSize + dotGap - Double(logical.x), padding - Double(logical.y))
            pango_cairo_show_layout(cr, layout)
        }
    }
}
