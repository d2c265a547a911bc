import Foundation

extension TakeSidecar {
    /// The part of the script a take covered: where the reading position was when it began and when it
    /// ended, as positions (the scroll's unit), fractions of the script and the file's lines.
    ///
    /// Thread: value type, Sendable.
    public struct ScriptRange: Codable, Sendable, Equatable {
        /// The script file.
        public var script: String
        /// "words", or "lines" for a script without spaces (laid-out lines).
        public var unit: String
        public var startPosition: Double
        public var startFraction: Double
        public var startLine: Int
        /// Absent while the take records (and after a crash).
        public var endPosition: Double?
        public var endFraction: Double?
        public var endLine: Int?

        public init(start: ScriptPlace) {
            script = start.script
            unit = start.unitsAreWords ? "words" : "lines"
            startPosition = Self.rounded(start.position)
            startFraction = Self.rounded(start.fraction)
            startLine = start.line
        }

        /// The take ended at `end` (ignored when the script changed during the take).
        public mutating func end(at end: ScriptPlace) {
            guard end.script == script else { return }
            endPosition = Self.rounded(end.position)
            endFraction = Self.rounded(end.fraction)
            endLine = end.line
        }

        static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
    }
}
