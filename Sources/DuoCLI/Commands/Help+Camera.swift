import DuoCore

/// The help's camera and running options.
///
/// Thread: constant text; any thread.
extension Help {
    /// CAMERA.
    static let camera: [HelpItem] = [
        .heading(N_("CAMERA")),
        .option("--source videotestsrc", N_("a test pattern at any --format (for CI)")),
        .option("--camera v4l2:/dev/videoN", N_("a real camera; its formats are probed when it opens")),
        .option("--camera id:IDENTITY", N_("""
            a real camera by identity, as `duo-capture cameras` lists it
            (its serial, else its /dev/v4l/by-id name, else its port):
            found at whatever /dev/videoN it has today. A camera known
            by identity that is pulled out is lost at once and taken back
            when it is plugged in again, at any /dev/videoN
            """)),
        .option("--camera pipewire:NODE", N_("""
            a camera through PipeWire (the desktop's camera service, as on
            GNOME and KDE; MIPI laptop cameras v4l2src cannot open), by its
            node name (id:pipewire:NODE, the same when it comes back)
            """)),
        .option("--camera libcamera:ID", N_("a camera opened by libcamera directly (no PipeWire running)")),
        .option("--camera profile:FILE", N_("a simulated camera limited to a profile's formats (JSON)")),
        .option("--camera file:CLIP", N_("""
            a video clip played live as a camera (rehearsals, tests):
            looped, paced at its own size and frame rate
            """)),
        .option("--camera inner | outer", N_("""
            the shipped profiles of the Duo's two front cameras
            (Assets/cameras/inner.json: up to 1080p60;
             Assets/cameras/outer.json: up to 4K120)
            Default: the camera last used (remembered by identity in
            $XDG_STATE_HOME/duo-capture/last-camera), else a PipeWire
            camera, else the first V4L2 camera, else a libcamera one;
            without one, the simulated inner camera (a one-line notice
            says so). The start line says which stack opened it. A camera
            belongs to one duo-capture at a time: the lock is on the
            device, however it is named (PipeWire's and libcamera's: on
            the identity).
            """)),
        .option("--camera A --camera B", N_("""
            two cameras, like the Duo's inner and outer front cameras:
            one virtual camera at their best common format (decoded size
            and rate), swapped mid-take without a gap or a format change
            (control: swap; fold picks the camera facing the subject,
            unfold the one facing the operator, by --faces, never by
            their order here; {"cmd":"faces","camera":"B","faces":…}
            turns a camera round live and the mirroring follows)
            """)),
        .option("--camera-mode virtual|individual", N_("""
            virtual (default): both cameras at their common format;
            individual: each at its own best format, and a swap during a
            take follows --swap-policy
            """)),
        .option("--swap-policy lock|stop|segment", N_("""
            individual mode, formats differ, a take running (same format:
            always a seamless swap), in the documents' order: lock
            (default) keeps the current camera, the swap refused with its
            reason, and X or {"cmd":"swap","restart":true} stops, then
            switches (the take ends, a new one after the countdown); stop
            ends the take and swaps; segment records on at the new format
            in a new segment, the segments joined into one take at the
            first one's format when it ends (--keep-segments keeps them)
            """)),
        .option("--require WxH@FPS|depth", N_("""
            a hard requirement (repeatable): at least this size and rate,
            or a depth stream; when no camera (virtual mode: their common
            format) meets it, refuse to start (exit 65) naming the best
            there is; individual mode: a camera that misses it is an
            unmet wish, shown at start, on the HUD and in the sidecar
            """)),
        .option("--format WxH@FPS", N_("""
            an upper bound: the best camera format within it (width,
            height and rate each); without it, no bound (videotestsrc
            runs at exactly this, default 1280x720@30)
            """)),
        .option("--min-fps N", N_("""
            formats of at least N fps (default 24) win: the most pixels,
            then the highest rate; if none reaches N, the highest rate
            """)),
        .option("--faces operator|subject", N_("""
            after a --camera: whose face it sees (a profile says it in
            "faces"; default subject). A display's picture is mirrored
            while its viewer faces the camera on the air (the selfie
            convention), again on every swap; recordings never are
            """)),
        .option("--mirror-preview", N_("flip the operator's own preview")),
        .option("--rotate 0|90|180|270", N_("""
            after a --camera: turn its picture upright (degrees clockwise;
            a simulated camera's profile says it in "rotation"); applied
            once, in the camera's own chain, before any branch
            """)),
        .option("--camera-loss wait|exit", N_("""
            a camera lost with no other to take over: finalise the take
            and wait, taking the camera back when it returns (default),
            or end the run with exit 70 (for CI). With two cameras the
            take goes on with the other one either way (individual
            mode: as --swap-policy says for a swap); a lost
            microphone never ends the run (the take goes on silent;
            one chosen by name is taken back when it returns)
            """)),
        .blank,
    ]

    /// RUNNING.
    static let running: [HelpItem] = [
        .heading(N_("RUNNING")),
        .option("--headless", N_("no windows: operator and subject branches end in fakesink")),
        .option("--duration SECONDS", N_("""
            stop after this long (default: until SIGINT/SIGTERM); with
            --record, the take's length after the countdown
            """)),
        .option("--start-timeout SECONDS", N_("""
            how long start-up waits for the camera's first frame (default
            10); then one line names the camera, its mode and what it
            waited for (for PipeWire: whether the node agreed a format),
            exit 69. SIGINT, SIGTERM and SIGHUP end the wait at once
            """)),
        .option("--quiet", N_("no progress lines, only errors and the summary")),
        .option("--json", N_("print the end-of-run summary as JSON")),
        .option("--control PATH", N_("""
            a Unix socket (mode 0600; a bare NAME goes under
            $XDG_RUNTIME_DIR/duo-capture/NAME.sock) taking one JSON
            command per line: {"cmd":"record"}, stop, toggle (record or
            stop, as Space), cancel (a countdown, as Esc), quit, pause,
            reverse, mirror, {"cmd":"accessory","on":true},
            {"cmd":"fullscreen","on":false} (during a take or countdown
            it leaves when sent twice within 3 s, or once with
            "confirm":true: {"cmd":"fullscreen","confirm":true}),
            {"cmd":"speed","step":1} or
            {"preset":1-9} or {"factor":0.25-4} (times the default speed),
            {"cmd":"jump","to":"next|previous|start"}, swap,
            fold, unfold, {"cmd":"swap","restart":true},
            {"cmd":"faces","camera":"A|B","faces":"operator|subject"},
            {"cmd":"script","path":…}, {"cmd":"font","step":1},
            {"cmd":"follow","mode":"voice|time"},
            {"cmd":"cue","preset":"wrap|30s|slower|faster|lens"} or
            {"cmd":"cue","text":"…"} (at most 40 characters; "seconds":N
            hides it after N s) shows a cue to the talent beside the
            reading line, {"cmd":"cue","clear":true} hides it,
            {"cmd":"self-view","size":"small|large|off"} (no size: on /
            off), {"cmd":"remote-link","on":true} (the phone remote's QR
            code on the operator window; no on: on / off, as L); quit
            goes ahead of commands still queued. (duo-capture-testhub,
            built with the tests, adds the test hub's faults: unplug
            and replug of a camera or the subject monitor, rotate, test
            cameras.) Every event comes back as JSON lines
            (docs/events.md lists them)
            """)),
        .option("--timeline FILE", N_("""
            replay timed commands for a reproducible session: one line
            each, {"at": SECONDS, "cmd": …} (the --control commands),
            counted from when the graph is running
            """)),
        .option("--remote-control [ADDRESS:]PORT", N_("""
            a web remote for a phone: one page (record/stop, pause, speed,
            markers, shots, good/no good for the last take; REC, the
            countdown's seconds, elapsed time, the shot's id and title,
            script progress, the line being read) and a WebSocket taking
            the --control commands (not quit, toggle, script, fullscreen,
            retake or remote-link).
            Listens on this machine only unless ADDRESS is given
            (0.0.0.0: the LAN). Paired by a random token: the address
            with ?token=… is printed once to the terminal at start and
            nowhere else; anything without it gets 401; the L key shows
            it as a QR code on the operator window
            (docs/remote-control.md)
            """)),
        .option("--remote-token-file FILE", N_("""
            the pairing token from FILE's first line (22+ letters, digits
            or -_.~, random) instead of a new random one each run; the
            file must be readable only by you (chmod 600), as the
            passphrase file (--allow-readable-passphrase takes it anyway)
            """)),
        .option("--osc [ADDRESS:]PORT", N_("""
            OSC 1.0 over UDP (Bitfocus Companion, consoles): /duo/record,
            /duo/stop, /duo/pause, /duo/speed 1.5 (times the default),
            /duo/speed/up|down, /duo/marker/next|previous,
            /duo/shot/next|previous, /duo/state; the last sender gets
            /duo/state feedback (state, take, elapsed, speed, paused,
            progress). Loopback unless ADDRESS is given; OSC has no
            authentication, so another ADDRESS says so at start
            """)),
        .option("--osc-allow ADDRESS[/BITS]", N_("""
            take OSC only from this address or prefix (repeatable), such
            as 192.168.1.20 or 192.168.1.0/24; others are dropped and
            never answered
            """)),
        .option("--obs-websocket [ADDRESS:]PORT", N_("""
            an obs-websocket 5 server (Stream Deck's OBS plugin,
            Companion's OBS module, obs-websocket scripts; OBS uses
            4455): StartRecord/StopRecord/ToggleRecord (the countdown
            first, as Space), GetRecordStatus, CreateRecordChapter (a
            chapter event), Pause/ResumeRecord (the teleprompter's
            pause), scenes "Camera A"/"Camera B" (a switch is a swap),
            TriggerHotkeyByName duo-capture.swap, duo-capture.speed-up…,
            CallVendorRequest duo-capture (any remote command); other
            requests get UnknownRequestType. Events: RecordStateChanged,
            CurrentProgramSceneChanged, ExitStarted, VendorEvent.
            Loopback unless ADDRESS is given; always a password
            (docs/remote-control.md)
            """)),
        .option("--obs-websocket-password-file FILE", N_("""
            its password (FILE's first line; chmod 600); without it a
            random one is printed at start, and an ADDRESS other than
            loopback is refused
            """)),
        .option("--hyperdeck [ADDRESS:]PORT", N_("""
            Blackmagic's HyperDeck Ethernet protocol (ATEM switchers,
            Companion's HyperDeck module, vMix): record, stop, transport
            info, slot info, clips count/get, notify (async 508
            transport info), device info, ping, quit. An ADDRESS alone
            (0.0.0.0) takes HyperDeck's port 9993. Loopback unless
            ADDRESS is given; the protocol has no password
            """)),
        .blank,
    ]
}
