/// The remote subject displays of a run (`--subject-remote`): which are connected and at what size,
/// which are being asked, when each that is away is asked again, and what was last said about each, so a
/// display that stays away is said once. Facts in (answers, attach results, losses), decisions out (ask,
/// connect, say); the run director does the asking off its actor and carries the rest out.
///
/// Thread: value type; owned by the run director's actor. Time is a parameter (pipeline running time, ns).
public struct RemoteDisplayRoster: Sendable {
    /// Why a display is not shown, and how soon it is asked again.
    public enum Away: String, Sendable {
        /// Its branch could not be attached.
        case failed
        /// It said no (a wrong passphrase, encryption on one end only, a size that makes no sense).
        case refused
        /// Nothing answers there yet.
        case waiting
        /// It was connected and went (its SRT link gave up).
        case lost

        public var retryAfter: Int64 {
            switch self {
            case .failed, .refused: 5_000_000_000
            case .waiting: 2_000_000_000
            case .lost: 1_000_000_000
            }
        }
    }

    /// What to do about a display whose time has come.
    public enum Ask: Sendable, Equatable {
        /// Ask the display at this index (its handshake), off the director.
        case ask(Int)
        /// A listening address: the display calls in; render for a 1920x1080 monitor.
        case listen(Int)
    }

    /// Whether each display's address listens (the display calls) rather than calls.
    public let listening: [Bool]
    /// Connected displays and the size their view is rendered at.
    public private(set) var connected: [Int: (width: Int, height: Int)] = [:]
    private var askAt: [Int: Int64] = [:]
    private var asking: Set<Int> = []
    private var said: [Int: String] = [:]

    public init(listening: [Bool]) { self.listening = listening }

    public var count: Int { listening.count }
    public var connectedCount: Int { connected.count }

    /// The displays to ask now (each away and not already being asked, its retry time come).
    public mutating func due(at now: Int64) -> [Ask] {
        var due: [Ask] = []
        for index in listening.indices where connected[index] == nil && !asking.contains(index) && now >= askAt[index] ?? 0 {
            if listening[index] {
                due.append(.listen(index))
            } else {
                asking.insert(index)
                due.append(.ask(index))
            }
        }
        return due
    }

    /// A display answered (whatever it said): it is no longer being asked.
    public mutating func answered(_ index: Int) { asking.remove(index) }

    /// A display's branch is attached: it shows the view at `width`×`height`.
    public mutating func connect(_ index: Int, width: Int, height: Int) {
        connected[index] = (width, height)
        said[index] = nil
    }

    /// A display is away (`state`, with `reason`) at `now`: asked again after its state's delay. True when
    /// this state and reason were not the last said about it (say it; else stay quiet).
    public mutating func away(_ index: Int, _ state: Away, reason: String, at now: Int64) -> Bool {
        if state == .lost { connected[index] = nil }
        askAt[index] = now + state.retryAfter
        let key = state.rawValue + reason
        guard said[index] != key else { return false }
        said[index] = key
        return true
    }

    /// When the display is asked next (nil: now, or it is connected).
    public func nextAsk(_ index: Int) -> Int64? { connected[index] == nil ? askAt[index] : nil }
}
