import DuoCore

//  Reading a script for the subject view off the presenter's actor (and off the run director): the
//  presenter hands out a request (`reloadRequest`, `openRequest`), `prepare` reads and lays it out on
//  any thread, and `install` puts the result on screen (SubjectPresenter.swift).

extension SubjectPresenter {
    /// What reading and laying out a script needs, taken from the presenter in an instant: the file, and
    /// the view as it is now with that script in it.
    ///
    /// Thread: value type, Sendable.
    public struct ScriptRequest: Sendable {
        public let path: String
        /// Another script opened (else the one on screen, saved again).
        public let opening: Bool
        let state: PrompterSessionState
        let overlay: SubjectOverlay
        let forVoice: Bool
    }

    /// A script read and laid out off the presenter (and off the run director), ready to go on screen.
    ///
    /// Thread: value type, Sendable; made by `prepare(_:)` on any thread.
    public struct PreparedScript: Sendable {
        public let request: ScriptRequest
        let parsed: ParsedScript
        let scene: SubjectScene?
        let voiceScript: VoiceScript?
        public var problems: [ScriptProblem] { parsed.problems }
    }

    /// Reads and lays out the requested script: seconds for a 2 MB script, so off the presenter and the
    /// director (a detached task). A file that does not parse throws its one-line error.
    ///
    /// Thread: any but the streaming thread.
    public nonisolated static func prepare(_ request: ScriptRequest) throws(DuoError) -> PreparedScript {
        let parsed = try ScriptParser.load(path: request.path)
        var state = request.state
        state.script = parsed
        let viewModel = SubjectViewModel.whitelisted(from: state)
        let scene = viewModel.kind == .teleprompter ? request.overlay.layOut(viewModel) : nil
        let voiceScript = request.forVoice && parsed.subject.separatesWords ? VoiceScript(script: parsed.subject) : nil
        return PreparedScript(request: request, parsed: parsed, scene: scene, voiceScript: voiceScript)
    }
}
