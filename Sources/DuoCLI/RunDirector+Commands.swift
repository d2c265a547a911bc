import DuoCore
import DuoMedia
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's commands: each ControlCommand (keys, the control socket, timelines) carried out, or refused with why.
//
//  Thread: the run director's actor.

extension RunDirector {
    // MARK: Commands

    func handle(_ command: ControlCommand) async {
        let now = clock.now()
        switch command {
        case .record:
            await record()
        case .stop:
            await carry(takes.stop())
        case .toggleRecord:
            if takes.isBusy { await carry(takes.toggle(at: now)) } else { await record() }
        case .cancelCountdown:
            await carry(takes.cancel())
        case .quit:
            end(.quit)
        case .accessory(let on):
            accessoryEnabled = on ?? !accessoryEnabled
            face.setAccessory(enabled: accessoryEnabled)
        case .fullscreen(let on):
            if let why = face.setFullscreen(on) { refuse(why) }
        case .swap, .fold, .unfold:
            // Posture picks the camera as on the Duo: unfolded (open) uses camera A (inner), folded B (outer).
            let requested: Int? = command == .fold ? 1 : command == .unfold ? 0 : nil
            let active = await capture.activeCamera
            let target = requested ?? (1 - active)
            if health.lost.contains(target), plan.secondCamera != nil {
                refuse("camera \(cameraLetter(target)) (\(cameraName(target))) is lost; it is taken back when it returns")
            } else {
                await swapCameras(requested)
            }
        case .unplug(let camera), .replug(let camera):
            do throws(DuoError) {
                var plugged = false
                if case .replug = command { plugged = true }
                // A camera from the device monitor is pulled out and plugged back through its provider
                // (the test provider's cameras), so the run hears it as it hears a real camera come and go.
                if camera < plan.deviceIdentities.count, let identity = plan.deviceIdentities[camera], let watch = cameraWatch {
                    try watch.setTestCameraPlugged(identity, plugged)
                    return
                }
                try await plug(camera, plugged)
                // The test hub's plug state holds: an unplugged camera is not tried again by itself.
                health.hubPlugged(camera, plugged)
            } catch { refuse("\(command.name): \(error.message)") }
        case .follow(let voice):
            if let why = await presenter.setFollow(voice: voice, at: now) { refuse("follow: \(why)") } else { await reportFollow() }
        case .rotate(let camera, let degrees):
            do throws(DuoError) { try await capture.rotateCamera(camera, degrees: degrees) }
            catch { refuse("rotate: \(error.message)") }
        case .subjectMonitorPlugged(let on):
            if let why = face.setSubjectMonitorPlugged(on) { refuse(why) }
        case .mirror:
            await presenter.cycleMirror(at: now)
            await status(trigger: "command")
        case .script(let path):
            await openScript(path, at: now)
        case .speedStep, .speedPreset, .pause, .jump, .fontStep:
            guard hasScript else { return refuse("no teleprompter script in this run; open one with O or {\"cmd\":\"script\",\"path\":…}, or give --script FILE") }
            switch command {
            case .speedStep(let step): await presenter.stepSpeed(step, at: now)
            case .speedPreset(let n): await presenter.preset(n, at: now)
            case .pause: await presenter.togglePause(at: now)
            case .jump(.next): await presenter.nextMarker(at: now)
            case .jump(.previous): await presenter.previousMarker(at: now)
            case .jump(.start): await presenter.restart(at: now)
            case .fontStep(let step): await presenter.stepFontSize(step, at: now)
            default: break
            }
            await status(trigger: "command")
        }
        await showFigures()
    }

    func refuse(_ message: String) {
        events.emit("error", ["message": "control: \(message)"])
    }
}
