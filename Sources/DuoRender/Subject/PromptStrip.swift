import CCairo
import DuoCore

/// The laid-out script as a tall strip of fixed-height tiles, each the panel's width: the text rendered
/// once on the panel's opaque background. A frame puts a window of the strip on screen, so its cost does
/// not depend on the script's length, and only tiles near the window are kept in memory.
///
/// Tiles exist in one of two formats: Cairo ARGB32 (offline rendering, PNGs) or I420 (the live overlay,
/// already in the camera's format, so the panel is a plain row copy).
///
/// Thread: `prepare` renders tiles and runs OFF the streaming thread (a background queue, or the caller
/// in offline rendering). `tile(_:)` is what the streaming thread calls: a lock-protected dictionary read
/// that never renders; a tile that is not ready yet reads as nil and the frame shows the background there.
public final class PromptStrip: Sendable {
    public enum Format: Sendable { case argb, i420 }

    /// Rows per tile (even, so 4:2:0 chroma rows never straddle tiles).
    public static let tileRows = 256
    /// Tiles kept around the window; older ones are evicted.
    static let keepBehind = 3, keepAhead = 8

    /// A rendered tile, never drawn into again. Thread: any.
    final class Tile: Sendable {
        let argb: CairoImage?
        let i420: I420Image?
        init(argb: CairoImage?, i420: I420Image?) { self.argb = argb; self.i420 = i420 }
    }

    public let layout: PromptLayout
    public let format: Format
    public let width: Int
    public let padding: Int
    public let mirrored: Bool
    let background: RGBA

    private let tiles = Locked<[Int: Tile]>([:])
    /// Serialises tile rendering (Pango and the tile table) without holding `lock` while drawing.
    private let renderLock = Lock()

    /// A strip `width` pixels wide (the panel) around a layout `width - 2·padding` wide, mirrored
    /// horizontally for beam-splitter glass when `mirrored`.
    public init(layout: PromptLayout, width: Int, padding: Int, mirrored: Bool, format: Format) {
        precondition(width % 2 == 0 && width == layout.width + 2 * padding)
        self.layout = layout
        self.width = width
        self.padding = padding
        self.mirrored = mirrored
        self.format = format
        background = layout.palette.panel
    }

    /// Tile index for strip row `row` (floor division).
    static func tileIndex(_ row: Int) -> Int {
        row >= 0 ? row / tileRows : -((-row + tileRows - 1) / tileRows)
    }

    /// True when tile `k` lies wholly outside the text (it would be plain background).
    func isBlank(_ k: Int) -> Bool {
        k < 0 || Double(k * PromptStrip.tileRows) >= layout.height
    }

    /// The rendered tile `k`, or nil if it is blank or not rendered yet. Streaming thread: never blocks on rendering.
    func tile(_ k: Int) -> Tile? {
        tiles.update { $0[k] }
    }

    /// Number of tiles in memory (for tests and the benchmark).
    public var residentTiles: Int { tiles.update { $0.count } }

    /// True when every tile the window of `rows` rows at strip row `top` needs (and the next one ahead)
    /// is resident. Called per frame on the streaming thread: no allocation, one lock.
    public func isReady(top: Int, rows: Int) -> Bool {
        let first = PromptStrip.tileIndex(top), last = PromptStrip.tileIndex(top + rows - 1) + 1
        return tiles.update { tiles in
            var k = first
            while k <= last {
                if !isBlank(k) && tiles[k] == nil { return false }
                k += 1
            }
            return true
        }
    }

    /// Renders the tiles a window at `top` needs, plus some ahead, and evicts far ones. OFF the streaming thread.
    public func prepare(top: Int, rows: Int) {
        renderLock.withLock {
            let first = PromptStrip.tileIndex(top) - 1
            let last = PromptStrip.tileIndex(top + rows - 1) + 2
            for k in first...last where !isBlank(k) && tile(k) == nil {
                let rendered = render(k)
                tiles.update { $0[k] = rendered }
            }
            let lo = PromptStrip.tileIndex(top) - PromptStrip.keepBehind
            let hi = PromptStrip.tileIndex(top + rows - 1) + PromptStrip.keepAhead
            tiles.update { $0 = $0.filter { (lo...hi).contains($0.key) } }
        }
    }

    private func render(_ k: Int) -> Tile {
        let rows = PromptStrip.tileRows
        let image = CairoImage(width: width, height: rows)
        let top = Double(k * rows)
        image.draw { cr in
            background.setSource(cr)
            cairo_paint(cr)
            if mirrored {
                cairo_translate(cr, Double(width), 0)
                cairo_scale(cr, -1, 1)
            }
            cairo_translate(cr, Double(padding), 0)
            layout.drawLines(cr, top: top, rows: Double(rows))
        }
        switch format {
        case .argb:
            return Tile(argb: image, i420: nil)
        case .i420:
            let converted = I420Image(convertingBGRA: image.pixels, stride: image.stride, width: width, height: rows)
            return Tile(argb: nil, i420: converted)
        }
    }
}
