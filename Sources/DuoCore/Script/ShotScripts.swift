import Foundation

/// The scripts a shot list names (`script:`), checked at start (issue 35): each is resolved against the
/// shot list's folder, and one outside that folder (after `..` and symbolic links), or one that is not a
/// `.md`/`.txt` script, is refused in one line naming the shot, unless the user allows it
/// (`--allow-any-script`). Every shot's script must be a readable regular file, whichever shot is reached.
///
/// Thread: stateless; called on the main task at start.
public enum ShotScripts {
    /// The extensions a script may have.
    public static let extensions: Set<String> = ["md", "markdown", "txt"]

    /// The path `script` names for a shot list at `listPath`.
    public static func resolve(_ script: String, listPath: String) -> String {
        if script.hasPrefix("/") { return script }
        let base = (listPath as NSString).deletingLastPathComponent
        return ((base.isEmpty ? "." : base) as NSString).appendingPathComponent(script)
    }

    /// Checks every shot's script; throws the first problem as one line naming the shot.
    public static func check(_ list: ShotList, listPath: String, allowAny: Bool) throws(DuoError) {
        let folder = real((listPath as NSString).deletingLastPathComponent.isEmpty ? "." : (listPath as NSString).deletingLastPathComponent)
        for shot in list.shots {
            guard let script = shot.script else { continue }
            let path = resolve(script, listPath: listPath)
            let shown = TerminalText.escaped(script, limit: 120)
            let what = "shot list \(listPath): shot \(shot.id)"
            if !allowAny {
                let ext = (path as NSString).pathExtension.lowercased()
                guard extensions.contains(ext) else {
                    throw .input(.text("%s: script %s is not a .md or .txt script; name a script file, or give --allow-any-script to show it anyway", what, shown))
                }
                let target = real(path)
                guard target.hasPrefix(folder == "/" ? "/" : folder + "/") else {
                    throw .input(.text("%s: script %s is outside the shot list's folder (%s); move it there, or give --allow-any-script", what, shown, folder))
                }
            }
            try InputFile.requireRegular(path, .text("%s: script", what), hint: .text("fix the shot's script: line"))
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw .input(.text("%s: script %s cannot be read; check its permissions", what, shown))
            }
        }
    }

    /// `path` with `..` and symbolic links resolved (as far as it exists), absolute.
    private static func real(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
