import Foundation

/// A secret read from a file (a password, a token): refused when others can read it, as the SRT
/// passphrase file is, unless `--allow-readable-passphrase` allows it. Its first line, trimmed.
///
/// Thread: pure functions; any thread.
public enum PrivateFile {
    public static func firstLine(_ file: String, option: String, allowReadable: Bool) throws(DuoError) -> String {
        if !allowReadable, let mode = (try? FileManager.default.attributesOfItem(atPath: file))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw .usage(.text("%s %s can be read by others (mode %s); run chmod 600 %s (or give --allow-readable-passphrase)", option, file, String(mode & 0o777, radix: 8), file))
        }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw .usage(.text("%s %s cannot be read; give a readable file holding the secret on its first line", option, file))
        }
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !line.isEmpty else { throw .usage(.text("%s %s is empty; put the secret on its first line", option, file)) }
        return line
    }
}
