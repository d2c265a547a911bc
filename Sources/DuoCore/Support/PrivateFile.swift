import Foundation

/// A secret read from a file (a password, a token): refused when others can read it, as the SRT
/// passphrase file is, unless `--allow-readable-passphrase` allows it. Its first line, trimmed.
///
/// Thread: pure functions; any thread.
public enum PrivateFile {
    public static func firstLine(_ file: String, option: String, allowReadable: Bool) throws(DuoError) -> String {
        if !allowReadable, let mode = (try? FileManager.default.attributesOfItem(atPath: file))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw .usage("\(option) \(file) can be read by others (mode \(String(mode & 0o777, radix: 8))); run chmod 600 \(file) (or give --allow-readable-passphrase)")
        }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw .usage("\(option) \(file) cannot be read; give a readable file holding the secret on its first line")
        }
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !line.isEmpty else { throw .usage("\(option) \(file) is empty; put the secret on its first line") }
        return line
    }
}
