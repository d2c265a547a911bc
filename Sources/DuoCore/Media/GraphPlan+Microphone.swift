//  A named microphone's leg (Pipelines/microphone.gst): the session attaches it to the audio mixer at the
//  start and again each time the microphone returns.

extension GraphPlan {
    /// Attach `generation`'s leg for the named microphone (nil when the sound is not a named microphone):
    /// a bin `microphoneG` whose elements are `microphoneG_…`, ending in `microphoneG_queue`.
    public func microphoneDescription(generation: Int) throws(DuoError) -> String? {
        guard case .microphone(let node, _) = audio else { return nil }
        return try library.render("microphone", [
            "name": GraphElement.microphone(generation),
            "target": AudioSource.launchQuoted(node),
            "caps": AudioSource.microphoneCaps,
        ])
    }
}
