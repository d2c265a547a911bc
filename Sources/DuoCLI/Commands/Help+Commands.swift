import DuoCore

/// The help's opening and its commands (msgids: one per command).
///
/// Thread: constant text; any thread.
extension Help {
    /// The opening paragraph.
    static let intro: [HelpItem] = [
        .prose(N_("""
            duo-capture — camera capture for two monitors: the operator's full interface on one, a teleprompter,
            countdown, safe frame and recording light for the person being filmed on the other. Takes are
            recorded while the preview keeps running.
            """), indent: 0),
        .blank,
    ]

    /// USAGE: every command.
    static let usage: [HelpItem] = [
        .heading(N_("USAGE")),
        .option("duo-capture [run] [OPTIONS]", N_("run a capture session (the default command)")),
        .option("duo-capture pipeline [OPTIONS]", N_("print the assembled graph in gst-launch-1.0 syntax")),
        .option("duo-capture cameras", N_("""
            list cameras (GStreamer's device monitor): device, name,
            identity (id:…), best format; the one auto opens is marked.
            V4L2 cameras, PipeWire's (id:pipewire:NODE) when its daemon
            runs, else libcamera's (id:libcamera:ID); without a PipeWire
            daemon one line says so. Only modes in a pixel format
            duo-capture converts are counted; a camera with none (v210,
            r210, IYU2, caps naming no format) is marked "unusable" and
            auto passes it by
            """)),
        .option("duo-capture microphones", N_("""
            list microphones (PipeWire sources): name, identity (id:…),
            peak level over 0.6 s; the one auto takes is marked.
            No PipeWire daemon running: one line saying so (exit 69)
            """)),
        .option("duo-capture formats CAMERA [CAMERA]", N_("""
            each camera's formats, two cameras' intersection after decoding
            and what it drops, and "choice: WxH@FPS" (exit 1: none); a
            CAMERA is inner, outer, profile:FILE, v4l2:/dev/videoN,
            file:CLIP or caps:FILE (caps as gst-device-monitor-1.0
            prints them);
            --format and --min-fps apply
            """)),
        .option("duo-capture monitors", N_("list monitors: index, connector, geometry")),
        .option("duo-capture report DIR", N_("""
            write DIR/report.html: one self-contained page for a folder of
            takes (thumbnails, length and format, a timeline of markers,
            swaps, cameras lost, dropped frames, the audio level; a take
            that does not decode is shown as damaged). Takes recorded
            with --shots are grouped by shot, good take first, shots
            without a good take marked, shots never recorded listed;
            --json prints the same as JSON, --shots FILE names the list
            """)),
        .option("duo-capture export DIR --format otio|edl|csv [--out FILE]", N_("""
            a folder's takes for an editor: an OpenTimelineIO timeline
            (a clip per take, markers for notes, flags, shots, marks),
            a CMX 3600 EDL with locators, or a CSV of the notes (take,
            time, code, text, shot); frame-accurate at each take's rate
            """)),
        .option("duo-capture display --listen srt://:PORT", N_("""
            on the machine with the subject's monitor: show the subject
            view sent by duo-capture --subject-remote (see REMOTE DISPLAYS)
            """)),
        .option("duo-capture inspect FILE [--json]", N_("decode a take completely and report frames, size and length")),
        .option("duo-capture remux FILE.mkv", N_("""
            copy a Matroska take into an MP4 next to it, without
            re-encoding (FILE.mp4, or FILE-2.mp4 if that exists); its
            chapters go in as a Nero chpl box and a QuickTime chapter
            track (ffmpeg's, VLC's and Apple's players; at most 255)
            """)),
        .option("duo-capture captions TAKE.mkv|DIR --script FILE [--language en]", N_("""
            captions in the script's own words timed to the take's speech:
            TAKE.vtt and TAKE.srt beside it, a subtitle track in the .mkv,
            and the take review (lines read, skipped, repeated, partly;
            unscripted stretches) in its sidecar. English only
            """)),
        .option("duo-capture join SEGMENT SEGMENT…", N_("""
            join a take's segments (--swap-policy segment) into one file
            at the first one's format and rate (FIRST-joined.mkv; a
            slower camera's frames repeated, a faster one's dropped),
            with a progress bar; the segments and their sidecars are
            removed once it is proved (it holds every frame encoded and
            each decodes; --keep-segments keeps them, --output FILE
            names it, never an existing file without --force; a taken
            FIRST-joined.mkv moves on to FIRST-joined-2.mkv), and its one
            sidecar is the take's (its number, swaps, markers, segments);
            also finishes a join a kill cut short (the next start says so)
            """)),
        .option("duo-capture check-script FILE", N_("""
            list a script's words, headings and private notes, and every
            malformed note ([[nto: …]], [note: …], ((note: …)), a line
            starting note:, a stray or missing ]]) that was kept from the
            subject; exits 65 when there is one
            """)),
        .option("duo-capture render-subject --script FILE --at SECONDS --out FILE.png [...]", N_("""
            render one subject (teleprompter) frame to PNG;
            `duo-capture render-subject --help` lists its options
            """)),
        .raw("  duo-capture --help | --version"),
        .blank,
    ]
}
