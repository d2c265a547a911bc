import DuoCore

//  Side branches: what hangs beside the main graph on the camera tee, the audio tee or the audio mixer,
//  and may fail alone. Each is an object that owns its bins, their probes and its state, in a file of its
//  own here:
//
//   RecogniserBranch.swift        voice-follow's recogniser on the audio tee, replaced when the script changes
//   RemoteDisplayBranches.swift   the subject view to each remote display, on the camera tee
//   FramingBranch.swift           the face detector for framing hints, on the camera tee (leaky)
//   MicrophoneLegBranch.swift     a named microphone's leg on the audio mixer, taken out and put back
//   ScreenBranch.swift            the screen track's source (--screen), feeding the screen tee "st"
//   TeeBranch.swift               attaching a bin to a running tee and detaching it at a buffer boundary
//
//  The capture session's fault routing (CaptureSession+Faults.swift) first asks each branch whether an
//  element's failure is its own; only what none of them claims goes on to DuoCore's FaultRouting (a take,
//  a camera, the sound, the subject view, or the graph itself).

/// An element's error or warning, as the bus told it.
///
/// Thread: value type, Sendable.
struct GraphFault: Sendable {
    /// The element's name.
    let source: String
    /// The bins the element sits in, innermost first (the pipeline left out).
    let bins: [String]
    let message: String

    /// The branch its bin names (or its own name) mark, if any (FaultRouting.branchOwner).
    var branchOwner: FaultOwner? { FaultRouting.branchOwner(of: source, ancestors: bins) }
    /// "element: message", as events and warnings say it.
    var described: String { "\(source): \(message)" }
}

/// One kind of side branch, with the bins it attached (now or earlier in the run) and their state.
///
/// Thread: every side branch lives on the capture session's actor: made, called and dropped there; the
/// probes it owns run on streaming threads and hand nothing back but counts.
protocol SideBranch: AnyObject {
    /// Whether `fault` came from inside this branch: from one of its bins, attached now or dropped earlier
    /// (a late message from a bin being torn down is still the branch's, never the graph's).
    func owns(_ fault: GraphFault) -> Bool
    /// The branch's own error: it goes down alone (the tee never waits for it); returns what the run
    /// director is told, nil when nothing new (a late error from a bin already dropped, a second error).
    func failed(_ fault: GraphFault) -> SessionEvent?
    /// Whether one of its warnings means it failed (srtsink reconnecting: the display went); otherwise a
    /// warning is passed on as one.
    var failsOnWarning: Bool { get }
}

extension SideBranch {
    var failsOnWarning: Bool { false }
}
