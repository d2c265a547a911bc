import Foundation

//  The replay buffer's branches (`--replay SECONDS`, issue 39): Pipelines/replay.gst on the camera tee and
//  replay-audio.gst on the audio tee, encoding as a take does, and replay-write.gst, the short pipeline a
//  save writes the buffer out with.

extension GraphPlan {
    /// The replay buffer's video branch: the take's crop and encoder into `replay_sink`.
    public func replayDescription() throws(DuoError) -> String {
        let crop = aspect?.centredCrop(frameWidth: format.width, frameHeight: format.height) ?? (left: 0, right: 0, top: 0, bottom: 0)
        return try library.render("replay", [
            "crop_left": "\(crop.left)", "crop_right": "\(crop.right)", "crop_top": "\(crop.top)", "crop_bottom": "\(crop.bottom)",
            "encoder": try library.render("encoder-\(encoder.rawValue)", replayEncoderValues),
        ])
    }

    /// The replay buffer's sound branch (nil without sound): the take's audio encoder into `replay_audio_sink`.
    public func replayAudioDescription() throws(DuoError) -> String? {
        guard audio != .none else { return nil }
        return try library.render("replay-audio", ["audio_encoder": try library.render(container.audioEncoderFile, [:])])
    }

    /// The pipeline that writes a replay into `location` (Matroska whatever the takes' container).
    public func replayWriteDescription(location: String, withAudio: Bool) throws(DuoError) -> String {
        let d = try library.render("replay-write", ["location": AudioSource.launchQuoted(location)])
        return withAudio ? d + "  appsrc name=replay_audio_src format=time max-bytes=0 ! replay_mux.audio_%u" : d
    }

    /// The audio encoder's bitrate, kbps (Opus in Matroska, AAC in MP4; audio-encoder-*.gst).
    public var audioKbps: Int { audio == .none ? 0 : (container == .mkv ? 96 : 128) }

    /// The replay buffer's byte cap for `seconds` (ReplayRing.byteCap at this plan's bitrates).
    public func replayByteCap(seconds: Int) -> Int {
        ReplayRing<Void>.byteCap(seconds: seconds, videoKbps: bitrateKbps, audioKbps: audioKbps)
    }

    private var replayEncoderValues: [String: String] {
        ["bitrate_kbps": "\(bitrateKbps)", "bitrate_bps": "\(bitrateKbps * 1000)",
         "keyframe_interval": "\(max(1, Int(format.frameRate.value.rounded())))"]
    }
}
