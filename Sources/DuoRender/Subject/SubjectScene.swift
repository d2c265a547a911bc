import Foundation
import DuoCore

/// One thing to put on a subject frame, in physical (mirrored) monitor pixels.
///
/// Thread: value type; made per frame by `SubjectScene.items(at:)`.
enum OverlayItem {
    /// A window of the prompt strip: physical rectangle, the strip row at the panel's reader-space top, and
    /// whether the rows run bottom to top (vertical mirror).
    case panel(x: Int, y: Int, width: Int, height: Int, windowTop: Int, flippedVertically: Bool)
    case fill(x: Int, y: Int, width: Int, height: Int, colour: RGBA)
    case sprite(CairoImage, x: Int, y: Int)
    case preview(PreviewFrame)
    /// The self-view's camera picture (physical rectangle): the graph's small mirrored picture live, a
    /// test pattern offline.
    case selfView(x: Int, y: Int, width: Int, height: Int)
}

/// Everything needed to draw subject frames for one view-model snapshot, one monitor size and one display
/// profile: the geometry, the laid-out script as a tiled strip, and pre-rendered sprites (recording light,
/// digits, countdown numbers). A frame is then only a window of the strip plus a few blits and fills.
///
/// Building a scene costs time (Pango layout of the whole script) and happens OFF the streaming thread;
/// `init(reusing:)` keeps the previous layout and tiles when only time-like fields changed (scroll, pause,
/// recording state), so commands stay cheap.
///
/// Thread: built on any thread except the streaming thread; immutable afterwards except the strip's tile
/// cache, which is itself lock-protected. `items(at:)` and the draw functions are safe on any thread.
public final class SubjectScene: Sendable {
    public let viewModel: SubjectViewModel
    public let width: Int
    public let height: Int
    public let profile: DisplayProfile
    /// Reader-space geometry (before mirroring).
    public let geometry: SubjectGeometry
    public let palette: SubjectPalette
    public let fontSize: Double
    public let strip: PromptStrip?
    public let safeFrame: SafeFrame?
    /// The language of the view's own words (the subject's, `--subject-language`): hints, cue presets,
    /// the shot card's label, the recording light. The script and the shot list are shown as written.
    public let language: Translator

    private let labelFontSize: Double
    /// The recording light's and clock's size: large, beside the reading line.
    let clockFontSize: Double
    let recordingLabel: CairoImage
    let digits: [Character: CairoImage]
    private let countdownNumbers: [Int: CairoImage]
    /// The current shot's card (`--shots`), shown until the take records, in a band of its own.
    let shotCard: CairoImage?
    /// The cue to the talent (nil: none), large beside the reading line.
    let cueLabel: CairoImage?
    /// The recording light and clock sit in a column beside the text (else over the read lines).
    let statusBeside: Bool
    /// The framing hint in large type (nil without one), drawn where `framingHintPlace` puts it.
    let framingHintLabel: CairoImage?
    /// The talent's clock (`--talent-clock`; nil: off), beside the text across from the recording light.
    let talentClockSprites: TalentClockSprites?
    /// One sprite per `[POSE: …]` cue of the script (nil for an ending `[POSE]`).
    private let poseSprites: [CairoImage?]

    /// The default font size for a monitor: 48 px at 1080 lines, smaller on small monitors and larger on
    /// larger ones (96 px at 2160), so a 4K monitor shows as many lines, as legibly, as a 1080p one.
    public static func defaultFontSize(height: Int) -> Double {
        height <= 1080 ? min(48, max(8, (Double(height) / 20).rounded())) : (Double(height) * 48 / 1080).rounded()
    }

    /// The text size a `width`×`height` monitor gets: the style's own, else as large as lets `lines` lines
    /// (the reading band counts 1.2 of them) fill the content height, else the default.
    public static func fontSize(_ style: PromptStyle, profile: DisplayProfile, width: Int, height: Int,
                                selfView: (width: Int, height: Int)? = nil) -> Double {
        if let size = style.fontSize { return size }
        guard let lines = style.lines else { return defaultFontSize(height: height) }
        // The lines fill the text's area: the content less the self-view's band.
        let content = SubjectGeometry(profile: profile, width: width, height: height, lineHeight: 1,
                                      maximumPanelWidth: Double(width), selfView: selfView).textArea.height
        return min(400, max(8, (content / (Double(lines) + 0.2) / 1.25).rounded(.down)))
    }

    public init(viewModel: SubjectViewModel, width: Int, height: Int, profile: DisplayProfile = .plain,
                format: PromptStrip.Format, language: Translator = .english, reusing previous: SubjectScene? = nil) {
        precondition(width >= 16 && height >= 16, "subject frames are at least 16x16")
        self.language = language
        serial = Self.serials.update { $0 += 1; return $0 }
        self.viewModel = viewModel
        self.width = width
        self.height = height
        self.profile = profile
        palette = SubjectPalette(viewModel.style.theme)
        var readerProfile = profile.mirrored(viewModel.mirror)
        if let line = viewModel.readingLine { readerProfile.readingLine = line }
        let around = viewModel.style.linesAround
        let selfViewSize = viewModel.selfView == .off ? nil
            : viewModel.picture?.selfViewSize(viewModel.selfView, monitorWidth: width, monitorHeight: height)
        let fontSize = Self.fontSize(viewModel.style, profile: readerProfile, width: width, height: height, selfView: selfViewSize)
        self.fontSize = fontSize

        let padding = Int((fontSize * 0.6).rounded())
        let mirror = viewModel.mirror
        // The recording light and its clock, large: they sit beside the reading line.
        clockFontSize = max(10, (fontSize * 0.8).rounded())
        if let old = previous, old.clockFontSize == clockFontSize, old.viewModel.mirror == mirror,
           old.language.language == language.language {
            recordingLabel = old.recordingLabel
            digits = old.digits
        } else {
            // The recording light's word: "REC" as on every camera, in the subject's language.
            recordingLabel = renderLabel(language.text(N_("REC")), fontSize: clockFontSize, bold: true, colour: RGBA(1, 1, 1),
                                         mirror: mirror, dot: SubjectPalette.recording)
            var digits: [Character: CairoImage] = [:]
            for c in "0123456789:" {
                digits[c] = renderLabel(String(c), fontSize: clockFontSize, bold: true, colour: RGBA(1, 1, 1), mirror: mirror)
            }
            self.digits = digits
        }
        let estimate = SubjectGeometry(profile: readerProfile, width: width, height: height,
                                       lineHeight: fontSize * 1.2, maximumPanelWidth: Double(width),
                                       linesAbove: around.above, linesBelow: around.below, selfView: selfViewSize)
        // The text's measure, less a column each side for the recording light when that leaves the text
        // most of the width (else the light sits over the lines already read).
        let gutter = Self.statusSize(recordingLabel: recordingLabel, digits: digits).width + 2 * (fontSize * 0.4).rounded()
        let textWidth = estimate.textArea.width
        statusBeside = textWidth - 2 * gutter >= textWidth * 0.6
        let measure = min((fontSize * 30).rounded(), statusBeside ? textWidth - 2 * gutter : textWidth)
        let panelWidth = Int(measure / 2) * 2

        var strip: PromptStrip? = nil
        if viewModel.kind == .teleprompter, let script = viewModel.script, panelWidth > 2 * padding + 8 {
            if let old = previous?.strip, previous?.viewModel.script == script,
               previous?.viewModel.style == viewModel.style, old.width == panelWidth,
               old.mirrored == viewModel.mirror.horizontal, old.format == format {
                strip = old
            } else {
                let layout: PromptLayout
                if let oldLayout = previous?.strip?.layout, previous?.viewModel.script == script,
                   previous?.viewModel.style == viewModel.style, oldLayout.width == panelWidth - 2 * padding {
                    layout = oldLayout
                } else {
                    layout = PromptLayout(script: script, width: panelWidth - 2 * padding, fontSize: fontSize,
                                          theme: viewModel.style.theme)
                }
                strip = PromptStrip(layout: layout, width: panelWidth, padding: padding,
                                    mirrored: viewModel.mirror.horizontal, format: format)
            }
        }
        self.strip = strip
        geometry = SubjectGeometry(profile: readerProfile, width: width, height: height,
                                   lineHeight: strip?.layout.lineHeight ?? fontSize * 1.2, maximumPanelWidth: measure,
                                   linesAbove: around.above, linesBelow: around.below, selfView: selfViewSize)
        safeFrame = viewModel.safeFrameAspect.map { SafeFrame(aspect: $0, frameWidth: width, frameHeight: height) }
        talentClockSprites = Self.talentClockSprites(viewModel, geometry: geometry, statusBeside: statusBeside, clockFontSize: clockFontSize,
                                                     sideGap: (fontSize * 0.4).rounded(), language: language, previous: previous)

        if let shot = viewModel.shot {
            if let old = previous, old.viewModel.shot == shot, old.viewModel.mirror == viewModel.mirror, old.fontSize == fontSize,
               old.width == width, old.language.language == language.language { shotCard = old.shotCard }
            else { shotCard = renderShotCard(shot, width: Int(estimate.textArea.width * 0.9), fontSize: fontSize * 0.8, mirror: viewModel.mirror,
                                             language: language) }
        } else {
            shotCard = nil
        }
        cueLabel = Self.cueLabel(viewModel.cue, fontSize: fontSize, maximumWidth: Double(panelWidth), mirror: mirror,
                                 language: language, previous: previous)

        // Sprites: the pose cues and the countdown numbers.
        labelFontSize = max(8, (fontSize * 0.6).rounded())
        if let old = previous, old.labelFontSize == labelFontSize, old.viewModel.mirror == mirror,
           old.viewModel.countdown == viewModel.countdown, old.width == width, old.height == height,
           old.viewModel.style.theme == viewModel.style.theme {
            countdownNumbers = old.countdownNumbers
            poseSprites = old.viewModel.script?.poseCues == viewModel.script?.poseCues && old.viewModel.kind == viewModel.kind ? old.poseSprites
                : Self.renderPoses(viewModel, fontSize: labelFontSize, mirror: mirror)
        } else {
            poseSprites = Self.renderPoses(viewModel, fontSize: labelFontSize, mirror: mirror)
            let countdownSize = max(12, (estimate.content.height * 0.35).rounded())
            var numbers: [Int: CairoImage] = [:]
            for n in stride(from: viewModel.countdown.seconds, through: 1, by: -1) {
                numbers[n] = renderLabel(String(n), fontSize: countdownSize, bold: true, colour: RGBA(1, 1, 1),
                                         mirror: mirror, backdrop: SubjectPalette.backdrop, padding: countdownSize * 0.3)
            }
            countdownNumbers = numbers
        }
        framingHintLabel = Self.framingHintLabel(viewModel.framingHints, fontSize: fontSize, mirror: mirror, language: language,
                                                 maximumWidth: min(geometry.content.width - 2 * (fontSize * 0.4).rounded(), geometry.content.width * 0.6),
                                                 previous: previous)
    }

    /// The hint's sprite: the fixed words of `FramingHint`, bold, in large type on a dark backdrop.
    /// Narrower monitors (portrait, two people's hints) get it smaller, so it is always whole and leaves
    /// the other corner (the recording light's) free.
    private static func framingHintLabel(_ hints: [PersonHint], fontSize: Double, mirror: MirrorFlags, language: Translator,
                                         maximumWidth: Double, previous: SubjectScene?) -> CairoImage? {
        guard !hints.isEmpty else { return nil }
        if let old = previous, old.viewModel.framingHints == hints, old.viewModel.mirror == mirror, old.fontSize == fontSize,
           old.language.language == language.language,
           let label = old.framingHintLabel, Double(label.width) <= maximumWidth {
            return label
        }
        func label(_ size: Double, _ separator: String) -> CairoImage {
            renderLabel(hints.map { $0.text(in: language) }.joined(separator: separator), fontSize: size, bold: true, colour: SubjectPalette.framingHint,
                        mirror: mirror, backdrop: SubjectPalette.backdrop, padding: size * 0.35)
        }
        let size = max(14, (fontSize * 1.1).rounded())
        let first = label(size, "  ·  ")
        guard Double(first.width) > maximumWidth, maximumWidth > 0 else { return first }
        // Two people's hints too wide side by side (a narrow monitor, a language of long words): one
        // above the other before any is made smaller.
        let stacked = hints.count > 1 ? label(size, "\n") : first
        guard Double(stacked.width) > maximumWidth else { return stacked }
        let separator = hints.count > 1 ? "\n" : "  ·  "
        return label(max(6, (size * maximumWidth / Double(stacked.width)).rounded(.down)), separator)
    }

    /// Where the framing hint goes, reader space: next to the self-view (above it when it sits low, below
    /// when high, on its outer edge; else beside it), where the subject is already looking at themselves; else, or when
    /// that spot would cover the reading panel or leave the content area, a corner of the content area
    /// far from the reading line (the bottom right, or the top right when the reading line sits in the
    /// lower half), over the lines faded out at the text's far edge: never over the reading line.
    static func framingHintPlace(width hintWidth: Double, height hintHeight: Double, geometry: SubjectGeometry,
                                 hasPanel: Bool, margin: Double) -> (x: Double, y: Double) {
        let c = geometry.content
        if let view = geometry.selfView {
            let right = view.midX > c.midX, low = view.midY > c.midY
            // Above (or below) the self-view; else beside it, on its side toward the middle, level with its
            // outer edge (a full-height panel leaves no room above a low self-view on a 16:9 monitor).
            let spots = [(right ? view.maxX - hintWidth : view.minX, low ? view.minY - margin - hintHeight : view.maxY + margin),
                         (right ? view.minX - margin - hintWidth : view.maxX + margin, low ? view.maxY - hintHeight : view.minY)]
            for (x, y) in spots {
                let spot = FrameRect(x: x, y: y, width: hintWidth, height: hintHeight)
                let inside = spot.minX >= c.minX && spot.maxX <= c.maxX && spot.minY >= c.minY && spot.maxY <= c.maxY
                if inside && !(hasPanel && spot.intersects(geometry.panel)) { return (x.rounded(), y.rounded()) }
            }
        }
        let panelLow = hasPanel && geometry.readingLineY > c.midY
        let x = max(c.minX, c.maxX - margin - hintWidth)
        let y = panelLow ? c.minY + margin : max(c.minY, c.maxY - margin - hintHeight)
        return (x.rounded(), y.rounded())
    }

    private static func renderPoses(_ viewModel: SubjectViewModel, fontSize: Double, mirror: MirrorFlags) -> [CairoImage?] {
        guard viewModel.kind == .teleprompter else { return [] }
        return (viewModel.script?.poseCues ?? []).map { $0.text.isEmpty ? nil : PoseSprite.render($0, fontSize: fontSize, mirror: mirror) }
    }

    /// The pose cue shown at `time` (an index into the script's cues), or nil.
    public func activePose(at time: Int64) -> Int? {
        guard let layout = strip?.layout, let cues = viewModel.script?.poseCues, !cues.isEmpty else { return nil }
        return PoseCue.active(at: viewModel.scrollPosition(at: time), cueUnits: layout.poseUnits, cues: cues,
                              markerUnits: layout.markerUnits)
    }

    /// The self-view on the monitor, physical pixels (nil when off).
    public var selfViewRectangle: (x: Int, y: Int, width: Int, height: Int)? {
        geometry.selfView.map { physical($0) }
    }

    /// The scroll unit position → the strip row at the panel's top (even, so chroma rows pair up).
    func windowTop(at time: Int64) -> Int? {
        guard let strip else { return nil }
        let y = strip.layout.textY(atUnits: viewModel.scrollPosition(at: time)) - (geometry.readingLineY - textPanel(at: time).y)
        return Int((y / 2).rounded(.down)) * 2
    }

    /// Renders the strip tiles a frame at `time` needs. OFF the streaming thread (offline: call before drawing).
    public func prepare(at time: Int64) {
        guard let strip, let top = windowTop(at: time) else { return }
        strip.prepare(top: top, rows: Int(textPanel(at: time).height))
    }

    /// True when a frame at `time` has every tile it needs.
    public func isReady(at time: Int64) -> Bool {
        guard let strip, let top = windowTop(at: time) else { return true }
        return strip.isReady(top: top, rows: Int(textPanel(at: time).height))
    }

    /// What a frame at `time` looks like, as far as redrawing goes: two times with equal keys give the same
    /// pixels. The subject window redraws only when the key changes (the text moved a whole pixel, the
    /// clock ticked a second, the countdown stepped, a tile arrived), and only the panel when only the
    /// scroll moved.
    ///
    /// Thread: value type.
    /// This scene's number among all scenes made, for `FrameKey`. Not its `ObjectIdentifier`: a scene made
    /// right after the last one was freed may get its address, and then a new layout (the subject
    /// window's size changing while the script is paused) compared equal to the old one and was never
    /// drawn: the teleprompter stayed laid out for a 200-pixel window on a 1280-pixel monitor.
    let serial: UInt64
    private static let serials = Locked<UInt64>(0)

    public struct FrameKey: Equatable, Sendable {
        let scene: UInt64
        let windowTop: Int?
        let recordingSecond: Int?
        let countdown: Int?
        let ready: Bool
        let pose: Int?
        let cue: Bool
        let talentClock: [TalentClock.Row]

        /// Whether `other` differs from this only in where the text is.
        public func differsOnlyInScroll(from other: FrameKey) -> Bool {
            scene == other.scene && recordingSecond == other.recordingSecond && countdown == other.countdown && pose == other.pose
                && cue == other.cue && talentClock == other.talentClock
        }
    }

    public func frameKey(at time: Int64) -> FrameKey {
        FrameKey(scene: serial, windowTop: windowTop(at: time),
                 recordingSecond: viewModel.recordingElapsedSeconds(at: time), countdown: viewModel.countdownValue(at: time),
                 ready: isReady(at: time), pose: activePose(at: time), cue: viewModel.cueShown(at: time),
                 talentClock: viewModel.talentClockRows(at: time))
    }

    /// The prompt panel on the monitor, physical pixels (nil without text).
    public var panelRectangle: (x: Int, y: Int, width: Int, height: Int)? {
        guard strip != nil else { return nil }
        return physical(geometry.panel)
    }

    /// Reader space → physical pixels.
    func physical(_ r: FrameRect) -> (x: Int, y: Int, width: Int, height: Int) {
        var x = r.x, y = r.y
        if viewModel.mirror.horizontal { x = Double(width) - r.x - r.width }
        if viewModel.mirror.vertical { y = Double(height) - r.y - r.height }
        return (Int(x.rounded()), Int(y.rounded()), Int(r.width.rounded()), Int(r.height.rounded()))
    }

    func fill(_ r: FrameRect, _ colour: RGBA) -> OverlayItem {
        let p = physical(r)
        return .fill(x: p.x, y: p.y, width: p.width, height: p.height, colour: colour)
    }

    func sprite(_ image: CairoImage, readerX: Double, readerY: Double) -> OverlayItem {
        let p = physical(FrameRect(x: readerX, y: readerY, width: Double(image.width), height: Double(image.height)))
        return .sprite(image, x: p.x, y: p.y)
    }

    /// Corner brackets of a safe-frame rectangle: arms `arm` pixels long, `lineWidth` thick. Brackets rather
    /// than full outlines: full-height lines would touch every row of the frame, making the per-frame cost
    /// grow with the video's height; brackets of a fixed size cost the same at 720p and at 4K.
    private func brackets(_ r: FrameRect, arm: Double, lineWidth: Double, _ colour: RGBA) -> [OverlayItem] {
        let rx = r.x.rounded(), ry = r.y.rounded(), rw = r.width.rounded(), rh = r.height.rounded()
        let a = min(arm, rw / 2, rh / 2)
        var items: [OverlayItem] = []
        for (cx, right) in [(rx, false), (rx + rw, true)] {
            for (cy, bottom) in [(ry, false), (ry + rh, true)] {
                let x0 = right ? cx - a : cx
                let y0 = bottom ? cy - lineWidth : cy
                items.append(fill(FrameRect(x: x0, y: y0, width: a, height: lineWidth), colour))
                let vx = right ? cx - lineWidth : cx
                let vy = bottom ? cy - a : cy + lineWidth
                items.append(fill(FrameRect(x: vx, y: vy, width: lineWidth, height: a - lineWidth), colour))
            }
        }
        return items
    }

    /// A rectangle's outline, `lineWidth` thick, inside it.
    private func outline(_ r: FrameRect, lineWidth: Double, _ colour: RGBA) -> [OverlayItem] {
        [fill(FrameRect(x: r.x, y: r.y, width: r.width, height: lineWidth), colour),
         fill(FrameRect(x: r.x, y: r.maxY - lineWidth, width: r.width, height: lineWidth), colour),
         fill(FrameRect(x: r.x, y: r.y + lineWidth, width: lineWidth, height: r.height - 2 * lineWidth), colour),
         fill(FrameRect(x: r.maxX - lineWidth, y: r.y + lineWidth, width: lineWidth, height: r.height - 2 * lineWidth), colour)]
    }

    /// What a frame at pipeline time `time` shows, back to front.
    /// "mm:ss", or "h:mm:ss" from an hour on. Built by hand: this runs for every subject frame on the
    /// streaming thread, where `String(format:)` (Foundation's formatter, boxed arguments) cost about as
    /// much as drawing the frame's text.
    static func recordingClock(_ elapsed: Int) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return elapsed >= 3600 ? "\(elapsed / 3600):\(two(elapsed / 60 % 60)):\(two(elapsed % 60))"
                               : "\(two(elapsed / 60)):\(two(elapsed % 60))"
    }

    func items(at time: Int64) -> [OverlayItem] {
        let vm = viewModel
        guard vm.kind != .off else { return [] }
        var items: [OverlayItem] = []
        if vm.kind == .preview, let preview = vm.preview { items.append(.preview(preview)) }
        // Occlusions are marked (dimly) so a preview render shows what the text avoids; on the monitor
        // the camera covers them anyway.
        for o in geometry.occlusions { items.append(fill(o, SubjectPalette.occlusion)) }

        if let strip, let top = windowTop(at: time) {
            let panel = textPanel(at: time)
            let p = physical(panel)
            // Even origin (also on odd-sized monitors after a flip), so 4:2:0 chroma rows copy whole.
            items.append(.panel(x: p.x & ~1, y: p.y & ~1, width: strip.width, height: p.height & ~1, windowTop: top,
                                flippedVertically: vm.mirror.vertical))
            // Lines dim as they move away from the reading line and fade out at the panel's edges.
            items += fadeFills(panel, lineHeight: strip.layout.lineHeight)
            let band = strip.layout.lineHeight * 1.2
            items.append(fill(FrameRect(x: panel.x, y: (geometry.readingLineY - band / 2).rounded(),
                                        width: panel.width, height: band.rounded()), palette.band))
        }

        if let view = geometry.selfView {
            // The subject's own picture with the safe frame on it: the composition's crop (white), the
            // action-safe (green) and graphics-safe (blue) areas of it; outlines, the picture being small.
            let p = physical(view)
            items.append(.selfView(x: p.x, y: p.y, width: p.width, height: p.height))
            if let aspect = vm.safeFrameAspect {
                let safe = SafeFrame(aspect: aspect, frameWidth: Int(view.width), frameHeight: Int(view.height))
                let lw: Double = view.height >= 120 ? 2 : 1
                for (r, colour) in [(safe.composition, SubjectPalette.composition), (safe.actionSafe, SubjectPalette.actionSafe),
                                    (safe.graphicsSafe, SubjectPalette.graphicsSafe)] {
                    let moved = FrameRect(x: view.x + r.x.rounded(), y: view.y + r.y.rounded(), width: r.width.rounded(), height: r.height.rounded())
                    items += outline(moved, lineWidth: lw, colour)
                }
            }
        } else if let safe = safeFrame {
            let lw: Double = height >= 360 ? 2 : 1
            let arm = max(8, (fontSize * 1.5).rounded())
            items += brackets(safe.composition, arm: arm, lineWidth: lw, SubjectPalette.composition)
            items += brackets(safe.actionSafe, arm: arm, lineWidth: lw, SubjectPalette.actionSafe)
            items += brackets(safe.graphicsSafe, arm: arm, lineWidth: lw, SubjectPalette.graphicsSafe)
        }

        if let elapsed = vm.recordingElapsedSeconds(at: time) { items += recordingItems(elapsed) }
        items += talentClockItems(at: time)

        if let card = shotCard, let place = cardPlace(at: time) {
            // Standby and the countdown: what the shot asks of the subject, in its own band on the far
            // side of the text from the reading line (the text panel is shortened to leave it free).
            items.append(sprite(card, readerX: place.x, readerY: place.y))
        }

        if let cue = cueLabel, vm.cueShown(at: time) { items += cueItems(cue) }

        if let hint = framingHintLabel {
            let margin = (fontSize * 0.4).rounded()
            var place = Self.framingHintPlace(width: Double(hint.width), height: Double(hint.height), geometry: geometry,
                                              hasPanel: strip != nil, margin: margin)
            // Never over the shot card's words: beside it, on the reading line's side.
            if let card = shotCard, let c = cardPlace(at: time),
               FrameRect(x: place.x, y: place.y, width: Double(hint.width), height: Double(hint.height))
                .intersects(FrameRect(x: c.x, y: c.y, width: Double(card.width), height: Double(card.height))) {
                place.y = cardBelow ? c.y - margin - Double(hint.height) : c.y + Double(card.height) + margin
            }
            items.append(sprite(hint, readerX: place.x, readerY: place.y))
        }

        if let i = activePose(at: time), i < poseSprites.count, let sprite = poseSprites[i] {
            let w = Double(sprite.width), h = Double(sprite.height)
            let x: Double, y: Double
            if let view = geometry.selfView {
                // Beside the self-view like the recording light, level with its edge toward the text.
                let right = view.midX > geometry.content.midX, bottom = view.midY > geometry.content.midY
                x = right ? view.minX - geometry.margin - w : view.maxX + geometry.margin
                y = bottom ? view.minY : view.maxY - h
            } else {
                // The corner across from the recording light.
                let c = geometry.content, margin = (fontSize * 0.4).rounded()
                let panelLow = strip != nil && geometry.readingLineY > c.midY
                x = c.maxX - margin - w
                y = panelLow ? c.minY + margin : c.maxY - margin - h
            }
            items.append(self.sprite(sprite, readerX: x.rounded(), readerY: y.rounded()))
        }

        if let n = vm.countdownValue(at: time), let number = countdownNumbers[n] {
            // Centred in the text area, or in what a shot's card leaves below it: the number never covers
            // what the shot asks of the subject.
            let c = shotCard == nil ? geometry.textArea : textPanel(at: time)
            items.append(sprite(number, readerX: (c.midX - Double(number.width) / 2).rounded(),
                                readerY: (c.midY - Double(number.height) / 2).rounded()))
        }
        return items
    }
}
