import DuoCore
import XCTest

/// Each failure reaches its own owner, from synthetic element names: one per owner, and the cases that
/// used to slip through (an unnamed element in a camera chain or a remote branch, a second error from a
/// remote branch already detached).
final class FaultRoutingTests: XCTestCase {
    private var routing: FaultRouting {
        var r = FaultRouting()
        r.cameraElements = [0: ["camera", "jpegdec3", "camera_caps"], 1: ["camera_b", "videoconvert7", "camera_b_caps"]]
        r.audioElements = ["audio_source", "audioconvert2", "audio_caps", "audio_level", "at"]
        r.hasAudio = true
        return r
    }

    func testEachOwnerFromItsElementNames() {
        let r = routing
        XCTAssertEqual(r.owner(of: "record_sink", ancestors: ["take3"]), .take(3))
        XCTAssertEqual(r.owner(of: "x264enc12", ancestors: ["take12"]), .take(12), "an unnamed encoder in a take's bin")
        XCTAssertEqual(r.owner(of: "jpegdec3"), .camera(0), "an unnamed decoder in camera A's chain")
        XCTAssertEqual(r.owner(of: "camera_b"), .camera(1))
        XCTAssertEqual(r.owner(of: "camera_b_rotate"), .camera(1), "named camera_b…")
        XCTAssertEqual(r.owner(of: "camera_flip"), .camera(0), "named camera…")
        XCTAssertEqual(r.owner(of: "remote2_sink", ancestors: ["remote2_bin"]), .remote(2))
        XCTAssertEqual(r.owner(of: "videoscale41", ancestors: ["remote0_bin"]), .remote(0), "an unnamed scaler in a remote branch")
        XCTAssertEqual(r.owner(of: "remote1_encoder"), .remote(1), "a remote branch's element after the branch was detached")
        XCTAssertEqual(r.owner(of: "recogniser", ancestors: ["voice3"]), .recogniser)
        XCTAssertEqual(r.owner(of: "audioresample9", ancestors: ["voice1"]), .recogniser)
        XCTAssertEqual(r.owner(of: "audioconvert2"), .microphone)
        XCTAssertEqual(r.owner(of: "at"), .microphone)
        XCTAssertEqual(r.owner(of: "subject_sink"), .subjectView)
        XCTAssertEqual(r.owner(of: "operator_sink"), .graph)
        XCTAssertEqual(r.owner(of: "t"), .graph)
    }

    func testACameraErrorBeforeTheGraphPlaysIsTheGraphs() {
        XCTAssertEqual(routing.owner(of: "camera", playing: false), .graph, "a run that cannot start its camera fails")
    }

    func testLookAlikeNamesAreNotSideBranches() {
        let r = routing
        XCTAssertEqual(r.owner(of: "takeover"), .graph)
        XCTAssertEqual(r.owner(of: "remotely_sink"), .graph)
        XCTAssertEqual(r.owner(of: "voiceover"), .graph)
        var silent = routing
        silent.hasAudio = false
        XCTAssertEqual(silent.owner(of: "audioconvert2"), .graph, "no audio branch: no microphone to blame")
    }

    /// What the side branches claim (DuoMedia asks them first): the branch their bin names mark, from
    /// the names alone; nothing of the main graph, whatever the graph knows of its chains.
    func testTheBranchOwnerIsTheBinNamesAlone() {
        XCTAssertEqual(FaultRouting.branchOwner(of: "remote2_fault", ancestors: ["remote2_bin7"]), .remote(2))
        XCTAssertEqual(FaultRouting.branchOwner(of: "identity4", ancestors: ["voice_a87a3db3"]), .recogniser, "an unnamed element in a recogniser's bin")
        XCTAssertEqual(FaultRouting.branchOwner(of: "framing_fault", ancestors: ["framing_bin"]), .framing)
        XCTAssertEqual(FaultRouting.branchOwner(of: "microphone3_fault", ancestors: ["microphone3"]), .microphone)
        XCTAssertEqual(FaultRouting.branchOwner(of: "x264enc12", ancestors: ["take12"]), .take(12))
        for element in ["camera", "jpegdec3", "audioconvert2", "at", "subject_sink", "operator_sink", "t", "voiceover"] {
            XCTAssertNil(FaultRouting.branchOwner(of: element), element)
        }
    }
}
