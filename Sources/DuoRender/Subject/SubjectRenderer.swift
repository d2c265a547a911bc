import CCairo
import DuoCore

/// The subject view as a function of (view-model snapshot, time, size, display profile) → ARGB pixels.
/// Offline rendering (`render-subject`, golden tests); the live overlay draws the same items into I420
/// (`SubjectScene.draw(into:at:)`).
///
/// Thread: any thread except the streaming thread (it lays out and renders tiles synchronously).
public enum SubjectRenderer {
    /// Renders one frame: the background is black (the offline stand-in for the camera picture).
    public static func render(_ viewModel: SubjectViewModel, at time: Int64, width: Int, height: Int,
                              profile: DisplayProfile = .plain, language: Translator = .english) -> CairoImage {
        let scene = SubjectScene(viewModel: viewModel, width: width, height: height, profile: profile, format: .argb,
                                 language: language)
        return render(scene, at: time)
    }

    public static func render(_ scene: SubjectScene, at time: Int64) -> CairoImage {
        scene.prepare(at: time)
        let image = CairoImage(width: scene.width, height: scene.height)
        image.draw { cr in paint(scene, at: time, cr: cr, livePicture: false) }
        return image
    }

    /// Paints the frame at `time` with `cr` (an offline image, or the subject window at the monitor's own
    /// resolution): black, then every item back to front. With `livePicture`, the preview kind's camera
    /// picture is already beneath (the window's video widget): nothing is painted where it shows. Tiles
    /// that are not rendered yet show as the panel's background; this never lays out or renders text.
    public static func paint(_ scene: SubjectScene, at time: Int64, cr: OpaquePointer, livePicture: Bool) {
        if !(livePicture && scene.viewModel.kind == .preview) {
            cairo_set_source_rgb(cr, 0, 0, 0)
            if livePicture, let v = scene.selfViewRectangle {
                // The self-view's picture is the window's video widget beneath: black all around it.
                cairo_save(cr)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
                cairo_rectangle(cr, 0, 0, Double(scene.width), Double(scene.height))
                cairo_rectangle(cr, Double(v.x), Double(v.y), Double(v.width), Double(v.height))
                cairo_fill(cr)
                cairo_restore(cr)
            } else {
                cairo_paint(cr)
            }
        }
        for item in scene.items(at: time) {
            if case .preview = item, livePicture { continue }
            if case .selfView = item, livePicture { continue }
            draw(item, scene: scene, cr: cr)
        }
    }

    /// Paints black: the subject window before its first scene.
    public static func paintBlack(_ cr: OpaquePointer) {
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
    }

    private static func draw(_ item: OverlayItem, scene: SubjectScene, cr: OpaquePointer) {
        switch item {
        case .fill(let x, let y, let w, let h, let colour):
            colour.setSource(cr)
            cairo_rectangle(cr, Double(x), Double(y), Double(w), Double(h))
            cairo_fill(cr)
        case .sprite(let image, let x, let y):
            cairo_set_source_surface(cr, image.surface, Double(x), Double(y))
            cairo_paint(cr)
        case .panel(let x, let y, let w, let h, let top, let flipped):
            guard let strip = scene.strip else { return }
            cairo_save(cr)
            cairo_rectangle(cr, Double(x), Double(y), Double(w), Double(h))
            cairo_clip(cr)
            strip.background.setSource(cr)
            cairo_paint(cr)
            if flipped {
                // Rows run bottom to top: reader row r lands on physical row y + h - 1 - r.
                cairo_translate(cr, 0, Double(2 * y + h))
                cairo_scale(cr, 1, -1)
            }
            for k in PromptStrip.tileIndex(top)...PromptStrip.tileIndex(top + h - 1) {
                guard let tile = strip.tile(k)?.argb else { continue }
                cairo_set_source_surface(cr, tile.surface, Double(x), Double(y + k * PromptStrip.tileRows - top))
                cairo_paint(cr)
            }
            cairo_restore(cr)
        case .preview(let frame):
            drawPreview(frame, scene: scene, cr: cr)
        case .selfView(let x, let y, let w, let h):
            // Offline, the camera's stand-in: the test pattern, fitted to the self-view.
            guard w > 0, h > 0 else { return }
            let frame = PreviewFrame.testPattern(width: w, height: h)
            let image = CairoImage(width: w, height: h)
            frame.pixels.withUnsafeBufferPointer { src in
                for row in 0..<h { (image.pixels + row * image.stride).update(from: src.baseAddress! + row * w * 4, count: w * 4) }
            }
            cairo_surface_mark_dirty(image.surface)
            cairo_set_source_surface(cr, image.surface, Double(x), Double(y))
            cairo_paint(cr)
        }
    }

    /// The preview, aspect-fit; the beam-splitter mirror flips it like everything else.
    private static func drawPreview(_ frame: PreviewFrame, scene: SubjectScene, cr: OpaquePointer) {
        let image = CairoImage(width: frame.width, height: frame.height)
        let p = image.pixels, s = image.stride
        frame.pixels.withUnsafeBufferPointer { src in
            for row in 0..<frame.height {
                (p + row * s).update(from: src.baseAddress! + row * frame.width * 4, count: frame.width * 4)
            }
        }
        cairo_surface_mark_dirty(image.surface)
        let scale = min(Double(scene.width) / Double(frame.width), Double(scene.height) / Double(frame.height))
        let w = Double(frame.width) * scale, h = Double(frame.height) * scale
        cairo_save(cr)
        if scene.viewModel.mirror.horizontal {
            cairo_translate(cr, Double(scene.width), 0); cairo_scale(cr, -1, 1)
        }
        if scene.viewModel.mirror.vertical {
            cairo_translate(cr, 0, Double(scene.height)); cairo_scale(cr, 1, -1)
        }
        cairo_translate(cr, (Double(scene.width) - w) / 2, (Double(scene.height) - h) / 2)
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}

extension PreviewFrame {
    /// Colour bars with a marker in the top-left corner, already mirrored for the subject (so the marker
    /// shows top right): the offline stand-in for a camera picture in `preview` renders.
    public static func testPattern(width: Int, height: Int) -> PreviewFrame {
        let bars: [(UInt8, UInt8, UInt8)] = [(191, 191, 191), (0, 191, 191), (191, 191, 0), (0, 191, 0),
                                             (191, 0, 191), (0, 0, 191), (191, 0, 0)]
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let sourceX = width - 1 - x // mirrored
                var (r, g, b) = bars[min(sourceX * bars.count / width, bars.count - 1)]
                if sourceX < width / 8 && y < height / 6 { (r, g, b) = (255, 255, 255) }
                let i = (y * width + x) * 4
                pixels[i] = b; pixels[i + 1] = g; pixels[i + 2] = r; pixels[i + 3] = 255
            }
        }
        return PreviewFrame(width: width, height: height, pixels: pixels)
    }
}
