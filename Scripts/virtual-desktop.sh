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
#
# The same on Wayland: sway's headless backend with outputs HEADLESS-1 and HEADLESS-2 (1280x720 each), run
# as the unprivileged user duo-wayland (sway refuses root; created when missing). NAME is any word.
#   Scripts/virtual-desktop.sh start-wayland NAME     prints the variables to export, then e.g.
#                                                     duo-capture --subject-monitor HEADLESS-2 --script …
#   Scripts/virtual-desktop.sh plug-wayland NAME      one more output (HEADLESS-3, right of the others);
#                                                     sway 1.7 cannot take an output away (disable fails)
#   Scripts/virtual-desktop.sh shot-wayland NAME FILE.png
#   Scripts/virtual-desktop.sh stop-wayland NAME
set -euo pipefail
cd "$(dirname "$0")/.."
action=${1:?usage: virtual-desktop.sh start|stop|plug|unplug|shot DISPLAY [FILE], or start-wayland|stop-wayland|plug-wayland|shot-wayland NAME [FILE]}
display=${2:?give a display such as :77}
state="${TMPDIR:-/tmp}/duo-virtual-desktop${display/:/-}"
mode=1280x720_60
export DISPLAY=$display

wayland_dir="${TMPDIR:-/tmp}/duo-wayland-$display"
wayland_env() {
  local socket ipc
  socket=$(cd "$wayland_dir" && ls -d wayland-* 2>/dev/null | grep -v lock | head -1)
  ipc=$(ls "$wayland_dir"/sway-ipc.*.sock 2>/dev/null | head -1)
  echo "export XDG_RUNTIME_DIR=$wayland_dir WAYLAND_DISPLAY=$socket SWAYSOCK=$ipc GDK_BACKEND=wayland; unset DISPLAY"
}

case "$action" in
start-wayland)
  id duo-wayland >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin duo-wayland
  mkdir -p "$wayland_dir"
  printf '%s\n' "output HEADLESS-1 mode --custom 1280x720@60Hz pos 0 0" \
    "output HEADLESS-2 mode --custom 1280x720@60Hz pos 1280 0" "default_border none" >"$wayland_dir/sway.conf"
  chown -R duo-wayland:duo-wayland "$wayland_dir"
  chmod 0700 "$wayland_dir"
  env -u DISPLAY HOME="$wayland_dir" XDG_RUNTIME_DIR="$wayland_dir" WLR_BACKENDS=headless WLR_HEADLESS_OUTPUTS=2 \
    WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
    setpriv --reuid=duo-wayland --regid=duo-wayland --clear-groups sway -c "$wayland_dir/sway.conf" \
    >"$wayland_dir.log" 2>&1 &
  echo $! >"$wayland_dir.pid"
  for _ in $(seq 100); do ls "$wayland_dir"/sway-ipc.*.sock >/dev/null 2>&1 && break; sleep 0.1; done
  ls "$wayland_dir"/sway-ipc.*.sock >/dev/null 2>&1 || { echo "sway did not start; see $wayland_dir.log" >&2; exit 1; }
  wayland_env
  ;;
plug-wayland) eval "$(wayland_env)"; swaymsg create_output ;;
shot-wayland) eval "$(wayland_env)"; grim "${3:?give a file name}" ;;
stop-wayland)
  [[ -f "$wayland_dir.pid" ]] && kill "$(cat "$wayland_dir.pid")" 2>/dev/null || true
  rm -rf "$wayland_dir" "$wayland_dir.pid" "$wayland_dir.log"
  ;;
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
