/// Which Debian 12 package ships each GStreamer element duo-capture uses, so a missing element becomes
/// "install gstreamer1.0-plugins-ugly" rather than a parse error. Checked against Debian 12's file lists
/// (gst-inspect-1.0 on a full install); a unit test pins the entries most likely to be wrong.
///
/// Thread: stateless; any thread.
public enum ElementPackages {
    public static let table: [String: String] = [
        // core
        "fakesink": "libgstreamer1.0-0", "queue": "libgstreamer1.0-0", "tee": "libgstreamer1.0-0",
        "capsfilter": "libgstreamer1.0-0", "filesink": "libgstreamer1.0-0", "filesrc": "libgstreamer1.0-0",
        "input-selector": "libgstreamer1.0-0", "concat": "libgstreamer1.0-0", "identity": "libgstreamer1.0-0", "valve": "libgstreamer1.0-0",
        // base
        "videotestsrc": "gstreamer1.0-plugins-base", "videoconvert": "gstreamer1.0-plugins-base",
        "videoscale": "gstreamer1.0-plugins-base",
        "videoconvertscale": "gstreamer1.0-plugins-base", "videorate": "gstreamer1.0-plugins-base",
        "audiotestsrc": "gstreamer1.0-plugins-base", "audioconvert": "gstreamer1.0-plugins-base",
        "audioresample": "gstreamer1.0-plugins-base", "audiomixer": "gstreamer1.0-plugins-base", "appsink": "gstreamer1.0-plugins-base",
        "appsrc": "gstreamer1.0-plugins-base", "opusenc": "gstreamer1.0-plugins-base",
        "vorbisenc": "gstreamer1.0-plugins-base", "decodebin": "gstreamer1.0-plugins-base",
        "uridecodebin": "gstreamer1.0-plugins-base", "overlaycomposition": "gstreamer1.0-plugins-base",
        "ximagesink": "gstreamer1.0-x", "xvimagesink": "gstreamer1.0-x",
        // good
        "v4l2src": "gstreamer1.0-plugins-good", "ximagesrc": "gstreamer1.0-plugins-good", "matroskamux": "gstreamer1.0-plugins-good",
        "matroskademux": "gstreamer1.0-plugins-good", "mp4mux": "gstreamer1.0-plugins-good",
        "qtdemux": "gstreamer1.0-plugins-good", "videocrop": "gstreamer1.0-plugins-good",
        "videoflip": "gstreamer1.0-plugins-good", "level": "gstreamer1.0-plugins-good",
        "jpegdec": "gstreamer1.0-plugins-good", "autoaudiosrc": "gstreamer1.0-plugins-good",
        "pulsesrc": "gstreamer1.0-pulseaudio", "splitmuxsink": "gstreamer1.0-plugins-good",
        "cairooverlay": "gstreamer1.0-plugins-good", "gtksink": "gstreamer1.0-gtk3",
        "avimux": "gstreamer1.0-plugins-good", "aacparse": "gstreamer1.0-plugins-good",
        // bad
        "h264parse": "gstreamer1.0-plugins-bad", "openh264enc": "gstreamer1.0-plugins-bad",
        "openh264dec": "gstreamer1.0-plugins-bad", "vaapih264enc": "gstreamer1.0-vaapi",
        "srtsink": "gstreamer1.0-plugins-bad", "srtsrc": "gstreamer1.0-plugins-bad",
        "intervideosrc": "gstreamer1.0-plugins-bad", "intervideosink": "gstreamer1.0-plugins-bad",
        "watchdog": "gstreamer1.0-plugins-bad",
        // framing hints (--framing); the Haar cascades it reads are in opencv-data
        "facedetect": "gstreamer1.0-opencv",
        // cameras and microphones through PipeWire, cameras through libcamera
        "pipewiresrc": "gstreamer1.0-pipewire", "libcamerasrc": "gstreamer1.0-libcamera",
        "mpegtsmux": "gstreamer1.0-plugins-bad", "tsdemux": "gstreamer1.0-plugins-bad",
        "rtph264pay": "gstreamer1.0-plugins-good", "rtph264depay": "gstreamer1.0-plugins-good",
        // speech (voice-follow); its acoustic model and dictionary are in pocketsphinx-en-us
        "pocketsphinx": "gstreamer1.0-pocketsphinx",
        // ugly
        "x264enc": "gstreamer1.0-plugins-ugly",
        // libav
        "avdec_h264": "gstreamer1.0-libav", "avenc_aac": "gstreamer1.0-libav",
        // gstreamer1.0-tools provides gst-launch-1.0 itself
    ]

    /// The package to install for `element`, or the umbrella set when the element is unknown to us.
    public static func package(for element: String) -> String {
        table[element] ?? "gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav"
    }

    public static func missingElementError(_ element: String, neededFor purpose: String) -> DuoError {
        missingElementError(element, neededFor: Said(verbatim: purpose))
    }

    /// The same, with `purpose` marked for translation (`.text("recording takes")`).
    public static func missingElementError(_ element: String, neededFor purpose: Said) -> DuoError {
        .dependency(.text("GStreamer element %s (needed for %s) is not installed; install it with: sudo apt-get install %s", element, purpose, package(for: element)))
    }
}
