/// "Did you mean": the known word nearest a misspelt one (`--acessory` → `--accessory`, `formts` →
/// `formats`, `telepromter` → `teleprompter`), by edit distance (an adjacent swap counts as one edit),
/// or nil when none is close enough to be a likely slip.
///
/// Thread: pure functions; any thread.
public enum Suggestion {
    /// The nearest of `known` to `word`, when it is at most a quarter of the word's letters away
    /// (at least one edit, at most three); the first of equals wins. Leading dashes are not compared.
    public static func nearest(to word: String, among known: [String]) -> String? {
        let typed = Array(word.drop { $0 == "-" }.lowercased())
        guard !typed.isEmpty else { return nil }
        let limit = min(3, max(1, typed.count / 4))
        var best: (word: String, distance: Int)?
        for candidate in known where candidate != word {
            let d = distance(typed, Array(candidate.drop { $0 == "-" }.lowercased()))
            if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.word
    }

    /// `message` with "; did you mean NEAREST?" added when a known word is near `word`.
    public static func adding(to message: String, for word: String, among known: [String]) -> String {
        guard let near = nearest(to: word, among: known) else { return message }
        return tr("%s; did you mean %s?", message, near)
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, rows[i - 2][j - 2] + 1) }
                rows[i][j] = d
            }
        }
        return rows[a.count][b.count]
    }
}
