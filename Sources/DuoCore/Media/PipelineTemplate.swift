import Foundation

/// A gst-launch description with `{{name}}` placeholders, as stored in `Pipelines/*.gst`. Lines starting
/// with `#` are comments (the files open with a diagram). Rendering fails, with the file named, when a
/// placeholder has no value, so a user's edited pipeline file gets a clear error rather than a parse error
/// from deep inside GStreamer.
///
/// Thread: value type, Sendable.
public struct PipelineTemplate: Sendable, Equatable {
    public let name: String
    public let body: String

    public init(name: String, text: String) {
        self.name = name
        self.body = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingSpaces.hasPrefix("#") }
            .map { $0.trimmingSpaces }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// Every placeholder name used, in order of first appearance.
    public var placeholders: [String] {
        var names: [String] = []
        var rest = Substring(body)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let key = String(rest[open.upperBound..<close.lowerBound])
            if !names.contains(key) { names.append(key) }
            rest = rest[close.upperBound...]
        }
        return names
    }

    public func render(_ values: [String: String]) throws(DuoError) -> String {
        if body.isEmpty { throw .input(.text("pipeline file %s is empty; restore it from the duo-capture sources", name)) }
        var out = ""
        var rest = Substring(body)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw .input(.text("pipeline file %s: unclosed {{ placeholder; close it with }}", name))
            }
            let key = String(rest[open.upperBound..<close.lowerBound])
            guard let value = values[key] else {
                throw .input(.text("pipeline file %s: unknown placeholder {{%s}}; known: %s", name, key, values.keys.sorted().joined(separator: ", ")))
            }
            out += rest[..<open.lowerBound]
            out += value
            rest = rest[close.upperBound...]
        }
        out += rest
        return out
    }
}
