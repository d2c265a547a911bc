/// `duo-capture --help`: the whole story in one screen.
///
/// Thread: constant text; any thread.
enum Help {
    /// Every long option the help names (`--accessory`, …), in order of first mention: the words a
    /// misspelt option is compared with for "did you mean".
    static let optionNames: [String] = {
        var names: [String] = [], seen: Set<String> = []
        for word in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }) where word.hasPrefix("--") {
            var name = String(word)
            while name.hasSuffix("-") { name.removeLast() }
            if name.count > 3, seen.insert(name).inserted { names.append(name) }
        }
        return names
    }()

    static let text = """
    duo-capture — camera capture for two monitors: the operator's full interface on one, a teleprompter,
    countdown, safe frame and recording light for the person being filmed on the other. Takes are
    recorded while the preview keeps running.

    USAGE
      duo-capture [run] [OPTIONS]          run a capture session (the default command)
      duo-capture pipeline [OPTIONS]       print the assembled graph in gst-launch-1.0 syntax
      duo-capture cameras                  list cameras (GStreamer's device monitor): device, name,
                                           identity (id:…), best format; the one auto opens is marked.
                                           V4L2 cameras, PipeWire's (id:pipewire:NODE) when its daemon
                                           runs, else libcamera's (id:libcamera:ID); without a PipeWire
                                           daemon one line says so. Only modes in a pixel format
                                           duo-capture converts are counted; a camera with none (v210,
                                           r210, IYU2, caps naming no format) is marked "unusable" and
                                           auto passes it by
      duo-capture microphones              list microphones (PipeWire sources): name, identity (id:…),
                                           peak level over 0.6 s; the one auto takes is marked.
                                           No PipeWire daemon running: one line saying so (exit 69)
      duo-capture formats CAMERA [CAMERA]  each camera's formats, two cameras' intersection after decoding
                                           and what it drops, and "choice: WxH@FPS" (exit 1: none); a
                                           CAMERA is inner, outer, profile:FILE, v4l2:/dev/videoN,
                                           file:CLIP or caps:FILE (caps as gst-device-monitor-1.0
                                           prints them);
                                           --format and --min-fps apply
      duo-capture monitors                 list monitors: index, connector, geometry
      duo-capture report DIR               write DIR/report.html: one self-contained page for a folder of
                                           takes (thumbnails, length and format, a timeline of markers,
                                           swaps, cameras lost, dropped frames, the audio level; a take
                                           that does not decode is shown as damaged). Takes recorded
                                           with --shots are grouped by shot, good take first, shots
                                           without a good take marked, shots never recorded listed;
                                           --json prints the same as JSON, --shots FILE names the list
      duo-capture export DIR --format otio|edl|csv [--out FILE]
                                           a folder's takes for an editor: an OpenTimelineIO timeline
                                           (a clip per take, markers for notes, flags, shots, marks),
                                           a CMX 3600 EDL with locators, or a CSV of the notes (take,
                                           time, code, text, shot); frame-accurate at each take's rate
      duo-capture display --listen srt://:PORT
                                           on the machine with the subject's monitor: show the subject
                                           view sent by duo-capture --subject-remote (see REMOTE DISPLAYS)
      duo-capture inspect FILE [--json]    decode a take completely and report frames, size and length
      duo-capture remux FILE.mkv           copy a Matroska take into an MP4 next to it, without
                                           re-encoding (FILE.mp4, or FILE-2.mp4 if that exists)
      duo-capture captions TAKE.mkv|DIR --script FILE [--language en]
                                           captions in the script's own words timed to the take's speech:
                                           TAKE.vtt and TAKE.srt beside it, a subtitle track in the .mkv,
                                           and the take review (lines read, skipped, repeated, partly;
                                           unscripted stretches) in its sidecar. English only
      duo-capture join SEGMENT SEGMENT…    join a take's segments (--swap-policy segment) into one file
                                           at the first one's format and rate (FIRST-joined.mkv; a
                                           slower camera's frames repeated, a faster one's dropped),
                                           with a progress bar; the segments and their sidecars are
                                           removed once it is proved (it holds every frame encoded and
                                           each decodes; --keep-segments keeps them, --output FILE
                                           names it, never an existing file without --force; a taken
                                           FIRST-joined.mkv moves on to FIRST-joined-2.mkv), and its one
                                           sidecar is the take's (its number, swaps, markers, segments);
                                           also finishes a join a kill cut short (the next start says so)
      duo-capture check-script FILE        list a script's words, headings and private notes, and every
                                           malformed note ([[nto: …]], [note: …], ((note: …)), a line
                                           starting note:, a stray or missing ]]) that was kept from the
                                           subject; exits 65 when there is one
      duo-capture render-subject --script FILE --at SECONDS --out FILE.png [...]
                                           render one subject (teleprompter) frame to PNG;
                                           `duo-capture render-subject --help` lists its options
      duo-capture --help | --version

    CAMERA
      --source videotestsrc                a test pattern at any --format (for CI)
      --camera v4l2:/dev/videoN            a real camera; its formats are probed when it opens
      --camera id:IDENTITY                 a real camera by identity, as `duo-capture cameras` lists it
                                           (its serial, else its /dev/v4l/by-id name, else its port):
                                           found at whatever /dev/videoN it has today. A camera known
                                           by identity that is pulled out is lost at once and taken back
                                           when it is plugged in again, at any /dev/videoN
      --camera pipewire:NODE               a camera through PipeWire (the desktop's camera service, as on
                                           GNOME and KDE; MIPI laptop cameras v4l2src cannot open), by its
                                           node name (id:pipewire:NODE, the same when it comes back)
      --camera libcamera:ID                a camera opened by libcamera directly (no PipeWire running)
      --camera profile:FILE                a simulated camera limited to a profile's formats (JSON)
      --camera file:CLIP                   a video clip played live as a camera (rehearsals, tests):
                                           looped, paced at its own size and frame rate
      --camera inner | outer               the shipped profiles of the Duo's two front cameras
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
      --camera A --camera B                two cameras, like the Duo's inner and outer front cameras:
                                           one virtual camera at their best common format (decoded size
                                           and rate), swapped mid-take without a gap or a format change
                                           (control: swap; fold picks the camera facing the subject,
                                           unfold the one facing the operator, by --faces, never by
                                           their order here; {"cmd":"faces","camera":"B","faces":…}
                                           turns a camera round live and the mirroring follows)
      --camera-mode virtual|individual     virtual (default): both cameras at their common format;
                                           individual: each at its own best format, and a swap during a
                                           take follows --swap-policy
      --swap-policy lock|stop|segment      individual mode, formats differ, a take running (same format:
                                           always a seamless swap), in the documents' order: lock
                                           (default) keeps the current camera, the swap refused with its
                                           reason, and X or {"cmd":"swap","restart":true} stops, then
                                           switches (the take ends, a new one after the countdown); stop
                                           ends the take and swaps; segment records on at the new format
                                           in a new segment, the segments joined into one take at the
                                           first one's format when it ends (--keep-segments keeps them)
      --require WxH@FPS|depth              a hard requirement (repeatable): at least this size and rate,
                                           or a depth stream; when no camera (virtual mode: their common
                                           format) meets it, refuse to start (exit 65) naming the best
                                           there is; individual mode: a camera that misses it is an
                                           unmet wish, shown at start, on the HUD and in the sidecar
      --format WxH@FPS                     an upper bound: the best camera format within it (width,
                                           height and rate each); without it, no bound (videotestsrc
                                           runs at exactly this, default 1280x720@30)
      --min-fps N                          formats of at least N fps (default 24) win: the most pixels,
                                           then the highest rate; if none reaches N, the highest rate
      --faces operator|subject             after a --camera: whose face it sees (a profile says it in
                                           "faces"; default subject). A display's picture is mirrored
                                           while its viewer faces the camera on the air (the selfie
                                           convention), again on every swap; recordings never are
      --mirror-preview                     flip the operator's own preview
      --rotate 0|90|180|270                after a --camera: turn its picture upright (degrees clockwise;
                                           a simulated camera's profile says it in "rotation"); applied
                                           once, in the camera's own chain, before any branch
      --camera-loss wait|exit              a camera lost with no other to take over: finalise the take
                                           and wait, taking the camera back when it returns (default),
                                           or end the run with exit 70 (for CI). With two cameras the
                                           take goes on with the other one either way (individual
                                           mode: as --swap-policy says for a swap); a lost
                                           microphone never ends the run (the take goes on silent;
                                           one chosen by name is taken back when it returns)

    RUNNING
      --headless                           no windows: operator and subject branches end in fakesink
      --duration SECONDS                   stop after this long (default: until SIGINT/SIGTERM); with
                                           --record, the take's length after the countdown
      --start-timeout SECONDS              how long start-up waits for the camera's first frame (default
                                           10); then one line names the camera, its mode and what it
                                           waited for (for PipeWire: whether the node agreed a format),
                                           exit 69. SIGINT, SIGTERM and SIGHUP end the wait at once
      --quiet                              no progress lines, only errors and the summary
      --json                               print the end-of-run summary as JSON
      --control PATH                       a Unix socket (mode 0600; a bare NAME goes under
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
      --timeline FILE                      replay timed commands for a reproducible session: one line
                                           each, {"at": SECONDS, "cmd": …} (the --control commands),
                                           counted from when the graph is running
      --remote-control [ADDRESS:]PORT      a web remote for a phone: one page (record/stop, pause, speed,
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
      --remote-token-file FILE             the pairing token from FILE's first line (22+ letters, digits
                                           or -_.~, random) instead of a new random one each run; the
                                           file must be readable only by you (chmod 600), as the
                                           passphrase file (--allow-readable-passphrase takes it anyway)
      --osc [ADDRESS:]PORT                 OSC 1.0 over UDP (Bitfocus Companion, consoles): /duo/record,
                                           /duo/stop, /duo/pause, /duo/speed 1.5 (times the default),
                                           /duo/speed/up|down, /duo/marker/next|previous,
                                           /duo/shot/next|previous, /duo/state; the last sender gets
                                           /duo/state feedback (state, take, elapsed, speed, paused,
                                           progress). Loopback unless ADDRESS is given; OSC has no
                                           authentication, so another ADDRESS says so at start
      --osc-allow ADDRESS[/BITS]           take OSC only from this address or prefix (repeatable), such
                                           as 192.168.1.20 or 192.168.1.0/24; others are dropped and
                                           never answered
      --obs-websocket [ADDRESS:]PORT       an obs-websocket 5 server (Stream Deck's OBS plugin,
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
      --obs-websocket-password-file FILE   its password (FILE's first line; chmod 600); without it a
                                           random one is printed at start, and an ADDRESS other than
                                           loopback is refused
      --hyperdeck [ADDRESS:]PORT           Blackmagic's HyperDeck Ethernet protocol (ATEM switchers,
                                           Companion's HyperDeck module, vMix): record, stop, transport
                                           info, slot info, clips count/get, notify (async 508
                                           transport info), device info, ping, quit. An ADDRESS alone
                                           (0.0.0.0) takes HyperDeck's port 9993. Loopback unless
                                           ADDRESS is given; the protocol has no password

    SUBJECT VIEW (the accessory on the subject's monitor)
      --accessory teleprompter|preview|countdown|off
                                           what the subject sees (default: teleprompter with --script,
                                           else countdown: countdown and recording light only); off
                                           shuts the subject branch, which then costs nothing; the
                                           teleprompter with no --script opens the last script used,
                                           else a welcome script that shows the keys
      --script FILE                        teleprompter script: UTF-8 .txt or Markdown .md; [[note: …]]
                                           and <!-- … --> are for the operator only, [PAUSE] stops
                                           scrolling, headings are markers, [POSE: look at the lens]
                                           shows the subject that instruction and a small drawing
                                           until the next pose cue or heading ([POSE] alone ends it)
      --display-profile FILE               subject monitor insets and camera occlusions (JSON, see
                                           Assets/displays/); the reading line sits next to the camera
      --wpm N | --lines-per-minute N       scroll speed (lines for scripts without spaces); scrolling
                                           starts with the take. Without these, a script comes back at
                                           the speed it was last read at ($XDG_STATE_HOME/duo-capture)
      --follow voice|time                  voice: the teleprompter follows the speaker's voice, offline
                                           (pocketsphinx, English; needs sound: --audio). Recognition
                                           is limited to the script's own words (a model written from
                                           the script, cached in $XDG_CACHE_HOME/duo-capture/voice); it
                                           tolerates misheard words, ad-libs and repeats, jumps forward
                                           when the speaker skips ahead, never back; unsure, the line
                                           goes on at the speaker's pace for a moment; in silence it
                                           holds. V (or {"cmd":"follow"}) switches voice / time live; P
                                           holds the following. time (default): the speed below
      --mirror h|v|hv|none                 mirror the subject view for beam-splitter glass
      --lens top|top-left|top-right|bottom|behind
                                           where the camera's lens is on the subject monitor (default
                                           top, or the display profile's "lens"): the reading line sits
                                           as near it as the layout allows, the self-view on the far
                                           side; behind = a beam-splitter prompter, the text mirrored
                                           for the glass (unless --mirror says otherwise)
      --self-view small|large|off          the subject's own picture, mirrored, with the safe frame
                                           (the --aspect crop, action- and graphics-safe areas) and the
                                           recording light beside it: a sixth (small, default) or a
                                           third (large) of the monitor's width; I (or {"cmd":
                                           "self-view"}) switches it (teleprompter, countdown)
      --talent-clock off|all|LIST          the talent's clock on the subject view, beside the text
                                           across from the recording light: any of clock (the time of
                                           day), count-up (the take's time) and target (the time to the
                                           shot's length: from --shots; past it "+0:12" in red), as a
                                           comma list in the order wanted (--talent-clock target,clock);
                                           off by default; talent-clock=clock,target in the settings file
      --font-size N | --lines N            text size in pixels (default 48, less on small monitors),
                                           or as large as lets N lines (3-40) fill the subject monitor;
                                           + and - change it live, remembered with the script's speed
      --theme default|high-contrast  --reading-line FRACTION
      --subject-language LANG              the language of the subject view's own words (hints, the
                                           standby line, cue presets, the shot card's label, the
                                           recording light), here and on remote displays: zh_CN, en,
                                           ... (default: yours, from LANGUAGE/LANG); the script and
                                           the shot list are shown as written
      --framing off|single|interview       framing hints for the subject from the camera ("move left",
                                           "a little closer", "step back", "raise the camera", "no one
                                           in frame"), in large type on the subject view, on the HUD
                                           with the face box, and as `framing` events. Directions are
                                           the subject's own, as in their mirrored self-view. single:
                                           one person to the centre of the composition; interview: two
                                           people, each to the nearer third. Default: single for the
                                           teleprompter with a real camera or a clip when the face
                                           detector is installed (gstreamer1.0-opencv, opencv-data),
                                           else off
      On the desktop the subject window draws the view itself at the subject monitor's own resolution
      (1080p, 4K, portrait), scrolling on the monitor's frame clock; the camera picture reaches it
      only for the preview kind (scaled once to the monitor) and the self-view (scaled once to its
      size; with the self-view off the subject branch carries no picture). render-subject --size WxH
      with the same options draws the same pixels offline (a test pattern in the self-view).

    SHOT LISTS (a session as numbered shots, or a test session as steps)
      --shots FILE                         walk a shot list: Markdown, one '## ID — Title' heading per
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
      Keys N / B next and previous shot, G / X mark the latest take good / no good, A re-take (again);
      control {"cmd":"shot","next":true|false} or {"id":"03"}, {"cmd":"mark","good":true} (and
      "take":N), {"cmd":"retake"}. Takes are named duo-…-shot03-take02.mkv (the take within the shot,
      numbered on after the record folder's takes of the same list);
      sidecars carry shot, shotTake and mark (a mark after the take ended rewrites it), and every
      take's sidecar its scriptRange (start and end: position, fraction and the script file's line).
      --allow-any-script                   a shot's script: may name a file outside the shot list's
                                           folder, or one that is not .md/.txt (refused at start
                                           otherwise: every shot's script is checked before the run)
      --resume                             go on with the shot-list session recorded in the record
                                           folder (--record-dir) where it stopped: its current shot,
                                           take numbers and teleprompter place, from the journal
                                           duo-capture-session.json written there as it goes (a start
                                           without --resume offers it in one line). --shots may be
                                           left out (the journal names the list)

    NOTES AND FLAGS (a QA session's notes on the take's clock)
      --note-codes LIST                    the codes a note may carry (default BUG,Q,GOOD,PII; also a
                                           settings-file key)
      Control {"cmd":"note","code":"BUG","text":"…"} (up to 500 characters; code: the first without
      one) and {"cmd":"flag"}; OSC /duo/note ,ss (code, text) and /duo/flag; the web remote sends both.
      A note during a take is in its sidecar (notes: take time, wall clock, shot, code, text) and a
      chapter of its Matroska file; between takes it is the session's (duo-session-notes.jsonl in the
      takes' folder). Each is a note event and in the report; never on the subject view.

    DESKTOP (without --headless: needs a display)
    \(DesktopOptions.help)

    REMOTE DISPLAYS (the subject view on other machines, over SRT)
      --subject-remote srt://HOST:PORT     send the subject view to `duo-capture display --listen
                                           srt://:PORT` on HOST (repeatable: several displays, plus or
                                           instead of the local subject monitor). Each is rendered for
                                           that display's own monitor (its size comes in a handshake on
                                           TCP PORT), H.264 with no B-frames and zero-latency tuning
                                           (Pipelines/remote-subject.gst), a key frame every second. Only
                                           the subject view leaves: never the operator preview or notes.
                                           A display that goes or is not there yet is asked again every
                                           few seconds; the take and the local views never wait for it
      --passphrase-file FILE               the SRT passphrase (10-79 characters), the same on both ends;
                                           or DUO_SRT_PASSPHRASE. Never on the command line (ps shows it).
                                           Encryption is on by default: without a passphrase, an error
      --allow-readable-passphrase          take a passphrase file others can read (refused otherwise:
                                           chmod 600 it)
      --no-encryption                      send unencrypted (a closed network only; the log says so)
      --srt-latency MS                     SRT's latency budget for retransmission (default 120)
      duo-capture display --listen srt://:PORT [--subject-monitor N|NAME] [--windowed] [--events FILE]
                                           a fullscreen window on that monitor showing the view as it
                                           arrives, "waiting for duo-capture" while nothing does; it
                                           recovers by itself. A sender with a wrong passphrase is refused
                                           (said on both ends). --connect srt://HOST:PORT calls a sender
                                           that listens (--subject-remote srt://:PORT; rendered 1920x1080).
                                           Q or Esc closes it

    RECORDING
      --record                             record one take, from the countdown's end to the end of the run
      --countdown SECONDS                  0 to 10 (default 3): the take starts when it ends, its first
                                           frame a keyframe within one frame interval
      --record-dir DIR                     where takes go (default: $XDG_VIDEOS_DIR/duo-capture,
                                           else ~/Videos/duo-capture); an unwritable DIR is refused
                                           before anything starts
      --container mkv|mp4                  Matroska (default; survives crashes) or MP4 (finalised on stop)
      --encoder auto|vaapih264|x264|openh264
                                           H.264 encoder; auto picks the best one installed
      --aspect 16:9|9:16|1:1|4:3           crop the recording to this ratio, centred
      --audio auto|none|test|NAME|id:NODE|file:PATH|SOURCE
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
      Files are named duo-YYYY-MM-DD_HHMMSS-takeNN.mkv and never overwrite an existing file. Each take
      gets a JSON sidecar next to it (duo-…-takeNN.json: tool version, start and end, cameras, formats,
      swaps, script markers passed, dropped frames), written when the take starts and completed when
      it ends. SIGINT and SIGTERM finalise the take and exit 0; after SIGKILL the Matroska file plays
      up to about a second before the kill; a full disk ends the take (exit 70) while the preview
      runs on, and the partial file plays.

    SETTINGS
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
      --print-config                       the settings in effect and where each came from

    ADVANCED
      --pipelines DIR                      load branch descriptions (*.gst) from DIR instead of the
                                           shipped Pipelines/ folder; swap encoders or muxers there
      GST_DEBUG, GST_DEBUG_DUMP_DOT_DIR    work as in any GStreamer program; duo-capture's own lines are
                                           the category duo-capture (GST_DEBUG=duo-capture:6 shows its log
                                           lines, decisions and every event among the pipeline's)
      --verbose, -v                        the duo-capture category at DEBUG: every event on stderr too

    EXIT CODES
      0 success · 64 bad option or value · 65 bad input file (profile, script, pipeline file)
      69 missing dependency (the message names the Debian package) or unusable camera (no format
      it can convert, or no first frame within --start-timeout) · 70 runtime failure
    """
}
