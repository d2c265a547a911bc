import Foundation

//  Notes and flags on the take's clock (issue 39): `{"cmd":"note","code":"BUG","text":"…"}` and
//  `{"cmd":"flag"}` from the control socket, the web remote and OSC. A note made while a take records is
//  the take's (seconds into it, its shot); one made between takes is the session's. Pure: the notes part
//  (DuoCLI) asks `NoteBook` for the note and carries it to the sidecar, the events and the chapters.

/// The codes a note may carry (`--note-codes`, also a settings-file key): `BUG`, `Q`, `GOOD`, `PII` by
/// default. Codes are upper-case words of letters, digits, `-` and `_`, up to 16 characters.
///
/// Thread: value type, Sendable; pure.
public struct NoteCodeBook: Sendable, Equatable {
    public static let standard = NoteCodeBook(codes: ["BUG", "Q", "GOOD", "PII"])
    /// The code a flag carries (a flag is an unnamed mark; it is no code of the book).
    public static let flagCode = "FLAG"
    /// The longest note text, in characters.
    public static let longestText = 500

    public let codes: [String]
    init(codes: [String]) { self.codes = codes }

    /// Parses `--note-codes BUG,Q,GOOD,PII`; each a one-line error saying what a good list looks like.
    public static func parse(_ text: String) throws(DuoError) -> NoteCodeBook {
        switch read(text) {
        case .success(let book): return book
        case .failure(.malformed): throw .usage(.text("--note-codes takes a comma-separated list of codes (letters, digits, - and _, up to 16 each), such as --note-codes BUG,Q,GOOD,PII"))
        case .failure(.twice): throw .usage(.text("--note-codes names a code twice (%s); list each code once", text))
        case .failure(.flag): throw .usage(.text("--note-codes: %s is the flag's own code; leave it out of the list", flagCode))
        }
    }

    /// Parses a shot list's `note-codes: BUG, Q, GOOD, PII` line; `place` is `FILE:LINE`, which starts each
    /// one-line error.
    public static func parse(_ text: String, at place: String) throws(DuoError) -> NoteCodeBook {
        switch read(text) {
        case .success(let book): return book
        case .failure(.malformed): throw .input(.text("%s: note-codes: takes a comma-separated list of codes (letters, digits, - and _, up to 16 each), such as note-codes: BUG, Q, GOOD, PII", place))
        case .failure(.twice): throw .input(.text("%s: note-codes: names a code twice (%s); list each code once", place, text))
        case .failure(.flag): throw .input(.text("%s: note-codes: %s is the flag's own code; leave it out of the list", place, flagCode))
        }
    }

    /// What is wrong with a list of codes.
    ///
    /// Thread: value type.
    enum Problem: Error { case malformed, twice, flag }

    private static func read(_ text: String) -> Result<NoteCodeBook, Problem> {
        let codes = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        guard !codes.isEmpty, codes.allSatisfy({ !$0.isEmpty && $0.count <= 16 && $0.allSatisfy(allowed.contains) }) else { return .failure(.malformed) }
        guard Set(codes).count == codes.count else { return .failure(.twice) }
        guard !codes.contains(flagCode) else { return .failure(.flag) }
        return .success(NoteCodeBook(codes: codes))
    }

    /// Where the run's code book came from: the command line's `--note-codes` wins over the shot list's
    /// `note-codes:` line, which wins over the settings file's `note-codes=`; else the standard book.
    ///
    /// Thread: value type.
    public enum Source: Sendable { case commandLine, shotList, settingsFile, standard }

    /// The book a run uses, and where it came from (command line > shot list > settings file > default).
    public static func resolve(commandLine: NoteCodeBook?, shotList: NoteCodeBook?, settingsFile: NoteCodeBook?) -> (book: NoteCodeBook, source: Source) {
        if let commandLine { return (commandLine, .commandLine) }
        if let shotList { return (shotList, .shotList) }
        if let settingsFile { return (settingsFile, .settingsFile) }
        return (.standard, .standard)
    }

    /// The code as the book spells it (any case accepted), or a one-line error naming the book.
    public func check(_ code: String) throws(DuoError) -> String {
        let upper = code.uppercased()
        guard codes.contains(upper) else {
            throw .usage(.text("note: unknown code \"%s\"; use one of %s (set them with --note-codes)", TerminalText.escaped(code, limit: 20), codes.joined(separator: ", ")))
        }
        return upper
    }
}

/// One note or flag: when (seconds into the take, and the wall clock), in which take and shot, its code
/// and text. In a take's sidecar (`notes`), the session's notes file (`duo-session-notes.jsonl`, one per
/// line), the `note` event, the report and the exports.
///
/// Thread: value type, Sendable.
public struct TakeNote: Codable, Sendable, Equatable {
    /// "note" or "flag".
    public var kind: String
    /// The take it was made in; nil between takes (the session's).
    public var take: Int?
    /// Seconds into the take (nil between takes), to the millisecond.
    public var atSeconds: Double?
    /// ISO 8601 with milliseconds, local offset.
    public var wall: String
    public var shot: String?
    /// A code of the book, or `FLAG` for a flag.
    public var code: String
    /// Empty for a flag.
    public var text: String

    public init(kind: String, take: Int?, atSeconds: Double?, wall: String, shot: String?, code: String, text: String) {
        self.kind = kind; self.take = take; self.atSeconds = atSeconds; self.wall = wall
        self.shot = shot; self.code = code; self.text = text
    }

    /// The chapter title: the code, then the text (a flag: `FLAG`).
    public var title: String { text.isEmpty ? code : "\(code): \(text)" }

    /// The session notes file in a folder of takes (notes made between takes).
    public static let sessionFile = "duo-session-notes.jsonl"

    /// A line of the session notes file (no newline).
    public var jsonLine: Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(self)) ?? Data()
    }

    /// The session notes file's notes; lines that do not read are left out (and counted).
    public static func readSession(_ data: Data) -> (notes: [TakeNote], unreadable: Int) {
        var notes: [TakeNote] = [], bad = 0
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            if let note = try? JSONDecoder().decode(TakeNote.self, from: Data(line)) { notes.append(note) } else { bad += 1 }
        }
        return (notes, bad)
    }
}

/// Makes notes: the take recording (its number and start) and the shot decide where a note belongs.
///
/// Thread: value type; owned by the run director's actor. Time is a parameter (pipeline running time, ns).
public struct NoteBook: Sendable {
    public let codes: NoteCodeBook
    /// Every note of the run, in order.
    public private(set) var notes: [TakeNote] = []

    public init(codes: NoteCodeBook = .standard) { self.codes = codes }

    /// A note (`code` nil: the book's first) or a flag (`flag`), made at running time `now` and wall
    /// clock `wall`; `take`: the take recording and its start, nil between takes.
    public mutating func make(flag: Bool, code: String?, text: String, at now: Int64, wall: Date,
                              take: (number: Int, start: Int64)?, shot: String?) throws(DuoError) -> TakeNote {
        guard text.count <= NoteCodeBook.longestText else {
            throw .usage(.text("note: the text has %s characters; keep a note to %s", text.count, NoteCodeBook.longestText))
        }
        let checked = flag ? NoteCodeBook.flagCode : try codes.check(code ?? codes.codes[0])
        let seconds = take.map { (Double(max(now - $0.start, 0)) / 1e6).rounded() / 1e3 }
        let note = TakeNote(kind: flag ? "flag" : "note", take: take?.number, atSeconds: seconds, wall: TakeSidecar.timestamp(wall),
                            shot: shot, code: checked, text: flag ? "" : text)
        notes.append(note)
        return note
    }

    /// Take `number`'s notes, in order.
    public func notes(ofTake number: Int) -> [TakeNote] { notes.filter { $0.take == number } }
}

/// One chapter of a take's file: seconds into the take and its title.
///
/// Thread: value type, Sendable.
public struct TakeChapter: Sendable, Equatable {
    public var atSeconds: Double
    public var title: String
    public init(atSeconds: Double, title: String) { self.atSeconds = atSeconds; self.title = title }

    /// A take's chapters: its start (titled with the shot when there is one), then each note and flag and
    /// each script heading passed (`headings`, titled `§ Heading`), in time order.
    public static func of(take number: Int, shot: String?, notes: [TakeNote], headings: [TakeSidecar.Marker] = []) -> [TakeChapter] {
        let later = notes.compactMap { note in note.atSeconds.map { TakeChapter(atSeconds: $0, title: note.title) } }
            + headings.map { TakeChapter(atSeconds: $0.atSeconds, title: "§ \($0.title)") }
        return [TakeChapter(atSeconds: 0, title: shot.map { "Take \(number) · shot \($0)" } ?? "Take \(number)")]
            + later.enumerated().sorted { ($0.element.atSeconds, $0.offset) < ($1.element.atSeconds, $1.offset) }.map(\.element)
    }
}

extension TakeChapter {
    /// Matroska's chapters XML (what `mkvpropedit --chapters` reads): one edition, each chapter from its
    /// start to the next one's (the last to `lengthSeconds`), titled in UTF-8.
    public static func matroskaXML(_ chapters: [TakeChapter], lengthSeconds: Double) -> String {
        func time(_ s: Double) -> String {
            let ns = Int64((max(s, 0) * 1e9).rounded())
            return String(format: "%02lld:%02lld:%02lld.%09lld", ns / 3_600_000_000_000, (ns / 60_000_000_000) % 60,
                          (ns / 1_000_000_000) % 60, ns % 1_000_000_000)
        }
        func escape(_ t: String) -> String {
            t.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                .filter { $0 == "\t" || $0 == "\n" || !($0.asciiValue.map { $0 < 32 } ?? false) }
        }
        let sorted = chapters.enumerated().sorted { ($0.element.atSeconds, $0.offset) < ($1.element.atSeconds, $1.offset) }.map(\.element)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Chapters>\n  <EditionEntry>\n"
        for (i, c) in sorted.enumerated() {
            let end = max(i + 1 < sorted.count ? sorted[i + 1].atSeconds : lengthSeconds, c.atSeconds)
            xml += "    <ChapterAtom><ChapterTimeStart>\(time(c.atSeconds))</ChapterTimeStart><ChapterTimeEnd>\(time(end))</ChapterTimeEnd>"
                + "<ChapterDisplay><ChapterString>\(escape(c.title))</ChapterString><ChapterLanguage>und</ChapterLanguage></ChapterDisplay></ChapterAtom>\n"
        }
        return xml + "  </EditionEntry>\n</Chapters>\n"
    }
}
