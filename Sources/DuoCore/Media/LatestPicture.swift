/// One BGRx picture in memory (4 bytes a pixel, `stride` bytes a row), valid only inside the closure
/// that hands it out.
///
/// Thread: value type; valid on the thread and for the call it was handed to.
public struct PictureBytes {
    public let base: UnsafeRawPointer
    public let width: Int
    public let height: Int
    public let stride: Int
    /// Its presentation time, ns (-1: unknown).
    public let time: Int64
    public init(base: UnsafeRawPointer, width: Int, height: Int, stride: Int, time: Int64) {
        self.base = base; self.width = width; self.height = height; self.stride = stride; self.time = time
    }
}

/// The newest picture a graph branch delivered, for a window that draws it itself on its own frame
/// clock (the operator preview: the window follows any size change, as a sink widget under GStreamer
/// 1.22 did not). Written by a streaming thread, read by the GTK thread.
///
/// Thread: any; implementations guard the picture with a lock.
public protocol LatestPicture: AnyObject, Sendable {
    /// Changes with each new picture (0 before the first).
    var generation: UInt64 { get }
    /// Hands the newest picture to `body` (nothing and false before the first one).
    @discardableResult
    func withPicture(_ body: (PictureBytes) -> Void) -> Bool
}
