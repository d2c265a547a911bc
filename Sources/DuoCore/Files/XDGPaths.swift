import Foundation

/// The XDG base folders duo-capture uses, defaulting from `$HOME` as the XDG spec (and GLib's
/// `g_get_home_dir()`) says, and only then from the password file: a run with `HOME` set elsewhere (a
/// container, `sudo -E`, a test's fresh account) must never read or write another account's state.
///
/// Thread: stateless; reads the environment it is given.
public enum XDGPaths {
    /// `$HOME` when set and not empty, else the password file's home.
    public static func home(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let home = env["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// `$NAME` when set to an absolute path (the spec says relative ones are invalid and ignored), else
    /// `$HOME/fallback`.
    public static func base(_ name: String, fallback: String,
                            _ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let value = env[name], value.hasPrefix("/") { return value }
        return (home(env) as NSString).appendingPathComponent(fallback)
    }

    public static func configHome(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        base("XDG_CONFIG_HOME", fallback: ".config", env)
    }
    public static func stateHome(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        base("XDG_STATE_HOME", fallback: ".local/state", env)
    }
    public static func cacheHome(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        base("XDG_CACHE_HOME", fallback: ".cache", env)
    }
}
