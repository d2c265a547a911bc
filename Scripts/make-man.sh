#!/usr/bin/env bash
# Writes duo-capture's man page (roff, UTF-8) to stdout from the binary's own --help, so the page never
# drifts from the program: NAME, SYNOPSIS, DESCRIPTION (the help's opening and its commands), OPTIONS
# (one subsection per help section), EXIT STATUS, then EXAMPLES, FILES and SEE ALSO written here.
# help2man put everything under DESCRIPTION and turned —, … and → into "???"; this keeps UTF-8 and
# marks it so (preconv reads the coding line), and escapes every '-' so options copy as typed.
# Usage: Scripts/make-man.sh BINARY > duo-capture.1
set -euo pipefail
bin="${1:?usage: make-man.sh BINARY (the duo-capture to document)}"
[[ -x "$bin" ]] || { echo "make-man.sh: $bin is not an executable duo-capture; build it first (swift build)" >&2; exit 66; }
version=$("$bin" --version | head -1 | cut -d' ' -f2)
# The English page (a translated one would go under share/man/LANG/).
help=$(LANGUAGE= LC_ALL=C.UTF-8 "$bin" --help)
printf '%s\n' ".\\\" -*- coding: UTF-8 -*-" \
  ".\\\" Made by Scripts/make-man.sh from duo-capture --help; do not edit." \
  ".TH DUO-CAPTURE 1 \"\" \"duo-capture $version\" \"User Commands\"" \
  ".SH NAME" \
  "duo\\-capture \\- camera capture for two monitors: the operator's view and the subject's teleprompter" \
  ".SH SYNOPSIS" \
  ".B duo\\-capture" "[\\fBrun\\fR] [\\fIOPTIONS\\fR]" ".br" \
  ".B duo\\-capture" "\\fICOMMAND\\fR [\\fIARGUMENTS\\fR]" ".br" \
  ".B duo\\-capture" "\\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR"
# The help's layout: a paragraph, then sections whose heading is a line in capitals (a note in
# parentheses may follow); in them a line at indent 2 is a term (an option or command) when two or more spaces part it from its
# description, else prose (which a line at indent 2 continues); a line at indent 4 with such a gap is a
# key and what it does; a line indented further continues the description above it.
printf '%s\n' "$help" | LC_ALL=C awk '
function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); return s }
function line(s) { s = esc(s); if (s ~ /^[.\047]/) s = "\\&" s; print s }
BEGIN { section = "" ; mode = "" }
/^[A-Z][A-Z ]+( \(.*\))?$/ {
  name = $0; note = ""
  if (match(name, / \(.*\)$/)) { note = substr(name, RSTART + 2, RLENGTH - 3); name = substr(name, 1, RSTART - 1) }
  if (name == "USAGE") { print ".SH DESCRIPTION"; for (i = 0; i < n; i++) line(intro[i]); print ".SS Commands" }
  else if (name == "EXIT CODES") print ".SH \"EXIT STATUS\""
  else { if (!options) { print ".SH OPTIONS"; options = 1 }; s = tolower(name); print ".SS " toupper(substr(s, 1, 1)) substr(s, 2); if (note != "") { note = toupper(substr(note, 1, 1)) substr(note, 2) "."; line(note); print ".PP" } }
  section = name; mode = ""; next
}
section == "" { if ($0 != "") intro[n++] = $0; next }
/^ *$/ { if (mode != "") print ".PP"; mode = ""; next }
/^    [^ ]/ && match(substr($0, 5), /[^ ]  +[^ ]/) {
  body = substr($0, 5); term = substr(body, 1, RSTART); rest = substr(body, RSTART + 1); sub(/^ +/, "", rest)
  print ".TP 14"; print "\\fB" esc(term) "\\fR"; line(rest); mode = "term"; next
}
/^  [^ ]/ {
  body = substr($0, 3)
  if (mode == "prose" && body !~ /[^ ]  +[^ ]/) { line(body); next }
  if (section != "EXIT CODES" && match(body, /[^ ]  +[^ ]/)) {
    term = substr(body, 1, RSTART); rest = substr(body, RSTART + 1); sub(/^ +/, "", rest)
    print ".TP"; print "\\fB" esc(term) "\\fR"; line(rest); mode = "term"; next
  }
  if (section != "EXIT CODES" && (body ~ /^-/ || section == "USAGE")) {
    print ".TP"; print "\\fB" esc(body) "\\fR"; mode = "term"; next
  }
  if (mode == "term") print ".PP"
  line(body); mode = "prose"; next
}
{ s = $0; sub(/^ +/, "", s); line(s) }
'
cat <<'ROFF'
.SH EXAMPLES
A rehearsal with the built-in test camera and no windows, ten seconds long:
.PP
.RS
.nf
duo\-capture \-\-headless \-\-source videotestsrc \-\-duration 10
.fi
.RE
.PP
Record one take from the first camera with a teleprompter script on the subject's monitor:
.PP
.RS
.nf
duo\-capture \-\-camera inner \-\-accessory teleprompter \-\-script talk.md \-\-record
.fi
.RE
.PP
Walk a shot list, the teleprompter following the speaker's voice:
.PP
.RS
.nf
duo\-capture \-\-shots shots.md \-\-script talk.md \-\-follow voice \-\-audio auto
.fi
.RE
.PP
List the cameras, and the formats two of them share:
.PP
.RS
.nf
duo\-capture cameras
duo\-capture formats inner outer
.fi
.RE
.PP
Show the subject view on another machine (run the first there, the second here):
.PP
.RS
.nf
duo\-capture display \-\-listen srt://:9000
duo\-capture \-\-subject\-remote srt://studio\-pc:9000
.fi
.RE
.PP
A page of every take in a folder:
.PP
.RS
.nf
duo\-capture report ~/Videos/duo\-capture
.fi
.RE
.SH FILES
.TP
.I $XDG_CONFIG_HOME/duo\-capture/duo\-capture.conf
defaults for any long option (see Settings above); default ~/.config/duo\-capture/duo\-capture.conf.
.TP
.I $XDG_STATE_HOME/duo\-capture/
what is remembered between runs: the last camera, microphone, script and reading speed; default
~/.local/state/duo\-capture/.
.TP
.I $XDG_VIDEOS_DIR/duo\-capture/
where takes go unless \fB\-\-record\-dir\fR says otherwise: duo\-YYYY\-MM\-DD_HHMMSS\-takeNN.mkv, each
with its JSON sidecar.
.TP
.I /usr/share/duo\-capture/
the shipped branch descriptions (Pipelines/*.gst) and assets (camera profiles, example scripts and shot lists).
.SH "SEE ALSO"
.BR gst\-launch\-1.0 (1),
.BR gst\-device\-monitor\-1.0 (1),
.BR pw\-cli (1),
.BR v4l2\-ctl (1)
ROFF
