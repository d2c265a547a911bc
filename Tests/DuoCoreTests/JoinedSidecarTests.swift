import DuoCore
import Foundation
import XCTest

/// A joined take's sidecar is the take's: the first segment's number, every marker, swap and interruption
/// of every segment at its time in the joined file, a swap two segments both told given once, a swap no
/// segment told (it falls between them) still there, and how each segment was brought to the joined format.
final class JoinedSidecarTests: XCTestCase {
    private func segment(take: Int, file: String, by camera: String, format: String, swaps: [TakeSidecar.Swap] = [],
                         markers: [TakeSidecar.Marker] = [], frames: Int64, dropped: Int64 = 0) -> TakeSidecar {
        var s = TakeSidecar(toolVersion: "0.1.0", gstreamerVersion: "GStreamer 1.22.0", take: take, file: file,
                            started: Date(timeIntervalSince1970: 1_000_000 + Double(take)), countdownSeconds: 0,
                            cameras: [.init(role: "A", label: "a", mode: "m"), .init(role: "B", label: "b", mode: "m")],
                            format: format, aspect: nil, encoder: "x264enc", container: "matroskamux", audio: nil)
        s.recordedBy = camera
        s.segment = take - 6
        s.takeId = "t7"
        s.swaps = swaps
        s.markersPassed = markers
        s.frames = frames
        s.droppedFrames = dropped
        s.complete = true
        s.ended = "end \(take)"
        return s
    }

    func testTheTakesNumberSwapsMarkersAndSegments() {
        let a = VideoFormat.parse("640x360@30")!, b = VideoFormat.parse("320x240@15")!
        let one = segment(take: 7, file: "t07.mkv", by: "A", format: "640x360@30",
                          // The swap that ended the segment, told by it and again by the next.
                          swaps: [.init(atSeconds: 2.01, from: "A", to: "B", format: "320x240@15")],
                          markers: [.init(title: "Intro", atSeconds: 0.5)], frames: 60, dropped: 1)
        let two = segment(take: 8, file: "t08.mkv", by: "B", format: "320x240@15",
                          swaps: [.init(atSeconds: 0, from: "A", to: "B", format: "320x240@15")],
                          markers: [.init(title: "Middle", atSeconds: 1.25)], frames: 45)
        // The third segment's swap fell between segments: no sidecar tells it.
        let three = segment(take: 9, file: "t09.mkv", by: "A", format: "640x360@30",
                            markers: [.init(title: "End", atSeconds: 0.75)], frames: 30)
        let segments = [JoinedSidecar.Segment(name: "t07.mkv", sidecar: one, format: a, durationSeconds: 2),
                        JoinedSidecar.Segment(name: "t08.mkv", sidecar: two, format: b, durationSeconds: 3),
                        JoinedSidecar.Segment(name: "t09.mkv", sidecar: three, format: a, durationSeconds: 1)]
        let s = JoinedSidecar.make(segments, file: "t07-joined.mkv", format: a, frames: 180, durationSeconds: 6, audioBuffers: nil,
                                   repeated: 45, dropped: 0, segmentsKept: false, toolVersion: "x", gstreamerVersion: "y",
                                   encoder: "x264enc", container: "matroskamux")
        XCTAssertEqual(s.take, 7, "the first segment's number")
        XCTAssertEqual(s.file, "t07-joined.mkv")
        XCTAssertEqual(s.format, "640x360@30")
        XCTAssertEqual(s.started, one.started)
        XCTAssertEqual(s.ended, "end 9")
        XCTAssertNil(s.segment)
        XCTAssertNil(s.recordedBy)
        XCTAssertEqual(s.segments, ["t07.mkv", "t08.mkv", "t09.mkv"])
        XCTAssertEqual(s.frames, 180)
        XCTAssertEqual(s.droppedFrames, 1)
        XCTAssertEqual(s.swaps, [.init(atSeconds: 2, from: "A", to: "B", format: "320x240@15"),
                                 .init(atSeconds: 5, from: "B", to: "A", format: "640x360@30")])
        XCTAssertEqual(s.markersPassed, [.init(title: "Intro", atSeconds: 0.5), .init(title: "Middle", atSeconds: 3.25),
                                         .init(title: "End", atSeconds: 5.75)])
        XCTAssertEqual(s.join?.sources?.map(\.rateConversion), ["none", "repeated", "none"])
        XCTAssertEqual(s.join?.sources?.map(\.scaled), [false, true, false])
        XCTAssertEqual(s.join?.sources?.map(\.frames), [60, 45, 30])
        XCTAssertEqual(s.join?.framesRepeated, 45)
        XCTAssertEqual(s.join?.segments, ["t07.mkv", "t08.mkv", "t09.mkv"])
    }

    /// `duo-capture join` on files without sidecars: the take's number from the first file's name, and each
    /// swap where the segments meet.
    func testSegmentsWithoutSidecars() {
        let a = VideoFormat.parse("1280x720@25")!, b = VideoFormat.parse("640x480@60")!
        let s = JoinedSidecar.make([.init(name: "duo-x-take04.mkv", sidecar: nil, format: a, durationSeconds: 1.5),
                                    .init(name: "duo-y-take05.mkv", sidecar: nil, format: b, durationSeconds: 2)],
                                   file: "duo-x-take04-joined.mkv", format: a, frames: 88, durationSeconds: 3.52, audioBuffers: nil,
                                   repeated: 0, dropped: 70, segmentsKept: true, toolVersion: "0.1.0", gstreamerVersion: "g",
                                   encoder: "x264enc", container: "matroskamux")
        XCTAssertEqual(s.take, 4)
        XCTAssertTrue(s.complete, "the joined file is finished")
        XCTAssertEqual(s.swaps, [.init(atSeconds: 1.5, from: "duo-x-take04.mkv", to: "duo-y-take05.mkv", format: "640x480@60")])
        XCTAssertEqual(s.join?.sources?.map(\.rateConversion), ["none", "dropped"])
        XCTAssertEqual(s.join?.framesDropped, 70)
        XCTAssertEqual(s.join?.segmentsKept, true)
    }
}
