#!/usr/bin/env bash
# Installs every Debian package duo-capture needs to build, run and test.
# Usage: Scripts/install-deps.sh [--desktop]
#   --desktop also installs the X server, window manager and tools the desktop end-to-end tests use, and
#   the headless Wayland compositor (sway) with its screenshot and key tools, and espeak-ng (the readings
#   the voice-follow tests speak), tesseract (reads the remote display's screen), zbar-tools (zbarimg reads
#   the web remote's pairing QR code off the operator window and off a drawn card).
#   chromium, chromium-driver and python3-selenium: the report and the web remote's page are tested in
#   headless Chromium (test-only: a user's run never needs a browser).
#   pipewire, pipewire-bin, wireplumber: the PipeWire camera and microphone tests start a private daemon
#   (gstreamer1.0-pipewire and gstreamer1.0-libcamera, the cameras' GStreamer elements, are always installed).
#   gstreamer1.0-plugins-base-apps: gst-discoverer-1.0, which reads takes back in the desktop tests.
#   x11-utils: xdpyinfo, xprop and xmessage (another program's window on the subject's monitor, which the
#   curtain must hide from the subject).
#   ToolInventoryTests fails when a test starts a program from a package this list neither names nor pulls in.
#   python3-pip: the framing tests fetch a public-domain portrait from PyPI (scikit-image's astronaut).
#   python-matplotlib-data: a second public-domain portrait (Grace Hopper's, in its sample_data) for the
#   framing tests of small faces anywhere in the picture (FramingPortraitTests).
#   mkvtoolnix (always): mkvpropedit writes the notes' chapters into a finished (or killed) Matroska take;
#   matroskamux writes a table of contents only before the first frame (issue 39).
#   ffmpeg: ffprobe -show_chapters reads a take's chapters back in the notes tests, as a user's tools would.
#   python3-tk: the screen track's sync test draws a clock on the recorded monitor in a Tk window
#   (Tests/DuoDesktopTests/Fixtures/screen_clock.py; ffmpeg reads both pictures back).
#   xdg-desktop-portal, xdg-desktop-portal-wlr, python3-gi: the ScreenCast portal that `--screen` asks on
#   Wayland. On a GPU-less headless sway xdpw 0.7 cannot cast (pixman gives screencopy no DMA-BUF format),
#   so ScreenCastPortalTests runs a stand-in portal in python3-gi on a private bus; the packages are here so
#   a sway desktop gets the real one.
#   pngquant, optipng: Scripts/screenshots.sh keeps the README's screenshots of both monitors small.
#   python3-venv: StudioControllerTests installs obsws-python and simpleobsws (clients not written here)
#   from PyPI into a virtual environment in the tests' cache folder; NotesRunTests likewise installs
#   opentimelineio and its CMX 3600 adapter (otio-cmx3600-adapter) to read the exports back.
#   gettext (always): msgfmt compiles po/*.po into the installed catalogues (Scripts/install.sh);
#   xgettext makes po/duo-capture.pot (Scripts/update-po.sh).
#   locales, tesseract-ocr-chi-sim: the translation tests run in zh_CN.UTF-8 and de_DE.UTF-8 (generated
#   below) and read Chinese back off the monitors (issue 41).
set -euo pipefail

packages=(
  pkg-config python3
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libcairo2-dev libpango1.0-dev libgtk-3-dev libxss-dev libsoup-3.0-dev libqrencode-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
  gstreamer1.0-x gstreamer1.0-gtk3
  fonts-dejavu-core fonts-noto-cjk fonts-noto-core
  gstreamer1.0-pocketsphinx pocketsphinx-en-us
  gstreamer1.0-opencv opencv-data
  gstreamer1.0-pipewire gstreamer1.0-libcamera
  mkvtoolnix gettext
)
if [[ "${1:-}" == "--desktop" ]]; then
  packages+=(xserver-xorg-core xserver-xorg-video-dummy x11-xserver-utils x11-utils openbox imagemagick xdotool
             sway grim wtype espeak-ng tesseract-ocr tesseract-ocr-eng help2man man-db zbar-tools
             chromium chromium-driver python3-selenium python3-pip
             dbus gsettings-desktop-schemas dconf-gsettings-backend dconf-service libglib2.0-bin
             pipewire pipewire-bin wireplumber gstreamer1.0-plugins-base-apps python-matplotlib-data
             pngquant optipng python3-venv ffmpeg locales tesseract-ocr-chi-sim python3-tk
             xdg-desktop-portal xdg-desktop-portal-wlr python3-gi)
fi

# The locales the translation tests run in (a fresh Debian has only C and C.UTF-8).
ensure_locales() {
  [[ "${1:-}" == "--desktop" ]] || return 0
  command -v locale-gen >/dev/null || return 0
  local need=()
  for l in zh_CN.UTF-8 de_DE.UTF-8; do
    locale -a 2>/dev/null | grep -qix "${l/UTF-8/utf8}" || need+=("$l")
  done
  ((${#need[@]})) || return 0
  local s=""; [[ $(id -u) -ne 0 ]] && s="sudo"
  for l in "${need[@]}"; do
    grep -q "^$l UTF-8" /etc/locale.gen 2>/dev/null || echo "$l UTF-8" | $s tee -a /etc/locale.gen >/dev/null
  done
  $s locale-gen >/dev/null
  echo "install-deps: generated the locales ${need[*]}"
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  ensure_locales "${1:-}"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
ensure_locales "${1:-}"
