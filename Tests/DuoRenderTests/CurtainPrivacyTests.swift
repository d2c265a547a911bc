import Foundation
import XCTest
import DuoCore
@testable import DuoRender

/// The curtain's whitelist, in the style of `PrivacyTests`: curtains for two sessions that differ only in
/// private fields are byte-identical at every monitor size, and the control (a whitelisted change, the
/// accessory) changes them. The curtain is drawn without a clock, so two draws are the same too.
final class CurtainPrivacyTests: XCTestCase {
    private static let sentinel = "SENTINEL-PRIVATE-c0a1"
    private let sizes = [(320, 180), (1280, 1024), (1920, 1080), (1080, 1920), (3840, 2160)]

    private func session(_ kind: AccessoryKind, private secret: String?) throws -> PrompterSessionState {
        var text = "# Talk\n\nHello and welcome. [[note: smile]]\n"
        if let secret { text = "# Talk\n\nHello and welcome. [[note: \(secret) /home/\(secret)/take.mkv]]\n" }
        let parsed = try ScriptParser.parse(bytes: Array(text.utf8), format: .markdown, name: "talk.md")
        var s = PrompterSessionState(accessory: kind, script: parsed, aspect: AspectRatio(16, 9))
        if let x = secret {
            s.scriptPath = "/home/\(x)/scripts/\(x).md"
            s.takeFilePath = "/media/\(x)/take-0001.mkv"
            s.cameraDeviceName = "\(x) HD Pro Webcam C920 (/dev/video0)"
            s.hostName = "\(x).studio.local"
            s.userName = x
            s.lastError = "\(x): encoder x264enc failed"
            s.droppedFrames = 987_654
            s.statsLine = "\(x) cpu 97% rtt 3 ms"
        }
        return s
    }

    private func curtain(_ state: PrompterSessionState, _ w: Int, _ h: Int) -> [UInt8] {
        CurtainPainter.render(.whitelisted(from: .whitelisted(from: state)), width: w, height: h).packedBytes()
    }

    func testCurtainPixelsAreByteIdenticalWhenOnlyPrivateFieldsDiffer() throws {
        for kind in [AccessoryKind.teleprompter, .preview, .countdown] {
            let plain = try session(kind, private: nil), secret = try session(kind, private: Self.sentinel)
            XCTAssertFalse(String(describing: CurtainModel.whitelisted(from: .whitelisted(from: secret))).contains(Self.sentinel))
            for (w, h) in sizes {
                XCTAssertTrue(curtain(plain, w, h) == curtain(secret, w, h), "\(kind) \(w)x\(h)")
            }
        }
    }

    /// Not vacuous: a whitelisted change (the run's accessory) changes the curtain's pixels, and the
    /// curtain is not blank (it says something, on a dark surface).
    func testAWhitelistedChangeDoesChangeTheCurtain() throws {
        for (w, h) in sizes {
            let a = curtain(try session(.teleprompter, private: nil), w, h)
            let b = curtain(try session(.countdown, private: nil), w, h)
            XCTAssertNotEqual(a, b, "\(w)x\(h)")
            let distinct = Set(stride(from: 0, to: a.count, by: 4).map { a[$0] })
            XCTAssertGreaterThan(distinct.count, 2, "text drawn at \(w)x\(h)")
            // Dark: the mean brightness of the blue channel stays low.
            let mean = stride(from: 0, to: a.count, by: 4).reduce(0) { $0 + Int(a[$1]) } / (a.count / 4)
            XCTAssertLessThan(mean, 30, "\(w)x\(h)")
        }
    }
}
