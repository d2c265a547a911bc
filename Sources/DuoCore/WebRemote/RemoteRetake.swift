/// Whether a `retake` goes ahead now, and how (issue 37). The key A (and the control socket, a timeline)
/// stops a running take and records the shot again; a remote (the phone page, OSC) never stops a take but
/// with `stop`, so from a remote a re-take is taken only between takes. During a countdown nobody's is
/// taken: the countdown records the shot already.
///
/// Thread: stateless; any thread.
public enum RemoteRetake {
    public enum Decision: Sendable, Equatable {
        /// Record the shot again now (no take runs).
        case record
        /// Stop the running take, then record the shot again (the key's way).
        case stopThenRecord
        /// Refused, with the one line that says why and what to do.
        case refuse(String)
    }

    /// What a `retake` does: `remote` when it came from the phone page or OSC; `countingDown` while a
    /// countdown runs; `recording`: the running take's number, if one runs.
    public static func decide(remote: Bool, countingDown: Bool, recording: Int?) -> Decision {
        if countingDown { return .refuse(tr("retake: a countdown is running; it records the shot already")) }
        guard let take = recording else { return .record }
        guard !remote else {
            return .refuse(tr("retake: take %d is recording; a remote does not stop a take by re-taking: send stop first, then retake", take))
        }
        return .stopThenRecord
    }
}
