@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// A notice that goes both to the operator and into an event (issue 41): with the operator's language
/// Chinese (po/zh_CN.po compiled by msgfmt, read by MessageCatalog), the log says it in Chinese while
/// the `error` event keeps the English a control client reads, and so does the control socket's answer
/// to a bad line; a DuoError keeps both lines too.
final class TranslatedNoticeTests: XCTestCase {
    override func tearDown() {
        Translation.use(.english)
        super.tearDown()
    }

    func testTheLogIsChineseWhileTheErrorEventStaysEnglish() async throws {
        let dir = try scratchDirectory(self)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        let compiled = try runToEnd(URL(fileURLWithPath: "/usr/bin/msgfmt"), ["-o", "\(dir)/duo-capture.mo", "\(root)/po/zh_CN.po"], timeout: 60)
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        Translation.use(Translator(catalog: try MessageCatalog(language: "zh_CN", path: "\(dir)/duo-capture.mo")))

        let run = try PartRun(self)
        await run.director.process(.started)
        await run.director.process(.session(.microphoneLost("the device went away")))
        XCTAssertEqual(try run.events("error").last?["message"] as? String,
                       "the microphone was lost (the device went away); the run and any take go on without sound")
        XCTAssertTrue(run.log.contains("duo-capture: 警告：麦克风丢失（the device went away）；运行和录制会在无声状态下继续"), "\(run.log)")

        // A camera's loss reason (CameraHealth's) is Chinese in the notice and English in the event.
        var health = CameraHealth(cameraCount: 1, frameRate: 30)
        health.started(at: 0)
        _ = health.observeActive(frames: 10, active: 0, at: 5_000_000_000)
        guard case .lost(_, let reason)? = health.observeActive(frames: 10, active: 0, at: 7_400_000_000) else {
            return XCTFail("no loss after 2.4 s without a frame")
        }
        XCTAssertEqual(reason.english, "delivered no frame for 2.4 s (unplugged or stalled)")
        XCTAssertEqual(reason.text, "已经 2.4 秒没有送来画面（被拔出或卡住了）")

        // The control socket's answer to a bad line is machine-read: English whatever the operator reads.
        let socketPath = dir + "/control.sock"
        let socket = try ControlSocket(path: socketPath) { _ in }
        defer { socket.close() }
        let client = try ControlClient(path: socketPath)
        client.send("not json")
        XCTAssertEqual(try client.next("error")["message"] as? String,
                       "control: not a JSON object; send one per line, such as {\"cmd\":\"record\"}")

        let error = DuoError.input(.text("%s %s does not exist; %s", Said.text("script"), "talk.md", Said.text("give a UTF-8 .txt or .md file to --script")))
        XCTAssertEqual(error.message, "脚本 talk.md 不存在；请给 --script 一个 UTF-8 的 .txt 或 .md 文件")
        XCTAssertEqual(error.english, "script talk.md does not exist; give a UTF-8 .txt or .md file to --script")
    }
}
