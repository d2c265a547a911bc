#!/usr/bin/env bash
# The README's screenshots of both monitors: the operator's and the subject's, from a real desktop run on
# the virtual two-monitor X desktop (Scripts/virtual-desktop.sh: Xorg's dummy driver, needs root), with the
# shipped shot list and talk script, three seconds into a take (the test pattern as the camera: its bars
# show where the preview is; the simulated cameras draw a ball on black).
#
#   Scripts/screenshots.sh [--language LANG] [BINARY]
#                                       BINARY: .build/debug/duo-capture unless given (swift build first)
#
# Writes docs/screenshot-operator.png and docs/screenshot-subject.png: each monitor (1280x720) scaled to
# 960x540, kept small with pngquant and optipng (Scripts/install-deps.sh --desktop installs them).
# --language LANG (zh_CN, ...): both monitors in that translation (po/LANG.po compiled for the run, LANGUAGE=LANG),
# with a cue to the subject shown, written as docs/screenshot-operator-LANG.png and docs/screenshot-subject-LANG.png.
set -euo pipefail
cd "$(dirname "$0")/.."
language=
if [[ "${1:-}" == "--language" ]]; then
  language=${2:?screenshots.sh: --language needs a language, such as zh_CN}
  [[ -f "po/$language.po" ]] || { echo "screenshots.sh: no po/$language.po; the translations are: $(cd po && ls *.po | sed 's/\.po$//' | tr '\n' ' ')" >&2; exit 1; }
  shift 2
fi
binary=${1:-.build/debug/duo-capture}
[[ -x "$binary" ]] || { echo "screenshots.sh: $binary is not built; run swift build (or give the binary)" >&2; exit 1; }
for tool in Xorg import convert pngquant optipng python3; do
  command -v "$tool" >/dev/null || { echo "screenshots.sh: $tool is missing; run Scripts/install-deps.sh --desktop" >&2; exit 1; }
done

# A display number nobody uses.
n=$((150 + RANDOM % 100))
while [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]]; do n=$((n + 1)); done
display=:$n
work=$(mktemp -d)
run_pid=
finish() {
  [[ -n "$run_pid" ]] && kill "$run_pid" 2>/dev/null || true
  Scripts/virtual-desktop.sh stop "$display" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap finish EXIT

Scripts/virtual-desktop.sh start "$display" >/dev/null
# A translation: compiled for this run, found through DUO_CAPTURE_LOCALEDIR (the binary is not installed).
suffix=
language_env=()
if [[ -n "$language" ]]; then
  mkdir -p "$work/locale/$language/LC_MESSAGES"
  msgfmt --check -o "$work/locale/$language/LC_MESSAGES/duo-capture.mo" "po/$language.po"
  language_env=(DUO_CAPTURE_LOCALEDIR="$work/locale" LANGUAGE="$language" LANG=C.UTF-8)
  suffix=-$language
fi
# Its own home, state and settings: nothing remembered from the user's runs changes the picture.
env "${language_env[@]}" DISPLAY=$display HOME=$work XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config \
  "$binary" --source videotestsrc --format 1280x720@30 --shots Assets/example-shots.md --script Assets/scripts/talk.md \
  --countdown 1 --record-dir "$work/takes" --control "$work/control.sock" --events "$work/events.jsonl" \
  >"$work/run.out" 2>"$work/run.err" &
run_pid=$!

# Waits for an event in the events file (python3: the JSON), at most 60 s.
wait_for() {
  python3 - "$work/events.jsonl" "$1" <<'PY'
import json, sys, time
path, name = sys.argv[1], sys.argv[2]
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    try:
        lines = open(path).read().splitlines()
    except FileNotFoundError:
        lines = []
    for line in lines:
        event = json.loads(line)
        if event.get("event") == name and (name != "availability" or event.get("available")):
            sys.exit(0)
    time.sleep(0.2)
sys.exit("screenshots.sh: no %s event within 60 s" % name)
PY
}
send() { python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode() + b"\n")' "$work/control.sock" "$1"; }

wait_for availability || { cat "$work/run.err" >&2; exit 1; }
sleep 2   # the windows settle into fullscreen on their monitors
send '{"cmd":"record"}'
wait_for take-started || { cat "$work/run.err" >&2; exit 1; }
# A translated run shows a cue too: one more of the subject's own texts in their language.
[[ -n "$language" ]] && send '{"cmd":"cue","preset":"lens"}'
sleep 3   # the script scrolls to its first lines
DISPLAY=$display import -window root -depth 8 "$work/root.png"
send '{"cmd":"quit"}'
wait "$run_pid" || true
run_pid=

mkdir -p docs
convert "$work/root.png" -crop 1280x720+0+0 +repage -resize 960x540 "$work/operator.png"
convert "$work/root.png" -crop 1280x720+1280+0 +repage -resize 960x540 "$work/subject.png"
for side in operator subject; do
  out=docs/screenshot-$side$suffix.png
  pngquant --force --quality 70-90 --output "$out" "$work/$side.png"
  optipng -quiet -o2 "$out"
  echo "$out: $(($(stat -c %s "$out") / 1024)) KB"
done
