import DuoCore
import Foundation
import XCTest

final class FormatTests: XCTestCase {
    /// Where a preview is scaled: to fit a view (even sizes), and for the operator, not at all when the
    /// camera's own pixels fit (never scaled up in the graph).
    func testPictureSizes() {
        func pair(_ p: (width: Int, height: Int)) -> [Int] { [p.width, p.height] }
        XCTAssertEqual(pair(PictureFit.fit(width: 1280, height: 720, into: 3840, 2160)), [3840, 2160])
        XCTAssertEqual(pair(PictureFit.fit(width: 1280, height: 720, into: 1080, 1920)), [1080, 606], "portrait: fitted, even")
        XCTAssertEqual(pair(PictureFit.fit(width: 1280, height: 720, into: 1920, 1200)), [1920, 1080])
        XCTAssertEqual(pair(PictureFit.preview(width: 1280, height: 720, into: 1920, 1080)), [1280, 720], "shown as captured")
        XCTAssertEqual(pair(PictureFit.preview(width: 1920, height: 1080, into: 1280, 720)), [1280, 720], "scaled down to fit")
        XCTAssertEqual(pair(PictureFit.preview(width: 1280, height: 720, into: 3840, 2160)), [1280, 720], "never scaled up in the graph")
        XCTAssertEqual(pair(PictureFit.preview(width: 640, height: 480, into: 1920, 1080)), [640, 480])
        XCTAssertEqual(pair(PictureFit.preview(width: 3840, height: 2160, into: 1920, 1080)), [1920, 1080])
        XCTAssertEqual(pair(PictureFit.preview(width: 1920, height: 1080, into: 1120, 630)), [1120, 630])
        XCTAssertEqual(pair(PictureFit.preview(width: 1920, height: 1080, into: 1001, 700)), [1000, 562], "windowed: fitted, even")
    }

    /// How the window paints the graph's picture into the rectangle it lays it out in: a copy when the
    /// graph fitted it (to within the 2 pixels of its even rounding), nearest when a smaller camera is
    /// painted up, bilinear only for a frame of another size while the graph follows a resize.
    func testPaintFilterCopiesWhatTheGraphFitted() {
        func filter(_ w: Int, _ h: Int, into vw: Int, _ vh: Int) -> PictureFit.Filter {
            let fit = PictureFit.preview(width: w, height: h, into: vw, vh)
            let k = min(Double(vw) / Double(w), Double(vh) / Double(h))   // HudModel.previewRect's rectangle
            return PictureFit.paintFilter(width: fit.width, height: fit.height, shownWidth: Double(w) * k, shownHeight: Double(h) * k)
        }
        XCTAssertEqual(filter(1920, 1080, into: 1280, 720), .copy)
        XCTAssertEqual(filter(1920, 1080, into: 1001, 700), .copy, "1001x563.06 shown, 1000x562 fitted: copied, not stretched")
        XCTAssertEqual(filter(3840, 2160, into: 1920, 1200), .copy)
        XCTAssertEqual(filter(1280, 720, into: 1280, 720), .copy)
        XCTAssertEqual(filter(1280, 720, into: 1920, 1080), .nearest)
        XCTAssertEqual(filter(1280, 720, into: 3840, 2160), .nearest)
        XCTAssertEqual(filter(640, 480, into: 1920, 1080), .nearest)
        XCTAssertEqual(PictureFit.paintFilter(width: 1920, height: 1080, shownWidth: 800, shownHeight: 450), .bilinear, "old size, a moment")
    }

    /// The choice rule: among formats of at least --min-fps, the most pixels, then the highest rate; a slow
    /// still-camera mode wins only when nothing is smooth. No hidden cap without --format.
    func testChoiceRanksSmoothFormatsFirstWithNoHiddenCap() throws {
        let webcam = ["2304x1536@2", "1920x1080@30", "1280x720@30", "640x480@30"].compactMap(VideoFormat.parse)
        XCTAssertEqual(FormatSelection.best(of: webcam, upTo: nil)?.description, "1920x1080@30", "2 fps never wins on size")
        XCTAssertEqual(FormatSelection.best(of: webcam, upTo: nil, minimumRate: 1)?.description, "2304x1536@2", "--min-fps 1 allows it")
        let slow = ["2592x1944@15", "1920x1080@15", "1280x720@20"].compactMap(VideoFormat.parse)
        XCTAssertEqual(FormatSelection.best(of: slow, upTo: nil)?.description, "1280x720@20", "none reaches 24: the highest rate")
        let big = ["3840x2160@120", "3840x2160@30", "1920x1080@120"].compactMap(VideoFormat.parse)
        XCTAssertEqual(FormatSelection.best(of: big, upTo: nil)?.description, "3840x2160@120", "no cap without --format")
        XCTAssertEqual(FormatSelection.best(of: big, upTo: VideoFormat.parse("1920x1080@60"))?.description, nil,
                       "--format bounds width, height and rate each")
        XCTAssertEqual(FormatSelection.best(of: big, upTo: VideoFormat.parse("3840x2160@60"))?.description, "3840x2160@30")
    }

    /// The shipped Duo profiles: both front cameras together run at 1920x1080@60.
    func testTheDuoProfilesMeetAt1080p60() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        func load(_ name: String) throws -> CameraProfile {
            let url = root.appendingPathComponent("Assets/cameras/\(name).json")
            return try CameraProfile.parse(try Data(contentsOf: url), source: url.path)
        }
        let inner = try load("inner"), outer = try load("outer")
        let common = FormatSelection.intersection(inner.modes.map(\.format), outer.modes.map(\.format))
        XCTAssertEqual(try FormatSelection.choose(for: "A+B", offered: common, upTo: nil).description, "1920x1080@60")
    }

    func testParsesFormats() {
        XCTAssertEqual(VideoFormat.parse("1280x720@30"), VideoFormat(width: 1280, height: 720, frameRate: FrameRate(30)))
        XCTAssertEqual(VideoFormat.parse("1920x1080@29.97")?.frameRate, FrameRate(30000, 1001))
        XCTAssertEqual(VideoFormat.parse("640x360")?.frameRate, FrameRate(30))
        for bad in ["", "1280", "1280x", "x720", "1280x720@", "1280x720@0", "1280x720@abc", "99999x720@30", "1280x720@30@30"] {
            XCTAssertNil(VideoFormat.parse(bad), bad)
        }
    }

    func testFrameRateOrderingIsExact() {
        XCTAssertTrue(FrameRate(30000, 1001) < FrameRate(30))
        XCTAssertEqual(FrameRate(60, 2), FrameRate(30))
        XCTAssertEqual(FrameRate(30).frameDurationNanoseconds, 33_333_333)
        // Kept reduced, so caps print as GStreamer users write them.
        XCTAssertEqual(FrameRate(60000, 1000).capsValue, "60/1")
        XCTAssertEqual(FrameRate(30000, 1001).capsValue, "30000/1001")
        // Huge terms compare without trapping, and a fraction GStreamer cannot hold is refused.
        XCTAssertTrue(FrameRate(Int.max - 1, Int.max) < FrameRate(1))
        XCTAssertEqual(FrameRate.parse("10000000000/10000000000"), FrameRate(1))
        XCTAssertNil(FrameRate.parse("10000000001/10000000000"), "terms beyond a 32-bit int")
        XCTAssertEqual(VideoFormat.parse("320x240@10000000000/10000000000")?.frameRate, FrameRate(1))
    }

    func testBestFormatRespectsLimitInEveryDimension() {
        let offered = ["3840x2160@30", "1920x1080@60", "1920x1080@30", "1280x720@120"].compactMap(VideoFormat.parse)
        XCTAssertEqual(FormatSelection.best(of: offered, upTo: nil)?.description, "3840x2160@30")
        XCTAssertEqual(FormatSelection.best(of: offered, upTo: VideoFormat.parse("1920x1080@30"))?.description, "1920x1080@30")
        XCTAssertEqual(FormatSelection.best(of: offered, upTo: VideoFormat.parse("1920x1080@60"))?.description, "1920x1080@60")
        XCTAssertEqual(FormatSelection.best(of: offered, upTo: VideoFormat.parse("1280x720@60")), nil)
    }

    func testChooseExplainsWhenNothingFits() {
        let offered = ["1920x1080@30"].compactMap(VideoFormat.parse)
        XCTAssertThrowsError(try FormatSelection.choose(for: "cam", offered: offered, upTo: VideoFormat.parse("640x360@30"))) { error in
            let e = error as! DuoError
            XCTAssertEqual(e.kind, .usage)
            XCTAssertTrue(e.message.contains("1920x1080@30"), e.message)
        }
    }

    /// A camera claiming formats beyond what duo-capture records (a side over 8192, a rate outside 1 to
    /// 1000 fps) has them skipped when picking, and one that offers only such formats is refused in one
    /// line naming the camera and its formats; no arithmetic on their sizes traps.
    func testFormatsBeyondWhatIsRecordedAreSkippedOrRefused() throws {
        let huge = VideoFormat(width: 2_147_483_647, height: 2_147_483_647, frameRate: FrameRate(30))
        let wide = VideoFormat(width: 65534, height: 65534, frameRate: FrameRate(30))
        let fast = VideoFormat(width: 640, height: 480, frameRate: FrameRate(1_000_000))
        let small = VideoFormat(width: 320, height: 240, frameRate: FrameRate(30))
        XCTAssertEqual(FormatSelection.best(of: [huge, wide, fast, small], upTo: nil), small)
        XCTAssertEqual(try FormatSelection.choose(for: "cam", offered: [huge, small], upTo: nil), small)
        for offered in [[huge], [wide], [wide, huge, fast]] {
            XCTAssertThrowsError(try FormatSelection.choose(for: "Big Cam", offered: offered, upTo: nil)) { error in
                let e = error as! DuoError
                XCTAssertEqual(e.kind, .input)
                XCTAssertTrue(e.message.hasPrefix("camera Big Cam offers only formats duo-capture cannot record ("), e.message)
                XCTAssertTrue(offered.allSatisfy { e.message.contains($0.description) }, e.message)
                XCTAssertFalse(e.message.contains("\n"))
            }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let library = PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path)
        for format in [huge, wide] {
            let camera = CameraSource.simulated(CameraProfile(id: "big", name: "big", modes: [.init(pixelFormat: "I420", format: format)]))
            XCTAssertThrowsError(try GraphPlan(library: library, camera: camera, requested: nil, aspect: nil, encoder: .x264, container: .mkv)) {
                XCTAssertTrue(($0 as! DuoError).message.contains("cannot record (\(format)"), "\($0)")
            }
        }
        // The largest format that is recorded gets a bitrate within x264enc's range.
        let largest = CameraSource.simulated(CameraProfile(id: "l", name: "l", modes: [
            .init(pixelFormat: "I420", format: VideoFormat(width: 8192, height: 8192, frameRate: FrameRate(1000)))]))
        let plan = try GraphPlan(library: library, camera: largest, requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        XCTAssertEqual(plan.bitrateKbps, 2_048_000)
        // A frame rate of two huge terms is compared and reduced without trapping: 10000000000/10000000000 is 1 fps.
        XCTAssertEqual(VideoFormat.parse("320x240@10000000000/10000000000")?.frameRate, FrameRate(1))
        XCTAssertNil(VideoFormat.parse("320x240@10000000000/10000000001"), "not a fraction GStreamer holds")
        XCTAssertTrue(FrameRate(Int.max, Int.max - 1) > FrameRate(Int.max - 1, Int.max))
    }

    /// The documents' virtual front camera: the common format of the inner and outer camera is 1080p60.
    func testIntersectionOfShippedProfilesIs1080p60() throws {
        let inner = try loadShipped("inner"), outer = try loadShipped("outer")
        let common = FormatSelection.intersection(inner.formats, outer.formats)
        XCTAssertEqual(common.first?.description, "1920x1080@60")
        XCTAssertFalse(common.contains { $0.width == 3840 }, "4K is outer-only")
        XCTAssertFalse(common.contains { $0.frameRate == FrameRate(120) }, "120 fps is outer-only")
    }

    func testAspectCropIsCentredAndEven() {
        let c = AspectRatio(9, 16).centredCrop(frameWidth: 1920, frameHeight: 1080)
        XCTAssertEqual(c.top + c.bottom, 0)
        XCTAssertEqual(1920 - c.left - c.right, 606)  // 1080 * 9 / 16 = 607.5 → 606, even
        XCTAssertEqual(c.left % 2, 0)
        XCTAssertLessThanOrEqual(abs(c.left - c.right), 2)
        let square = AspectRatio(1, 1).centredCrop(frameWidth: 640, frameHeight: 480)
        XCTAssertEqual(square.left, 80); XCTAssertEqual(square.right, 80)
        let tall = AspectRatio(16, 9).centredCrop(frameWidth: 640, frameHeight: 480)
        XCTAssertEqual(tall.left + tall.right, 0)
        XCTAssertEqual(480 - tall.top - tall.bottom, 360)
        XCTAssertEqual(tall.top, 60)
        XCTAssertEqual(AspectRatio.parse("4:3"), AspectRatio(4, 3))
        XCTAssertNil(AspectRatio.parse("5:4"))
    }
}

func repositoryRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

func loadShipped(_ id: String) throws -> CameraProfile {
    let url = repositoryRoot().appendingPathComponent("Assets/cameras/\(id).json")
    return try CameraProfile.parse(try Data(contentsOf: url), source: url.path)
}

/// The desktop graph's preview sizes: pinned when every camera delivers one size, left to the sinks when
/// individual cameras differ (a swap must never stretch one camera's picture to the other's shape).
final class PreviewSizeTests: XCTestCase {
    func testIndividualCamerasOfDifferentSizesAreNotPinned() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let library = PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path)
        func camera(_ id: String, _ format: String) -> CameraSource {
            .simulated(CameraProfile(id: id, name: id, modes: [.init(pixelFormat: "I420", format: VideoFormat.parse(format)!)]))
        }
        var individual = try GraphPlan(library: library, camera: camera("a", "640x360@30"), secondCamera: camera("b", "320x240@30"),
                                       individual: true, requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        individual.sinks = .desktop
        XCTAssertFalse(individual.picturesHaveOneSize)
        let loose = try individual.liveDescription()
        XCTAssertTrue(loose.contains("name=operator_size caps=\"video/x-raw,format=BGRx\""), loose)
        XCTAssertTrue(loose.contains("name=subject_size caps=\"video/x-raw,format=BGRx\""), loose)

        var virtual = try GraphPlan(library: library, camera: camera("a", "640x360@30"), secondCamera: camera("b", "640x360@30"),
                                    requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        virtual.sinks = .desktop
        XCTAssertTrue(virtual.picturesHaveOneSize)
        XCTAssertTrue(try virtual.liveDescription().contains("name=operator_size caps=\"video/x-raw,format=BGRx,width=640,height=360,pixel-aspect-ratio=1/1\""))
    }
}

/// `--rotate` for a real camera: the picture is turned once in the camera's chain and the session's format
/// is the upright one.
final class RotationOptionTests: XCTestCase {
    func testARealCameraTurnedUpright() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let library = PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path)
        let webcam = CameraSource.v4l2(device: "/dev/video7", modes: [.init(pixelFormat: "YUY2", format: VideoFormat.parse("1280x720@30")!)])
        let plan = try GraphPlan(library: library, camera: webcam.rotated(90), requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        XCTAssertEqual(plan.format.description, "720x1280@30", "the session runs upright")
        XCTAssertEqual(plan.cameraMode.format.description, "1280x720@30", "the device opens in its own mode")
        let chain = try plan.cameraDescription()
        XCTAssertTrue(chain.contains("video-direction=90r"), chain)
        XCTAssertEqual(try GraphPlan(library: library, camera: webcam, requested: nil, aspect: nil, encoder: .x264,
                                     container: .mkv).format.description, "1280x720@30")
    }
}

/// A camera with an odd side (641x479): every kind opens in its own mode and its chain (the one place a
/// camera's chain is built) scales it to even, which every branch and the encoder need; the start line
/// says so once.
final class OddCameraSizeTests: XCTestCase {
    func testEveryCameraKindIsScaledToEvenInItsChain() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let library = PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path)
        let odd = VideoFormat.parse("641x479@30")!
        let mode = CameraProfile.Mode(pixelFormat: "YUY2", format: odd)
        let kinds: [CameraSource] = [
            .v4l2(device: "/dev/video7", modes: [mode]),
            .service(stack: .pipewire, target: "cam", name: "cam", modes: [mode]),
            .service(stack: .libcamera, target: "/base/cam0", name: "cam0", modes: [mode]),
            .simulated(CameraProfile(id: "odd", name: "odd", modes: [.init(pixelFormat: "I420", format: odd)])),
        ]
        for camera in kinds {
            let plan = try GraphPlan(library: library, camera: camera, requested: nil, aspect: nil, encoder: .x264, container: .mkv)
            XCTAssertEqual(plan.format.description, "640x478@30", "\(camera.label): what leaves the chain")
            XCTAssertEqual(plan.cameraMode.format, odd, "\(camera.label): the camera opens in its own mode")
            XCTAssertEqual(plan.evenSizeNote, "odd size 641x479 scaled to 640x478", camera.label)
            let chain = try plan.cameraDescription()
            XCTAssertTrue(chain.contains("width=640,height=478,framerate=30/1,pixel-aspect-ratio=1/1"), "\(camera.label): \(chain)")
            if case .service(.pipewire, _, _, _, _) = camera {
                XCTAssertTrue(chain.contains("width=641,height=479"), "asks the node for its own size: \(chain)")
            }
            XCTAssertNoThrow(try plan.validate())
        }
        // Turned upright, the odd sides swap first; two cameras say which is odd.
        let rotated = try GraphPlan(library: library, camera: kinds[0].rotated(90), requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        XCTAssertEqual(rotated.format.description, "478x640@30")
        XCTAssertEqual(rotated.evenSizeNote, "odd size 479x641 scaled to 478x640")
        let even = CameraSource.v4l2(device: "/dev/video8", modes: [.init(pixelFormat: "YUY2", format: VideoFormat.parse("320x240@30")!)])
        let pair = try GraphPlan(library: library, camera: even, secondCamera: kinds[1], individual: true, requested: nil, aspect: nil,
                                 encoder: .x264, container: .mkv)
        XCTAssertEqual(pair.format(ofCamera: 0).description, "320x240@30")
        XCTAssertEqual(pair.format(ofCamera: 1).description, "640x478@30")
        XCTAssertEqual(pair.evenSizeNote, "camera B's odd size 641x479 scaled to 640x478")
        XCTAssertNil(try GraphPlan(library: library, camera: even, requested: nil, aspect: nil, encoder: .x264, container: .mkv).evenSizeNote)
    }
}
