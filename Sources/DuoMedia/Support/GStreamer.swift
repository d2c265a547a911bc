import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// Process-wide GStreamer set-up and registry look-ups.
///
/// Thread: any; `gst_init` is made idempotent by a once-token.
public enum GStreamer {
    private static let initialized: Bool = {
        // With gstreamer1.0-libcamera installed, the device monitor loads libcamera, which logs its own
        // warnings ("No IPA found …") straight to stderr on every camera listing: keep it to errors
        // unless the user asked for its log.
        setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 0)
        gst_init(nil, nil)
        for setup in MediaHooks.setups.value { setup() }
        return true
    }()

    /// Initialises GStreamer once. `GST_DEBUG`, `GST_DEBUG_DUMP_DOT_DIR` and friends work as usual.
    public static func initialize() { _ = initialized }

    public static var version: String {
        initialize()
        guard let v = gst_version_string() else { return "GStreamer" }
        defer { g_free(v) }
        return String(cString: v)
    }

    /// CLOCK_MONOTONIC in µs (`g_get_monotonic_time`): the clock frame counters stamp first arrivals with.
    public static func monotonicMicros() -> Int64 { Int64(g_get_monotonic_time()) }

    /// Whether an element factory is registered (`gst_element_factory_find`).
    public static func hasElement(_ name: String) -> Bool {
        initialize()
        guard let factory = gst_element_factory_find(name) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(factory))
        return true
    }

    /// Throws a dependency error naming the Debian package for the first missing element.
    public static func require(_ elements: [String], for purpose: String) throws(DuoError) {
        try require(elements, for: Said(verbatim: purpose))
    }

    /// The same, with `purpose` marked for translation.
    public static func require(_ elements: [String], for purpose: Said) throws(DuoError) {
        for element in elements where !hasElement(element) {
            throw ElementPackages.missingElementError(element, neededFor: purpose)
        }
    }

    /// Why `description` does not parse as a gst-launch fragment, or nil when it does. Builds nothing
    /// lasting: the parsed elements are released at once (a device is not opened before PLAYING).
    public static func parseProblem(_ description: String) -> String? {
        initialize()
        var error: UnsafeMutablePointer<GError>? = nil
        let bin = gst_parse_bin_from_description(description, 0, &error)
        if let bin { gst_object_unref(UnsafeMutableRawPointer(bin)) }
        guard let error else { return bin == nil ? tr("it does not parse") : nil }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }

    /// Whether any audio input device is present (GstDeviceMonitor, class Audio/Source).
    public static func hasAudioInput() -> Bool {
        initialize()
        // The process's one Audio/Source monitor: stopping one aborts at random under PipeWire 0.3.65.
        guard let monitor = MicrophoneDiscovery.shared.value?.raw else { return false }
        let devices = gst_device_monitor_get_devices(monitor)
        defer { g_list_free_full(devices) { gst_object_unref($0) } }
        return devices != nil
    }

    /// Element factory names used by a gst-launch description (the first word of each `!`-separated
    /// segment that is not caps or a pad reference), so they can be checked before parsing.
    public static func elementNames(in description: String) -> [String] {
        var names: [String] = []
        var quoted = false
        var segment = ""
        func flush() {
            let words = segment.split(separator: " ").map(String.init)
            if let first = words.first(where: { !$0.contains(".") }), !first.contains("/"), !first.contains("="),
               !first.contains(","), !first.hasPrefix("(") {
                if !names.contains(first) { names.append(first) }
            }
            segment = ""
        }
        for ch in description {
            if ch == "\"" { quoted.toggle() }
            if ch == "!" && !quoted { flush(); continue }
            segment.append(ch)
        }
        flush()
        // Branch starts such as "t. ! queue" leave "t." as first word; also catch elements after a pad ref.
        return names
    }
}

/// A pointer to C state whose own API is safe from any thread: a GStreamer object (GstElement, GstPad,
/// GstBus, GstDeviceMonitor: refcounted, their calls documented MT-safe), a GstSample (a refcounted
/// mini-object, handed over whole and only read) or a struct of this project's C glue that is written only
/// with atomics (`DuoFrameCounter`, `DuoStartGate`). The one place that claims so for the media layer, so
/// each wrapper above it is checked Sendable by the compiler: immutable, holding these and other Sendable
/// values.
///
/// Thread: any; the pointee's C API carries the guarantee.
// Unchecked: Swift cannot see C's thread-safety; every pointee named above is MT-safe in C.
struct MTSafe<Handle>: @unchecked Sendable {
    let raw: Handle
    init(_ raw: Handle) { self.raw = raw }
}

/// A typed GStreamer or glue pointer under `MTSafe`'s claim.
typealias MTSafePointer<Pointee> = MTSafe<UnsafeMutablePointer<Pointee>>

/// One strong reference to a GstElement (a pipeline, a bin or a plain element). Released on deinit.
///
/// Thread: any; GstElement is thread-safe for the calls made through this type; the wrapper is immutable.
public final class ElementRef: Sendable {
    private let handle: MTSafePointer<GstElement>
    var pointer: UnsafeMutablePointer<GstElement> { handle.raw }

    /// Takes ownership of a full reference, or sinks a floating one (gst_parse_launch returns floating).
    init(taking pointer: UnsafeMutablePointer<GstElement>) {
        if g_object_is_floating(UnsafeMutableRawPointer(pointer)) != 0 {
            gst_object_ref_sink(UnsafeMutableRawPointer(pointer))
        }
        handle = MTSafePointer(pointer)
    }

    deinit { gst_object_unref(UnsafeMutableRawPointer(pointer)) }

    var name: String {
        guard let n = duo_object_name(duo_as_gst_object(pointer)) else { return "" }
        return String(cString: n)
    }

    var identity: UInt { UInt(bitPattern: pointer) }

    func child(named name: String) -> ElementRef? {
        guard let found = gst_bin_get_by_name(duo_as_bin(pointer), name) else { return nil }
        return ElementRef(adopting: found)
    }

    /// Wraps a reference the caller already owns (transfer full, not floating).
    init(adopting pointer: UnsafeMutablePointer<GstElement>) { handle = MTSafePointer(pointer) }

    func staticPad(_ name: String) -> PadRef? {
        gst_element_get_static_pad(pointer, name).map(PadRef.init(adopting:))
    }

    func set(_ property: String, _ value: Bool) { duo_set_bool(UnsafeMutableRawPointer(pointer), property, value ? 1 : 0) }
    func set(_ property: String, _ value: Int32) { duo_set_int(UnsafeMutableRawPointer(pointer), property, value) }
    func set(_ property: String, _ value: String) { duo_set_string(UnsafeMutableRawPointer(pointer), property, value) }
    /// Sets a property from its text form, as gst-launch would (enum nicks).
    func setFromString(_ property: String, _ value: String) { duo_set_from_string(UnsafeMutableRawPointer(pointer), property, value) }
    /// The elements upstream of this one, following each element's `sink` pad back to a source (a simple
    /// chain such as the audio branch's), nearest first.
    func upstreamChain() -> [ElementRef] {
        var chain: [ElementRef] = []
        var pad = staticPad("sink")
        while let sink = pad, chain.count < 64, let peer = gst_pad_get_peer(sink.pointer) {
            let parent = gst_pad_get_parent_element(peer)
            gst_object_unref(UnsafeMutableRawPointer(peer))
            guard let parent else { break }
            let element = ElementRef(adopting: parent)
            chain.append(element)
            pad = element.staticPad("sink")
        }
        return chain
    }
    /// Brings the element to its parent's state (a stopped source joining the running graph again).
    @discardableResult
    func syncStateWithParent() -> Bool { gst_element_sync_state_with_parent(pointer) != 0 }
    func has(_ property: String) -> Bool { duo_has_property(UnsafeMutableRawPointer(pointer), property) != 0 }
    /// A guint64 property's value (0 when the element has no such property).
    func uint64(_ property: String) -> UInt64 { UInt64(duo_get_uint64(UnsafeMutableRawPointer(pointer), property)) }

    @discardableResult
    func setState(_ state: GstState) -> GstStateChangeReturn { gst_element_set_state(pointer, state) }
    /// Whether the element has reached PLAYING with no state change still pending (no waiting).
    var isPlaying: Bool {
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        let r = gst_element_get_state(pointer, &current, &pending, 0)
        return r == GST_STATE_CHANGE_SUCCESS && current == GST_STATE_PLAYING
    }
}

/// One strong reference to a GstPad. Thread: any; immutable wrapper; pads are thread-safe.
public final class PadRef: Sendable {
    private let handle: MTSafePointer<GstPad>
    var pointer: UnsafeMutablePointer<GstPad> { handle.raw }
    init(adopting pointer: UnsafeMutablePointer<GstPad>) { handle = MTSafePointer(pointer) }
    deinit { gst_object_unref(UnsafeMutableRawPointer(pointer)) }
}

/// How a finite pipeline (decode, remux) ended.
///
/// Thread: value type, Sendable.
enum FiniteRunOutcome {
    case finished
    case failed(String)
    case timedOut
}

extension ElementRef {
    /// Plays a finite pipeline until EOS or the first error, waiting on its bus at most `seconds`; the
    /// pipeline is left PLAYING (queries still work) for the caller to set to NULL. `onElement` sees each
    /// element message on the way (a `level` element's readings, say).
    func runToEnd(timeout seconds: Double, onElement: ((UnsafeMutablePointer<GstMessage>) -> Void)? = nil) -> FiniteRunOutcome {
        setState(GST_STATE_PLAYING)
        var types = GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue
        if onElement != nil { types |= GST_MESSAGE_ELEMENT.rawValue }
        var outcome = FiniteRunOutcome.timedOut
        PipelineBus(self).read(GstMessageType(rawValue: types), until: GStreamer.monotonicMicros() + Int64(seconds * 1e6)) { message in
            switch message.type {
            case GST_MESSAGE_ELEMENT:
                onElement?(message.pointer)
                return true
            case GST_MESSAGE_ERROR:
                outcome = .failed(message.problem?.message ?? "unknown error")
            default:
                outcome = .finished
            }
            return false
        }
        return outcome
    }
}

extension ElementRef {
    /// The element the code knows by this name (see GraphElement: the contract with Pipelines/).
    func child(_ element: GraphElement) -> ElementRef? { child(named: element.rawValue) }
}

extension CaptureSession {
    /// Parses a gst-launch description into a pipeline (every graph of this module: the capture graph,
    /// a clip's player, a join, a decode): a description that does not parse is an input error.
    static func parse(_ description: String) throws(DuoError) -> ElementRef {
        var error: UnsafeMutablePointer<GError>? = nil
        let element = gst_parse_launch(description, &error)
        if let error {
            let text = String(cString: error.pointee.message)
            g_error_free(error)
            if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
            throw .input(.text("the pipeline description does not parse: %s; check the files in Pipelines/", text))
        }
        guard let element else { throw .input(.text("the pipeline description does not parse; check the files in Pipelines/")) }
        return ElementRef(taking: element)
    }
}
