import DuoCore
import DuoPlatform
import Foundation

/// Voice-follow's cached model files (`<hash>.lm`, `<hash>.dict` and `<hash>.sum`, their checksums) in
/// `$XDG_CACHE_HOME/duo-capture/voice`. The recogniser opens what it is given with no care at all: a FIFO
/// or a link to /dev/zero hangs it inside a state change, a truncated language model crashes it, a
/// malformed n-gram line hangs it. So a cached file is used only when it is a regular file (never through
/// a link), of a bounded size, whose text parses (the ARPA file's `\data\` counts, sections and `\end\`;
/// the dictionary's lines) and matches the checksum written beside it. Anything else is rebuilt, each
/// file written beside its place and renamed into it, so a half-written model is never left under its name.
///
/// Thread: stateless; called on the main thread at start-up and off the run director when the script changes.
enum VoiceModelCache {
    /// Larger than any model a 2 MB script (the script limit) makes: a bigger file is not one of ours.
    static let languageModelLimit = 64 * 1024 * 1024
    static let dictionaryLimit = 16 * 1024 * 1024
    static let sumLimit = 4096
    static let sumHeader = "duo-capture voice model 1"

    /// The checksum file beside `files`.
    static func sumPath(_ files: VoiceModelFiles) -> String {
        (files.languageModel as NSString).deletingPathExtension + ".sum"
    }

    enum Check: Equatable {
        case valid
        /// Not cached yet (or from an older version without a checksum): built without a word.
        case absent
        /// There, but not a model this program wrote: why, for the notice that it is rebuilt.
        case damaged(String)
    }

    /// Whether the cached files for `files` can be handed to the recogniser.
    static func check(_ files: VoiceModelFiles) -> Check {
        let sumFile = sumPath(files)
        let entries = [(files.languageModel, languageModelLimit), (files.dictionary, dictionaryLimit), (sumFile, sumLimit)]
        var contents: [[UInt8]] = []
        for (path, limit) in entries {
            switch CacheFile.readRegular(path, limit: limit) {
            case .success(let bytes): contents.append(bytes)
            case .failure(.absent): return .absent
            case .failure(.unusable(let why)): return .damaged("\((path as NSString).lastPathComponent) \(why)")
            }
        }
        let (lm, dict, sum) = (contents[0], contents[1], contents[2])
        guard String(decoding: sum, as: UTF8.self) == sumText(languageModel: lm, dictionary: dict) else {
            return .damaged(tr("its checksum does not match"))
        }
        if let problem = arpaProblem(lm, named: (files.languageModel as NSString).lastPathComponent) { return .damaged(problem) }
        if let problem = dictionaryProblem(dict, named: (files.dictionary as NSString).lastPathComponent) { return .damaged(problem) }
        return .valid
    }

    /// Writes the model (each file beside its place, then renamed into it; the checksum last, so a model
    /// cut short by a crash is never taken as whole).
    static func store(_ files: VoiceModelFiles, arpa: String, dictionary: String) throws(DuoError) {
        let directory = (files.languageModel as NSString).deletingLastPathComponent
        let lm = Array(arpa.utf8), dict = Array(dictionary.utf8)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try CacheFile.replace(sumPath(files), with: [])   // no checksum while the files change
            try CacheFile.replace(files.languageModel, with: lm)
            try CacheFile.replace(files.dictionary, with: dict)
            try CacheFile.replace(sumPath(files), with: Array(sumText(languageModel: lm, dictionary: dict).utf8))
        } catch {
            throw .runtime(tr("cannot write voice-follow's model to %s; set XDG_CACHE_HOME to a writable folder", directory))
        }
    }

    /// Forgets the cached model (its checksum): the next run with this script builds it again.
    static func forget(_ files: VoiceModelFiles) {
        try? FileManager.default.removeItem(atPath: sumPath(files))
    }

    static func sumText(languageModel: [UInt8], dictionary: [UInt8]) -> String {
        "\(sumHeader)\nlm \(fnv1a(languageModel)) \(languageModel.count)\ndict \(fnv1a(dictionary)) \(dictionary.count)\n"
    }

    /// FNV-1a, 64 bits, hex: enough to tell a damaged file from the one written.
    static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// What is wrong with an ARPA language model (nil: it is well formed): `\data\` and its `ngram N=count`
    /// lines, then each `\N-grams:` section with exactly that many entries of a probability, N words and
    /// an optional back-off weight, then `\end\`. `name` is the file's, for the sentence.
    static func arpaProblem(_ bytes: [UInt8], named name: String) -> String? {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }[...]
        func isBlank(_ line: ArraySlice<UInt8>) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
        func skipBlanks() { while let first = lines.first, isBlank(first) { lines.removeFirst() } }
        func text(_ line: ArraySlice<UInt8>) -> String { String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
        skipBlanks()
        guard let header = lines.first, text(header) == "\\data\\" else { return tr("%s has no \\data\\ header", name) }
        lines.removeFirst()
        var counts: [Int] = []
        while let line = lines.first, !isBlank(line) {
            let t = text(line)
            let prefix = "ngram \(counts.count + 1)="
            guard t.hasPrefix(prefix), let n = Int(t.dropFirst(prefix.count)), n >= 0 else {
                return tr("%s has a bad count line (%s)", name, String(t.prefix(40)))
            }
            counts.append(n)
            lines.removeFirst()
        }
        guard !counts.isEmpty, counts[0] > 0 else { return tr("%s counts no n-grams", name) }
        for (index, count) in counts.enumerated() {
            let order = index + 1
            skipBlanks()
            guard let title = lines.first, text(title) == "\\\(order)-grams:" else { return tr("%s has no \\%s-grams: section", name, order) }
            lines.removeFirst()
            for _ in 0..<count {
                guard let line = lines.first, !isBlank(line) else { return tr("%s has fewer %s-grams than its header counts", name, order) }
                lines.removeFirst()
                let fields = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
                guard fields.count == order + 1 || fields.count == order + 2,
                      let p = Double(String(decoding: fields[0], as: UTF8.self)), p.isFinite,
                      fields.count == order + 1 || Double(String(decoding: fields[order + 1], as: UTF8.self))?.isFinite == true else {
                    return tr("%s has a malformed %s-gram (%s)", name, order, String(text(line).prefix(40)))
                }
            }
        }
        skipBlanks()
        guard let end = lines.first, text(end) == "\\end\\" else { return tr("%s does not end with \\end\\", name) }
        lines.removeFirst()
        skipBlanks()
        return lines.isEmpty ? nil : tr("%s has text after \\end\\", name)
    }

    /// What is wrong with a pronouncing dictionary (nil: it is well formed): one word per line, then its
    /// phones (upper-case letters and digits). `name` is the file's, for the sentence.
    static func dictionaryProblem(_ bytes: [UInt8], named name: String) -> String? {
        var words = 0
        for line in bytes.split(separator: 0x0A) {
            let fields = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
            if fields.isEmpty { continue }
            guard fields.count >= 2, String(validating: fields[0], as: UTF8.self) != nil,
                  fields.dropFirst().allSatisfy({ $0.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) } }) else {
                return tr("%s has a malformed line (%s)", name, String(decoding: line.prefix(40), as: UTF8.self))
            }
            words += 1
        }
        return words > 0 ? nil : tr("%s is empty", name)
    }
}
