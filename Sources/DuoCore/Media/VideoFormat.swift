/// A frame rate as GStreamer states it: a fraction (30/1, 30000/1001), always kept reduced, so every
/// caps string it prints reads as a GStreamer user writes it (`60/1`, never `60000/1000`).
///
/// Thread: value type, Sendable.
public struct FrameRate: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    public let numerator: Int
    public let denominator: Int

    public init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(denominator > 0, "frame rate denominator must be positive")
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let g = max(1, gcd(numerator == .min ? 1 : abs(numerator), denominator))
        self.numerator = numerator / g
        self.denominator = denominator / g
    }

    public var value: Double { Double(numerator) / Double(denominator) }
    /// One frame's duration in nanoseconds.
    public var frameDurationNanoseconds: Int64 { value > 0 ? Int64((1_000_000_000.0 / value).rounded()) : 1_000_000_000 }

    // Compared at full width: a fraction of two large numbers must never trap.
    public static func < (a: FrameRate, b: FrameRate) -> Bool {
        let l = a.numerator.multipliedFullWidth(by: b.denominator), r = b.numerator.multipliedFullWidth(by: a.denominator)
        return (l.high, l.low) < (r.high, r.low)
    }
    public static func == (a: FrameRate, b: FrameRate) -> Bool {
        a.numerator == b.numerator && a.denominator == b.denominator
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    public var description: String {
        denominator == 1 ? "\(numerator)" : String(format2: value)
    }
    /// Exactly: an integer, or a reduced fraction such as `15/2` or `30000/1001`.
    public var exact: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
    /// GStreamer caps syntax: `30/1`.
    public var capsValue: String { "\(numerator)/\(denominator)" }
}

extension String {
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = fraction == 0 ? "\(hundredths / 100)" : "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// A decoded video format: size and frame rate. The pixel format is normalised after decoding, so it is
/// not part of the identity used to compare or intersect cameras.
///
/// Thread: value type, Sendable.
public struct VideoFormat: Sendable, Hashable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    public let frameRate: FrameRate

    public init(width: Int, height: Int, frameRate: FrameRate) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    public var pixels: Int { width * height }

    /// The sizes duo-capture records, each side, as `--format` and camera profiles take them: its graphs
    /// (and the arithmetic on sizes and bitrates) are made for these; a camera's larger modes are skipped.
    public static let sides: ClosedRange<Int> = 16...8192
    /// Whether duo-capture can capture and record this format: 16 to 8192 pixels a side, 1 to 1000 fps.
    public var isRecordable: Bool {
        Self.sides.contains(width) && Self.sides.contains(height) && FrameRate.allowed.contains(frameRate.value)
    }
    /// `1280x720@30`, the syntax `--format` accepts.
    public var description: String { "\(width)x\(height)@\(frameRate)" }

    /// The same format at an even size, each odd side one pixel smaller (641x479 → 640x478): what 4:2:0
    /// video, and so every branch and the encoder, needs.
    public var evenSized: VideoFormat {
        VideoFormat(width: max(2, width & ~1), height: max(2, height & ~1), frameRate: frameRate)
    }

    /// True when this format is no larger than `limit` in width, height and frame rate.
    public func fits(within limit: VideoFormat) -> Bool {
        width <= limit.width && height <= limit.height && frameRate <= limit.frameRate
    }

    /// Parses `WxH@FPS` (`1280x720@30`, `1920x1080@29.97`) or `WxH` (frame rate defaults to 30).
    public static func parse(_ text: String) -> VideoFormat? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let size = parts[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]),
              sides.contains(w), sides.contains(h) else { return nil }
        var rate = FrameRate(30)
        if parts.count == 2 {
            guard let parsed = FrameRate.parse(String(parts[1])) else { return nil }
            rate = parsed
        }
        return VideoFormat(width: w, height: h, frameRate: rate)
    }
}

extension FrameRate {
    /// The rates duo-capture works with, frames per second.
    public static let allowed: ClosedRange<Double> = 1...1000

    /// Parses `30`, `30/1`, `30000/1001` or `29.97` (mapped to the NTSC fraction); from 1 to 1000 fps, as
    /// a fraction GStreamer can hold (both terms, reduced, fit a 32-bit int).
    public static func parse(_ text: String) -> FrameRate? {
        if let slash = text.firstIndex(of: "/") {
            guard let n = Int(text[..<slash]), let d = Int(text[text.index(after: slash)...]), n > 0, d > 0,
                  allowed.contains(Double(n) / Double(d)) else { return nil }
            let rate = FrameRate(n, d)
            guard rate.numerator <= Int(Int32.max), rate.denominator <= Int(Int32.max) else { return nil }
            return rate
        }
        if let n = Int(text) { return (1...1000).contains(n) ? FrameRate(n) : nil }
        guard let v = OptionReader.decimal(text), allowed.contains(v) else { return nil }
        for ntsc in [24, 30, 60, 120] where abs(v - Double(ntsc) * 1000 / 1001) < 0.01 {
            return FrameRate(ntsc * 1000, 1001)
        }
        return FrameRate(Int((v * 1000).rounded()), 1000)
    }
}

/// A picture's size fitted into a view: the largest size with the picture's shape that fits, even in
/// both directions (4:2:0 chroma), at least 2×2. This is the size the graph scales a preview to, once,
/// so the display shows it unscaled.
///
/// Thread: pure.
public enum PictureFit {
    public static func fit(width: Int, height: Int, into viewWidth: Int, _ viewHeight: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0, viewWidth > 0, viewHeight > 0 else { return (max(2, width & ~1), max(2, height & ~1)) }
        let scale = min(Double(viewWidth) / Double(width), Double(viewHeight) / Double(height))
        let w = Int((Double(width) * scale).rounded(.down)) & ~1
        let h = Int((Double(height) * scale).rounded(.down)) & ~1
        return (max(2, w), max(2, h))
    }

    /// The operator preview's size in a `viewWidth`×`viewHeight` window: the camera's own pixels when they
    /// fit, else fitted to the window (scaled down, once, in the graph, which also converts fewer pixels).
    /// Never scaled up in the graph: measured (issue 36, 150 frames, I420 in, BGRx out), videoconvertscale
    /// costs 0.68 CPU-s more to make 1920x1080 of 1280x720 (bilinear; nearest 0.41), 1.73 for 3840x2160,
    /// and the window then copies 2.25x or 9x the pixels; the window paints the camera's own pixels up
    /// with cairo's nearest filter for 0.17 s (a copy is 0.14), 0.77 s at 3x to 4K (`paintFilter`).
    public static func preview(width: Int, height: Int, into viewWidth: Int, _ viewHeight: Int) -> (width: Int, height: Int) {
        width <= viewWidth && height <= viewHeight ? (width & ~1, height & ~1) : fit(width: width, height: height, into: viewWidth, viewHeight)
    }

    /// How the window paints a `width`×`height` picture into a `shownWidth`×`shownHeight` rectangle
    /// (device pixels).
    public enum Filter: Equatable, Sendable {
        /// Pixel for pixel (within 2 pixels: the graph's even-rounded fit of the same rectangle).
        case copy
        /// Scaled up from the camera's own pixels: nearest, for a copy's cost (whole factors replicate
        /// each pixel exactly; 1.5x repeats every second one).
        case nearest
        /// Anything else (a frame of the old size, for a moment while the graph follows a resize).
        case bilinear
    }

    public static func paintFilter(width: Int, height: Int, shownWidth: Double, shownHeight: Double) -> Filter {
        if abs(shownWidth - Double(width)) <= 2, abs(shownHeight - Double(height)) <= 2 { return .copy }
        return shownWidth > Double(width) && shownHeight > Double(height) ? .nearest : .bilinear
    }
}

