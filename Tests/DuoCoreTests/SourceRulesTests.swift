import Foundation
import XCTest

/// The rules the whole tree keeps, read from Sources/ (as PipelineContractTests reads it): no Swift file
/// over 500 lines, no public type name declared in two modules (a newcomer must find one room per name),
/// and no more than 13 escapes from the compiler's concurrency checks (`@unchecked Sendable` and
/// `nonisolated(unsafe)`).
final class SourceRulesTests: XCTestCase {
    static let maximumLines = 500
    static let maximumEscapes = 13
    /// Files known to be over the limit today, with the size they may not grow past; other work is
    /// shrinking them (issue 34). Take each off this list once it is under the limit: the test says when.
    static let knownLongFiles: [String: Int] = [:]

    func testNoSwiftFileIsOverFiveHundredLines() throws {
        var long: [String] = []
        var stale: [String] = []
        for (path, text) in try Self.sources() {
            let lines = Self.lineCount(text)
            if let allowed = Self.knownLongFiles[path] {
                if lines <= Self.maximumLines {
                    stale.append("\(path) is \(lines) lines now: take it off SourceRulesTests.knownLongFiles")
                } else if lines > allowed {
                    long.append("\(path): \(lines) lines, more than the \(allowed) it had; split it by concern")
                }
            } else if lines > Self.maximumLines {
                long.append("\(path): \(lines) lines; split it by concern (a type or a job per file)")
            }
        }
        XCTAssertEqual(long, [], "Swift files over \(Self.maximumLines) lines")
        XCTAssertEqual(stale, [], "files on the allow-list that no longer need it")
        // The count itself: a last line without a newline counts, an empty file is none.
        XCTAssertEqual(Self.lineCount(""), 0)
        XCTAssertEqual(Self.lineCount("a\nb\n"), 2)
        XCTAssertEqual(Self.lineCount("a\nb"), 2)
    }

    func testNoPublicTypeNameIsDeclaredInTwoModules() throws {
        var modules: [String: Set<String>] = [:]
        for (path, text) in try Self.sources() {
            let module = String(path.prefix { $0 != "/" })
            for name in Self.publicTypes(in: text) { modules[name, default: []].insert(module) }
        }
        XCTAssertGreaterThan(modules.count, 100, "the scan finds the public types (\(modules.count))")
        let twice = modules.filter { $0.value.count > 1 }.map { "\($0.key) in \($0.value.sorted().joined(separator: ", "))" }.sorted()
        XCTAssertEqual(twice, [], "public type names declared in more than one module: rename one")
        // What counts as a declaration: top-level public or open types of every kind, attributes first;
        // nested types (qualified by their parent), internal types and comments do not.
        XCTAssertEqual(Self.publicTypes(in: """
            public enum RemoteLink { case a }
            @MainActor public final class DesktopUI {
                public struct Configuration {}
            }
            open class Base {}
            public actor Presenter {}
            public protocol Port {}
            public typealias Stamp = Int
            public indirect enum Tree {}
            struct Hidden {}
            /// public struct InAComment {}
            public extension String {}
            """), ["RemoteLink", "DesktopUI", "Base", "Presenter", "Port", "Stamp", "Tree"])
    }

    func testTheEscapeCountDoesNotGrow() throws {
        var count = 0
        var places: [String] = []
        for (path, text) in try Self.sources() {
            let here = Self.escapes(in: text)
            count += here
            if here > 0 { places.append("\(path): \(here)") }
        }
        XCTAssertLessThanOrEqual(count, Self.maximumEscapes,
                                 "@unchecked Sendable + nonisolated(unsafe) in Sources/: use a Mutex, an actor or a Sendable value instead (\(places))")
        XCTAssertGreaterThan(count, 0, "the scan finds today's escapes")
        XCTAssertEqual(Self.escapes(in: """
            final class A: @unchecked Sendable {}
            nonisolated(unsafe) private var b = 0
            // a comment that names @unchecked Sendable does not count
            struct C: Sendable {} // nor does nonisolated(unsafe) after code
            """), 2)
    }

    // MARK: Reading Sources/

    /// Every Swift file under Sources/, by its path below Sources/ (its first component is the module).
    static func sources() throws -> [(path: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        let swift = files.filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThan(swift.count, 100, "no sources under \(root.path)")
        return try swift.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    static func lineCount(_ text: String) -> Int {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.count
    }

    /// The names of the top-level public and open types `text` declares (a declaration starts its line).
    static func publicTypes(in text: String) -> [String] {
        let kinds: Set<Substring> = ["class", "struct", "enum", "actor", "protocol", "typealias"]
        let modifiers: Set<Substring> = ["public", "open", "final", "indirect"]
        var names: [String] = []
        for line in text.split(separator: "\n") where !(line.first?.isWhitespace ?? true) && !line.hasPrefix("//") {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "{" || $0 == ":" || $0 == "<" || $0 == "=" })[...]
            while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
            var isPublic = false
            while let first = words.first, modifiers.contains(first) {
                if first == "public" || first == "open" { isPublic = true }
                words = words.dropFirst()
            }
            guard isPublic, let kind = words.first, kinds.contains(kind), words.count > 1 else { continue }
            names.append(String(words[words.startIndex + 1]))
        }
        return names
    }

    /// `@unchecked Sendable` and `nonisolated(unsafe)` in code (not in comments).
    static func escapes(in text: String) -> Int {
        var count = 0
        for line in text.split(separator: "\n") {
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            count += code.components(separatedBy: "@unchecked Sendable").count - 1
            count += code.components(separatedBy: "nonisolated(unsafe)").count - 1
        }
        return count
    }
}
