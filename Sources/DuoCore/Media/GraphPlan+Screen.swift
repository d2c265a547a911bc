import Foundation

//  The screen track's text in the graph (`--screen`, ScreenTrack.swift): its source, ending in the screen
//  tee "st", and each take's screen leg into the take's muxer. Only text, like GraphPlan.swift.

extension GraphPlan {
    /// The screen track's source, ending in the screen tee "st": the X screen's region
    /// (Pipelines/screen-x11.gst) or the ScreenCast portal's PipeWire stream (Pipelines/screen-pipewire.gst).
    public func screenDescription(_ screen: ScreenTrack) throws(DuoError) -> String {
        let m = screen.monitor
        if case .pipewire(let fd, let node) = screen.source {
            return try library.render("screen-pipewire", ["fd": "\(fd)", "node": "\(node)", "rate": "\(screen.rate)"])
        }
        return try library.render("screen-x11", ["x": "\(m.x)", "y": "\(m.y)", "end_x": "\(m.x + m.width - 1)",
                                                 "end_y": "\(m.y + m.height - 1)", "rate": "\(screen.rate)"])
    }

    /// A take's screen leg (nil without `--screen`): starts with record_screen_queue, ends in `record_mux.`.
    /// Its encoder is the take's (Pipelines/encoder-*.gst), renamed so the two in one bin differ.
    public func recordScreenDescription() throws(DuoError) -> String? {
        guard let screen else { return nil }
        let size = screen.encodedSize
        let format = VideoFormat(width: size.width, height: size.height, frameRate: FrameRate(screen.rate))
        let kbps = Self.defaultBitrate(format)
        let encoder = try library.render("encoder-\(encoder.rawValue)", [
            "bitrate_kbps": "\(kbps)", "bitrate_bps": "\(kbps * 1000)", "keyframe_interval": "\(max(1, screen.rate))",
        ]).replacingOccurrences(of: "name=record_encoder", with: "name=record_screen_encoder")
        return try library.render("record-screen", [
            // The portal's stream may differ from the size it said (a monitor scaled by the desktop): scaled always.
            "scale": screen.scaled || screen.source != .x11 ? "! videoscale" : "", "width": "\(size.width)", "height": "\(size.height)",
            "encoder": encoder,
        ])
    }
}
