import DuoCore

//  The talent's clock (`--talent-clock`, issue 37): the wall clock, the take's count-up and the time to the
//  shot's target, each a small label over large figures, in a box level with the reading line on the
//  other side of the text from the recording light (the two columns beside the text; on a monitor too
//  narrow for them, over the lines already read at the panel's near end, as the light is at its far end).
//  Past the target the figures turn the warning colour and read "+0:12".

/// The clock's sprites for one scene: figures in white and in the warning colour, and each row's label.
///
/// Thread: immutable, Sendable; made off the streaming thread with the scene.
struct TalentClockSprites: Sendable {
    let clock: TalentClock
    let fontSize: Double
    let mirror: MirrorFlags
    let figures: [Character: CairoImage]
    let warningFigures: [Character: CairoImage]
    /// By row: the item's raw value, or "over" for the target's row past it.
    let labels: [String: CairoImage]
    /// The box's width for the widest figures and label, padding included.
    let width: Double
    let padding: Double

    static let warning = RGBA(1.00, 0.32, 0.22)
    static let labelColour = RGBA(0.78, 0.78, 0.74)

    /// The labels, in the subject's language (`--subject-language`): the talent reads them.
    static func labelText(_ key: String, _ language: Translator) -> String {
        switch key {
        case "clock": language.text("TIME")
        case "count-up": language.text("TAKE")
        case "target": language.text("TO GO")
        default: language.text("OVER")
        }
    }

    /// The language the labels are in.
    let language: String

    init(clock: TalentClock, fontSize: Double, mirror: MirrorFlags, language: Translator) {
        self.clock = clock
        self.language = language.language
        self.fontSize = fontSize
        self.mirror = mirror
        var white: [Character: CairoImage] = [:], warm: [Character: CairoImage] = [:]
        for c in "0123456789:+-" {
            white[c] = renderLabel(String(c), fontSize: fontSize, bold: true, colour: RGBA(1, 1, 1), mirror: mirror)
            warm[c] = renderLabel(String(c), fontSize: fontSize, bold: true, colour: Self.warning, mirror: mirror)
        }
        figures = white
        warningFigures = warm
        var labels: [String: CairoImage] = [:]
        let labelSize = max(7, (fontSize * 0.5).rounded())
        for item in clock.items {
            labels[item.rawValue] = renderLabel(Self.labelText(item.rawValue, language), fontSize: labelSize, bold: true, colour: Self.labelColour, mirror: mirror)
            if item == .target { labels["over"] = renderLabel(Self.labelText("over", language), fontSize: labelSize, bold: true, colour: Self.warning, mirror: mirror) }
        }
        self.labels = labels
        padding = (fontSize * 0.25).rounded()
        var widest = Self.textWidth(TalentClock.widestText, figures: white)
        for label in labels.values { widest = max(widest, Double(label.width)) }
        width = (widest + 2 * padding).rounded(.up)
    }

    /// The width `text` takes in these figures: digits at one advance (so the figures do not shift).
    static func textWidth(_ text: String, figures: [Character: CairoImage]) -> Double {
        let advance = Double(figures["0"]!.width)
        return text.reduce(0) { $0 + (($1.isNumber) ? advance : Double(figures[$1]?.width ?? 0)) }
    }

    /// The sprites for `clock` as large as fit `room` pixels of width (at most `largest`), reusing `old`'s.
    static func make(_ clock: TalentClock, largest: Double, room: Double, mirror: MirrorFlags, language: Translator,
                     old: TalentClockSprites?) -> TalentClockSprites? {
        guard !clock.isOff, room > 8 else { return nil }
        if let old, old.clock == clock, old.mirror == mirror, old.language == language.language, old.fontSize <= largest, old.width <= room,
           old.fontSize == largest || old.width >= room * 0.9 { return old }
        let first = TalentClockSprites(clock: clock, fontSize: largest, mirror: mirror, language: language)
        guard first.width > room else { return first }
        return TalentClockSprites(clock: clock, fontSize: max(6, (largest * room / first.width).rounded(.down)), mirror: mirror, language: language)
    }
}

extension SubjectScene {
    /// The box the clock takes at `time` (reader space), with its rows; nil when it shows nothing.
    func talentClockBox(at time: Int64) -> (box: FrameRect, rows: [TalentClock.Row])? {
        guard let sprites = talentClockSprites else { return nil }
        let rows = viewModel.talentClockRows(at: time)
        guard !rows.isEmpty else { return nil }
        let rowHeight = Double(sprites.figures["0"]!.height) + Double(sprites.labels.values.first?.height ?? 0)
        let h = (Double(rows.count) * rowHeight + Double(rows.count + 1) * sprites.padding / 2 + sprites.padding).rounded(.up)
        var w = sprites.width
        for row in rows { w = max(w, (TalentClockSprites.textWidth(row.text, figures: sprites.figures) + 2 * sprites.padding).rounded(.up)) }
        let p = geometry.panel, t = geometry.textArea
        let x: Double, y: Double
        if statusBeside {
            // The other column from the recording light's (which takes the side with more room).
            let recordingLeft = p.minX - t.minX > t.maxX - p.maxX
            x = recordingLeft ? p.maxX + sideGap : p.minX - sideGap - w
            y = min(max(geometry.readingLineY - h / 2, t.minY), t.maxY - h)
        } else {
            x = p.minX
            let band = (strip?.layout.lineHeight ?? fontSize * 1.2) * 1.2
            let above = geometry.readingLineY - band / 2 - sideGap - h
            y = above >= t.minY ? above : geometry.readingLineY + band / 2 + sideGap
        }
        return (FrameRect(x: x.rounded(), y: y.rounded(), width: w, height: h), rows)
    }

    /// The clock's items for a frame at `time`: its backdrop, then each row's label over its figures.
    func talentClockItems(at time: Int64) -> [OverlayItem] {
        guard let sprites = talentClockSprites, let (box, rows) = talentClockBox(at: time) else { return [] }
        var items = [fill(box, SubjectPalette.backdrop)]
        var y = box.minY + sprites.padding
        let advance = Double(sprites.figures["0"]!.width)
        for row in rows {
            let key = row.item == .target && row.over ? "over" : row.item.rawValue
            if let label = sprites.labels[key] {
                items.append(sprite(label, readerX: (box.midX - Double(label.width) / 2).rounded(), readerY: y.rounded()))
                y += Double(label.height)
            }
            let figures = row.over ? sprites.warningFigures : sprites.figures
            var x = box.midX - TalentClockSprites.textWidth(row.text, figures: figures) / 2
            for c in row.text {
                guard let g = figures[c] else { continue }
                let w = c.isNumber ? advance : Double(g.width)
                items.append(sprite(g, readerX: (x + (w - Double(g.width)) / 2).rounded(), readerY: y.rounded()))
                x += w
            }
            y += Double(sprites.figures["0"]!.height) + sprites.padding / 2
        }
        return items
    }

    /// The clock's box on the monitor at `time`, physical pixels (nil when it shows nothing).
    public func talentClockRectangle(at time: Int64) -> (x: Int, y: Int, width: Int, height: Int)? {
        talentClockBox(at: time).map { physical($0.box) }
    }

    /// The recording light's box on the monitor at `time`, physical pixels (nil when not recording).
    public func recordingLightRectangle(at time: Int64) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let elapsed = viewModel.recordingElapsedSeconds(at: time),
              case .fill(let x, let y, let w, let h, _)? = recordingItems(elapsed).first else { return nil }
        return (x, y, w, h)
    }

    /// Where the clock's sprites come from for this scene: the room beside the text opposite the
    /// recording light (or a third of the panel on a narrow monitor), figures at most the light's size.
    static func talentClockSprites(_ vm: SubjectViewModel, geometry: SubjectGeometry, statusBeside: Bool, clockFontSize: Double,
                                   sideGap: Double, language: Translator, previous: SubjectScene?) -> TalentClockSprites? {
        guard !vm.talentClock.isOff else { return nil }
        let p = geometry.panel, t = geometry.textArea
        let room: Double
        if statusBeside {
            let recordingLeft = p.minX - t.minX > t.maxX - p.maxX
            room = (recordingLeft ? t.maxX - p.maxX : p.minX - t.minX) - sideGap
        } else {
            room = p.width / 3
        }
        return TalentClockSprites.make(vm.talentClock, largest: (clockFontSize * 0.8).rounded(), room: room.rounded(.down),
                                       mirror: vm.mirror, language: language, old: previous?.talentClockSprites)
    }
}
