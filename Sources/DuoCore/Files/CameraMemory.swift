import Foundation

/// Remembers the camera last used, by identity (`CameraIdentity`), so `--camera auto` opens it again
/// wherever it is plugged in: a one-line file `$XDG_STATE_HOME/duo-capture/last-camera`. A missing or
/// unwritable file means "nothing remembered"; it never stops a session.
///
/// Thread: value type; reads and writes synchronously on the caller's thread (start-up).
public struct CameraMemory: Sendable {
    public let file: String
    public init(file: String) { self.file = file }

    public static func standard() -> CameraMemory {
        CameraMemory(file: (SpeedMemory.stateDirectory() as NSString).appendingPathComponent("last-camera"))
    }

    public func last() -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return line.isEmpty ? nil : line
    }

    public func remember(_ identity: String) {
        guard last() != identity else { return }
        let dir = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try? Data((identity + "\n").utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
    }
}
