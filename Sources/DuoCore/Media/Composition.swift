/// The recorded composition: an aspect ratio the output is cropped to, centred, whatever the window sizes.
///
/// Thread: value type, Sendable.
public struct AspectRatio: Sendable, Hashable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    public static let supported: [AspectRatio] = [.init(16, 9), .init(9, 16), .init(1, 1), .init(4, 3)]

    public init(_ width: Int, _ height: Int) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
    }

    public var description: String { "\(width):\(height)" }

    public static func parse(_ text: String) -> AspectRatio? {
        supported.first { $0.description == text }
    }

    /// How many pixels to cut from each edge of a `frameWidth`×`frameHeight` frame so the rest has this
    /// ratio, centred. Sizes stay even so 4:2:0 chroma planes line up.
    public func centredCrop(frameWidth: Int, frameHeight: Int) -> (left: Int, right: Int, top: Int, bottom: Int) {
        // Compare frameWidth/frameHeight with width/height without floating point.
        if frameWidth * height > frameHeight * width {
            // Too wide: keep full height.
            let keep = (frameHeight * width / height) & ~1
            let cut = frameWidth - keep
            let left = (cut / 2) & ~1
            return (left, cut - left, 0, 0)
        } else {
            let keep = (frameWidth * height / width) & ~1
            let cut = frameHeight - keep
            let top = (cut / 2) & ~1
            return (0, 0, top, cut - top)
        }
    }
}
