import Foundation

//  obs-websocket 5's requests and events as duo-capture answers them: the run seen from the run's own
//  events (`ObsRunView`), each request turned into the control socket's commands (through the web
//  remote's policy: `WebRemoteCommands.check`) and an answer, each run event into the protocol's events.
//  Pure: no sockets, no clock.

/// What the obs-websocket side knows of the run, folded from the run's events (as the phone page's state).
///
/// Thread: value type; kept behind its owner's lock.
public struct ObsRunView: Sendable {
    public var run = WebRemoteRunState()
    /// The take recording now (its path), and the last one that ended.
    public var file: String?
    public var lastFile: String?
    /// The cameras as scenes ("Camera A", "Camera B"), and the one on the program (a swap turns it).
    public let scenes: [String]
    public private(set) var scene = 0
    /// The run's frame figures from its last `status` event, and the camera's rate between the last two.
    public private(set) var frames = ObsFrameFigures()

    public init(cameras: Int) {
        scenes = cameras > 1 ? ["Camera A", "Camera B"] : ["Camera A"]
    }

    public mutating func observe(_ timed: RunEvent.Timed) {
        run.observe(timed)
        switch timed.event {
        case .takeStarted(_, let path): file = path
        case .takeEnded(_, let path, _, _, _, _, _):
            lastFile = path
            file = nil
        case .swap: scene = scenes.isEmpty ? 0 : (scene + 1) % scenes.count
        case .status(let s): frames.observe(s, at: timed.t)
        default: break
        }
    }
}

/// GetStats' frame figures, from the run's `status` events.
///
/// Thread: value type.
public struct ObsFrameFigures: Sendable {
    public var cameraFrames = 0, cameraDropped = 0, operatorFrames = 0, previewSkipped = 0
    /// Camera frames a second between the last two status events (0 before two).
    public var fps = 0.0
    private var last: (t: Double, frames: Int)?

    public init() {}

    mutating func observe(_ s: RunEvent.Status, at t: Double) {
        if let last, t > last.t, s.cameraFrames >= last.frames { fps = Double(s.cameraFrames - last.frames) / (t - last.t) }
        last = (t, s.cameraFrames)
        cameraFrames = s.cameraFrames
        cameraDropped = s.cameraDropped
        operatorFrames = s.operatorFrames
        previewSkipped = s.previewSkipped
    }
}

/// GetStats' figures of the process and the record folder, read by the caller when asked.
///
/// Thread: value type.
public struct ObsSystemFigures: Sendable {
    /// Percent of one core since the previous reading; resident memory and the record folder's free space in MB.
    public var cpuUsage: Double, memoryUsage: Double, availableDiskSpace: Double
    public init(cpuUsage: Double = 0, memoryUsage: Double = 0, availableDiskSpace: Double = 0) {
        self.cpuUsage = cpuUsage
        self.memoryUsage = memoryUsage
        self.availableDiskSpace = availableDiskSpace
    }
}

/// What the requests need besides the run: said once at start.
///
/// Thread: value type.
public struct ObsContext: Sendable {
    /// duo-capture's own version (GetVersion's `obsVersion`).
    public var version: String
    public var recordDirectory: String
    /// Whether replies carry folders (listening on loopback only); else file names only, as the page gets.
    public var revealFolders: Bool
    public init(version: String, recordDirectory: String, revealFolders: Bool) {
        self.version = version
        self.recordDirectory = recordDirectory
        self.revealFolders = revealFolders
    }
}

/// One request's answer: its status and data, the commands it sends to the run, and whether the
/// answer waits for the take to end (StopRecord answers with the finished file's path).
///
/// Thread: value type, made and used on one thread.
public struct ObsAnswer {
    public var status: ObsStatus
    public var comment: String?
    public var data: [String: Any]?
    public var commands: [ControlCommand] = []
    public var awaitsStop = false
    /// CreateRecordChapter: the chapter's title, for the run's `chapter` event.
    public var chapter: String?

    init(_ status: ObsStatus, _ comment: String? = nil, data: [String: Any]? = nil) {
        self.status = status
        self.comment = comment
        self.data = data
    }
}

/// The requests duo-capture answers and the events it sends.
///
/// Thread: stateless; any thread.
public enum ObsRequests {
    /// Every request answered for real (GetVersion's `availableRequests`); any other gets UnknownRequestType.
    public static let available = [
        "GetVersion", "GetStats", "GetRecordStatus", "StartRecord", "StopRecord", "ToggleRecord", "PauseRecord", "ResumeRecord",
        "ToggleRecordPause", "CreateRecordChapter", "GetRecordDirectory", "GetSceneList", "GetCurrentProgramScene",
        "SetCurrentProgramScene", "GetStudioModeEnabled", "GetStreamStatus", "GetHotkeyList", "TriggerHotkeyByName",
        "CallVendorRequest",
    ]

    /// TriggerHotkeyByName's names: duo-capture's own commands a remote may send.
    public static let hotkeys: [(name: String, command: ControlCommand)] = [
        ("duo-capture.record", .record), ("duo-capture.stop", .stop), ("duo-capture.cancel", .cancelCountdown),
        ("duo-capture.pause", .pause), ("duo-capture.speed-up", .speedStep(1)), ("duo-capture.speed-down", .speedStep(-1)),
        ("duo-capture.marker-next", .jump(.next)), ("duo-capture.marker-previous", .jump(.previous)),
        ("duo-capture.marker-start", .jump(.start)), ("duo-capture.font-up", .fontStep(1)), ("duo-capture.font-down", .fontStep(-1)),
        ("duo-capture.mirror", .mirror), ("duo-capture.follow", .follow(voice: nil)), ("duo-capture.swap", .swap),
        ("duo-capture.fold", .fold), ("duo-capture.unfold", .unfold), ("duo-capture.accessory", .accessory(on: nil)),
        ("duo-capture.shot-next", .shot(next: true, id: nil)), ("duo-capture.shot-previous", .shot(next: false, id: nil)),
    ]

    /// The vendor name of CallVendorRequest and VendorEvent.
    public static let vendor = "duo-capture"

    /// The answer to `request` on the run as `view` sees it.
    public static func answer(_ request: ObsRequest, view: ObsRunView, context: ObsContext,
                              system: ObsSystemFigures = ObsSystemFigures()) -> ObsAnswer {
        let run = view.run
        let busy = run.recording || run.countdown
        func send(_ command: ControlCommand, data: [String: Any]? = nil) -> ObsAnswer {
            var a = ObsAnswer(.success, data: data)
            a.commands = [command]
            return a
        }
        switch request.type {
        case "":
            return ObsAnswer(.missingRequestType, "the request has no requestType")
        case "GetVersion":
            return ObsAnswer(.success, data: [
                "obsVersion": "duo-capture \(context.version)", "obsWebSocketVersion": "5.5.0", "rpcVersion": 1,
                "availableRequests": available, "supportedImageFormats": [String](), "platform": "linux",
                "platformDescription": "duo-capture \(context.version) (an obs-websocket 5 server; not OBS Studio)",
            ])
        case "GetStats":
            // Render: the operator's preview (frames shown, frames skipped to keep up); output: the camera's
            // frames into the take's branch and those it dropped. duo-capture has no render timer (0).
            let f = view.frames
            return ObsAnswer(.success, data: [
                "cpuUsage": system.cpuUsage, "memoryUsage": system.memoryUsage, "availableDiskSpace": system.availableDiskSpace,
                "activeFps": (f.fps * 100).rounded() / 100, "averageFrameRenderTime": 0,
                "renderSkippedFrames": f.previewSkipped, "renderTotalFrames": f.operatorFrames + f.previewSkipped,
                "outputSkippedFrames": f.cameraDropped, "outputTotalFrames": f.cameraFrames,
                "webSocketSessionIncomingMessages": 0, "webSocketSessionOutgoingMessages": 0,
            ])
        case "GetRecordStatus":
            let ms = Int((run.elapsed * 1000).rounded())
            return ObsAnswer(.success, data: ["outputActive": run.recording, "outputPaused": false, "outputTimecode": timecode(ms),
                                              "outputDuration": ms, "outputBytes": 0])
        case "StartRecord":
            guard !busy else { return ObsAnswer(.outputRunning, run.countdown ? "the countdown runs already" : "a take is recording already") }
            return send(.record)
        case "StopRecord":
            if run.recording {
                var a = send(.stop)
                a.awaitsStop = true
                return a
            }
            guard run.countdown else { return ObsAnswer(.outputNotRunning, "no take is recording") }
            return send(.stop, data: ["outputPath": NSNull()])
        case "ToggleRecord":
            return busy ? send(.stop, data: ["outputActive": false]) : send(.record, data: ["outputActive": true])
        case "PauseRecord", "ResumeRecord", "ToggleRecordPause":
            // A take cannot pause: the teleprompter's scrolling does (the P key).
            guard run.recording else { return ObsAnswer(.outputNotRunning, "no take is recording") }
            if request.type == "PauseRecord", run.paused { return ObsAnswer(.outputPaused, "the teleprompter is paused already") }
            if request.type == "ResumeRecord", !run.paused { return ObsAnswer(.outputNotPaused, "the teleprompter is not paused") }
            return send(.pause)
        case "CreateRecordChapter":
            guard run.recording else { return ObsAnswer(.outputNotRunning, "no take is recording") }
            var a = ObsAnswer(.success)
            let given = request.data["chapterName"] as? String
            a.chapter = (given?.isEmpty ?? true) ? "Chapter" : String(given!.prefix(200))
            return a
        case "GetRecordDirectory":
            return ObsAnswer(.success, data: ["recordDirectory": context.revealFolders ? context.recordDirectory : ""])
        case "GetSceneList":
            let scenes = view.scenes.enumerated().map { ["sceneName": $1, "sceneUuid": uuid($0), "sceneIndex": view.scenes.count - 1 - $0] as [String: Any] }
            return ObsAnswer(.success, data: ["currentProgramSceneName": view.scenes[view.scene], "currentProgramSceneUuid": uuid(view.scene),
                                              "currentPreviewSceneName": NSNull(), "currentPreviewSceneUuid": NSNull(), "scenes": scenes])
        case "GetCurrentProgramScene":
            return ObsAnswer(.success, data: ["sceneName": view.scenes[view.scene], "sceneUuid": uuid(view.scene),
                                              "currentProgramSceneName": view.scenes[view.scene], "currentProgramSceneUuid": uuid(view.scene)])
        case "SetCurrentProgramScene":
            let wanted = request.data["sceneName"] as? String ?? (request.data["sceneUuid"] as? String).flatMap { u in
                view.scenes.indices.first { uuid($0) == u }.map { view.scenes[$0] } }
            guard let wanted else { return ObsAnswer(.missingRequestField, "give sceneName (\(view.scenes.joined(separator: " or ")))") }
            guard let index = view.scenes.firstIndex(of: wanted) else {
                return ObsAnswer(.resourceNotFound, "no scene \(wanted); the scenes are the cameras: \(view.scenes.joined(separator: ", "))")
            }
            return index == view.scene ? ObsAnswer(.success) : send(.swap)
        case "GetStudioModeEnabled":
            return ObsAnswer(.success, data: ["studioModeEnabled": false])
        case "GetStreamStatus":
            return ObsAnswer(.success, data: ["outputActive": false, "outputReconnecting": false, "outputTimecode": timecode(0),
                                              "outputDuration": 0, "outputCongestion": 0, "outputBytes": 0, "outputSkippedFrames": 0,
                                              "outputTotalFrames": 0])
        case "GetHotkeyList":
            return ObsAnswer(.success, data: ["hotkeys": hotkeys.map(\.name)])
        case "TriggerHotkeyByName":
            guard let hotkey = request.data["hotkeyName"] as? String else { return ObsAnswer(.missingRequestField, "give hotkeyName, such as duo-capture.swap") }
            guard let command = hotkeys.first(where: { $0.name == hotkey })?.command else {
                return ObsAnswer(.resourceNotFound, "no hotkey \(hotkey); duo-capture's are \(hotkeys.map(\.name).joined(separator: ", "))")
            }
            return send(command)
        case "CallVendorRequest":
            guard request.data["vendorName"] as? String == vendor else {
                return ObsAnswer(.resourceNotFound, "the only vendor here is \(vendor)")
            }
            guard let cmd = request.data["requestType"] as? String else { return ObsAnswer(.missingRequestField, "give requestType: a command, such as record") }
            var object = request.data["requestData"] as? [String: Any] ?? [:]
            object["cmd"] = cmd
            let line = (try? JSONSerialization.data(withJSONObject: object)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            do {
                let command = try WebRemoteCommands.parse(json: line)
                return send(command, data: ["vendorName": vendor, "requestType": cmd, "responseData": [String: Any]()])
            } catch {
                return ObsAnswer(.invalidRequestField, error.english)
            }
        default:
            return ObsAnswer(.unknownRequestType, "duo-capture does not answer \(request.type); GetVersion lists what it answers")
        }
    }

    /// The events one run event makes, each with its subscription category (the session's filter).
    public static func events(_ timed: RunEvent.Timed, before: ObsRunView, context: ObsContext) -> [(category: Int, line: String)] {
        func path(_ p: String?) -> Any { p.map { context.revealFolders ? $0 : name($0) } ?? NSNull() }
        func record(_ state: String, active: Bool, _ p: String?) -> (Int, String) {
            (ObsSubscription.outputs, ObsWebSocketSession.event("RecordStateChanged", intent: ObsSubscription.outputs, data: [
                "outputActive": active, "outputState": "OBS_WEBSOCKET_OUTPUT_\(state)", "outputPath": path(p)]))
        }
        var out: [(Int, String)] = []
        switch timed.event {
        case .countdown where !before.run.countdown && !before.run.recording:
            out.append(record("STARTING", active: false, nil))
        case .countdownCancelled:
            out.append(record("STOPPED", active: false, nil))
        case .takeStarted(_, let file):
            if before.run.recording {
                out.append((ObsSubscription.outputs, ObsWebSocketSession.event("RecordFileChanged", intent: ObsSubscription.outputs,
                                                                               data: ["newOutputPath": path(file)])))
            } else {
                out.append(record("STARTED", active: true, file))
            }
        case .takeEnded(_, let file, _, _, _, _, _):
            out.append(record("STOPPING", active: false, file))
            out.append(record("STOPPED", active: false, file))
        case .swap:
            var after = before
            after.observe(timed)
            out.append((ObsSubscription.scenes, ObsWebSocketSession.event("CurrentProgramSceneChanged", intent: ObsSubscription.scenes, data: [
                "sceneName": after.scenes[after.scene], "sceneUuid": uuid(after.scene)])))
        case .stopped:
            out.append((ObsSubscription.general, ObsWebSocketSession.event("ExitStarted", intent: ObsSubscription.general, data: nil)))
        default: break
        }
        // duo-capture's own events, as the phone page gets them (nothing private).
        if let page = WebRemoteRunState.pageEvent(timed.event),
           let object = try? JSONSerialization.jsonObject(with: RunEvent.Timed(page, t: timed.t).json) as? [String: Any] {
            out.append((ObsSubscription.vendors, ObsWebSocketSession.event("VendorEvent", intent: ObsSubscription.vendors, data: [
                "vendorName": vendor, "eventType": page.name, "eventData": object])))
        }
        return out
    }

    /// `HH:MM:SS.mmm`.
    public static func timecode(_ ms: Int) -> String {
        let s = ms / 1000
        return String(format: "%02d:%02d:%02d.%03d", s / 3600, s / 60 % 60, s % 60, ms % 1000)
    }

    static func name(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    /// A fixed UUID per camera scene.
    static func uuid(_ index: Int) -> String { String(format: "d0c0ca9e-0000-4000-8000-%012d", index + 1) }
}
