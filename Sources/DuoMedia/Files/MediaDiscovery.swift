import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// One file's headers read by GstDiscoverer (nothing decoded): a clip's size and rate, a take's streams,
/// a segment's format. The one place that makes a discoverer, turns the path into a URI and frees both,
/// for `ClipCamera.probe`, `SegmentJoiner.facts` and `MediaInspector.streams`.
///
/// Thread: any; synchronous (waits up to ten seconds for the headers).
enum MediaDiscovery {
    /// Runs `body` with the file's discoverer info. `unreadable` makes the error for a file GStreamer
    /// cannot read, from its reason ("is not a usable file name", or "cannot be read as media: …").
    static func withInfo<T>(_ path: String, unreadable: (Said) -> DuoError,
                            _ body: (OpaquePointer) throws(DuoError) -> T) throws(DuoError) -> T {
        GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>? = nil
        guard let discoverer = gst_discoverer_new(10 * duo_second(), &error) else {
            if let error { g_error_free(error) }
            throw .dependency(.text("GstDiscoverer is unavailable; install gstreamer1.0-plugins-base"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(discoverer)) }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let uri = gst_filename_to_uri(absolute, nil) else { throw unreadable(.text("is not a usable file name")) }
        defer { g_free(uri) }
        guard let info = gst_discoverer_discover_uri(discoverer, uri, &error) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw unreadable(.text("cannot be read as media: %s", text))
        }
        if let error { g_error_free(error) }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return try body(info)
    }
}
