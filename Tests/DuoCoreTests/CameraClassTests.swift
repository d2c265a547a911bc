import DuoCore
import XCTest

/// Two cameras of different classes, decided in DuoCore: hard requirements, posture by direction, the
/// mirroring that follows a camera turned round, and the commands that carry them.
final class CameraRequirementTests: XCTestCase {
    private func duo() throws -> [RequirementCheck.Camera] {
        [RequirementCheck.Camera(.simulated(try loadShipped("inner"))), RequirementCheck.Camera(.simulated(try loadShipped("outer")))]
    }

    func testFourKAt120FromTheDuoPairIsRefusedNamingTheirBest() throws {
        XCTAssertThrowsError(try RequirementCheck([.format(VideoFormat.parse("3840x2160@120")!)], cameras: try duo(), individual: false)) { error in
            let e = error as! DuoError
            XCTAssertEqual(e.kind.exitCode, 65)
            XCTAssertTrue(e.message.contains("1920x1080@60"), e.message)
            XCTAssertTrue(e.message.contains("3840x2160@120"), e.message)
            XCTAssertFalse(e.message.contains("\n"))
        }
        // The outer camera alone has it; in individual mode the inner one is an unmet wish.
        let outerAlone = try RequirementCheck([.format(VideoFormat.parse("3840x2160@120")!)], cameras: [try duo()[1]], individual: false)
        XCTAssertEqual(outerAlone.unmetWishes, [])
        let individual = try RequirementCheck([.format(VideoFormat.parse("3840x2160@120")!)], cameras: try duo(), individual: true)
        XCTAssertEqual(individual.unmetWishes.count, 1)
        XCTAssertTrue(individual.unmetWishes[0].hasPrefix("camera A ("), individual.unmetWishes[0])
        XCTAssertTrue(individual.unmetWishes[0].contains("at best 1920x1080@60"), individual.unmetWishes[0])
    }

    func testDepthNeedsACameraWithDepthAndNeverTheVirtualCamera() throws {
        let plain = RequirementCheck.Camera(label: "webcam", formats: [VideoFormat.parse("1280x720@30")!], depth: false)
        XCTAssertThrowsError(try RequirementCheck([.depth], cameras: [plain], individual: false)) { error in
            XCTAssertTrue((error as! DuoError).message.contains("no depth"), "\(error)")
        }
        XCTAssertThrowsError(try RequirementCheck([.depth], cameras: [RequirementCheck.Camera(.testSource)], individual: false))
        XCTAssertThrowsError(try RequirementCheck([.depth], cameras: try duo(), individual: false)) { error in
            XCTAssertTrue((error as! DuoError).message.contains("virtual camera carries no depth"), "\(error)")
        }
        XCTAssertEqual(try RequirementCheck([.depth], cameras: try duo(), individual: true).unmetWishes, [])
        XCTAssertEqual(try RequirementCheck([.depth], cameras: [try duo()[0], plain], individual: true).unmetWishes, ["camera B (webcam): no depth"])
        XCTAssertEqual(try RequirementCheck([], cameras: [plain], individual: false).unmetWishes, [])
    }

    func testTheChosenFormatMeetsTheRequirementEvenWhenABiggerOneIsSlower() throws {
        let camera = CameraSource.simulated(CameraProfile(id: "c", name: "c", modes: [
            .init(pixelFormat: "I420", format: VideoFormat.parse("1920x1080@30")!),
            .init(pixelFormat: "I420", format: VideoFormat.parse("1280x720@120")!),
        ]))
        let library = PipelineLibrary(directory: repositoryRoot().appendingPathComponent("Pipelines").path)
        let free = try GraphPlan(library: library, camera: camera, requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        XCTAssertEqual(free.format.description, "1920x1080@30")
        let required = try GraphPlan(library: library, camera: camera, requested: nil, aspect: nil, encoder: .x264, container: .mkv,
                                     requirements: [.format(VideoFormat.parse("1280x720@60")!)])
        XCTAssertEqual(required.format.description, "1280x720@120")
        XCTAssertEqual(required.requirementNote, " (required 1280x720@60)")
        // The test source takes any format: without --format, the one required.
        let test = try GraphPlan(library: library, camera: .testSource, requested: nil, aspect: nil, encoder: .x264, container: .mkv,
                                 requirements: [.format(VideoFormat.parse("640x480@60")!)])
        XCTAssertEqual(test.format.description, "640x480@60")
    }

    func testParsing() throws {
        XCTAssertEqual(try CameraRequirement.parse("depth"), .depth)
        XCTAssertEqual(try CameraRequirement.parse("3840x2160@120"), .format(VideoFormat.parse("3840x2160@120")!))
        XCTAssertThrowsError(try CameraRequirement.parse("4k")) { XCTAssertEqual(($0 as! DuoError).kind, .usage) }
    }
}

final class CameraPostureTests: XCTestCase {
    /// Fold picks the camera facing the subject, unfold the one facing the operator, whatever their order.
    func testPostureFollowsFacesNotOrder() throws {
        XCTAssertEqual(try CameraPosture.fold.camera(faces: [.theOperator, .theSubject], active: 0), 1)
        XCTAssertEqual(try CameraPosture.fold.camera(faces: [.theSubject, .theOperator], active: 1), 0)
        XCTAssertEqual(try CameraPosture.unfold.camera(faces: [.theSubject, .theOperator], active: 0), 1)
        XCTAssertEqual(try CameraPosture.unfold.camera(faces: [.theOperator, .theSubject], active: 1), 0)
        // Both facing the subject: fold keeps the one on the air; unfold has none to pick.
        XCTAssertEqual(try CameraPosture.fold.camera(faces: [.theSubject, .theSubject], active: 1), 1)
        XCTAssertThrowsError(try CameraPosture.unfold.camera(faces: [.theSubject, .theSubject], active: 0)) { error in
            XCTAssertTrue((error as! DuoError).message.contains("no camera faces the operator"), "\(error)")
        }
    }

    func testMirrorChangeNamesTheDisplaysThatFlipped() {
        // Camera A on the air turns from the operator to the subject: both displays flip.
        let turned = MirrorChange.between(activeBefore: 0, facesBefore: [.theOperator, .theSubject], activeAfter: 0,
                                          facesAfter: [.theSubject, .theSubject], operatorChoice: false)
        XCTAssertEqual(turned.flips, [.init(display: "operator", mirrored: false), .init(display: "subject", mirrored: true)])
        // Camera B (not on the air) turned: nothing on screen changes.
        let offAir = MirrorChange.between(activeBefore: 0, facesBefore: [.theOperator, .theSubject], activeAfter: 0,
                                          facesAfter: [.theOperator, .theOperator], operatorChoice: false)
        XCTAssertEqual(offAir.flips, [])
    }

    func testCommands() throws {
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"swap","restart":true}"#), .restartSwap(nil))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"fold","restart":true}"#), .restartSwap(.fold))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"swap","restart":false}"#), .swap)
        XCTAssertThrowsError(try ControlCommand.parse(#"{"cmd":"swap","restart":1}"#))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"faces","camera":"B","faces":"operator"}"#), .faces(camera: 1, viewer: .theOperator))
        XCTAssertThrowsError(try ControlCommand.parse(#"{"cmd":"faces","camera":"C","faces":"operator"}"#)) { error in
            XCTAssertTrue((error as! DuoError).message.contains("\"camera\": \"A\" or \"B\""), "\(error)")
        }
    }
}
