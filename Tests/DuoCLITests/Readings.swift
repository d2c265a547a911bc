@testable import DuoCLI
import Foundation
import XCTest

/// Synthetic readings of a script (Fixtures/reading.py: espeak-ng sentence by sentence over a seeded
/// noise floor) for the voice-follow and captions tests. The same plan gives the same files each time,
/// so each is made once (seconds of espeak-ng) and kept in the tests' cache folder, under a name from
/// the plan, reading.py and espeak-ng's version; it is made in a folder beside and renamed into place,
/// so a reading cut short is never taken as whole.
enum Readings {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/reading.py").path

    static var cache: String {
        let base = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
        return "\(base)/duo-capture-tests/readings"
    }

    /// Puts the reading of `plan` in `dir`: reading.wav and truth.json (see reading.py).
    static func make(_ plan: [String: Any], in dir: String) throws {
        try make(plan, wav: "\(dir)/reading.wav", truth: "\(dir)/truth.json")
    }

    /// Puts the reading of `plan` at `wav` and its truth at `truth` (see reading.py).
    static func make(_ plan: [String: Any], wav: String, truth: String) throws {
        let planData = try JSONSerialization.data(withJSONObject: plan, options: [.sortedKeys])
        let version = try runToEnd(URL(fileURLWithPath: "/usr/bin/espeak-ng"), ["--version"], timeout: 30).stdout
        let key = VoiceModelCache.fnv1a([UInt8](planData) + [UInt8](try Data(contentsOf: URL(fileURLWithPath: script))) + Array(version.utf8))
        let kept = "\(cache)/\(key)"
        if !FileManager.default.fileExists(atPath: kept) {
            let part = "\(kept).part-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: part, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: part) }
            try planData.write(to: URL(fileURLWithPath: "\(part)/plan.json"))
            let speak = try runToEnd(URL(fileURLWithPath: "/usr/bin/python3"),
                                     [script, "\(part)/plan.json", "\(part)/reading.wav", "\(part)/truth.json"], timeout: 120)
            guard speak.status == 0 else { throw DuoErrorText("espeak-ng could not make the reading (install espeak-ng): \(speak.stderr)") }
            // Another test run may have made it meanwhile: theirs is the same.
            try? FileManager.default.moveItem(atPath: part, toPath: kept)
        }
        try FileManager.default.copyItem(atPath: "\(kept)/reading.wav", toPath: wav)
        try FileManager.default.copyItem(atPath: "\(kept)/truth.json", toPath: truth)
    }

    struct DuoErrorText: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}
