import DuoCore
import DuoDesktop
import DuoMedia
import DuoPlatform
import Foundation

/// `duo-capture display`: this machine's monitor shows the subject view rendered by duo-capture on
/// another machine, received over SRT. Listening (`--listen srt://:PORT`), it also answers the sender's
/// handshake on TCP PORT: its monitor's size and refresh (so the view is rendered for this monitor) and
/// the passphrase check (so a wrong one is refused with a clear message on both ends). It shows
/// "waiting for duo-capture" while nothing arrives and recovers by itself when the sender or the network
/// comes back.
///
/// Thread: main task; the window on the GTK main thread; the receiver's bus on its own thread.
enum DisplayRun {
    static func run(_ options: Options, log: @escaping @Sendable (String) -> Void) async throws(DuoError) -> String {
        guard let address = options.displayAddress else {
            throw .usage(.text("duo-capture display needs --listen srt://:PORT (the sender gives --subject-remote srt://THIS-MACHINE:PORT) or --connect srt://HOST:PORT"))
        }
        let passphrase = try SRTPassphrase.resolve(file: options.passphraseFile, noEncryption: options.noEncryption,
                                                   environment: ProcessInfo.processInfo.environment,
                                                   allowReadable: options.allowReadablePassphrase)
        // The options first (a passphrase file others can read, say), then the desktop.
        try DesktopRun.requireDisplay(for: .text("duo-capture display shows the subject view on a monitor of this machine"))
        if passphrase == nil { log(tr("duo-capture: display: --no-encryption: the picture crosses the network unencrypted (for a closed network only)")) }
        let library = try PipelineLibrary.locate(override: options.pipelinesDirectory)
        let events = try EventLog(path: options.desktop.eventsPath) { log(tr("duo-capture: warning: %s", $0)) }
        let subjectMonitor = options.desktop.subjectMonitor, windowed = options.desktop.windowed, latency = options.srtLatency

        let started: Result<(RemoteDisplayReceiver, RemoteDisplayHandshakeServer?, DisplayWindow), DuoError> = await MainActor.run {
            do throws(DuoError) {
                try GtkMain.initialize()
                let monitors = Monitors.list()
                guard !monitors.isEmpty else { throw DuoError.runtime(.text("no monitor found on this display")) }
                let monitor: MonitorInfo
                if let ref = subjectMonitor {
                    guard let found = monitors.first(where: { ref.matches($0) }) else {
                        throw DuoError.usage(.text("--subject-monitor %s: no such monitor; list them with: duo-capture monitors", ref))
                    }
                    monitor = found
                } else {
                    monitor = monitors.first(where: \.primary) ?? monitors[0]
                }
                let refresh = DisplayWindow.refreshRate(monitor)
                let receiver = try RemoteDisplayReceiver(library: library, address: address, passphrase: passphrase,
                                                  latencyMilliseconds: latency, log: log)
                var server: RemoteDisplayHandshakeServer?
                if address.isListener {
                    server = try RemoteDisplayHandshakeServer(port: address.port, width: monitor.width, height: monitor.height, refresh: refresh,
                                                       passphrase: passphrase, onRefused: { who, reason in
                        log(tr("duo-capture: display: refused a sender at %s: %s", who, reason))
                        events.emit(.display(state: "refused", reason: reason, frames: nil))
                    }, onSummary: { who, count in
                        let line = HandshakeRefusals.summary(address: who, count: count)
                        log(tr("duo-capture: display: %s", line))
                        events.emit(.display(state: "refused", reason: line, frames: nil))
                    })
                }
                let window = DisplayWindow(monitor: monitor, picture: receiver.widget.pointer, windowed: windowed,
                                           title: "duo-capture display \(address)")
                window.onQuit = { GtkMain.quit() }
                let size = "\(monitor.width)x\(monitor.height)@\(refresh)"
                let line = switch (address.isListener, passphrase == nil) {
                case (true, true): tr("duo-capture: display: listening at %s on monitor %s (%s), unencrypted", address, monitor.connector, size)
                case (true, false): tr("duo-capture: display: listening at %s on monitor %s (%s), encrypted", address, monitor.connector, size)
                case (false, true): tr("duo-capture: display: calling %s on monitor %s (%s), unencrypted", address, monitor.connector, size)
                case (false, false): tr("duo-capture: display: calling %s on monitor %s (%s), encrypted", address, monitor.connector, size)
                }
                log(line)
                events.emit(.display(state: "waiting", reason: nil, frames: 0))
                return .success((receiver, server, window))
            } catch { return .failure(error) }
        }
        let (receiver, server, window) = try started.get()
        receiver.start()
        let signals = SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP]) { _ in GtkMain.post { GtkMain.quit() } }
        // "waiting for duo-capture" while no frame arrived for a second; said once per change.
        let watcher = Task.detached {
            var last: Int64 = -1, lastChange = Date(), showing = false
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 200_000_000)
                let frames = receiver.framesShown.frames
                if frames != last { last = frames; lastChange = Date() }
                let now = Date().timeIntervalSince(lastChange) < 1.0 && frames > 0
                guard now != showing else { continue }
                showing = now
                log(showing ? tr("duo-capture: display: showing duo-capture's subject view") : tr("duo-capture: display: waiting for duo-capture"))
                events.emit(.display(state: showing ? "showing" : "waiting", reason: nil, frames: Int(frames)))
                let waiting = !showing
                GtkMain.post { window.setWaiting(waiting) }
            }
        }
        await MainActor.run { GtkMain.run() }
        watcher.cancel()
        signals.cancel()
        server?.stop()
        receiver.stopReceiving()
        await MainActor.run { window.close() }
        events.emit(.stopped(reason: "display closed", exitCode: 0))
        return ""
    }
}
