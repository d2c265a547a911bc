import CCairo
import DuoCore

/// An owned Cairo ARGB32 image surface: premultiplied, native-endian 32-bit pixels (B, G, R, A in memory on
/// this little-endian machine). Destroyed on `deinit`. C: `cairo_surface_t` with `CAIRO_FORMAT_ARGB32`.
///
/// Thread: not thread-safe while being drawn into; once finished it is treated as immutable and may be
/// read from any thread (the streaming thread reads finished tiles and sprites).
// Unchecked: a cairo_surface_t pointer, immutable once finished.
public final class CairoImage: @unchecked Sendable {
    let surface: OpaquePointer
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "CairoImage needs a positive size")
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        precondition(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "cairo could not allocate \(width)x\(height)")
        self.width = width
        self.height = height
    }

    private init(adopting surface: OpaquePointer) {
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// Bytes per row (`cairo_image_surface_get_stride`).
    public var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// The pixels; call after drawing is finished (flushes Cairo's pending drawing).
    public var pixels: UnsafeMutablePointer<UInt8> {
        cairo_surface_flush(surface)
        return cairo_image_surface_get_data(surface)!
    }

    /// Draw into the surface with a fresh Cairo context.
    func draw(_ body: (OpaquePointer) -> Void) {
        let cr = cairo_create(surface)!
        body(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }

    /// A `width` × `height` plain dark picture with `body` drawn over it: how the operator's overlays
    /// (the HUD, the pairing card) are rendered for tests and previews.
    static func overDarkPicture(width: Int, height: Int, _ body: (OpaquePointer) -> Void) -> CairoImage {
        let image = CairoImage(width: width, height: height)
        image.draw { cr in
            cairo_set_source_rgb(cr, 0.2, 0.25, 0.3)
            cairo_paint(cr)
            body(cr)
        }
        return image
    }

    /// Writes the image as PNG (`cairo_surface_write_to_png`).
    public func writePNG(to path: String) throws(DuoError) {
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .runtime(tr("cannot write %s: %s; check the folder exists and is writable", path, String(cString: cairo_status_to_string(status))))
        }
    }

    /// Reads a PNG (`cairo_image_surface_create_from_png`), converted to ARGB32.
    public static func readPNG(path: String) throws(DuoError) -> CairoImage {
        let s = cairo_image_surface_create_from_png(path)!
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            let message = String(cString: cairo_status_to_string(cairo_surface_status(s)))
            cairo_surface_destroy(s)
            throw .input(tr("cannot read PNG %s: %s", path, message))
        }
        if cairo_image_surface_get_format(s) == CAIRO_FORMAT_ARGB32 { return CairoImage(adopting: s) }
        let converted = CairoImage(width: Int(cairo_image_surface_get_width(s)), height: Int(cairo_image_surface_get_height(s)))
        converted.draw { cr in
            cairo_set_source_surface(cr, s, 0, 0)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cr)
        }
        cairo_surface_destroy(s)
        return converted
    }

    /// The pixels as bytes, row by row without stride padding (for comparisons and hashing).
    public func packedBytes() -> [UInt8] {
        let p = pixels, s = stride
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { dst in
            for row in 0..<height {
                (dst.baseAddress! + row * width * 4).update(from: p + row * s, count: width * 4)
            }
        }
        return out
    }
}

/// A colour with straight (not premultiplied) alpha, components 0…1.
///
/// Thread: value type, Sendable.
public struct RGBA: Sendable, Hashable {
    public var r: Double, g: Double, b: Double, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    func setSource(_ cr: OpaquePointer) { cairo_set_source_rgba(cr, r, g, b, a) }
}
