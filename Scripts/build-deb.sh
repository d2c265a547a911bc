#!/usr/bin/env bash
# Builds a Debian package of duo-capture: the release binary (Swift's runtime linked in, so a machine
# without the toolchain runs it), its Pipelines/ and Assets/ under /usr/share/duo-capture, the desktop
# entry, man page and bash completion, with Depends: on the GStreamer plugin packages, GTK and fonts.
# Install it on a fresh Debian 12 with: apt-get install ./duo-capture_VERSION_ARCH.deb
# Usage: Scripts/build-deb.sh [--out DIR] [--binary FILE]   (--binary: package this build instead)
set -euo pipefail
cd "$(dirname "$0")/.."
out=.
bin=""
while (($#)); do
  case "$1" in
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --binary) bin="${2:?--binary needs a file}"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "build-deb.sh: unknown option $1; use --out DIR or --binary FILE" >&2; exit 64 ;;
  esac
done
if [[ -z "$bin" ]]; then
  bash Scripts/install-deps.sh
  swift build -c release --product duo-capture --static-swift-stdlib
  bin="$(swift build -c release --show-bin-path)/duo-capture"
fi
version=$("$bin" --version | head -1 | cut -d' ' -f2)
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
chmod 0755 "$stage"
trap 'rm -rf "$stage"' EXIT
bash Scripts/install.sh --prefix "$stage/usr" --binary "$bin" >/dev/null
# The desktop entry names the installed path, not the staging folder.
sed -i "s|$stage/usr/bin|/usr/bin|" "$stage/usr/share/applications/duo-capture.desktop"
mkdir -p "$stage/DEBIAN"
size=$(du -sk "$stage/usr" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: duo-capture
Version: $version
Architecture: $arch
Maintainer: duo-capture developers <duo-capture@localhost>
Installed-Size: $size
Section: video
Priority: optional
Depends: libgstreamer1.0-0, libgstreamer-plugins-base1.0-0, gstreamer1.0-plugins-base, gstreamer1.0-plugins-good,
 gstreamer1.0-plugins-bad, gstreamer1.0-plugins-ugly, gstreamer1.0-libav, gstreamer1.0-gtk3, gstreamer1.0-tools,
 libgtk-3-0, libcairo2, libpango-1.0-0, libpangocairo-1.0-0, libwayland-client0, libxss1, libx11-6, fonts-dejavu-core,
 libsoup-3.0-0, libqrencode4
Recommends: mkvtoolnix, gstreamer1.0-pocketsphinx, pocketsphinx-en-us, fonts-noto-cjk, fonts-noto-core, gstreamer1.0-pulseaudio,
 gstreamer1.0-opencv, opencv-data,
 gstreamer1.0-pipewire, gstreamer1.0-libcamera
Description: camera capture for two monitors: the operator's view and the subject's teleprompter
 duo-capture captures from a camera with GStreamer and drives two monitors: the operator's with the
 preview, safe frame, recording state and private notes, and the subject's with a teleprompter (which
 can follow the speaker's voice), countdown, safe frame and recording light, locally or on another
 machine over SRT. Takes are recorded without interrupting the preview.
CONTROL
mkdir -p "$out"
deb="$out/duo-capture_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$stage" "$deb" >/dev/null
echo "build-deb.sh: $deb"
