import CDuoSession
import CGtk
import DuoCore
import Foundation

/// Carries out `DoNotDisturb` on the desktop: GNOME's `org.gnome.desktop.notifications show-banners`
/// through GSettings when that schema is installed (written down first in a marker file, so a run that
/// dies is undone by the next one), else the freedesktop notifications service's Inhibit, else it says
/// once that it could not.
///
/// Thread: GTK main thread (GSettings objects stay on the thread that made them).
@MainActor
public final class NotificationBanners {
    nonisolated static let schema = "org.gnome.desktop.notifications"
    nonisolated static let key = "show-banners"

    private let markerPath: String
    private let log: (String) -> Void
    private var changedSetting = false
    private var cookie: UInt32 = 0
    private var saidCannot = false

    /// `stateDirectory`: duo-capture's own (`$XDG_STATE_HOME/duo-capture`), where the marker goes.
    public init(stateDirectory: String, log: @escaping (String) -> Void) {
        markerPath = (stateDirectory as NSString).appendingPathComponent(DoNotDisturb.markerName)
        self.log = log
    }

    /// The GNOME settings object, when the schema is installed (nil elsewhere: GSettings aborts on an
    /// unknown schema, so it is looked up first).
    private nonisolated static func settings() -> UnsafeMutablePointer<GSettings>? {
        // GNOME's settings are written through the session bus (dconf): without one they would not stick.
        guard sessionBusReachable, let source = g_settings_schema_source_get_default(),
              let found = g_settings_schema_source_lookup(source, schema, 1) else { return nil }
        g_settings_schema_unref(found)
        return g_settings_new(schema)
    }

    /// Whether there is a session bus to reach (where GLib looks: DBUS_SESSION_BUS_ADDRESS, else
    /// $XDG_RUNTIME_DIR/bus). Without one GLib would try to start one (dbus-launch) and dconf could not
    /// store anything.
    nonisolated static var sessionBusReachable: Bool {
        let env = ProcessInfo.processInfo.environment
        if let address = env["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = env["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        return FileManager.default.fileExists(atPath: (runtime as NSString).appendingPathComponent("bus"))
    }

    /// This run, as its marker names it: the pid and the boot id.
    nonisolated static var thisRun: DoNotDisturb.RunTag {
        let boot = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return DoNotDisturb.RunTag(pid: getpid(), bootID: boot.isEmpty ? "unknown" : boot)
    }

    /// Whether `pid` is a duo-capture process now (`/proc/PID/comm`, which the kernel cuts to 15 bytes:
    /// `duo-capture-testhub` reads `duo-capture-tes`).
    nonisolated static func isDuoCapture(_ pid: Int32) -> Bool {
        guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return false }
        return comm.hasPrefix("duo-capture")
    }

    /// At start (headless or desktop): a marker left by a run that ended without giving the setting back (a
    /// crash, SIGKILL) is given back now, and only then deleted. A marker of a run still alive (a second
    /// run started during it) is left alone; without a session bus the marker is kept for a run that has
    /// one. Returns what was done, for the log (nil when there was nothing).
    public nonisolated static func restoreLeftover(stateDirectory: String) -> String? {
        let markerPath = (stateDirectory as NSString).appendingPathComponent(DoNotDisturb.markerName)
        guard let text = try? String(contentsOfFile: markerPath, encoding: .utf8) else { return nil }
        guard let left = DoNotDisturb.parseMarker(text), left.schema == schema, left.key == key else {
            try? FileManager.default.removeItem(atPath: markerPath)
            return "duo-capture: removed \(markerPath): not a notifications marker this version writes"
        }
        let me = thisRun
        if DoNotDisturb.leftover(left, bootID: me.bootID, ownPid: me.pid, alive: isDuoCapture) == .leaveAlone {
            return "duo-capture: desktop notification banners are held off by the running duo-capture \(left.run?.pid ?? 0); left to it"
        }
        guard let s = settings() else {
            return "duo-capture: desktop notification banners were left off by an earlier run that did not end cleanly; kept for a run with a session bus to turn them back on (\(markerPath))"
        }
        defer { g_object_unref(UnsafeMutableRawPointer(s)) }
        g_settings_set_boolean(s, key, left.previous ? 1 : 0)
        g_settings_sync()
        try? FileManager.default.removeItem(atPath: markerPath)
        return "duo-capture: desktop notification banners were left off by an earlier run that did not end cleanly; turned back \(left.previous ? "on" : "off")"
    }

    /// The desktop run's start: `restoreLeftover(stateDirectory:)` for this run's directory.
    public func restoreLeftover() -> String? {
        Self.restoreLeftover(stateDirectory: (markerPath as NSString).deletingLastPathComponent)
    }

    /// Banners off (true) or given back (false).
    public func set(_ silence: Bool) {
        if silence { silenceNow() } else { giveBack() }
    }

    private func silenceNow() {
        if let s = Self.settings() {
            defer { g_object_unref(UnsafeMutableRawPointer(s)) }
            guard g_settings_get_boolean(s, Self.key) != 0 else { return }   // already off: the user's choice, left alone
            // Written down before the change, so a crash between the two still gets it given back.
            let directory = (markerPath as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: markerPath, contents: Data(DoNotDisturb.marker(schema: Self.schema, key: Self.key, previous: true, run: Self.thisRun).utf8)) else {
                log(tr("duo-capture: cannot write %s, so desktop notifications are left on (they could not be given back after a crash)", markerPath))
                return
            }
            g_settings_set_boolean(s, Self.key, 0)
            g_settings_sync()
            changedSetting = true
            log(tr("duo-capture: desktop notification banners off while the subject's monitor shows the view or the curtain, or a take runs (%s %s; --allow-notifications keeps them)", Self.schema, Self.key))
            return
        }
        cookie = Self.sessionBusReachable ? duo_notifications_inhibit("the subject view is shown or a take runs") : 0
        if cookie != 0 {
            log(tr("duo-capture: desktop notifications inhibited while the subject view is shown or a take runs (org.freedesktop.Notifications; --allow-notifications keeps them)"))
        } else if !saidCannot {
            saidCannot = true
            log(Self.sessionBusReachable ? tr("duo-capture: notifications stay on (no GNOME setting or Inhibit); use do not disturb")
                : tr("duo-capture: notifications stay on (no session bus); use do not disturb"))
        }
    }

    private func giveBack() {
        if changedSetting, let s = Self.settings() {
            g_settings_set_boolean(s, Self.key, 1)
            g_settings_sync()
            g_object_unref(UnsafeMutableRawPointer(s))
            try? FileManager.default.removeItem(atPath: markerPath)
            changedSetting = false
            log(tr("duo-capture: desktop notification banners on again"))
        }
        if cookie != 0 {
            duo_notifications_uninhibit(cookie)
            cookie = 0
        }
    }
}
