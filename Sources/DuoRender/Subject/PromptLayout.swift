import CCairo
import DuoCore
import Foundation

/// Colours and type of the subject view for one `PromptTheme`.
///
/// Thread: value type, Sendable.
public struct SubjectPalette: Sendable, Hashable {
    /// Opaque, so the panel is copied into video rows rather than blended.
    public let panel: RGBA
    public let text: RGBA
    public let heading: RGBA
    public let cue: RGBA
    public let band: RGBA
    public let boldText: Bool

    /// The themes' palettes (`PromptTheme`).
    static let standard = SubjectPalette(panel: RGBA(0.06, 0.06, 0.07), text: RGBA(0.90, 0.90, 0.88), heading: RGBA(0.55, 0.80, 1.00),
                                         cue: RGBA(1.00, 0.70, 0.25), band: RGBA(1.00, 0.78, 0.25, 0.22), boldText: false)
    static let highContrast = SubjectPalette(panel: RGBA(0, 0, 0), text: RGBA(1, 1, 1), heading: RGBA(1, 1, 0),
                                             cue: RGBA(1, 1, 0), band: RGBA(1, 1, 0, 0.30), boldText: true)

    /// Colours of the safe-frame outlines, the recording light and the countdown backdrop.
    static let composition = RGBA(1, 1, 1, 0.85)
    static let actionSafe = RGBA(0.25, 0.95, 0.35, 0.80)
    static let graphicsSafe = RGBA(0.30, 0.70, 1.00, 0.80)
    static let recording = RGBA(0.92, 0.10, 0.10)
    static let backdrop = RGBA(0, 0, 0, 0.55)
    static let occlusion = RGBA(0.35, 0.35, 0.38, 0.6)
    /// The cue to the talent's backdrop: the standard theme's cue amber, opaque, under dark words.
    static let cueBackdrop = RGBA(1.00, 0.72, 0.20)
    /// The framing hint's words: a bright amber, legible over any picture on its backdrop.
    static let framingHint = RGBA(1.00, 0.85, 0.30)
}

// In an extension, so the struct keeps its memberwise initialiser for the palettes above.
extension SubjectPalette {
    public init(_ theme: PromptTheme) {
        switch theme {
        case .standard: self = .standard
        case .highContrast: self = .highContrast
        }
    }
}

/// Fonts for the subject view, by fontconfig family name (no font files are shipped): DejaVu Sans for Latin,
/// Noto Sans CJK SC for Chinese and Japanese, Noto Sans Arabic and Hebrew for right-to-left scripts.
let subjectFontFamilies = "DejaVu Sans, Noto Sans CJK SC, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans"

/// Sets grey antialiasing and no hinting, so text renders the same at any position (goldens stay stable).
func configureFontOptions(_ context: OpaquePointer) {
    let options = cairo_font_options_create()
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
}

/// The subject's script laid out ONCE by Pango at one column width, with everything a frame needs to find
/// its window: line extents, and the vertical position of every scroll unit (word, or line for scripts
/// without spaces). Tiles of the laid-out text are rendered from it on demand (`PromptStrip`).
///
/// Bidirectional text, CJK and combining marks are Pango's job: each paragraph gets its own direction
/// (auto-dir), and right-to-left paragraphs align right.
///
/// Thread: built off the streaming thread (it costs time proportional to the script). Its Pango objects are
/// used only under `lock` (Pango layouts are not thread-safe); the streaming thread never touches it.
// Unchecked: Pango objects (C pointers) used only under its lock.
public final class PromptLayout: @unchecked Sendable {
    struct Line {
        let line: UnsafeMutablePointer<PangoLayoutLine>
        /// Pixels, layout coordinates.
        let x: Double, top: Double, bottom: Double, baseline: Double
        let startByte: Int, endByte: Int
        var centre: Double { (top + bottom) / 2 }
    }

    public let width: Int
    public let fontSize: Double
    public let lineHeight: Double
    /// Total height of the laid-out text in pixels.
    public let height: Double
    public let unitsAreWords: Bool
    /// `unitY[i]`: the text's y (layout pixels) that sits on the reading line when the scroll position is i.
    /// One extra entry at the end for the end of the text.
    let unitY: [Double]
    /// `[PAUSE]` cue positions in scroll units.
    public let cueUnits: [Double]
    /// Heading (marker) positions in scroll units, for jumping between them.
    public let markerUnits: [Double]
    /// `[POSE: …]` cue positions in scroll units (the script's `poseCues`, in order).
    public let poseUnits: [Double]
    let lines: [Line]
    /// Where each script block's text starts (bytes of the laid-out text): the confidence strip puts an
    /// operator note (which names its block) before the block's first line.
    let blockStarts: [Int]
    let palette: SubjectPalette

    private let lock = Lock()
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer
    private let layout: OpaquePointer

    /// Scripts whose lines break between any two characters (Chinese, Japanese): no extra break needed.
    static func breaksAnywhere(_ scalar: Unicode.Scalar) -> Bool {
        (0x2E80...0x9FFF).contains(scalar.value) || (0xAC00...0xD7AF).contains(scalar.value)
            || (0xF900...0xFAFF).contains(scalar.value) || (0xFF00...0xFFEF).contains(scalar.value)
    }

    /// Lays out `script` in a column `width` pixels wide at `fontSize` pixels.
    public init(script: SubjectScript, width: Int, fontSize: Double, theme: PromptTheme) {
        precondition(width > 0 && fontSize > 0)
        self.width = width
        self.fontSize = fontSize
        palette = SubjectPalette(theme)
        unitsAreWords = script.separatesWords

        let fontMap = pango_cairo_font_map_new()!
        let context = pango_font_map_create_context(fontMap)!
        configureFontOptions(context)
        let layout = pango_layout_new(context)!
        self.fontMap = fontMap
        self.context = context
        self.layout = layout
        let palette = self.palette

        setSubjectFont(layout, fontSize: fontSize, bold: palette.boldText)
        pango_layout_set_width(layout, Int32(width) * PANGO_SCALE)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_auto_dir(layout, 1)

        // Build plain text plus attributes (byte offsets), and remember where every word starts.
        var text: [UInt8] = []
        let attributes = pango_attr_list_new()
        var wordStarts: [Int] = []
        var cueBytes: [Int] = []
        var headingBytes: [Int] = []
        var blockBytes: [Int] = []
        func add(_ attr: UnsafeMutablePointer<PangoAttribute>?, _ start: Int, _ end: Int) {
            guard let attr else { return }
            attr.pointee.start_index = UInt32(start)
            attr.pointee.end_index = UInt32(end)
            pango_attr_list_insert(attributes, attr)
        }
        func colour(_ c: RGBA) -> (UInt16, UInt16, UInt16) {
            (UInt16(c.r * 65535), UInt16(c.g * 65535), UInt16(c.b * 65535))
        }
        // A long run with no break opportunity (a URL, a line of one character) gets a zero-width space
        // every `unbrokenLimit` characters: Pango then breaks it where it must without searching the
        // whole run again for every line, so layout stays linear in the script's length. The limit is a
        // quarter of a line's characters, so such a run fills its lines with no hyphen and little gap.
        let unbrokenLimit = max(4, Int(Double(width) / (fontSize * 0.6)) / 4)
        let zeroWidthSpace = Array("\u{200B}".utf8)
        func appendRuns(_ runs: [StyledRun]) {
            var previousWasSpace = true
            var unbroken = 0
            for run in runs {
                let start = text.count
                for scalar in run.text.unicodeScalars {
                    let isSpace = scalar.properties.isWhitespace
                    if !isSpace && previousWasSpace { wordStarts.append(text.count) }
                    previousWasSpace = isSpace
                    unbroken = isSpace || Self.breaksAnywhere(scalar) ? 0 : unbroken + 1
                    if unbroken > unbrokenLimit {
                        text.append(contentsOf: zeroWidthSpace)
                        unbroken = 1
                    }
                    text.append(contentsOf: Array(String(scalar).utf8))
                }
                let end = text.count
                switch run.emphasis {
                case .none: break
                case .italic: add(pango_attr_style_new(PANGO_STYLE_ITALIC), start, end)
                case .bold: add(pango_attr_weight_new(PANGO_WEIGHT_BOLD), start, end)
                case .boldItalic:
                    add(pango_attr_style_new(PANGO_STYLE_ITALIC), start, end)
                    add(pango_attr_weight_new(PANGO_WEIGHT_BOLD), start, end)
                }
            }
        }
        for (i, block) in script.blocks.enumerated() {
            if i > 0 { text.append(contentsOf: Array("\n\n".utf8)) }
            blockBytes.append(text.count)
            switch block {
            case .heading(let level, let runs):
                let start = text.count
                headingBytes.append(start)
                appendRuns(runs)
                let scale = level == 1 ? 1.25 : level == 2 ? 1.12 : 1.0
                add(pango_attr_size_new_absolute(Int32(fontSize * scale * Double(PANGO_SCALE))), start, text.count)
                add(pango_attr_weight_new(PANGO_WEIGHT_BOLD), start, text.count)
                let (r, g, b) = colour(palette.heading)
                add(pango_attr_foreground_new(r, g, b), start, text.count)
            case .paragraph(let runs):
                appendRuns(runs)
            case .pause:
                let start = text.count
                cueBytes.append(start)
                text.append(contentsOf: Array("· · ·".utf8))
                let (r, g, b) = colour(palette.cue)
                add(pango_attr_foreground_new(r, g, b), start, text.count)
            }
        }
        text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                pango_layout_set_text(layout, $0.baseAddress, Int32($0.count))
            }
        }
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)
        blockStarts = blockBytes

        // Walk the lines once.
        var collected: [Line] = []
        let scale = Double(PANGO_SCALE)
        let iter = pango_layout_get_iter(layout)
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let baseline = Double(pango_layout_iter_get_baseline(iter)) / scale
            let line = pango_layout_iter_get_line_readonly(iter)!
            let start = Int(line.pointee.start_index)
            collected.append(Line(line: line, x: Double(logical.x) / scale, top: Double(logical.y) / scale,
                                  bottom: Double(logical.y + logical.height) / scale, baseline: baseline,
                                  startByte: start, endByte: start + Int(line.pointee.length)))
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)
        lines = collected

        var logicalTotal = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logicalTotal)
        height = Double(logicalTotal.height) / scale
        // A body line's height (the commonest): headings are taller, and the panel, the reading band and
        // `--lines` count lines of body text.
        let heights = collected.map { (($0.bottom - $0.top) * 4).rounded() / 4 }
        var counts: [Double: Int] = [:]
        for h in heights { counts[h, default: 0] += 1 }
        lineHeight = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? fontSize * 1.2

        func lineIndex(forByte b: Int) -> Int {
            var lo = 0, hi = collected.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if collected[mid].startByte <= b { lo = mid } else { hi = mid - 1 }
            }
            return lo
        }
        func nextCentre(_ k: Int) -> Double {
            k + 1 < collected.count ? collected[k + 1].centre : collected[k].centre + (collected[k].bottom - collected[k].top)
        }
        if unitsAreWords {
            var ys = wordStarts.map { b -> Double in
                let k = lineIndex(forByte: b)
                let l = collected[k]
                let f = l.endByte > l.startByte ? Double(b - l.startByte) / Double(l.endByte - l.startByte) : 0
                return l.centre + f * (nextCentre(k) - l.centre)
            }
            ys.append(collected.isEmpty ? 0 : nextCentre(collected.count - 1))
            // At a [PAUSE] cue the reading line rests on the cue's marker line, not on the next paragraph.
            let cueWords = script.pauseCueWordPositions
            for (word, byte) in zip(cueWords, cueBytes) {
                let k = Int(word)
                if k < ys.count { ys[k] = min(ys[k], collected[lineIndex(forByte: byte)].centre) }
            }
            unitY = ys
            cueUnits = cueWords
            markerUnits = script.markerWordPositions
            poseUnits = script.poseCues.map { Double($0.wordPosition) }
        } else {
            unitY = collected.map(\.centre) + [collected.isEmpty ? 0 : nextCentre(collected.count - 1)]
            cueUnits = cueBytes.map { Double(lineIndex(forByte: $0)) }
            markerUnits = headingBytes.map { Double(lineIndex(forByte: $0)) }
            // A pose cue in a script read in lines starts at the first line of the block it precedes.
            poseUnits = script.poseCues.map { cue in
                blockBytes.isEmpty ? 0 : Double(lineIndex(forByte: blockBytes[min(cue.blockIndex, blockBytes.count - 1)]))
            }
        }
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
    }

    /// The script's length in scroll units (words, or lines).
    public var unitCount: Double { Double(unitY.count - 1) }

    /// A scroll model that fits this layout: length and `[PAUSE]` cues in its units.
    public func scrollModel(speed: ScrollSpeed) -> ScrollModel {
        ScrollModel(length: unitCount, cues: cueUnits, speed: speed)
    }

    /// The layout y (pixels) that sits on the reading line at scroll position `units`. O(1).
    public func textY(atUnits units: Double) -> Double {
        guard unitY.count > 1 else { return unitY.first ?? 0 }
        let u = min(max(units, 0), Double(unitY.count - 1))
        let i = min(Int(u), unitY.count - 2)
        let f = u - Double(i)
        return unitY[i] + f * (unitY[i + 1] - unitY[i])
    }

    /// Draws the text lines that cross rows `top..<top+rows` of the layout into `cr`, whose origin is the
    /// layout's row `top`, column 0. Only those lines are visited (binary search), so the cost of a tile
    /// does not grow with the script.
    func drawLines(_ cr: OpaquePointer, top: Double, rows: Double) {
        lock.withLock {
            var lo = 0, hi = lines.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if lines[mid].bottom <= top { lo = mid + 1 } else { hi = mid }
            }
            palette.text.setSource(cr)
            var k = lo
            while k < lines.count, lines[k].top < top + rows {
                let l = lines[k]
                cairo_move_to(cr, l.x, l.baseline - top)
                pango_cairo_show_layout_line(cr, l.line)
                k += 1
            }
        }
    }

    /// The subject's lines around scroll position `units`, as laid out here: up to `before` lines above
    /// the one on the reading line, that one, and up to `after` below (blank lines between paragraphs
    /// skipped), each with its text and, when it is a block's first line, that block's index.
    public func linesAround(units: Double, before: Int, after: Int) -> [(text: String, reading: Bool, block: Int?)] {
        guard !lines.isEmpty else { return [] }
        let y = textY(atUnits: units)
        // Blank lines (between paragraphs) hold no text: Pango's line excludes the paragraph separator.
        func shown(_ k: Int) -> Bool { lines[k].endByte > lines[k].startByte }
        // The line on the reading line: the first whose bottom is below it (binary search; a blank line's
        // gap reads as the next line with text).
        var lo = 0, hi = lines.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if lines[mid].bottom <= y { lo = mid + 1 } else { hi = mid }
        }
        var at = min(lo, lines.count - 1)
        while at < lines.count - 1 && !shown(at) { at += 1 }
        while at > 0 && !shown(at) { at -= 1 }
        guard shown(at) else { return [] }
        var above: [Int] = [], below: [Int] = []
        var k = at - 1
        while k >= 0 && above.count < before { if shown(k) { above.insert(k, at: 0) }; k -= 1 }
        k = at + 1
        while k < lines.count && below.count < after { if shown(k) { below.append(k) }; k += 1 }
        let window = above + [at] + below
        return lock.withLock {
            // Each line's bytes lie inside the layout's text (Pango's own offsets), so no length is read.
            guard let text = pango_layout_get_text(layout) else { return [] }
            let base = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
            return window.map { k in
                let l = lines[k]
                let slice = UnsafeBufferPointer(start: base + l.startByte, count: l.endByte - l.startByte)
                let line = String(decoding: slice, as: UTF8.self).replacingOccurrences(of: "\u{200B}", with: "")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                let block = blockStarts.firstIndex { $0 >= l.startByte && $0 < l.endByte }
                return (line, k == at, block)
            }
        }
    }
}
