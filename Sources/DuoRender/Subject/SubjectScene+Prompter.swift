import DuoCore

//  The subject view's prompter layout: the text panel over the whole text area, its lines dimmed away
//  from the reading line and faded out at its edges (so no line is ever cut mid-glyph), the shot card in
//  a band of its own, the recording light and clock beside the reading line, and the cue to the talent.

extension SubjectScene {
    /// The gap between the panel and the things beside it, pixels.
    var sideGap: Double { (fontSize * 0.4).rounded() }

    /// Where the shot card goes while it shows at `time` (reader space): the band on the far side of the
    /// text area from the reading line; nil once the take records (or without a card).
    func cardPlace(at time: Int64) -> (x: Double, y: Double)? {
        guard let card = shotCard, viewModel.recordingElapsedSeconds(at: time) == nil else { return nil }
        let t = geometry.textArea
        let x = (t.midX - Double(card.width) / 2).rounded()
        return cardBelow ? (x, (t.maxY - sideGap - Double(card.height)).rounded()) : (x, (t.minY + sideGap).rounded())
    }

    /// Whether the card's band is at the bottom of the text area (the reading line is in its upper half).
    var cardBelow: Bool { geometry.readingLineY < geometry.textArea.midY }

    /// The text panel at `time`: the whole text area's height, less the shot card's band while it shows.
    func textPanel(at time: Int64) -> FrameRect {
        let p = geometry.panel
        guard let card = shotCard, let place = cardPlace(at: time) else { return p }
        func even(_ v: Double) -> Double { (v / 2).rounded(.down) * 2 }
        if cardBelow {
            let bottom = even(place.y - sideGap)
            return FrameRect(x: p.x, y: p.y, width: p.width, height: max(2, bottom - p.y))
        }
        let top = even(place.y + Double(card.height) + sideGap + 1)
        return FrameRect(x: p.x, y: top, width: p.width, height: max(2, even(p.maxY - top)))
    }

    /// Fills of the panel's own colour that dim each line by its distance from the reading band (a
    /// little per line, at most 60 %) and hide the rows at the panel's edges entirely, fading in over a
    /// line and a half (quadratically, so half a line at an edge is all but gone): a line scrolling past an edge fades away instead of being cut mid-glyph. The
    /// reading band itself is never dimmed. Steps of a quarter line, so the fade looks smooth.
    func fadeFills(_ panel: FrameRect, lineHeight lh: Double) -> [OverlayItem] {
        let band = lh * 1.2
        let bandTop = geometry.readingLineY - band / 2, bandBottom = geometry.readingLineY + band / 2
        let step = max(2, (lh / 4).rounded())
        let hidden = (lh * 0.35).rounded(), fade = lh * 1.5
        var items: [OverlayItem] = []
        var y = panel.minY
        var run: (y: Double, alpha: Double)? = nil
        func flush(_ end: Double) {
            if let r = run, r.alpha > 0.01, end > r.y {
                items.append(fill(FrameRect(x: panel.x, y: r.y, width: panel.width, height: end - r.y), RGBA(palette.panel.r, palette.panel.g, palette.panel.b, r.alpha)))
            }
        }
        while y < panel.maxY {
            let h = min(step, panel.maxY - y)
            var alpha = 0.0
            if y + h <= bandTop || y >= bandBottom {
                let distance = y + h <= bandTop ? bandTop - (y + h) : y - bandBottom
                alpha = min(0.6, 0.15 + 0.15 * distance / lh)
                let edge = min(y - panel.minY, panel.maxY - (y + h))
                let shown = min(1, max(0, (edge - hidden) / fade))
                alpha = max(alpha, 1 - shown * shown)
            }
            alpha = (alpha * 20).rounded() / 20
            if run?.alpha != alpha { flush(y); run = (y, alpha) }
            y += h
        }
        flush(panel.maxY)
        return items
    }

    /// The recording light's box: "REC" over the clock, each centred.
    static func statusSize(recordingLabel: CairoImage, digits: [Character: CairoImage]) -> (width: Double, height: Double) {
        let advance = Double(digits["0"]!.width)
        let clock = 4 * advance + Double(digits[":"]!.width)
        let gap = Double(recordingLabel.height) * 0.2
        return ((max(Double(recordingLabel.width), clock) + 2 * gap).rounded(.up),
                (Double(recordingLabel.height) + Double(digits["0"]!.height) + 2 * gap).rounded(.up))
    }

    /// The recording light and the take's clock, large, level with the reading line: in the column beside
    /// the text (on the side away from a corner lens), or, on a monitor too narrow for that column, over
    /// the lines already read, at the panel's far end.
    func recordingItems(_ elapsed: Int) -> [OverlayItem] {
        let clock = Self.recordingClock(elapsed)
        let glyphs = clock.compactMap { digits[$0] }
        let advance = Double(digits["0"]!.width)
        var clockWidth = 0.0
        for (c, g) in zip(clock, glyphs) { clockWidth += c == ":" ? Double(g.width) : advance }
        let size = Self.statusSize(recordingLabel: recordingLabel, digits: digits)
        let gap = Double(recordingLabel.height) * 0.2
        let boxWidth = max(size.width, (clockWidth + 2 * gap).rounded(.up)), boxHeight = size.height
        let p = geometry.panel, t = geometry.textArea
        let boxX: Double, boxY: Double
        if statusBeside {
            let left = p.minX - t.minX > t.maxX - p.maxX
            boxX = left ? p.minX - sideGap - boxWidth : p.maxX + sideGap
            boxY = min(max(geometry.readingLineY - boxHeight / 2, t.minY), t.maxY - boxHeight)
        } else {
            boxX = p.maxX - boxWidth
            let band = (strip?.layout.lineHeight ?? fontSize * 1.2) * 1.2
            let above = geometry.readingLineY - band / 2 - sideGap - boxHeight
            boxY = above >= t.minY ? above : geometry.readingLineY + band / 2 + sideGap
        }
        var items = [fill(FrameRect(x: boxX.rounded(), y: boxY.rounded(), width: boxWidth, height: boxHeight), SubjectPalette.backdrop)]
        items.append(sprite(recordingLabel, readerX: (boxX + (boxWidth - Double(recordingLabel.width)) / 2).rounded(), readerY: (boxY + gap).rounded()))
        var x = boxX + (boxWidth - clockWidth) / 2
        let y = (boxY + gap + Double(recordingLabel.height)).rounded()
        for (c, g) in zip(clock, glyphs) {
            let w = c == ":" ? Double(g.width) : advance
            items.append(sprite(g, readerX: (x + (w - Double(g.width)) / 2).rounded(), readerY: y))
            x += w
        }
        return items
    }

    /// The cue's sprite: bold dark words on the cue colour, as large as the text (smaller when the words
    /// would be wider than the panel).
    static func cueLabel(_ cue: SubjectCue?, fontSize: Double, maximumWidth: Double, mirror: MirrorFlags,
                         language: Translator, previous: SubjectScene?) -> CairoImage? {
        guard let cue else { return nil }
        if let old = previous, old.viewModel.cue == cue, old.viewModel.mirror == mirror, old.fontSize == fontSize,
           old.language.language == language.language,
           let label = old.cueLabel, Double(label.width) <= maximumWidth {
            return label
        }
        func label(_ size: Double) -> CairoImage {
            renderLabel(cue.text(in: language), fontSize: size, bold: true, colour: RGBA(0.05, 0.05, 0.05), mirror: mirror,
                        backdrop: SubjectPalette.cueBackdrop, padding: size * 0.3)
        }
        let size = max(12, fontSize.rounded())
        let first = label(size)
        guard Double(first.width) > maximumWidth, maximumWidth > 0 else { return first }
        return label(max(6, (size * maximumWidth / Double(first.width)).rounded(.down)))
    }

    /// The cue, next to the reading line on the side of the lines already read (above it), so it never
    /// covers what is still to be read; below it only when there is no room above.
    func cueItems(_ cue: CairoImage) -> [OverlayItem] {
        let p = geometry.panel
        let band = (strip?.layout.lineHeight ?? fontSize * 1.2) * 1.2
        let h = Double(cue.height)
        let gap = (fontSize * 0.15).rounded()
        var y = geometry.readingLineY - band / 2 - gap - h
        if y < geometry.textArea.minY { y = geometry.readingLineY + band / 2 + gap }
        return [sprite(cue, readerX: (p.midX - Double(cue.width) / 2).rounded(), readerY: y.rounded())]
    }

    /// The cue's box on the monitor at `time`, physical pixels (nil when none shows).
    public func cueRectangle(at time: Int64) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let cue = cueLabel, viewModel.cueShown(at: time), case .sprite(_, let x, let y)? = cueItems(cue).first else { return nil }
        return (x, y, cue.width, cue.height)
    }

    /// The shot card's box on the monitor at `time`, physical pixels (nil when none shows).
    public func shotCardRectangle(at time: Int64) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let card = shotCard, let place = cardPlace(at: time) else { return nil }
        return physical(FrameRect(x: place.x, y: place.y, width: Double(card.width), height: Double(card.height)))
    }

    /// The text panel on the monitor at `time`, physical pixels (nil without text).
    public func textPanelRectangle(at time: Int64) -> (x: Int, y: Int, width: Int, height: Int)? {
        strip == nil ? nil : physical(textPanel(at: time))
    }
}
