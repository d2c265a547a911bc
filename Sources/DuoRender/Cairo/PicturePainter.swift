import CCairo
import DuoCore

/// Paints a BGRx picture (the operator preview) into a window's Cairo context, black around it, with the
/// HUD layer composed over it client-side (`HudLayer`): into
/// the rectangle the window lays the picture out in (the HUD's safe frame is drawn over the same one), so
/// a frame of the previous size, while the graph catches up with a resize, is stretched to it for that
/// moment rather than shown small or cropped; frames of the new size are copied 1:1; a camera smaller
/// than the window is painted up from its own pixels (nearest: the graph never scales up).
///
/// Thread: whichever thread owns `cr` (the GTK main thread).
public enum PicturePainter {
    /// The rectangle the picture takes in a `width`×`height` area (logical units), as drawn.
    public static func rect(pictureWidth: Int, pictureHeight: Int, scale: Double, width: Double, height: Double) -> FrameRect {
        let pw = Double(max(1, pictureWidth)) / scale, ph = Double(max(1, pictureHeight)) / scale
        let k = min(width / pw, height / ph, 1)
        let w = pw * k, h = ph * k
        return FrameRect(x: ((width - w) / 2).rounded(), y: ((height - h) / 2).rounded(), width: w, height: h)
    }

    /// Paints `picture` (nil: black only) into `cr` of `width`×`height` logical units, `scale` device pixels each.
    /// `into`: the picture's rectangle (logical units); nil: centred, shrunk to fit, never enlarged.
    /// `overlay`: the HUD layer, composed over the picture here, client-side, in the boxes it covers: the
    /// display server is handed opaque pictures to copy (one plus a few small patches), never a shape.
    public static func paint(_ picture: PictureBytes?, cr: OpaquePointer, width: Double, height: Double, scale: Double,
                             into target: FrameRect? = nil, overlay: HudLayer? = nil) {
        let source = picture.flatMap { p -> (OpaquePointer, FrameRect, PictureBytes)? in
            guard p.width > 0, p.height > 0,
                  let surface = cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: p.base.assumingMemoryBound(to: UInt8.self)),
                                                                    CAIRO_FORMAT_RGB24, Int32(p.width), Int32(p.height), Int32(p.stride)) else { return nil }
            let r = target ?? rect(pictureWidth: p.width, pictureHeight: p.height, scale: scale, width: width, height: height)
            return (surface, snapped(r, p, scale: scale), p)
        }
        defer { if let source { cairo_surface_destroy(source.0) } }
        cairo_save(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        if let (surface, r, p) = source {
            // Black only around the picture (every frame fills the picture's own pixels anyway).
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_rectangle(cr, 0, 0, width, height)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_fill(cr)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
            place(surface, p, at: r, scale: scale, cr: cr, except: overlay?.image == nil ? [] : overlay?.covered ?? [])
        } else {
            cairo_paint(cr)
        }
        cairo_restore(cr)
        guard let overlay, let layer = overlay.image, !overlay.covered.isEmpty else { return }
        // Each covered box: the frame's pixels under it and the layer over them, composed in a small
        // opaque image here, then copied to the window at whole device pixels.
        cairo_save(cr)
        cairo_scale(cr, 1 / scale, 1 / scale)
        for box in overlay.covered {
            guard let patch = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(box.width), Int32(box.height)) else { continue }
            let pcr = cairo_create(patch)!
            cairo_translate(pcr, Double(-box.x), Double(-box.y))
            cairo_set_source_rgb(pcr, 0, 0, 0)
            cairo_paint(pcr)
            if let (surface, r, p) = source {
                cairo_save(pcr)
                cairo_scale(pcr, scale, scale)
                place(surface, p, at: r, scale: scale, cr: pcr)
                cairo_restore(pcr)
            }
            cairo_set_source_surface(pcr, layer.surface, 0, 0)
            cairo_paint(pcr)
            cairo_destroy(pcr)
            cairo_set_source_surface(cr, patch, Double(box.x), Double(box.y))
            cairo_rectangle(cr, Double(box.x), Double(box.y), Double(box.width), Double(box.height))
            cairo_fill(cr)
            cairo_surface_destroy(patch)
        }
        cairo_restore(cr)
    }

    /// `r`, made the picture's own size, centred on it, when the two differ by at most 2 device pixels
    /// (the graph's fit rounds to even sizes): copied 1:1 rather than stretched by a pixel every frame.
    static func snapped(_ r: FrameRect, _ picture: PictureBytes, scale: Double) -> FrameRect {
        guard PictureFit.paintFilter(width: picture.width, height: picture.height, shownWidth: r.width * scale,
                                     shownHeight: r.height * scale) == .copy else { return r }
        let w = Double(picture.width) / scale, h = Double(picture.height) / scale
        return FrameRect(x: ((r.x + (r.width - w) / 2) * scale).rounded() / scale, y: ((r.y + (r.height - h) / 2) * scale).rounded() / scale,
                         width: w, height: h)
    }

    /// The picture into its rectangle `r` (logical units) of `cr`.
    /// `except`: boxes (device pixels) left alone, for the patches that follow: a window drawn without a
    /// back buffer never shows the frame there without its HUD.
    private static func place(_ surface: OpaquePointer, _ picture: PictureBytes, at r: FrameRect, scale: Double, cr: OpaquePointer,
                              except boxes: [HudLayer.Box] = []) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let filter = PictureFit.paintFilter(width: picture.width, height: picture.height, shownWidth: r.width * scale, shownHeight: r.height * scale)
        if filter == .copy {
            // Whole device pixels, replacing what is there (nothing to blend): a copy for the server.
            cairo_scale(cr, 1 / scale, 1 / scale)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            let x = (r.x * scale).rounded(), y = (r.y * scale).rounded()
            cairo_set_source_surface(cr, surface, x, y)
            var whole = cairo_rectangle_int_t(x: Int32(x), y: Int32(y), width: Int32(picture.width), height: Int32(picture.height))
            let region = cairo_region_create_rectangle(&whole)!
            for b in boxes {
                var hole = cairo_rectangle_int_t(x: Int32(b.x), y: Int32(b.y), width: Int32(b.width), height: Int32(b.height))
                cairo_region_subtract_rectangle(region, &hole)
            }
            for i in 0..<cairo_region_num_rectangles(region) {
                var part = cairo_rectangle_int_t()
                cairo_region_get_rectangle(region, i, &part)
                cairo_rectangle(cr, Double(part.x), Double(part.y), Double(part.width), Double(part.height))
            }
            cairo_region_destroy(region)
            cairo_clip(cr)
            cairo_paint(cr)
            return
        }
        cairo_translate(cr, r.x, r.y)
        cairo_scale(cr, r.width / Double(picture.width), r.height / Double(picture.height))
        cairo_set_source_surface(cr, surface, 0, 0)
        // Scaled up from the camera's own pixels: nearest, about a copy's cost (PictureFit.paintFilter has
        // the figures). Otherwise, for a moment while the graph catches up with a resize: bilinear, edges
        // padded so the border pixels are not blended with nothing.
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(cairo_get_source(cr), filter == .nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
        cairo_rectangle(cr, 0, 0, Double(picture.width), Double(picture.height))
        cairo_fill(cr)
    }
}
