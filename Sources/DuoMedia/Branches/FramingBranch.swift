import CDuoShim
import DuoCore
import Foundation

//  Framing hints' face detector (`--framing`): a leaky bin of its own (`framing_bin`, Pipelines/framing.gst)
//  on the camera tee, never a take's path. Its two detectors' faces go to the run director as plain boxes
//  (fractions of the camera frame), one list per quick detector's frame. Its absence or failure is one
//  `framingUnavailable` event naming the package; the run goes on without hints.
//
//   camera tee "t" ─▶ framing_bin: queue (leaky) ─▶ videorate ─▶ scale ─▶ split ─┬─▶ framing_detector (quick)
//                                                                               └─▶ framing_fine_detector

/// The face detector's branch on the camera tee, and the faces it saw.
///
/// Thread: the capture session's actor (a SideBranch).
final class FramingBranch: SideBranch {
    private let plan: GraphPlan
    private let pipeline: ElementRef
    private var attached: TeeBranch?
    private var hasFailed = false
    /// The two detectors' faces, merged into one list a quick frame.
    private var sightings = FaceSightings()

    init(plan: GraphPlan, pipeline: ElementRef) {
        self.plan = plan
        self.pipeline = pipeline
    }

    /// Attaches the detector's branch to `tee`. A detector that is not installed (gstreamer1.0-opencv), a
    /// cascade that is missing (opencv-data) or a branch that does not build is the event returned
    /// (`framingUnavailable`, naming the package); nothing else changes.
    func attach(to tee: ElementRef) -> SessionEvent? {
        func unavailable(_ why: String) -> SessionEvent {
            hasFailed = true
            return .framingUnavailable(why)
        }
        guard GStreamer.hasElement("facedetect") else {
            return unavailable(tr("the face detector (GStreamer's facedetect) is not installed; install gstreamer1.0-opencv"))
        }
        guard FileManager.default.isReadableFile(atPath: GraphPlan.faceCascade) else {
            return unavailable(tr("the face detector's cascade %s is missing; install opencv-data", GraphPlan.faceCascade))
        }
        duo_quiet_opencv_log()
        do throws(DuoError) {
            let bin = try TakeRecorder.parseBin(try plan.framingDescription(), name: FaultRouting.framingBin,
                                                what: tr("the framing detector's branch"), file: "framing.gst")
            // Its optional nose, mouth and eye cascades (absent from opencv-data) fail to load quietly
            // (OpenCV's log is off); neither NULL nor "" may be set for them (OpenCV aborts).
            let branch = try TeeBranch.attach(bin: bin, first: GraphElement.framingQueue.rawValue, to: tee, in: pipeline,
                                              what: tr("the framing detector's branch"), file: "framing.gst")
            attached = branch
            sightings = FaceSightings()
            _ = branch.bin.syncStateWithParent()
            return nil
        } catch {
            return unavailable(tr("the framing detector's branch does not start (%s); install gstreamer1.0-opencv and opencv-data", error.message))
        }
    }

    func owns(_ fault: GraphFault) -> Bool { fault.branchOwner == .framing }

    /// The detector's branch failed while the graph ran: it is dropped (its queue leaked, the tee never
    /// waited), said once; the preview and any take go on without hints.
    func failed(_ fault: GraphFault) -> SessionEvent? {
        guard !hasFailed else { return nil }
        hasFailed = true
        if let branch = attached {
            attached = nil
            branch.detach(from: pipeline)
        }
        return .framingUnavailable(tr("the face detector (gstreamer1.0-opencv) failed (%s); the run goes on without framing hints", fault.described))
    }

    /// One detector frame's faces (pixel quadruples of that detector's small picture) as fractions of
    /// the camera frame, merged with the other detector's (FaceSightings) and stamped `now` (the
    /// pipeline's running time): one list for each of the quick detector's frames, nil in between.
    func seen(_ quads: [Int], detector: String, at now: Int64) -> SessionEvent? {
        guard attached != nil, let pass = FaceDetectorPass.named(detector) else { return nil }
        let size = pass == .fine ? plan.fineFramingSize : plan.framingSize
        var boxes: [FaceBox] = []
        var i = 0
        while i + 3 < quads.count {
            boxes.append(.normalised(x: quads[i], y: quads[i + 1], width: quads[i + 2], height: quads[i + 3],
                                     frameWidth: size.width, frameHeight: size.height))
            i += 4
        }
        guard let faces = sightings.saw(boxes, by: pass, at: now) else { return nil }
        return .faces(faces, at: now)
    }
}
