import DuoCore
import DuoMedia
import Foundation
import XCTest

/// A drawer that paints the whole luma plane one value and counts its frames.
final class PaintingDrawer: I420FrameDrawer, @unchecked Sendable {
    let value: UInt8
    private let lock = Lock()
    private var frames = 0
    private var times: [Int64] = []
    init(value: UInt8) { self.value = value }
    func draw(into planes: I420Planes, at runningTime: Int64) {
        for row in 0..<planes.height { (planes.y + row * planes.yStride).update(repeating: value, count: planes.width) }
        lock.withLock { frames += 1; times.append(runningTime) }
    }
    var count: Int { lock.withLock { frames } }
    var runningTimes: [Int64] { lock.withLock { times } }
}

final class SubjectDrawingTests: XCTestCase {
    /// The subject view is drawn into the subject branch's frames only. At 320x240 the subject branch's
    /// scaler passes buffers through, so the buffer is the very one the tee gives the operator branch: the
    /// drawer must get a private copy, or the operator preview (and takes) would show the teleprompter.
    func testSubjectDrawingNeverReachesTheOperatorPreview() async throws {
        let drawer = PaintingDrawer(value: 7)
        let plan = try smallPlan("320x240@30")
        XCTAssertEqual(plan.subjectSize.width, 320, "this test needs a passthrough subject scaler")
        let session = CaptureSession(plan: plan, subjectDrawer: drawer, sampleLuma: true)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.operatorView.frames >= 30 && counts.subjectView.frames >= 30 }
        let counts = await session.counts
        await session.stop()

        XCTAssertGreaterThanOrEqual(drawer.count, 30, "the drawer ran on subject frames")
        let cameraLuma = try XCTUnwrap(counts.camera.lumaSample)
        XCTAssertNotEqual(cameraLuma, 7)
        XCTAssertEqual(counts.operatorView.lumaSample, cameraLuma, "operator frames keep the camera's pixels")
        XCTAssertNotEqual(counts.operatorView.lumaMax, 7)
        // Drawn at the frames' running time: increasing, one frame interval apart.
        let times = drawer.runningTimes
        XCTAssertTrue(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
    }
}

/// Copies the first row of luma of each frame it sees (draws nothing).
final class RowTap: I420FrameDrawer, @unchecked Sendable {
    private let lock = Lock()
    private var row: [UInt8] = []
    private var size = (0, 0)
    func draw(into planes: I420Planes, at runningTime: Int64) {
        let copy = Array(UnsafeBufferPointer(start: planes.y, count: planes.width))
        lock.withLock { row = copy; size = (planes.width, planes.height) }
    }
    var firstRow: [UInt8] { lock.withLock { row } }
    var frameSize: (Int, Int) { lock.withLock { size } }
}

final class RotationTests: XCTestCase {
    /// A sensor mounted sideways (profile rotation 90) is turned upright once, before the tee: every branch
    /// gets the rotated picture at the swapped size.
    func testProfileRotationTurnsThePictureClockwise() async throws {
        let profile = CameraProfile(id: "sideways", name: "Sideways sensor", rotation: 90, testPattern: "smpte",
                                    modes: [.init(pixelFormat: "I420", format: VideoFormat.parse("320x240@30")!)])
        var plan = try GraphPlan(library: library(), camera: .simulated(profile), requested: nil, aspect: nil,
                                 encoder: .x264, container: .mkv)
        // The camera faces the operator: the subject's frames (tapped here) are not mirrored.
        plan.faces = [.theOperator, .theOperator]
        XCTAssertEqual(plan.format.description, "240x320@30")
        let tap = RowTap()
        let session = CaptureSession(plan: plan, subjectDrawer: tap)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.subjectView.frames >= 3 }
        try await session.waitUntil { _, _ in !tap.firstRow.isEmpty }
        let row = tap.firstRow
        let size = tap.frameSize
        await session.stop()

        XCTAssertEqual(size.0, 240)
        XCTAssertEqual(size.1, 320)
        // Turned clockwise, the camera's left column (the white bar, luma 235, on the upper two thirds)
        // becomes the top row's right part; unrotated, the top row would end in the blue bar (luma 41).
        XCTAssertGreaterThan(row[230], 200, "top row, right: \(row[230])")
        XCTAssertLessThan(row[5], 120, "top row, left is the bottom of the camera's picture: \(row[5])")
    }
}
