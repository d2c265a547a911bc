import CGLib
import DuoCore
import Foundation

/// The desktop's camera portal (`org.freedesktop.portal.Camera`), asked only inside a sandbox (Flatpak),
/// where it is the only way to the cameras: `AccessCamera`, then the user's answer on the request's
/// `Response` signal (0 granted, 1 refused, 2 otherwise ended).
///
/// Kept small and synchronous: one call at start-up, before cameras are listed. Not tested end to end
/// here (no portal service runs on the test machine); a session bus without a portal answers
/// `.unavailable`, which the tests see.
///
/// Thread: main task at start-up; it runs a private GLib main context of its own while it waits.
public enum CameraPortal {
    public enum Answer: Sendable, Equatable {
        case granted
        /// The user said no (or closed the dialog).
        case refused
        /// No portal, no session bus, or the request failed: why, in a few words.
        case unavailable(String)
    }

    /// Whether duo-capture runs in a sandbox whose cameras only the portal gives (Flatpak writes
    /// /.flatpak-info into every sandbox).
    public static var sandboxed: Bool { FileManager.default.fileExists(atPath: "/.flatpak-info") }

    /// Asks for the cameras and waits (at most `timeout` seconds) for the user's answer.
    public static func requestAccess(timeout: Double = 120) -> Answer {
        let portal: DesktopPortal
        do { portal = try DesktopPortal() } catch { return .unavailable(error.why) }
        // AccessCamera({"handle_token": <token>})
        let answer = portal.request("org.freedesktop.portal.Camera", "AccessCamera", timeout: timeout, what: tr("the camera portal")) { token in
            DesktopPortal.tuple([DesktopPortal.options([("handle_token", g_variant_new_string(token))])])
        }
        switch answer {
        case .success(let results):
            g_variant_unref(results)
            return .granted
        case .failure(let failure):
            return failure.cancelled ? .refused : .unavailable(failure.why)
        }
    }
}
