import DuoCore
import DuoPlatform
import Foundation
import XCTest

/// A signal that comes the instant its watch is made is heard, never dropped: `report` and the run rely
/// on it to end cleanly (a dispatch signal source, armed later on another thread, lost such a SIGTERM on
/// a loaded machine, and an interrupted report ran to its end).
final class SignalWatchTests: XCTestCase {
    func testASignalRightAfterTheWatchIsMadeIsHeard() {
        for round in 1...50 {
            let heard = expectation(description: "SIGUSR1 of round \(round) heard")
            heard.assertForOverFulfill = false
            let watch = SignalWatch(signals: [SIGUSR1]) { signal in
                XCTAssertEqual(signal, SIGUSR1)
                heard.fulfill()
            }
            kill(getpid(), SIGUSR1)
            wait(for: [heard], timeout: 10)
            watch.cancel()
        }
    }

    /// After `cancel`, the signal is still caught (the process is not ended by it) and the handler is
    /// not called.
    func testACancelledWatchIgnoresItsSignal() {
        let calls = Locked(0)
        let watch = SignalWatch(signals: [SIGUSR2]) { _ in calls.update { $0 += 1 } }
        watch.cancel()
        kill(getpid(), SIGUSR2)
        // A second, live watch on the same signal proves the signal was delivered and dispatched.
        let heard = expectation(description: "SIGUSR2 heard by the live watch")
        heard.assertForOverFulfill = false
        let live = SignalWatch(signals: [SIGUSR2]) { _ in heard.fulfill() }
        kill(getpid(), SIGUSR2)
        wait(for: [heard], timeout: 10)
        live.cancel()
        XCTAssertEqual(calls.value, 0, "a cancelled watch's handler ran")
    }
}
