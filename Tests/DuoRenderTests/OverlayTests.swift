import Foundation
import XCTest
import DuoCore
@testable import DuoRender

final class BlendTests: XCTestCase {
    private func bgra(_ pixels: [(UInt8, UInt8, UInt8, UInt8)]) -> [UInt8] {
        pixels.flatMap { [$0.2, $0.1, $0.0, $0.3] } // (r, g, b, a) → B, G, R, A
    }

    func testOpaqueWhiteIsCopiedAsVideoWhite() {
        let frame = I420Image(width: 4, height: 4)
        let white = bgra(Array(repeating: (255, 255, 255, 255), count: 4))
        white.withUnsafeBufferPointer {
            I420Blend.blendPremultipliedBGRA($0.baseAddress!, stride: 8, width: 2, height: 2, into: frame.planes, x: 2, y: 0)
        }
        XCTAssertEqual(frame.bytes(), [16, 16, 235, 235, 16, 16, 235, 235, 16, 16, 16, 16, 16, 16, 16, 16,
                                       128, 128, 128, 128, 128, 128, 128, 128])
    }

    func testTransparentPixelsLeaveTheFrameUntouched() {
        let frame = I420Image(width: 8, height: 8, fill: YUV(y: 77, u: 99, v: 155))
        let before = frame.bytes()
        let clear = [UInt8](repeating: 0, count: 8 * 8 * 4)
        clear.withUnsafeBufferPointer {
            I420Blend.blendPremultipliedBGRA($0.baseAddress!, stride: 32, width: 8, height: 8, into: frame.planes, x: 0, y: 0)
        }
        XCTAssertEqual(frame.bytes(), before)
    }

    func testHalfTransparentRedBlendsInEveryPlane() {
        let frame = I420Image(width: 2, height: 2, fill: YUV(y: 16, u: 128, v: 128))
        let red = bgra(Array(repeating: (128, 0, 0, 128), count: 4)) // premultiplied half red
        red.withUnsafeBufferPointer {
            I420Blend.blendPremultipliedBGRA($0.baseAddress!, stride: 8, width: 2, height: 2, into: frame.planes, x: 0, y: 0)
        }
        let full = YUV(r: 255, g: 0, b: 0)
        let bytes = frame.bytes()
        XCTAssertEqual(Double(bytes[0]), (16 + Double(full.y)) / 2, accuracy: 2)
        XCTAssertEqual(Double(bytes[4]), (128 + Double(full.u)) / 2, accuracy: 2)
        XCTAssertEqual(Double(bytes[5]), (128 + Double(full.v)) / 2, accuracy: 2)
    }

    func testOverlaysAreClippedAtEveryEdge() {
        let frame = I420Image(width: 6, height: 6)
        let white = bgra(Array(repeating: (255, 255, 255, 255), count: 16))
        for (x, y) in [(-2, -2), (4, 4), (-10, 0), (0, 10)] {
            white.withUnsafeBufferPointer {
                I420Blend.blendPremultipliedBGRA($0.baseAddress!, stride: 16, width: 4, height: 4, into: frame.planes, x: x, y: y)
            }
            I420Blend.fillRect(YUV(y: 200, u: 90, v: 90), alpha: 255, x: x, y: y, width: 4, height: 4, into: frame.planes)
        }
        let luma = Array(frame.bytes().prefix(36))
        XCTAssertEqual(luma[0], 200)
        XCTAssertEqual(luma[35], 200)
        XCTAssertEqual(luma[3], 16)
    }

    func testStridedPlanesAreRespected() {
        // Planes with padding after each row, as GStreamer lays them out: padding stays untouched.
        var y = [UInt8](repeating: 1, count: 8 * 4), u = [UInt8](repeating: 1, count: 4 * 2), v = [UInt8](repeating: 1, count: 4 * 2)
        y.withUnsafeMutableBufferPointer { yp in
            u.withUnsafeMutableBufferPointer { up in
                v.withUnsafeMutableBufferPointer { vp in
                    let planes = I420Planes(y: yp.baseAddress!, yStride: 8, u: up.baseAddress!, uStride: 4,
                                            v: vp.baseAddress!, vStride: 4, width: 4, height: 4)
                    I420Blend.fillRect(YUV(y: 50, u: 60, v: 70), alpha: 255, x: 0, y: 0, width: 4, height: 4, into: planes)
                }
            }
        }
        XCTAssertEqual(Array(y[0..<8]), [50, 50, 50, 50, 1, 1, 1, 1])
        XCTAssertEqual(Array(u[0..<4]), [60, 60, 1, 1])
    }
}

final class LiveOverlayTests: XCTestCase {
    private func session(words: Int, at start: Int64 = 0) throws -> PrompterSessionState {
        let text = (0..<words).map { i in i % 12 == 11 ? "word\(i).\n\n" : "word\(i)" }.joined(separator: " ")
        let parsed = try ScriptParser.parse(bytes: Array(text.utf8), format: .plainText)
        var scroll = ScrollModel(length: Double(parsed.subject.wordCount), speed: .wordsPerMinute(600))
        scroll.start(at: start)
        return PrompterSessionState(script: parsed, scroll: scroll, recordingStartedAt: 0, aspect: AspectRatio(16, 9))
    }

    /// The live I420 path draws what the offline renderer draws: same text in the same place.
    func testLiveI420MatchesOfflineRendering() throws {
        let vm = SubjectViewModel.whitelisted(from: try session(words: 300))
        for mirror in ["none", "hv"] {
            var state = try session(words: 300)
            state.mirror = try MirrorFlags.parse(mirror)
            let model = SubjectViewModel.whitelisted(from: state)
            let time: Int64 = 7_300_000_000
            let offline = SubjectRenderer.render(model, at: time, width: 640, height: 360)
            let expected = I420Image(convertingBGRA: offline.pixels, stride: offline.stride, width: 640, height: 360)
            let live = I420Image(width: 640, height: 360)
            let scene = SubjectScene(viewModel: model, width: 640, height: 360, format: .i420)
            scene.prepare(at: time)
            scene.draw(into: live.planes, at: time)
            let a = expected.bytes(), b = live.bytes()
            let lumaCount = 640 * 360
            var total = 0, large = 0
            for i in 0..<lumaCount {
                let d = abs(Int(a[i]) - Int(b[i]))
                total += d
                if d > 24 { large += 1 }
            }
            XCTAssertLessThan(Double(total) / Double(lumaCount), 1.0, "mirror \(mirror)")
            XCTAssertLessThan(large, lumaCount / 500, "mirror \(mirror)")
        }
        _ = vm
    }

    /// Cost does not grow with the script: a 5,000-word script keeps a bounded number of tiles in memory
    /// and draws the same number of items as a 50-word one.
    func testPerFrameWorkDoesNotGrowWithScriptLength() throws {
        let short = SubjectScene(viewModel: .whitelisted(from: try session(words: 50)), width: 1280, height: 720, format: .i420)
        let long = SubjectScene(viewModel: .whitelisted(from: try session(words: 5000)), width: 1280, height: 720, format: .i420)
        let frame = I420Image(width: 1280, height: 720)
        for second in stride(from: 0, through: 400, by: 20) {
            let time = Int64(second) * 1_000_000_000
            long.prepare(at: time)
            long.draw(into: frame.planes, at: time)
            XCTAssertLessThanOrEqual(long.strip!.residentTiles, PromptStrip.keepBehind + PromptStrip.keepAhead + 4)
        }
        XCTAssertEqual(short.items(at: 1_000_000_000).count, long.items(at: 1_000_000_000).count)
        XCTAssertGreaterThan(long.strip!.layout.height, 20 * Double(PromptStrip.tileRows))
    }

    /// The streaming thread never waits: a frame whose tiles are not rendered yet shows the panel background
    /// and queues the tiles; once the queue is idle the same frame shows the text.
    func testOverlayDrawsWithoutWaitingAndCatchesUp() throws {
        let overlay = SubjectOverlay(width: 640, height: 360)
        overlay.update(.whitelisted(from: try session(words: 3000)), preparingAt: 0)
        overlay.waitUntilIdle()
        let far: Int64 = 200_000_000_000 // 2,000 words in: tiles not rendered yet
        XCTAssertFalse(try XCTUnwrap(overlay.currentScene).isReady(at: far))
        let early = I420Image(width: 640, height: 360)
        overlay.draw(into: early.planes, at: far)
        overlay.waitUntilIdle()
        XCTAssertTrue(try XCTUnwrap(overlay.currentScene).isReady(at: far))
        let late = I420Image(width: 640, height: 360)
        overlay.draw(into: late.planes, at: far)
        let reference = I420Image(width: 640, height: 360)
        let scene = try XCTUnwrap(overlay.currentScene)
        scene.draw(into: reference.planes, at: far)
        XCTAssertEqual(late.bytes(), reference.bytes())
        XCTAssertNotEqual(early.bytes(), late.bytes(), "before the tiles arrive the panel is blank")
    }

    func testUpdatesReuseTheLayoutWhenOnlyTimeFieldsChange() throws {
        var state = try session(words: 500)
        let first = SubjectScene(viewModel: .whitelisted(from: state), width: 640, height: 360, format: .i420)
        state.scroll?.pause(at: 3_000_000_000)
        state.recordingStartedAt = nil
        let second = SubjectScene(viewModel: .whitelisted(from: state), width: 640, height: 360, format: .i420, reusing: first)
        XCTAssertTrue(first.strip === second.strip)
        state.style.theme = .highContrast
        let third = SubjectScene(viewModel: .whitelisted(from: state), width: 640, height: 360, format: .i420, reusing: second)
        XCTAssertFalse(third.strip?.layout === second.strip?.layout)
    }
}

final class OddSizeTests: XCTestCase {
    /// Odd monitor sizes (854x481, mirrored both ways) draw without tripping the even-geometry checks.
    func testOddSizedMirroredFramesDraw() throws {
        let parsed = try ScriptParser.parse(bytes: Array("Hello there, subject.\n\n[PAUSE]\n\nMore words.".utf8), format: .plainText)
        var scroll = ScrollModel(length: Double(parsed.subject.wordCount), cues: parsed.subject.pauseCueWordPositions,
                                 speed: .wordsPerMinute(160))
        scroll.start(at: 0)
        let vm = SubjectViewModel.whitelisted(from: PrompterSessionState(
            script: parsed, scroll: scroll, mirror: MirrorFlags(horizontal: true, vertical: true),
            countdownStartedAt: 0, recordingStartedAt: 0, aspect: AspectRatio(9, 16)))
        let scene = SubjectScene(viewModel: vm, width: 855, height: 481, format: .i420)
        scene.prepare(at: 1_000_000_000)
        let frame = I420Image(width: 855, height: 481)
        let before = frame.bytes()
        scene.draw(into: frame.planes, at: 1_000_000_000)
        XCTAssertNotEqual(frame.bytes(), before)
    }

    /// At a [PAUSE] cue the reading line rests on the cue marker, between the paragraphs around it.
    func testHeldCueRestsOnTheMarkerLine() throws {
        let parsed = try ScriptParser.parse(bytes: Array("one two three\n\n[PAUSE]\n\nfour five six".utf8), format: .plainText)
        let layout = PromptLayout(script: parsed.subject, width: 400, fontSize: 20, theme: .standard)
        XCTAssertEqual(layout.cueUnits, [3])
        let atCue = layout.textY(atUnits: 3)
        XCTAssertGreaterThan(atCue, layout.textY(atUnits: 2))
        XCTAssertLessThan(atCue, layout.textY(atUnits: 4) - layout.lineHeight)
    }
}

final class ScrollFittingTests: XCTestCase {
    /// For a script without spaces the session gets its scroll model from the overlay: lines of this
    /// monitor's layout, with the [PAUSE] cue on its marker line; the next update reuses that layout.
    func testOverlayFitsTheScrollModelToItsLayout() throws {
        let chinese = try ScriptParser.load(path: Checkout.path("Assets/scripts/chinese.txt"))
        var state = PrompterSessionState(script: chinese)
        let overlay = SubjectOverlay(width: 640, height: 360)
        var scroll = try XCTUnwrap(overlay.scrollModel(for: .whitelisted(from: state), speed: .linesPerMinute(12)))
        XCTAssertEqual(scroll.cues.count, 1)
        XCTAssertGreaterThan(scroll.length, scroll.cues[0])
        scroll.start(at: 0)
        state.scroll = scroll
        XCTAssertEqual(scroll.position(at: 600_000_000_000), scroll.cues[0], "held at the cue")
        overlay.update(.whitelisted(from: state))
        overlay.waitUntilIdle()
        let scene = try XCTUnwrap(overlay.currentScene)
        XCTAssertEqual(scene.strip?.layout.cueUnits, scroll.cues)
        XCTAssertFalse(scene.strip!.layout.unitsAreWords)
    }
}
