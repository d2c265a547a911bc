/// Raw I420 (YUV 4:2:0, three planes) frame memory, as a GStreamer `GstVideoFrame` maps it: plane
/// pointers and strides. The caller owns the memory and keeps it mapped while drawing.
///
/// Thread: a view of memory; use it on the thread that mapped the frame (the streaming thread). Not
/// Sendable: it must never outlive the draw call it was handed to.
public struct I420Planes {
    public var y: UnsafeMutablePointer<UInt8>
    public var yStride: Int
    public var u: UnsafeMutablePointer<UInt8>
    public var uStride: Int
    public var v: UnsafeMutablePointer<UInt8>
    public var vStride: Int
    public var width: Int
    public var height: Int

    public init(y: UnsafeMutablePointer<UInt8>, yStride: Int, u: UnsafeMutablePointer<UInt8>, uStride: Int,
                v: UnsafeMutablePointer<UInt8>, vStride: Int, width: Int, height: Int) {
        self.y = y; self.yStride = yStride; self.u = u; self.uStride = uStride
        self.v = v; self.vStride = vStride; self.width = width; self.height = height
    }
}

/// Something that draws into live I420 frames: the subject overlay. The media layer calls it from a
/// buffer probe with a writable frame and the frame's running time (ns), on the streaming thread.
///
/// Thread: `draw` runs on a streaming thread and must never block or lay out text.
public protocol I420FrameDrawer: AnyObject, Sendable {
    func draw(into planes: I420Planes, at runningTime: Int64)
}
