import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  The capture session's framing parts: clips played as cameras (`--camera file:PATH`, ClipCamera), and
//  the face detector's branch on the camera tee (`--framing`, Pipelines/framing.gst), whose faces go to
//  the run director as plain boxes. The detector's absence or failure is one event; the run goes on.

extension CaptureSession {
    /// Starts a player for each camera that is a clip, before the graph plays (each prerolls its first
    /// frame, so a clip that cannot be played is an error naming it, before anything runs).
    func startClipCameras() throws(DuoError) {
        let cameras = [plan.camera] + (plan.secondCamera.map { [$0] } ?? [])
        for index in cameras.indices {
            guard let description = try plan.clipPlayerDescription(camera: index),
                  case .file(let path, _, _) = cameras[index] else { continue }
            let sink = eventSink
            do throws(DuoError) {
                let clip = try ClipCamera(description: description, path: path) { sink.yield(.warning($0)) }
                try clip.start()
                clipCameras.append(clip)
            } catch {
                for clip in clipCameras { clip.stop() }
                clipCameras.removeAll()
                throw error
            }
        }
    }

    /// Attaches the face detector's branch when `--framing` asks for hints. A detector that is not
    /// installed (gstreamer1.0-opencv), a cascade that is missing (opencv-data) or a branch that does not
    /// build is one `framingUnavailable` event naming the package; nothing else changes.
    func attachFraming(to tee: ElementRef, in pipeline: ElementRef) {
        guard plan.framing != .off else { return }
        func unavailable(_ why: String) {
            framingFailed = true
            eventSink.yield(.framingUnavailable(why))
        }
        guard GStreamer.hasElement("facedetect") else {
            return unavailable("the face detector (GStreamer's facedetect) is not installed; install gstreamer1.0-opencv")
        }
        guard FileManager.default.isReadableFile(atPath: GraphPlan.faceCascade) else {
            return unavailable("the face detector's cascade \(GraphPlan.faceCascade) is missing; install opencv-data")
        }
        duo_quiet_opencv_log()
        do throws(DuoError) {
            let bin = try TakeRecorder.parseBin(try plan.framingDescription(), name: FaultRouting.framingBin,
                                                what: "the framing detector's branch", file: "framing.gst")
            // Its optional nose, mouth and eye cascades (absent from opencv-data) fail to load quietly
            // (OpenCV's log is off); neither NULL nor "" may be set for them (OpenCV aborts).
            let branch = try attachBranch(bin: bin,
                                          first: GraphElement.framingQueue.rawValue, last: GraphElement.framingSink.rawValue,
                                          to: tee, in: pipeline, what: "the framing detector's branch", file: "framing.gst")
            framingBranch = branch
            faceSightings = FaceSightings()
            _ = branch.bin.syncStateWithParent()
        } catch {
            unavailable("the framing detector's branch does not start (\(error.message)); install gstreamer1.0-opencv and opencv-data")
        }
    }

    /// The detector's branch failed while the graph ran: it is dropped (its queue leaked, the tee never
    /// waited), said once; the preview and any take go on without hints.
    func framingBranchFailed(source: String, message: String) {
        guard !framingFailed else { return }
        framingFailed = true
        if let branch = framingBranch {
            framingBranch = nil
            detachBranch(branch)
        }
        eventSink.yield(.framingUnavailable("the face detector (gstreamer1.0-opencv) failed (\(source): \(message)); the run goes on without framing hints"))
    }

    /// One detector frame's faces (pixel quadruples of that detector's small picture) as fractions of
    /// the camera frame, merged with the other detector's (FaceSightings) and stamped with the
    /// pipeline's running time: one list for each of the quick detector's frames.
    func facesSeen(_ quads: [Int], detector: String) {
        guard framingBranch != nil, let pass = FaceDetectorPass.named(detector) else { return }
        let size = pass == .fine ? plan.fineFramingSize : plan.framingSize
        var boxes: [FaceBox] = []
        var i = 0
        while i + 3 < quads.count {
            boxes.append(.normalised(x: quads[i], y: quads[i + 1], width: quads[i + 2], height: quads[i + 3],
                                     frameWidth: size.width, frameHeight: size.height))
            i += 4
        }
        let now = runningTime
        guard let faces = faceSightings.saw(boxes, by: pass, at: now) else { return }
        eventSink.yield(.faces(faces, at: now))
    }
}
