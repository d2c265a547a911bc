/// What happens to a running take when the operator swaps cameras (`--swap-policy`), decided apart from
/// the media layer that carries it out (policy apart from mechanism).
///
/// In virtual mode both cameras run at one common format, so a swap never touches the take. In individual
/// mode each camera runs at its own best format; when the formats differ, a take cannot simply continue
/// (the recording never changes format), so the policy decides:
/// - `lock` (the default, the documents' first choice): refuse the swap while recording; the operator may
///   "stop, then switch" (`{"cmd":"swap","restart":true}`, the X key): the take ends, the camera changes,
///   and a new take starts after the countdown;
/// - `segment`: end the take, swap, and start a new take (a new file) at the new camera's format;
/// - `stop`: end the take and swap; recording stops.
///
/// Thread: value type, Sendable; pure.
public enum SwapPolicy: String, OptionWord, Sendable, CaseIterable {
    case lock, segment, stop

    public enum Decision: Sendable, Equatable {
        /// Switch cameras; the take (if any) goes on untouched.
        case swap
        /// Do not switch; tell the operator why.
        /// Why, in English (the swap-refused event) and in the operator's language (the HUD).
        case refuse(Said)
        /// End the take, switch, and start a new take at the new format.
        case segment
        /// End the take, then switch.
        case stopThenSwap
    }

    public func decide(recording: Bool, formatsMatch: Bool) -> Decision {
        guard recording, !formatsMatch else { return .swap }
        switch self {
        case .lock: return .refuse(.text("the cameras record at different formats and --swap-policy is lock; stop the take first, or stop, then switch (X, {\"cmd\":\"swap\",\"restart\":true})"))
        case .segment: return .segment
        case .stop: return .stopThenSwap
        }
    }

    public static func unknownWord(_ text: String) -> String {
        tr("--swap-policy %s: expected lock, segment or stop", text)
    }
}
