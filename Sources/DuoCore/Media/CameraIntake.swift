/// The pixel formats a camera's chain takes (the first element of Pipelines/normalise.gst, asked of
/// GStreamer by DuoMedia), and which of a camera's modes it can therefore open. A PipeWire node offering
/// only a format outside them (v210, Y444_16LE, r210, …), or one whose caps name no pixel format, can
/// never agree a format with the graph: `cameras` says so, and `--camera auto` passes it by.
///
/// Thread: value type, Sendable; pure.
public struct CameraIntake: Sendable, Equatable {
    /// The raw formats taken; nil: not known, any is taken.
    public let rawFormats: Set<String>?

    public init(rawFormats: Set<String>?) { self.rawFormats = rawFormats }

    /// Nothing known: every named raw format and MJPEG are taken.
    public static let any = CameraIntake(rawFormats: nil)

    /// Whether the chain can take a mode: MJPEG (decoded first) and any raw format it lists; never a mode
    /// that names no pixel format.
    public func takes(_ mode: CameraProfile.Mode) -> Bool {
        switch mode.pixelFormat {
        case "jpeg": true
        case CameraProfile.Mode.unnamedPixelFormat: false
        case let format: rawFormats?.contains(format) ?? true
        }
    }

    /// The modes the chain takes, in their order.
    public func usable(_ modes: [CameraProfile.Mode]) -> [CameraProfile.Mode] { modes.filter(takes) }

    /// The pixel formats of the modes the chain cannot take, each once in order of appearance
    /// ("v210", "no pixel format").
    public func refusedFormats(_ modes: [CameraProfile.Mode]) -> [String] {
        var seen: [String] = []
        for mode in modes where !takes(mode) && !seen.contains(mode.pixelFormat) { seen.append(mode.pixelFormat) }
        return seen
    }

    /// Why a list of modes has none the chain takes, in a few words: "it offers only v210, which
    /// duo-capture cannot convert" or "its modes name no pixel format".
    public func refusal(_ modes: [CameraProfile.Mode]) -> String { refusalSaid(modes).text }

    /// The same in English and in the operator's language.
    public func refusalSaid(_ modes: [CameraProfile.Mode]) -> Said {
        let refused = refusedFormats(modes)
        let named = refused.filter { $0 != CameraProfile.Mode.unnamedPixelFormat }
        if named.isEmpty { return .text("its modes name no pixel format") }
        return refused.count > named.count
            ? .text("it offers only %s (or no pixel format), which duo-capture cannot convert", named.joined(separator: ", "))
            : .text("it offers only %s, which duo-capture cannot convert", named.joined(separator: ", "))
    }
}

/// What start-up was waiting for when a camera gave no first frame, and the one line (exit 69: the
/// camera is not usable as it is) that says so, naming the camera, the mode it was asked for and, for a
/// PipeWire node, whether a format was ever agreed.
///
/// Thread: value type, Sendable; pure.
public enum CameraStartWait: Sendable, Equatable {
    /// No format was agreed (the source's pad never got caps).
    case format
    /// A format was agreed (`agreed`, as caps name it, when known) and no frame came.
    case frame(agreed: String?)

    /// The error for camera `camera` opened in `mode`: `waited` ("within 3 s"), nil when the source gave
    /// up by itself; `graphTakes` says whether the chain takes the mode's pixel format.
    public func error(camera: CameraSource, mode: CameraProfile.Mode, waited: Said?, graphTakes: Bool) -> DuoError {
        let unnamed = mode.pixelFormat == CameraProfile.Mode.unnamedPixelFormat
        let offered = unnamed ? Said.text("%s with no pixel format", mode.format) : Said.text("%s in %s", mode.format, mode.pixelFormat)
        let cannot = graphTakes ? Said(verbatim: "")
            : unnamed ? Said.text(" (a mode that names no pixel format cannot be converted)")
            : Said.text(" (a pixel format duo-capture cannot convert)")
        let head = waited.map { Said.text("camera %s gave no first frame %s", camera.label, $0) } ?? Said.text("camera %s gave no first frame", camera.label)
        let advice = graphTakes
            ? Said.text("check the camera with duo-capture cameras and gst-launch-1.0, or give a longer --start-timeout")
            : Said.text("pick another camera or mode (duo-capture cameras marks the ones it cannot use)")
        switch (self, camera) {
        case (.format, .service(.pipewire, let node, _, _, _)):
            return .dependency(.text("%s: no format could be agreed with PipeWire node %s, which offers %s%s; %s", head, node, offered, cannot, advice))
        case (.format, _):
            return .dependency(.text("%s: no format could be agreed with it (asked for %s%s); %s", head, offered, cannot, advice))
        case (.frame(let agreed), .service(.pipewire, let node, _, _, _)):
            return .dependency(.text("%s: PipeWire node %s agreed %s and sent no frame; %s", head, node, agreed.map(Said.init(verbatim:)) ?? offered, advice))
        case (.frame(let agreed), _):
            return .dependency(.text("%s: waiting for its first frame at %s%s; %s", head, agreed.map(Said.init(verbatim:)) ?? offered, cannot, advice))
        }
    }
}
