/// Who a failure in the graph belongs to, so that each part fails alone: a take's error ends that take,
/// a camera's is that camera's loss, a remote display's drops that display, the recogniser's turns
/// voice-follow off, the microphone's ends the sound, the subject view's shuts that view; only what
/// belongs to none of them fails the run.
///
/// Thread: value type, Sendable.
public enum FaultOwner: Sendable, Hashable {
    case take(Int)
    case camera(Int)
    case remote(Int)
    case recogniser
    case microphone
    case subjectView
    /// The framing detector's branch (`framing_…`): hints stop, nothing else does.
    case framing
    /// The replay buffer's encoders (`replay_…`, `--replay`): the buffer stops, nothing else does.
    case replay
    case graph
}

/// The routing of a failure from the element that posted it to its owner: a pure function of the
/// element's name, the names of the bins it sits in (innermost first), and what the graph knows of its
/// own branches. Side branches live in bins named for them (`take3`, `remote0`, `voice`), so an error
/// from one is recognised by its bin even after the branch was detached, and even from an element the
/// pipeline file left unnamed.
///
/// Thread: value type, Sendable; owned by the capture session's actor.
public struct FaultRouting: Sendable, Equatable {
    /// Each camera's chain, by element name (unnamed converters and decoders a camera file leaves to
    /// GStreamer's naming included).
    public var cameraElements: [Int: Set<String>] = [:]
    /// Elements of the audio source's chain up to and including the audio tee.
    public var audioElements: Set<String> = []
    public var hasAudio = false

    public init() {}

    /// The names that mark side branches, given to their bins where they are made: a take's `takeN`; a
    /// remote display's `remoteN_binG` (one per attach: its elements are `remoteN_…`); a recogniser's
    /// `voice_TAG`.
    public static func takeBin(_ number: Int) -> String { "take\(number)" }
    public static func remoteBin(_ index: Int, attach: Int) -> String { "\(GraphElement.remote(index))_bin\(attach)" }
    public static func recogniserBin(_ tag: String) -> String { "voice_\(tag)" }
    /// The framing detector's branch bin.
    public static let framingBin = "framing_bin"
    /// The replay buffer's bins (video, sound).
    public static let replayBins = (video: "replay_bin", audio: "replay_audio_bin")

    /// The named microphone's leg (attach N, `microphoneN_…` in a bin `microphoneN`) an element belongs
    /// to, from its name and its bins; nil for anything else.
    public static func microphoneLeg(of element: String, ancestors: [String] = []) -> Int? {
        for name in [element] + ancestors {
            if let n = number(String(name.prefix { $0 != "_" }), after: "microphone") { return n }
        }
        return nil
    }

    /// The owner of a failure posted by `element` inside the bins `ancestors` (innermost first, the
    /// pipeline itself excluded). `playing`: a camera's error before the graph plays is the graph's (the
    /// run cannot start), after it the camera's loss.
    public func owner(of element: String, ancestors: [String] = [], playing: Bool = true) -> FaultOwner {
        if let branch = Self.branchOwner(of: element, ancestors: ancestors) { return branch }
        if let camera = cameraIndex(of: element) { return playing ? .camera(camera) : .graph }
        if hasAudio, audioElements.contains(element) || element == GraphElement.audioTee.rawValue || element.hasPrefix("audio_") {
            return .microphone
        }
        if element.hasPrefix("subject_") { return .subjectView }
        return .graph
    }

    /// The branch whose bin names (or own element names) mark `element`, innermost first: a take, a
    /// remote display, the recogniser, the framing detector or a microphone's leg; nil for an element of
    /// the main graph. The side branches' own test of what is theirs (DuoMedia's `SideBranch.owns`), and
    /// the first step of `owner`.
    public static func branchOwner(of element: String, ancestors: [String] = []) -> FaultOwner? {
        for name in [element] + ancestors {
            let head = String(name.prefix { $0 != "_" })
            if let n = number(head, after: "take") { return .take(n) }
            if let n = number(head, after: "remote") { return .remote(n) }
            if head == "voice" || number(head, after: "voice") != nil { return .recogniser }
            if head == "framing" { return .framing }
            if head == "replay" { return .replay }
            if number(head, after: "microphone") != nil { return .microphone }
        }
        if element == GraphElement.recogniser.rawValue { return .recogniser }
        return nil
    }

    /// Camera A (0) or B (1): one of its chain's elements, or named `camera…` / `camera_b…`.
    public func cameraIndex(of element: String) -> Int? {
        if let (index, _) = cameraElements.first(where: { $0.value.contains(element) }) { return index }
        let a = GraphElement.cameraSource.forCamera(0), b = GraphElement.cameraSource.forCamera(1)
        if element == b || element.hasPrefix(b + "_") { return 1 }
        if element == a || element.hasPrefix(a + "_") { return 0 }
        return nil
    }

    /// `N` of a name that is exactly `prefix` followed by digits.
    static func number(_ name: String, after prefix: String) -> Int? {
        guard name.hasPrefix(prefix) else { return nil }
        let digits = name.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }
}
