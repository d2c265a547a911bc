import CDuoShim
import CGStreamer
import DuoCore
@testable import DuoMedia
import Foundation
import XCTest

/// The one way to read a bus (PipelineBus, BusThread), on real pipelines: a finite graph's end is read,
/// a deadline ends a read of a bus that says nothing, and a reader thread is stopped at once even when its
/// pipeline is already stopped (a stopped pipeline's bus drops what is posted to it).
final class PipelineBusTests: XCTestCase {
    func testAReadSeesTheEndOfAFiniteGraphAndTheErrorsText() throws {
        GStreamer.initialize()
        let finite = try CaptureSession.parse("videotestsrc num-buffers=5 ! fakesink")
        defer { finite.setState(GST_STATE_NULL) }
        XCTAssertEqual(finite.runToEnd(timeout: 10).description, "finished")
        let failing = try CaptureSession.parse("videotestsrc ! identity name=bus_fault error-after=3 ! fakesink")
        defer { failing.setState(GST_STATE_NULL) }
        XCTAssertEqual(failing.runToEnd(timeout: 10).description, "failed: Failed after iterations as requested.")
    }

    func testADeadlineEndsAReadOfAQuietBus() throws {
        GStreamer.initialize()
        let live = try CaptureSession.parse("videotestsrc is-live=true ! fakesink")
        live.setState(GST_STATE_PLAYING)
        defer { live.setState(GST_STATE_NULL) }
        var idle = 0, seen = 0
        let stopped = PipelineBus(live).read(GST_MESSAGE_EOS, until: GStreamer.monotonicMicros() + 300_000, poll: 0.05,
                                             idle: { idle += 1 }) { _ in seen += 1; return false }
        XCTAssertFalse(stopped, "no end came: the deadline ended the read")
        XCTAssertEqual(seen, 0)
        XCTAssertGreaterThan(idle, 0, "each quiet wait is reported")
    }

    func testAReaderOfAStoppedPipelineIsCancelledAtOnce() throws {
        GStreamer.initialize()
        let live = try CaptureSession.parse("videotestsrc is-live=true ! fakesink")
        live.setState(GST_STATE_PLAYING)
        let handled = Locked(0)
        let reader = BusThread(PipelineBus(live), name: "bus test", kinds: GST_MESSAGE_EOS) { _ in
            handled.update { $0 += 1 }
            return true
        }
        // NULL leaves the bus flushing: a wake-up posted as is would be dropped and the reader sleep on.
        live.setState(GST_STATE_NULL)
        let done = DispatchSemaphore(value: 0)
        Thread { reader.cancel(); done.signal() }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the reader stopped when cancelled")
        XCTAssertEqual(handled.value, 0, "the wake-up is never handed to the handler")
    }
}

extension FiniteRunOutcome: CustomStringConvertible {
    public var description: String {
        switch self {
        case .finished: "finished"
        case .failed(let why): "failed: \(why)"
        case .timedOut: "timed out"
        }
    }
}
