import Foundation

/// The files pocketsphinx needs to recognise one script: a bigram language model (ARPA text) of the
/// script's word sequence and a pronouncing dictionary of just its words, taken from cmudict. Restricted
/// to the script's words, recognition is good enough to align; the backoff still lets any script word
/// follow any other (skips, repeats, ad-libs recognised as script words).
///
/// Words missing from cmudict get a pronunciation from letter rules (`guessedWords`); words the rules
/// cannot spell (digits, letters outside a–z) are left out (`skippedWords`) and never recognised: the
/// aligner steps over them.
///
/// Thread: value type, Sendable; building is proportional to the script and the dictionary text (cmudict:
/// ~135,000 lines, parse off the streaming thread).
public struct ScriptLanguageModel: Sendable, Hashable {
    /// The ARPA text (`lm` property of the `pocketsphinx` element, as a file).
    public let arpa: String
    /// The dictionary text (`dict` property, as a file): `word PH ON ES`, alternates as `word(2)`.
    public let dictionary: String
    /// The words in the model and dictionary, sorted.
    public let vocabulary: [String]
    /// Script words not in the pronouncing dictionary, given a pronunciation by letter rules.
    public let guessedWords: [String]
    /// Script words left out of the model: no pronunciation could be made.
    public let skippedWords: [String]
    /// `contentHash(script)`: name the cached files by it.
    public let hash: String

    /// Bumped whenever the files this builds would change for the same script, so caches keyed by
    /// `contentHash` are not reused across versions.
    public static let formatVersion = 1
    /// Absolute discount of bigram counts: the probability mass left for words that never followed.
    static let discount = 0.5

    /// - Parameters:
    ///   - script: the script's tokens (the same the aligner uses).
    ///   - pronunciations: the text of a cmudict-format dictionary (`word  P R O N` per line).
    public init(script: VoiceScript, pronunciations: String) {
        let possessiveBases = script.tokens.compactMap { $0.hasSuffix("'s") ? String($0.dropLast(2)) : nil }
        let lexicon = ScriptLanguageModel.lexicon(pronunciations, keeping: Set(script.tokens + possessiveBases))
        var entries: [String: [[String]]] = [:]
        var guessed: Set<String> = [], skipped: Set<String> = []
        for token in Set(script.tokens) {
            if let known = lexicon[token] {
                entries[token] = known
            } else if token.hasSuffix("'s"), let base = lexicon[String(token.dropLast(2))] {
                // A possessive of a known word: the word and its s (cats, dogs, horses).
                entries[token] = base.map { $0 + ScriptLanguageModel.possessiveEnding(after: $0.last) }
            } else if let guess = ScriptLanguageModel.guessPronunciation(token) {
                entries[token] = [guess]
                guessed.insert(token)
            } else {
                skipped.insert(token)
            }
        }
        vocabulary = entries.keys.sorted()
        guessedWords = guessed.sorted()
        skippedWords = skipped.sorted()
        hash = ScriptLanguageModel.contentHash(script)

        var dictionaryText = ""
        for word in vocabulary {
            for (n, phones) in entries[word]!.enumerated() {
                dictionaryText += (n == 0 ? word : "\(word)(\(n + 1))") + " " + phones.joined(separator: " ") + "\n"
            }
        }
        dictionary = dictionaryText
        arpa = ScriptLanguageModel.arpaText(script: script, vocabulary: Set(vocabulary))
    }

    // MARK: Language model

    /// Sentences of the script (split after tokens that end one), without skipped words, each wrapped in
    /// `<s> … </s>`; unigrams add one to every count, bigrams are absolutely discounted with backoff.
    static func arpaText(script: VoiceScript, vocabulary: Set<String>) -> String {
        var sentences: [[String]] = []
        var sentence: [String] = []
        for (i, token) in script.tokens.enumerated() {
            if vocabulary.contains(token) { sentence.append(token) }
            if script.endsSentence[i] || i == script.tokens.count - 1 {
                if !sentence.isEmpty { sentences.append(["<s>"] + sentence + ["</s>"]) }
                sentence = []
            }
        }
        var unigramCounts: [String: Int] = [:]
        var bigramCounts: [String: [String: Int]] = [:]
        for s in sentences {
            for (i, word) in s.enumerated() {
                unigramCounts[word, default: 0] += 1
                if i > 0 { bigramCounts[s[i - 1], default: [:]][word, default: 0] += 1 }
            }
        }
        // Unigrams: add-one over the vocabulary and </s>; <s> is only a context (probability 0).
        let predicted = unigramCounts.keys.filter { $0 != "<s>" }.sorted()
        let total = predicted.reduce(0) { $0 + unigramCounts[$1]! }
        let denominator = Double(total + predicted.count)
        var unigram: [String: Double] = [:]
        for word in predicted { unigram[word] = Double(unigramCounts[word]! + 1) / denominator }

        var bigramLines: [String] = []
        var backoff: [String: Double] = [:]
        for context in bigramCounts.keys.sorted() {
            let followers = bigramCounts[context]!
            let contextTotal = Double(followers.values.reduce(0, +))
            var seenUnigramMass = 0.0
            for next in followers.keys.sorted() {
                let p = (Double(followers[next]!) - discount) / contextTotal
                bigramLines.append("\(log10String(p)) \(context) \(next)")
                seenUnigramMass += unigram[next] ?? 0
            }
            let left = discount * Double(followers.count) / contextTotal
            let unseen = 1 - seenUnigramMass
            backoff[context] = unseen > 1e-9 ? left / unseen : 1e-9
        }
        var text = "\\data\\\n"
        text += "ngram 1=\(predicted.count + 1)\n"
        text += "ngram 2=\(bigramLines.count)\n\n"
        text += "\\1-grams:\n"
        text += "-99.0000 <s> \(log10String(backoff["<s>"] ?? 1))\n"
        for word in predicted {
            if word == "</s>" {
                text += "\(log10String(unigram[word]!)) </s>\n"
            } else {
                text += "\(log10String(unigram[word]!)) \(word) \(log10String(backoff[word] ?? 1))\n"
            }
        }
        text += "\n\\2-grams:\n"
        for line in bigramLines { text += line + "\n" }
        text += "\n\\end\\\n"
        return text
    }

    static func log10String(_ p: Double) -> String {
        String(format: "%.4f", log10(max(p, 1e-99)))
    }

    // MARK: Dictionary

    /// The pronunciations of `words` in a cmudict-format text: `word P R O N`, `word(2) …` for alternates,
    /// `;;;` comments ignored. Lines are matched case-insensitively; stress digits are kept as written.
    ///
    /// cmudict is ~135,000 ASCII lines of which a script wants a few hundred, so ASCII lines are read as
    /// bytes and only a wanted word's line is split into strings (reading every line through Foundation
    /// took two seconds of each voice-follow start-up in a debug build); a line with any other character
    /// is read as text, line separators and all, exactly as before.
    static func lexicon(_ text: String, keeping words: Set<String>) -> [String: [[String]]] {
        var result: [String: [[String]]] = [:]
        // A line whose word's hash is not one of these is not wanted (the hash only sorts lines out).
        let wanted = Set(words.map { hash(Array($0.utf8), 0, $0.utf8.count) })
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start, ascii = true
                while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D {
                    if bytes[end] >= 0x80 { ascii = false }
                    end += 1
                }
                if ascii {
                    asciiEntry(bytes, start, end, wanted: wanted, keeping: words, into: &result)
                } else {
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).enumerateLines { line, _ in
                        textEntry(line, keeping: words, into: &result)
                    }
                }
                start = end + 1
            }
        }
        return result
    }

    /// FNV-1a of `bytes[from..<to]` lower-cased (ASCII), as an Int.
    private static func hash<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ from: Int, _ to: Int) -> Int
        where Bytes.Index == Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var i = from
        while i < to {
            let b = bytes[i]
            h = (h ^ UInt64(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)) &* 0x0000_0100_0000_01b3
            i += 1
        }
        return Int(truncatingIfNeeded: h)
    }

    /// One ASCII line, `bytes[start..<end]`, of a cmudict-format text: the same as `textEntry` gives for
    /// it, in plain index loops (a debug build runs generic collection code slowly).
    private static func asciiEntry(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, wanted: Set<Int>,
                                   keeping words: Set<String>, into result: inout [String: [[String]]]) {
        func blank(_ i: Int) -> Bool { bytes[i] == 0x20 || bytes[i] == 0x09 }
        if end - start >= 3, bytes[start] == 0x3B, bytes[start + 1] == 0x3B, bytes[start + 2] == 0x3B { return }   // ;;;
        var wordStart = start
        while wordStart < end, blank(wordStart) { wordStart += 1 }
        var fieldEnd = wordStart
        while fieldEnd < end, !blank(fieldEnd) { fieldEnd += 1 }
        guard fieldEnd > wordStart else { return }
        // `word(2)`: an alternate of `word` (the last "(" with only digits between it and the ")" ending).
        var wordEnd = fieldEnd
        if bytes[fieldEnd - 1] == 0x29 {
            var i = fieldEnd - 2
            while i >= wordStart, bytes[i] >= 0x30, bytes[i] <= 0x39 { i -= 1 }
            if i >= wordStart, bytes[i] == 0x28 { wordEnd = i }
        }
        guard wanted.contains(hash(bytes, wordStart, wordEnd)) else { return }
        let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[wordStart..<wordEnd]), as: UTF8.self).lowercased()
        guard words.contains(key) else { return }
        var phones: [String] = []
        var i = fieldEnd
        while i < end {
            while i < end, blank(i) { i += 1 }
            let phone = i
            while i < end, !blank(i) { i += 1 }
            if i > phone { phones.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[phone..<i]), as: UTF8.self)) }
        }
        guard !phones.isEmpty else { return }
        result[key, default: []].append(phones)
    }

    /// One line of a cmudict-format text, as text.
    private static func textEntry(_ line: String, keeping words: Set<String>, into result: inout [String: [[String]]]) {
        guard !line.hasPrefix(";;;") else { return }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 2 else { return }
        var word = fields[0].lowercased()
        if word.hasSuffix(")"), let open = word.lastIndex(of: "("),
           word[word.index(after: open)..<word.index(before: word.endIndex)].allSatisfy(\.isNumber) {
            word = String(word[..<open])
        }
        guard words.contains(word) else { return }
        result[word, default: []].append(fields.dropFirst().map(String.init))
    }

    /// The sound of a possessive 's after a word ending in `phone` (stress digits ignored).
    static func possessiveEnding(after phone: String?) -> [String] {
        let last = phone.map { String($0.filter(\.isLetter)) } ?? ""
        if ["S", "Z", "SH", "ZH", "CH", "JH"].contains(last) { return ["IH", "Z"] }
        if ["P", "T", "K", "F", "TH"].contains(last) { return ["S"] }
        return ["Z"]
    }

    /// The names of the letters, for spelling abbreviations (GTK, QA, PNG).
    static let letterNames: [Character: [String]] = [
        "a": ["EY"], "b": ["B", "IY"], "c": ["S", "IY"], "d": ["D", "IY"], "e": ["IY"], "f": ["EH", "F"],
        "g": ["JH", "IY"], "h": ["EY", "CH"], "i": ["AY"], "j": ["JH", "EY"], "k": ["K", "EY"], "l": ["EH", "L"],
        "m": ["EH", "M"], "n": ["EH", "N"], "o": ["OW"], "p": ["P", "IY"], "q": ["K", "Y", "UW"], "r": ["AA", "R"],
        "s": ["EH", "S"], "t": ["T", "IY"], "u": ["Y", "UW"], "v": ["V", "IY"],
        "w": ["D", "AH", "B", "AH", "L", "Y", "UW"], "x": ["EH", "K", "S"], "y": ["W", "AY"], "z": ["Z", "IY"],
    ]

    /// A pronunciation (CMU phones, no stress) from letter rules, for words cmudict lacks; nil for words with
    /// characters other than a–z and apostrophes. Words of up to three letters and words without vowels
    /// (up to six letters) are taken for abbreviations and spelled out. Rough, but enough for the
    /// recogniser to find a name.
    public static func guessPronunciation(_ word: String) -> [String]? {
        let letters = Array(word.lowercased().filter { $0 != "'" })
        guard !letters.isEmpty, letters.allSatisfy({ ("a"..."z").contains($0) }) else { return nil }
        let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y"]
        if letters.count <= 3 || (letters.count <= 6 && !letters.contains(where: vowels.contains)) {
            return letters.flatMap { letterNames[$0]! }
        }
        var phones: [String] = []
        var i = 0
        func at(_ k: Int) -> Character? { k >= 0 && k < letters.count ? letters[k] : nil }
        func rest(_ s: String) -> Bool {
            let r = Array(s)
            guard i + r.count <= letters.count else { return false }
            return Array(letters[i..<(i + r.count)]) == r
        }
        // Longest patterns first.
        let patterns: [(String, [String])] = [
            ("ation", ["EY", "SH", "AH", "N"]), ("tion", ["SH", "AH", "N"]), ("sion", ["ZH", "AH", "N"]), ("ough", ["AO"]), ("augh", ["AO"]),
            ("igh", ["AY"]), ("tch", ["CH"]), ("dge", ["JH"]), ("sch", ["S", "K"]),
            ("ch", ["CH"]), ("sh", ["SH"]), ("th", ["TH"]), ("ph", ["F"]), ("wh", ["W"]), ("ck", ["K"]),
            ("ng", ["NG"]), ("qu", ["K", "W"]), ("gh", ["G"]), ("kn", ["N"]), ("wr", ["R"]), ("rh", ["R"]),
            ("ee", ["IY"]), ("ea", ["IY"]), ("ie", ["IY"]), ("oo", ["UW"]), ("ou", ["AW"]), ("ow", ["OW"]),
            ("oa", ["OW"]), ("ai", ["EY"]), ("ay", ["EY"]), ("ei", ["EY"]), ("ey", ["EY"]), ("oi", ["OY"]),
            ("oy", ["OY"]), ("au", ["AO"]), ("aw", ["AO"]), ("ew", ["UW"]), ("ue", ["UW"]),
            ("er", ["ER"]), ("ir", ["ER"]), ("ur", ["ER"]), ("ar", ["AA", "R"]), ("or", ["AO", "R"]),
        ]
        let single: [Character: [String]] = [
            "a": ["AE"], "b": ["B"], "d": ["D"], "e": ["EH"], "f": ["F"], "h": ["HH"], "i": ["IH"],
            "j": ["JH"], "k": ["K"], "l": ["L"], "m": ["M"], "n": ["N"], "o": ["AA"], "p": ["P"], "r": ["R"],
            "s": ["S"], "t": ["T"], "u": ["AH"], "v": ["V"], "w": ["W"], "x": ["K", "S"], "z": ["Z"],
        ]
        outer: while i < letters.count {
            let c = letters[i]
            // A final e after a consonant is silent (make, note), except in short words (be, he).
            if c == "e", i == letters.count - 1, letters.count > 3, let p = at(i - 1), !vowels.contains(p) {
                break
            }
            // Doubled consonants sound once.
            if let p = at(i - 1), p == c, !vowels.contains(c) { i += 1; continue }
            for (pattern, sound) in patterns where rest(pattern) {
                // "kn" only at the start (knee), "gh" sounds only at the start (ghost), silent elsewhere.
                if pattern == "kn" && i != 0 { continue }
                if pattern == "gh" && i != 0 { i += 2; continue outer }
                phones += sound
                i += pattern.count
                continue outer
            }
            let next = at(i + 1)
            // A vowel before one consonant and a final e is long (note, time, cute).
            let magicE = letters.count > 3 && i == letters.count - 3 && letters[letters.count - 1] == "e"
                && next.map { !vowels.contains($0) } == true
            let long: [Character: String] = ["a": "EY", "i": "AY", "o": "OW", "u": "UW"]
            if magicE, let sound = long[c] {
                phones.append(sound)
                i += 1
                continue
            }
            switch c {
            case "o" where i == letters.count - 1 && letters.count > 2:
                phones += ["OW"] // hello, gizmo
            case "c":
                phones += (next.map { "eiy".contains($0) } ?? false) ? ["S"] : ["K"]
            case "g":
                phones += (next.map { "ey".contains($0) } ?? false) ? ["JH"] : ["G"]
            case "y":
                if i == 0 { phones += ["Y"] } else if i == letters.count - 1 { phones += ["IY"] } else { phones += ["IH"] }
            default:
                phones += single[c] ?? []
            }
            i += 1
        }
        return phones.isEmpty ? nil : phones
    }

    // MARK: Hash

    /// FNV-1a 64 of the format version and the script's tokens with their sentence ends, as 16 hex
    /// digits: equal scripts (for recognition) give equal hashes, so the files can be cached by it.
    public static func contentHash(_ script: VoiceScript) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        for byte in "voice-lm-\(formatVersion)\n".utf8 { add(byte) }
        for (token, ends) in zip(script.tokens, script.endsSentence) {
            for byte in token.utf8 { add(byte) }
            add(ends ? 0x0A : 0x20)
        }
        return String(hash, radix: 16).leftPadded(to: 16)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
