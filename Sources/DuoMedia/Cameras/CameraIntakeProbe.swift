import CGStreamer
import DuoCore

extension CameraIntake {
    /// What a camera's chain takes, asked of GStreamer: the normaliser (`library`'s normalise.gst) parsed
    /// into a bin, and the caps its sink accepts queried. `.any` when it cannot be asked.
    ///
    /// Thread: any (synchronous; nothing plays).
    public static func probe(_ library: PipelineLibrary) -> CameraIntake {
        GStreamer.initialize()
        guard let description = try? GraphPlan.intakeDescription(library) else { return .any }
        var error: UnsafeMutablePointer<GError>? = nil
        let parsed = gst_parse_bin_from_description(description, 1, &error)
        if let error { g_error_free(error) }
        guard let parsed else { return .any }
        let bin = ElementRef(taking: UnsafeMutableRawPointer(parsed).assumingMemoryBound(to: GstElement.self))
        return bin.staticPad("sink").map(accepted) ?? .any
    }

    /// What a pad accepts now (a live chain's first sink pad): its caps query, read as pixel formats.
    static func accepted(by pad: PadRef) -> CameraIntake {
        guard let caps = gst_pad_query_caps(pad.pointer, nil) else { return .any }
        defer { gst_caps_unref(caps) }
        guard let text = gst_caps_to_string(caps) else { return .any }
        defer { g_free(text) }
        return CameraIntake(rawFormats: CapsDescription.pixelFormats(from: String(cString: text)))
    }
}

extension DiscoveredCamera {
    /// Whether the chain takes one of its modes (a camera that lists none is given the benefit of the
    /// doubt: its service decides when it opens).
    public func isUsable(by intake: CameraIntake) -> Bool {
        modes.isEmpty || !intake.usable(modes).isEmpty
    }
}
