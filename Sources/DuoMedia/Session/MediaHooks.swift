import CGStreamer
import DuoCore

/// Where another entry point may hook into the media without the product naming it: duo-capture-testhub
/// (the test hub: tests, QA timelines and benchmarks) registers its test camera provider and its
/// benchmark frame-code probe here before anything starts; duo-capture registers nothing.
///
/// Thread: any; registered once at start-up, read when GStreamer starts and when a branch is built.
public enum MediaHooks {
    /// Run once, right after `gst_init` (a device provider to register, say).
    public static let setups = Locked<[@Sendable () -> Void]>([])
    /// Called with the source pad of each remote display's drawn subject view (sender side).
    public static let remoteView = Locked<(@Sendable (UnsafeMutablePointer<GstPad>) -> Void)?>(nil)
    /// Called with the camera's output pad (after the selector with two), once the graph is built.
    public static let cameraOut = Locked<(@Sendable (UnsafeMutablePointer<GstPad>) -> Void)?>(nil)
    /// Called with the decoder's source pad of `duo-capture display` (receiver side).
    public static let displayDecoded = Locked<(@Sendable (UnsafeMutablePointer<GstPad>) -> Void)?>(nil)
}
