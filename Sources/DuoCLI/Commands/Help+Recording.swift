import DuoCore

/// The help's remote display, recording, settings and advanced options and its exit codes.
///
/// Thread: constant text; any thread.
extension Help {
    /// REMOTE DISPLAYS.
    static let remoteDisplays: [HelpItem] = [
        .heading(N_("REMOTE DISPLAYS (the subject view on other machines, over SRT)")),
        .option("--subject-remote srt://HOST:PORT", N_("""
            send the subject view to `duo-capture display --listen
            srt://:PORT` on HOST (repeatable: several displays, plus or
            instead of the local subject monitor). Each is rendered for
            that display's own monitor (its size comes in a handshake on
            TCP PORT), H.264 with no B-frames and zero-latency tuning
            (Pipelines/remote-subject.gst), a key frame every second. Only
            the subject view leaves: never the operator preview or notes.
            A display that goes or is not there yet is asked again every
            few seconds; the take and the local views never wait for it
            """)),
        .option("--passphrase-file FILE", N_("""
            the SRT passphrase (10-79 characters), the same on both ends;
            or DUO_SRT_PASSPHRASE. Never on the command line (ps shows it).
            Encryption is on by default: without a passphrase, an error
            """)),
        .option("--allow-readable-passphrase", N_("""
            take a passphrase file others can read (refused otherwise:
            chmod 600 it)
            """)),
        .option("--no-encryption", N_("send unencrypted (a closed network only; the log says so)")),
        .option("--srt-latency MS", N_("SRT's latency budget for retransmission (default 120)")),
        .option("duo-capture display --listen srt://:PORT [--subject-monitor N|NAME] [--windowed] [--events FILE]", N_("""
            a fullscreen window on that monitor showing the view as it
            arrives, "waiting for duo-capture" while nothing does; it
            recovers by itself. A sender with a wrong passphrase is refused
            (said on both ends). --connect srt://HOST:PORT calls a sender
            that listens (--subject-remote srt://:PORT; rendered 1920x1080).
            Q or Esc closes it
            """)),
        .blank,
    ]

    /// RECORDING.
    static let recording: [HelpItem] = [
        .heading(N_("RECORDING")),
        .option("--record", N_("record one take, from the countdown's end to the end of the run")),
        .option("--countdown SECONDS", N_("""
            0 to 10 (default 3): the take starts when it ends, its first
            frame a keyframe within one frame interval
            """)),
        .option("--record-dir DIR", N_("""
            where takes go (default: $XDG_VIDEOS_DIR/duo-capture,
            else ~/Videos/duo-capture); an unwritable DIR is refused
            before anything starts
            """)),
        .option("--container mkv|mp4", N_("Matroska (default; survives crashes) or MP4 (finalised on stop)")),
        .option("--encoder auto|vaapih264|x264|openh264", N_("H.264 encoder; auto picks the best one installed")),
        .option("--aspect 16:9|9:16|1:1|4:3", N_("crop the recording to this ratio, centred")),
        .option("--audio auto|none|test|NAME|id:NODE|file:PATH|SOURCE", N_("""
            sound for the level meter and the takes (Opus in mkv, AAC in
            mp4): auto = the microphone last chosen by name when it is
            there, else the default input, or none (with a notice) if
            there is none; test = a tone; NAME or id:NODE = a PipeWire
            microphone as duo-capture microphones lists it (a name that
            is not there is one line listing those that are; the choice
            is remembered in $XDG_STATE_HOME/duo-capture/last-microphone).
            A named microphone lost mid-take (unplugged, failed, silent
            for 0.6 s) leaves silence in the take, never a cut sound
            track, and is taken back when it returns
            (microphone-lost, microphone-restored; the HUD says how long
            sound was missing, the sidecar lists the gaps);
            SOURCE = a GStreamer source such as "pulsesrc device=NAME";
            file:PATH = a recording played as a live microphone, in real
            time (rehearsals, voice-follow tests)
            """)),
        .option("--screen [MONITOR]", N_("""
            record a monitor of the desktop beside the camera: each take
            gets a second video track, the monitor at its own size, on the
            same clock (X11, ximagesrc; headless runs too, with DISPLAY).
            MONITOR is an index or connector as duo-capture monitors lists
            them; without it, the first monitor showing none of
            duo-capture's windows, else the operator's. On Wayland the
            desktop's ScreenCast portal and PipeWire give the screen and
            the portal chooses the monitor (MONITOR is not used); without
            a portal, install xdg-desktop-portal and your desktop's
            backend (-wlr for sway, -gnome, -kde). The start line, the
            screen event and the HUD's format line name it; the sidecar
            records it; report shows both pictures; remux keeps both.
            A monitor that is not there, no display, no portal or a
            cancelled portal dialog is one line at start; a screen that
            fails mid-take ends only the screen track
            """)),
        .option("--screen-rate FPS", N_("the screen track's frames per second, 1 to 60 (default 15)")),
        .prose(N_("""
            Files are named duo-YYYY-MM-DD_HHMMSS-takeNN.mkv and never overwrite an existing file. Each take
            gets a JSON sidecar next to it (duo-…-takeNN.json: tool version, start and end, cameras, formats,
            swaps, script markers passed, dropped frames), written when the take starts and completed when
            it ends. SIGINT and SIGTERM finalise the take and exit 0; after SIGKILL the Matroska file plays
            up to about a second before the kill; a full disk ends the take (exit 70) while the preview
            runs on, and the partial file plays.
            """)),
        .blank,
    ]

    /// SETTINGS.
    static let settings: [HelpItem] = [
        .heading(N_("SETTINGS")),
        .prose(N_("""
            $XDG_CONFIG_HOME/duo-capture/duo-capture.conf (default ~/.config/…) holds defaults for any long
            option, in the desktop's key-file format: under [duo-capture], the option's name without dashes
            = its value (wpm=150, accessory=teleprompter, headless=true, camera=inner;outer for one given
            twice). The command line wins. A bad key or value is one line naming the file and line.
            Only defaults belong there: record, duration, timeline, pipelines, no-encryption, help and
            version are refused, and audio= takes auto, none, test, file:PATH, a microphone's id:NODE or
            one device (pulsesrc device=NAME, alsasrc device=hw:1, pipewiresrc target-object=NAME), never
            a pipeline: pass those on the command line. A run's first line names the settings the file gave it.
            --events FILE (here or on the command line) appends only to a new or empty file or to one
            that already holds duo-capture events.
            """)),
        .option("--print-config", N_("the settings in effect and where each came from")),
        .blank,
    ]

    /// ADVANCED.
    static let advanced: [HelpItem] = [
        .heading(N_("ADVANCED")),
        .option("--pipelines DIR", N_("""
            load branch descriptions (*.gst) from DIR instead of the
            shipped Pipelines/ folder; swap encoders or muxers there
            """)),
        .option("GST_DEBUG, GST_DEBUG_DUMP_DOT_DIR", N_("""
            work as in any GStreamer program; duo-capture's own lines are
            the category duo-capture (GST_DEBUG=duo-capture:6 shows its log
            lines, decisions and every event among the pipeline's)
            """)),
        .option("--verbose, -v", N_("the duo-capture category at DEBUG: every event on stderr too")),
        .blank,
    ]

    /// EXIT CODES.
    static let exitCodes: [HelpItem] = [
        .heading(N_("EXIT CODES")),
        .prose(N_("""
            0 success · 64 bad option or value · 65 bad input file (profile, script, pipeline file)
            69 missing dependency (the message names the Debian package) or unusable camera (no format
            it can convert, or no first frame within --start-timeout) · 70 runtime failure
            """)),
    ]
}
