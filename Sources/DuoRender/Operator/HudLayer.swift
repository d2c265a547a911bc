import CCairo
import DuoCore

/// The operator window's overlays (the HUD with its safe frame, and the web remote's pairing card) drawn
/// client-side, once per change, into one transparent image the size of the picture area, with the pixel
/// boxes that image covers. Redrawn only when what it shows changes (the REC clock once a second, a note,
/// the window's size); each frame `PicturePainter` composes those boxes over the frame client-side, so the
/// display server is handed pictures to copy and never rasterises a stroke or a glyph (issue 36: drawn
/// through the server every frame, the HUD cost the X server ten times a plain copy of the picture).
///
/// Thread: whichever thread owns it (the GTK main thread for the operator window; tests on their own).
public final class HudLayer {
    /// What the layer shows: the HUD, the pairing card, and the area's size in device pixels. Two are equal
    /// when they draw the same pixels: the HUD compared by what `HudRenderer` draws of it (its lines as
    /// shown, the REC clock in whole seconds; the safe frame; the faces; the panel's place), not by every
    /// figure it holds.
    public struct Content: Equatable {
        public let hud: HudModel
        public let link: WebRemoteLinkCard?
        public let width: Int, height: Int
        /// Device pixels per logical unit (the widget's scale factor).
        public let scale: Int
        /// Everything of the HUD that reaches its pixels (worked out once, when the content is made).
        private let look: Look

        public init(hud: HudModel, link: WebRemoteLinkCard?, width: Int, height: Int, scale: Int) {
            self.hud = hud; self.link = link; self.width = width; self.height = height; self.scale = max(1, scale)
            let w = Double(width) / Double(self.scale), h = Double(height) / Double(self.scale)
            let frame = hud.safeFrame(width: w, height: h)
            look = Look(shown: hud.panel, composition: frame.composition, actionSafe: frame.actionSafe,
                        faces: hud.faceRects(width: w, height: h), hinted: hud.framingHint != nil,
                        panel: hud.panelRegion(width: w, height: h).region)
        }

        public static func == (a: Content, b: Content) -> Bool {
            a.width == b.width && a.height == b.height && a.scale == b.scale && a.link == b.link && a.look == b.look
        }
    }

    private struct Look: Equatable {
        /// The panel as drawn: its lines (the REC clock in whole seconds), meter, strip and key list.
        var shown: HudPanel
        var composition: FrameRect, actionSafe: FrameRect
        var faces: [FrameRect]
        var hinted: Bool
        var panel: FrameRect
    }

    /// A rectangle of device pixels.
    public struct Box: Equatable, Sendable {
        public var x: Int, y: Int, width: Int, height: Int
    }

    /// How many times the layer was drawn (Pango and Cairo run only then).
    public private(set) var draws = 0
    public private(set) var content: Content?
    /// The drawn layer (premultiplied ARGB, device pixels); nil before the first update or for an empty area.
    public private(set) var image: CairoImage?
    /// The boxes where the image has any pixel that is not fully transparent (tiles of `tile` pixels,
    /// neighbours and near neighbours merged): only these are composed over each frame.
    public private(set) var covered: [Box] = []
    /// The side of the tiles the image is scanned in, and the largest gap (px) bridged when merging.
    static let tile = 8, bridge = 32

    public init() {}

    /// Whether `new` would draw other pixels than the layer holds.
    public func differs(_ new: Content) -> Bool { new != content }

    /// Draws the layer for `new` if it differs from what it shows; returns whether it drew.
    @discardableResult
    public func update(_ new: Content) -> Bool {
        guard new != content else { return false }
        content = new
        draws += 1
        // The old layer goes first: at 4K each is 33 MB, never two at once (the run's peak memory).
        image = nil
        guard new.width > 0, new.height > 0 else { covered = []; return true }
        let drawn = CairoImage(width: new.width, height: new.height)
        let s = Double(new.scale), w = Double(new.width) / s, h = Double(new.height) / s
        drawn.draw { cr in
            cairo_scale(cr, s, s)
            HudRenderer.draw(new.hud, cr: cr, width: w, height: h)
            if let link = new.link { WebRemoteLinkPainter.draw(link, cr: cr, width: w, height: h, scale: s) }
        }
        image = drawn
        covered = Self.coveredBoxes(drawn)
        return true
    }

    /// The boxes of `image` holding any visible pixel: tiles scanned row by row, runs in a tile row
    /// merged across gaps up to `bridge`, and a run continuing one of the same span that ended at most
    /// `bridge` above (so a dashed or thin line is a handful of boxes, not hundreds).
    static func coveredBoxes(_ image: CairoImage) -> [Box] {
        let t = tile, w = image.width, h = image.height, stride = image.stride
        let base = UnsafeRawPointer(image.pixels)
        let columns = (w + t - 1) / t
        var boxes: [Box] = []
        var open: [Int] = []   // indices in `boxes` that may still grow downwards
        var y0 = 0
        while y0 < h {
            let rows = min(t, h - y0)
            var marked = [Bool](repeating: false, count: columns)
            for row in 0..<rows {
                let line = (base + (y0 + row) * stride).assumingMemoryBound(to: UInt32.self)
                for c in 0..<columns where !marked[c] {
                    // The tile's pixels or-ed together, then one test of alpha: no branch per pixel
                    // (the scan of a whole 1080p layer was 1.7 % of the app's samples in perf).
                    let x0 = c * t, x1 = min(w, x0 + t)
                    var any: UInt32 = 0
                    for x in x0..<x1 { any |= line[x] }
                    if any >> 24 != 0 { marked[c] = true }
                }
            }
            // Runs in this tile row, merged across small gaps.
            var runs: [(Int, Int)] = []
            for c in 0..<columns where marked[c] {
                let x0 = c * t, x1 = min(w, x0 + t)
                if let last = runs.last, x0 - last.1 <= bridge { runs[runs.count - 1].1 = x1 } else { runs.append((x0, x1)) }
            }
            var stillOpen: [Int] = []
            for (x0, x1) in runs {
                if let i = open.first(where: { boxes[$0].x == x0 && boxes[$0].width == x1 - x0 && y0 - (boxes[$0].y + boxes[$0].height) <= bridge }) {
                    boxes[i].height = y0 + rows - boxes[i].y
                    stillOpen.append(i)
                } else {
                    boxes.append(Box(x: x0, y: y0, width: x1 - x0, height: rows))
                    stillOpen.append(boxes.count - 1)
                }
            }
            // A box not continued in this row may still be continued after a small gap.
            open = stillOpen + open.filter { !stillOpen.contains($0) && y0 + rows - (boxes[$0].y + boxes[$0].height) <= bridge }
            y0 += rows
        }
        return boxes
    }
}
