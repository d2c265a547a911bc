extension SubjectScript {
    /// The index of the block holding word `word` (counted from the start, as the scroll model counts):
    /// the operator view shows that block's private notes.
    public func blockIndex(atWord word: Int) -> Int {
        var words = 0
        for (index, block) in blocks.enumerated() {
            let count: Int
            switch block {
            case .heading(_, let runs), .paragraph(let runs):
                count = runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).count
            case .pause:
                count = 0
            }
            if word < words + count { return index }
            words += count
        }
        return max(0, blocks.count - 1)
    }
}
