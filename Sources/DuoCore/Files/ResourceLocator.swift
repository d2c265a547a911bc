import Foundation

/// Finds duo-capture's data folders (`Pipelines/`, `Assets/`) at run time, so users can edit pipeline
/// descriptions and profiles without recompiling.
///
/// Search order: an explicit override, `$DUO_CAPTURE_DATA`, next to the executable, `../share/duo-capture`
/// from the executable, and every parent of the executable's folder (a source checkout running from
/// `.build/`). The executable is the running file itself (`/proc/self/exe`), never `argv[0]`: typed by
/// name, `argv[0]` is just `duo-capture`, which the shell found on `PATH`, not in the current folder.
///
/// Thread: stateless; called at start-up on the main task.
public enum ResourceLocator {
    public static func find(_ folder: String, marker: String, override: String? = nil,
                            executablePath: String = runningExecutable()) throws(DuoError) -> String {
        let fm = FileManager.default
        if let override {
            guard fm.fileExists(atPath: (override as NSString).appendingPathComponent(marker)) else {
                throw .usage(.text("%s holds no %s; point it at a copy of duo-capture's %s folder", override, marker, folder))
            }
            return override
        }
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["DUO_CAPTURE_DATA"] {
            candidates.append((env as NSString).appendingPathComponent(folder))
        }
        let exe = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(exe.appendingPathComponent(folder).path)
        candidates.append(exe.deletingLastPathComponent().appendingPathComponent("share/duo-capture/\(folder)").path)
        var dir = exe
        for _ in 0..<8 {
            dir = dir.deletingLastPathComponent()
            candidates.append(dir.appendingPathComponent(folder).path)
        }
        // Tests run from the package root (swift test sets the working directory there).
        candidates.append((fm.currentDirectoryPath as NSString).appendingPathComponent(folder))
        for c in candidates where fm.fileExists(atPath: (c as NSString).appendingPathComponent(marker)) {
            return c
        }
        throw .dependency(.text("cannot find duo-capture's %s folder; set DUO_CAPTURE_DATA to the directory that holds %s/", folder, folder))
    }

    /// The path of the running executable: `/proc/self/exe` (Linux), else `argv[0]` made absolute.
    public static func runningExecutable() -> String {
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), exe.hasPrefix("/") {
            return exe
        }
        let arg = CommandLine.arguments.first ?? ""
        if arg.hasPrefix("/") { return arg }
        return (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(arg)
    }
}
