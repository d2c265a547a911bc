import DuoCore
import Foundation

/// What the operator sees of the teleprompter (never sent to the subject).
///
/// Thread: value type, Sendable.
public struct PrompterStatus: Sendable, Equatable {
    public var accessory: AccessoryKind
    public var position: Double
    public var length: Double
    public var unitsAreWords: Bool
    public var secondsLeft: Double
    public var paused: Bool
    public var heldAtCue: Bool
    public var speed: String
    public var mirror: MirrorFlags
    public var countdownValue: Int?
    /// The operator's private notes near the current position.
    public var notes: [String]
    /// The teleprompter's text size, pixels.
    public var fontSize: Double
    /// Voice-follow: nil while the scroll follows time.
    public var follow: FollowStatus? = nil
    /// The scroll runs backwards (the R key, `{"cmd":"reverse"}`).
    public var reversed = false
    /// The confidence strip: the subject view's lines around the reading line, private notes inline.
    public var confidence: [ConfidenceLine] = []
}

/// Where voice-follow is: how sure it is, and the script word it last heard the speaker say.
///
/// Thread: value type, Sendable.
public struct FollowStatus: Sendable, Equatable {
    public var state: VoiceFollowState
    public var word: String?
    /// The state's name as events and the HUD say it: following, unsure, holding (held: the operator
    /// paused it).
    public var stateName: String
    public init(state: VoiceFollowState, word: String?, held: Bool) {
        self.state = state
        self.word = word
        switch state {
        case _ where held: stateName = N_("held")
        case .following: stateName = N_("following")
        case .unsure: stateName = N_("unsure")
        case .holding: stateName = N_("holding")
        }
    }
}
