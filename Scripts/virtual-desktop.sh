#!/usr/bin/env bash
# A two-monitor X desktop on a machine without monitors, for trying desktop mode by hand (the tests
# start their own: Tests/DuoDesktopTests/VirtualDesktop.swift). Xorg with the dummy driver (needs root),
# two 1280x720 outputs side by side (DUMMY0, DUMMY1), openbox.
#
#   Scripts/virtual-desktop.sh start :77     then: DISPLAY=:77 duo-capture --script Assets/scripts/talk.md
#   Scripts/virtual-desktop.sh unplug :77    DUMMY1 off (the subject monitor "unplugged")
#   Scripts/virtual-desktop.sh plug :77      DUMMY1 back
#   Scripts/virtual-desktop.sh shot :77 FILE.png
#   Scripts/virtual-desktop.sh stop :77      stops the Xorg and openbox this script started
set -euo pipefail
cd "$(dirname "$0")/.."
action=${1:?usage: virtual-desktop.sh start|stop|plug|unplug|shot DISPLAY [FILE]}
display=${2:?give a display such as :77}
state="${TMPDIR:-/tmp}/duo-virtual-desktop${display/:/-}"
mode=1280x720_60
export DISPLAY=$display

case "$action" in
start)
  mkdir -p "$state"
  Xorg "$display" -noreset -config "$PWD/Tests/DuoDesktopTests/Fixtures/dummy.conf" -logfile "$state/Xorg.log" \
    -nolisten tcp >"$state/xorg.out" 2>&1 &
  echo $! >"$state/xorg.pid"
  for _ in $(seq 100); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
  xdpyinfo >/dev/null || { echo "Xorg did not start; see $state/Xorg.log" >&2; exit 1; }
  xrandr --newmode "$mode" 74.48 1280 1336 1472 1664 720 721 724 746 -HSync +Vsync
  xrandr --addmode DUMMY0 "$mode"
  xrandr --addmode DUMMY1 "$mode"
  xrandr --output DUMMY0 --mode "$mode" --pos 0x0 --primary --output DUMMY1 --mode "$mode" --pos 1280x0
  xrandr -q >/dev/null   # re-probe, so GTK sees DUMMY1 as connected
  openbox --sm-disable >"$state/openbox.out" 2>&1 &
  echo $! >"$state/openbox.pid"
  xrandr --listmonitors
  ;;
unplug) xrandr --output DUMMY1 --off; xrandr -q >/dev/null; xrandr --listmonitors ;;
plug) xrandr --output DUMMY1 --mode "$mode" --pos 1280x0; xrandr -q >/dev/null; xrandr --listmonitors ;;
shot) import -window root "${3:?give a file name}" ;;
stop)
  for p in openbox xorg; do
    [[ -f "$state/$p.pid" ]] && kill "$(cat "$state/$p.pid")" 2>/dev/null || true
  done
  rm -rf "$state"
  ;;
*) echo "unknown action $action" >&2; exit 64 ;;
esac
