import DuoCore
import XCTest

/// The availability state machine over every combination of its inputs (2 × 2 × 3 monitor cases × 2
/// enabled = 24 states) and every transition between them (24 × 12).
final class AccessoryAvailabilityTests: XCTestCase {
    enum Monitor: CaseIterable { case none, sameAsOperator, other }

    static func inputs(_ fullscreen: Bool, _ frames: Bool, _ monitor: Monitor) -> AvailabilityInputs {
        let subject: String? = switch monitor {
        case .none: nil
        case .sameAsOperator: "DUMMY0"
        case .other: "DUMMY1"
        }
        return AvailabilityInputs(operatorFullscreen: fullscreen, framesFlowing: frames,
                                  subjectMonitor: subject, operatorMonitor: "DUMMY0")
    }

    static var allInputs: [(Bool, Bool, Monitor)] {
        var all: [(Bool, Bool, Monitor)] = []
        for f in [false, true] { for r in [false, true] { for m in Monitor.allCases { all.append((f, r, m)) } } }
        return all
    }

    func testAvailableOnlyWhenEveryConditionHoldsAndReasonsNameEachFailure() {
        var availableCount = 0
        for (f, r, m) in Self.allInputs {
            for enabled in [false, true] {
                let s = AccessoryState(enabled: enabled, inputs: Self.inputs(f, r, m))
                let expectAvailable = f && r && m == .other
                XCTAssertEqual(s.available, expectAvailable, "fullscreen \(f) frames \(r) monitor \(m)")
                XCTAssertEqual(s.shown, enabled && expectAvailable)
                XCTAssertEqual(s.enabled, enabled)
                XCTAssertEqual(s.reasons.contains(.operatorNotFullscreen), !f)
                XCTAssertEqual(s.reasons.contains(.framesNotFlowing), !r)
                XCTAssertEqual(s.reasons.contains(.noSubjectMonitor), m == .none)
                XCTAssertEqual(s.reasons.contains(.subjectMonitorIsOperators), m == .sameAsOperator)
                XCTAssertEqual(s.reasons, s.reasons.sorted(), "reasons come in a fixed order")
                if s.available { availableCount += 1 }
            }
        }
        XCTAssertEqual(availableCount, 2, "exactly one input combination is available, for both enabled values")
    }

    func testEveryTransitionReportsExactlyTheObservableChangesAndNeverTouchesEnabled() {
        for (f0, r0, m0) in Self.allInputs {
            for (f1, r1, m1) in Self.allInputs {
                for enabled in [false, true] {
                    let from = Self.inputs(f0, r0, m0), to = Self.inputs(f1, r1, m1)
                    var s = AccessoryState(enabled: enabled, inputs: from)
                    let change = s.update(to)
                    XCTAssertEqual(s.enabled, enabled, "availability never changes enabled")
                    XCTAssertEqual(s.inputs, to)
                    if from.reasons == to.reasons {
                        XCTAssertNil(change, "no event when nothing observable changed: \(from) → \(to)")
                    } else {
                        let c = try! XCTUnwrap(change, "an event for \(from) → \(to)")
                        XCTAssertEqual(c.cause, .availability)
                        XCTAssertEqual(c.available, to.reasons.isEmpty)
                        XCTAssertEqual(c.reasons, to.reasons)
                        XCTAssertEqual(c.enabled, enabled)
                        XCTAssertEqual(c.shown, enabled && to.reasons.isEmpty)
                    }
                }
            }
        }
    }

    func testEnabledIsTheUsersAndDoesNotChangeAvailability() {
        for (f, r, m) in Self.allInputs {
            let inputs = Self.inputs(f, r, m)
            var s = AccessoryState(enabled: false, inputs: inputs)
            let available = s.available
            let on = try! XCTUnwrap(s.setEnabled(true))
            XCTAssertEqual(on.cause, .enabled)
            XCTAssertTrue(s.enabled)
            XCTAssertEqual(s.available, available)
            XCTAssertEqual(on.shown, available)
            XCTAssertNil(s.setEnabled(true), "setting the same value is no change")
            let off = try! XCTUnwrap(s.setEnabled(false))
            XCTAssertFalse(off.shown)
            XCTAssertEqual(s.inputs, inputs)
        }
    }

    /// The user-visible scenario of the issue: leave fullscreen, come back, unplug and replug the subject
    /// monitor, lose frames; enabled stays on throughout and the view comes back each time.
    func testScenarioFullscreenToggleAndUnplug() {
        var s = AccessoryState(enabled: true)
        XCTAssertEqual(s.update(Self.inputs(false, true, .other))?.reasons, [.operatorNotFullscreen])
        XCTAssertEqual(s.update(Self.inputs(true, true, .other))?.shown, true)
        XCTAssertEqual(s.update { $0.operatorFullscreen = false }?.shown, false)
        XCTAssertEqual(s.update { $0.operatorFullscreen = true }?.shown, true)
        let unplug = s.update { $0.subjectMonitor = nil }
        XCTAssertEqual(unplug?.reasons, [.noSubjectMonitor])
        XCTAssertEqual(unplug?.available, false)
        XCTAssertEqual(s.update { $0.subjectMonitor = "DUMMY1" }?.shown, true)
        XCTAssertEqual(s.update { $0.framesFlowing = false }?.reasons, [.framesNotFlowing])
        XCTAssertNil(s.update { $0.framesFlowing = false })
        XCTAssertTrue(s.enabled)
    }

    /// A connected remote subject display counts as a subject monitor; its loss has its own reason.
    func testARemoteDisplayCountsAsASubjectMonitor() {
        var inputs = AvailabilityInputs(operatorFullscreen: true, framesFlowing: true, subjectMonitor: nil, operatorMonitor: "DP-1")
        XCTAssertEqual(inputs.reasons, [.noSubjectMonitor])
        inputs.remoteDisplays = 1
        XCTAssertEqual(inputs.reasons, [.remoteDisplayLost])
        inputs.remoteConnected = 1
        XCTAssertEqual(inputs.reasons, [], "the remote display is the subject's monitor")
        inputs.subjectMonitor = "DP-1"
        XCTAssertEqual(inputs.reasons, [], "one monitor for both, but the subject reads the remote one")
        inputs.remoteConnected = 0
        XCTAssertEqual(inputs.reasons, [.subjectMonitorIsOperators])
    }
}
