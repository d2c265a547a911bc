import DuoCore
import Foundation

//  The subject view drawn into frames: the subject branch's own, a remote display's, and the headless
//  self-view, each on its streaming thread from the overlay's lock-protected scene.

/// Draws the subject view into the subject branch's frames. Kinds other than `preview` show the view on
/// black, not over the camera picture: the subject reads text, the camera image behind it would distract.
///
/// Thread: `draw` on the streaming thread; reads the overlay's lock-protected scene.
final class SubjectFrameDrawer: I420FrameDrawer, Sendable {
    let overlay: SubjectOverlay
    /// The frames are the camera's own way round (a remote display's branch): the self-view mirrors its
    /// picture itself, as the subject branch's graph does (for a camera facing the subject) and with the
    /// view's glass mirror.
    let pictureIsUnmirrored: Bool
    /// Frames drawn so far.
    let drawn = Locked(0)
    init(overlay: SubjectOverlay, pictureIsUnmirrored: Bool = false) {
        self.overlay = overlay
        self.pictureIsUnmirrored = pictureIsUnmirrored
    }

    func draw(into planes: I420Planes, at runningTime: Int64) {
        drawn.update { $0 += 1 }
        let scene = overlay.currentScene
        if scene?.viewModel.kind != .preview {
            // The self-view: the frame (the camera picture, mirrored by the graph) shrunk into its corner,
            // then black around it.
            let inset = scene.flatMap { s in s.width == planes.width && s.height == planes.height ? s.selfViewRectangle : nil }
            let mirror = scene?.viewModel.mirror ?? .none
            let picture = inset.map {
                SelfViewInset.sample(planes, into: $0, flipX: pictureIsUnmirrored && !mirror.horizontal,
                                     flipY: pictureIsUnmirrored && mirror.vertical)
            }
            I420Blend.fillRect(YUV(y: 16, u: 128, v: 128), alpha: 255, x: 0, y: 0, width: planes.width, height: planes.height, into: planes)
            if let inset, let picture { SelfViewInset.put(picture, planes, at: inset) }
        }
        overlay.draw(into: planes, at: runningTime)
    }
}

/// Whether remote displays show the subject view; read on streaming threads.
///
/// Thread: any.
typealias RemoteShownFlag = Locked<Bool>

/// A remote display's drawer: the subject view while it is shown, black otherwise (the accessory turned
/// off hides it there as on the local monitor).
///
/// Thread: `draw` on the remote branch's streaming thread.
final class RemoteDisplayFrameDrawer: I420FrameDrawer, Sendable {
    let view: SubjectFrameDrawer
    let shown: RemoteShownFlag
    init(view: SubjectFrameDrawer, shown: RemoteShownFlag) { self.view = view; self.shown = shown }

    func draw(into planes: I420Planes, at runningTime: Int64) {
        guard shown.value else {
            I420Blend.fillRect(YUV(y: 16, u: 128, v: 128), alpha: 255, x: 0, y: 0, width: planes.width, height: planes.height, into: planes)
            return
        }
        view.draw(into: planes, at: runningTime)
    }
}

/// The headless subject view's self-view: the whole subject frame sampled (nearest neighbour) into the
/// self-view's rectangle. The desktop's self-view is the graph's own small picture instead.
///
/// Thread: the streaming thread (pure functions on the frame it owns).
enum SelfViewInset {
    typealias Rect = (x: Int, y: Int, width: Int, height: Int)

    static func sample(_ planes: I420Planes, into r: Rect, flipX: Bool = false, flipY: Bool = false) -> [[UInt8]] {
        let w = max(2, r.width & ~1), h = max(2, r.height & ~1)
        func plane(_ base: UnsafeMutablePointer<UInt8>, _ stride: Int, _ sw: Int, _ sh: Int, _ dw: Int, _ dh: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: dw * dh)
            for y in 0..<dh {
                let sy = min(sh - 1, y * sh / dh)
                let row = base + (flipY ? sh - 1 - sy : sy) * stride
                for x in 0..<dw {
                    let sx = min(sw - 1, x * sw / dw)
                    out[y * dw + x] = row[flipX ? sw - 1 - sx : sx]
                }
            }
            return out
        }
        let cw = (planes.width + 1) / 2, ch = (planes.height + 1) / 2
        return [plane(planes.y, planes.yStride, planes.width, planes.height, w, h),
                plane(planes.u, planes.uStride, cw, ch, w / 2, h / 2),
                plane(planes.v, planes.vStride, cw, ch, w / 2, h / 2)]
    }

    static func put(_ picture: [[UInt8]], _ planes: I420Planes, at r: Rect) {
        let w = max(2, r.width & ~1), h = max(2, r.height & ~1)
        let x0 = r.x & ~1, y0 = r.y & ~1
        guard x0 >= 0, y0 >= 0, x0 + w <= planes.width, y0 + h <= planes.height else { return }
        for y in 0..<h { picture[0].withUnsafeBufferPointer { (planes.y + (y0 + y) * planes.yStride + x0).update(from: $0.baseAddress! + y * w, count: w) } }
        for y in 0..<(h / 2) {
            picture[1].withUnsafeBufferPointer { (planes.u + (y0 / 2 + y) * planes.uStride + x0 / 2).update(from: $0.baseAddress! + y * (w / 2), count: w / 2) }
            picture[2].withUnsafeBufferPointer { (planes.v + (y0 / 2 + y) * planes.vStride + x0 / 2).update(from: $0.baseAddress! + y * (w / 2), count: w / 2) }
        }
    }
}
