import DuoCore

/// The help's subject view, shot list and notes options.
///
/// Thread: constant text; any thread.
extension Help {
    /// SUBJECT VIEW.
    static let subjectView: [HelpItem] = [
        .heading(N_("SUBJECT VIEW (the accessory on the subject's monitor)")),
        .option("--accessory teleprompter|preview|countdown|off", N_("""
            what the subject sees (default: teleprompter with --script,
            else countdown: countdown and recording light only); off
            shuts the subject branch, which then costs nothing; the
            teleprompter with no --script opens the last script used,
            else a welcome script that shows the keys
            """)),
        .option("--script FILE", N_("""
            teleprompter script: UTF-8 .txt or Markdown .md; [[note: …]]
            and <!-- … --> are for the operator only, [PAUSE] stops
            scrolling, headings are markers, [POSE: look at the lens]
            shows the subject that instruction and a small drawing
            until the next pose cue or heading ([POSE] alone ends it)
            """)),
        .option("--display-profile FILE", N_("""
            subject monitor insets and camera occlusions (JSON, see
            Assets/displays/); the reading line sits next to the camera
            """)),
        .option("--wpm N | --lines-per-minute N", N_("""
            scroll speed (lines for scripts without spaces); scrolling
            starts with the take. Without these, a script comes back at
            the speed it was last read at ($XDG_STATE_HOME/duo-capture)
            """)),
        .option("--follow voice|time", N_("""
            voice: the teleprompter follows the speaker's voice, offline
            (pocketsphinx, English; needs sound: --audio). Recognition
            is limited to the script's own words (a model written from
            the script, cached in $XDG_CACHE_HOME/duo-capture/voice); it
            tolerates misheard words, ad-libs and repeats, jumps forward
            when the speaker skips ahead, never back; unsure, the line
            goes on at the speaker's pace for a moment; in silence it
            holds. V (or {"cmd":"follow"}) switches voice / time live; P
            holds the following. time (default): the speed below
            """)),
        .option("--mirror h|v|hv|none", N_("mirror the subject view for beam-splitter glass")),
        .option("--lens top|top-left|top-right|bottom|behind", N_("""
            where the camera's lens is on the subject monitor (default
            top, or the display profile's "lens"): the reading line sits
            as near it as the layout allows, the self-view on the far
            side; behind = a beam-splitter prompter, the text mirrored
            for the glass (unless --mirror says otherwise)
            """)),
        .option("--self-view small|large|off", N_("""
            the subject's own picture, mirrored, with the safe frame
            (the --aspect crop, action- and graphics-safe areas) and the
            recording light beside it: a sixth (small, default) or a
            third (large) of the monitor's width; I (or {"cmd":
            "self-view"}) switches it (teleprompter, countdown)
            """)),
        .option("--talent-clock off|all|LIST", N_("""
            the talent's clock on the subject view, beside the text
            across from the recording light: any of clock (the time of
            day), count-up (the take's time) and target (the time to the
            shot's length: from --shots; past it "+0:12" in red), as a
            comma list in the order wanted (--talent-clock target,clock);
            off by default; talent-clock=clock,target in the settings file
            """)),
        .option("--font-size N | --lines N", N_("""
            text size in pixels (default 48, less on small monitors),
            or as large as lets N lines (3-40) fill the subject monitor;
            + and - change it live, remembered with the script's speed
            """)),
        .raw("  --theme default|high-contrast  --reading-line FRACTION"),
        .option("--subject-language LANG", N_("""
            the language of the subject view's own words (hints, the
            standby line, cue presets, the shot card's label, the
            recording light, the talent clock), here and on remote
            displays: zh_CN, en, ... (default: yours, from LANGUAGE or
            LANG); the script and the shot list are shown as written
            """)),
        .option("--framing off|single|interview", N_("""
            framing hints for the subject from the camera ("move left",
            "a little closer", "step back", "raise the camera", "no one
            in frame"), in large type on the subject view, on the HUD
            with the face box, and as `framing` events. Directions are
            the subject's own, as in their mirrored self-view. single:
            one person to the centre of the composition; interview: two
            people, each to the nearer third. Default: single for the
            teleprompter with a real camera or a clip when the face
            detector is installed (gstreamer1.0-opencv, opencv-data),
            else off
            """)),
        .prose(N_("""
            On the desktop the subject window draws the view itself at the subject monitor's own resolution
            (1080p, 4K, portrait), scrolling on the monitor's frame clock; the camera picture reaches it
            only for the preview kind (scaled once to the monitor) and the self-view (scaled once to its
            size; with the self-view off the subject branch carries no picture). render-subject --size WxH
            with the same options draws the same pixels offline (a test pattern in the self-view).
            """)),
        .blank,
    ]

    /// SHOT LISTS.
    static let shotLists: [HelpItem] = [
        .heading(N_("SHOT LISTS (a session as numbered shots, or a test session as steps)")),
        .option("--shots FILE", N_("""
            walk a shot list: Markdown, one '## ID — Title' heading per
            shot, under it what the subject does or says (shown to them
            during standby and the countdown, then the script) and the
            operator's fields note:, script: FILE, heading: TITLE
            (every take of the shot starts the script at that
            heading; else a re-take starts where the shot's first
            take did), framing: single|
            interview, aspect:, length: 30s|1:30 (see
            Assets/example-shots.md). Notes fail closed as in scripts.
            Saved, it reloads keeping the current shot by id. For example:
              ## 01 — Opening
              Look into the lens and say your name.
              note: check the lavalier first
              length: 20s
            """)),
        .prose(N_("""
            Keys N / B next and previous shot, G / X mark the latest take good / no good, A re-take (again);
            control {"cmd":"shot","next":true|false} or {"id":"03"}, {"cmd":"mark","good":true} (and
            "take":N), {"cmd":"retake"}. Takes are named duo-…-shot03-take02.mkv (the take within the shot,
            numbered on after the record folder's takes of the same list);
            sidecars carry shot, shotTake and mark (a mark after the take ended rewrites it), and every
            take's sidecar its scriptRange (start and end: position, fraction and the script file's line).
            """)),
        .option("--allow-any-script", N_("""
            a shot's script: may name a file outside the shot list's
            folder, or one that is not .md/.txt (refused at start
            otherwise: every shot's script is checked before the run)
            """)),
        .option("--resume", N_("""
            go on with the shot-list session recorded in the record
            folder (--record-dir) where it stopped: its current shot,
            take numbers and teleprompter place, from the journal
            duo-capture-session.json written there as it goes (a start
            without --resume offers it in one line). --shots may be
            left out (the journal names the list)
            """)),
        .blank,
    ]

    /// NOTES AND FLAGS.
    static let notes: [HelpItem] = [
        .heading(N_("NOTES AND FLAGS (a QA session's notes on the take's clock)")),
        .option("--note-codes LIST", N_("""
            the codes a note may carry (default BUG,Q,GOOD,PII; also a
            settings-file key, and a shot list's line note-codes: BUG, Q, A11Y
            above its first shot: the command line wins, then the shot list)
            """)),
        .prose(N_("""
            Control {"cmd":"note","code":"BUG","text":"…"} (up to 500 characters; code: the first without
            one) and {"cmd":"flag"}; OSC /duo/note ,ss (code, text) and /duo/flag; the web remote sends both.
            A note during a take is in its sidecar (notes: take time, wall clock, shot, code, text) and a
            chapter of its file (in an MP4: a chpl box and a QuickTime chapter track); between takes it is the
            session's (duo-session-notes.jsonl in the takes' folder). Each is a note event and in the report;
            never on the subject view.
            """)),
        .option("--replay SECONDS", N_("""
            keep the last SECONDS (1 to 300) of encoded video and sound
            in memory while the preview runs, with or without a take
            (also a settings-file key)
            """)),
        .prose(N_("""
            Control {"cmd":"save-replay"}, the Y key, the control bar's Replay button, the web remote's
            button and OSC /duo/replay/save write the buffer out as a replay of its own: duo-DATE-replayNN.mkv
            in the takes' folder, from a keyframe, with its sidecar (replay: the wall-clock span) and a
            chapter for each note made in the span; a replay-saved event says so. One save at a time (a
            second is refused until the first is written); a failed save removes its partial file and the
            preview and any take go on. The buffer costs what the encoder writes: a 60 s 1080p30 buffer at
            the take's bitrate (6.2 Mbit/s) and Opus sound holds about 47 MB, never more than 73 MB (its
            cap: 1.5 times the rate plus 2 s). It encodes once more beside a take (a second encoder).
            """)),
        .prose(N_("""
            On the desktop, Return (or the control bar's note button) opens a note field in the bar: type,
            Up / Down choose the code, Enter saves, Esc cancels; while it is open no other key acts. It does
            not open while the operator's window may face the subject. K (or the flag button) drops a
            flag. The phone page has a note box, a button per code and Flag.
            """)),
        .blank,
    ]
}
