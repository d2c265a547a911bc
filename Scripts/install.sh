#!/usr/bin/env bash
# Installs duo-capture like a desktop program: the release binary in PREFIX/bin; Pipelines/ and Assets/
# in PREFIX/share/duo-capture/ (where the binary finds them); the translations in PREFIX/share/locale; a .desktop entry; a man page made from
# --help (Scripts/make-man.sh); bash completion. Installs the Debian packages it needs first (Scripts/install-deps.sh).
# Usage: Scripts/install.sh [--prefix DIR] [--binary FILE]
#   --prefix  where to install (default /usr/local)
#   --binary  install this duo-capture instead of building one in release (tests install the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
bin=""
while (($#)); do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --binary) bin="${2:?--binary needs a file}"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1; use --prefix DIR" >&2; exit 64 ;;
  esac
done
bash Scripts/install-deps.sh
if [[ -z "$bin" ]]; then
  # Swift's runtime linked in, as the .deb ships it: one binary that starts ~15 ms sooner (fewer
  # shared objects to map and relocate) and does not break when the toolchain moves.
  swift build -c release --product duo-capture --static-swift-stdlib
  bin="$(swift build -c release --show-bin-path)/duo-capture"
fi
[[ -x "$bin" ]] || { echo "install.sh: $bin is not an executable duo-capture" >&2; exit 66; }

install -d "$prefix/bin" "$prefix/share/duo-capture" "$prefix/share/applications" "$prefix/share/man/man1" \
  "$prefix/share/bash-completion/completions"
install -m 0755 "$bin" "$prefix/bin/duo-capture"
rm -rf "$prefix/share/duo-capture/Pipelines" "$prefix/share/duo-capture/Assets"
cp -R Pipelines Assets "$prefix/share/duo-capture/"
sed "s|@BINDIR@|$prefix/bin|" Packaging/duo-capture.desktop > "$prefix/share/applications/duo-capture.desktop"
install -m 0644 Packaging/duo-capture.bash-completion "$prefix/share/bash-completion/completions/duo-capture"
# The translations (po/LINGUAS), compiled: gettext finds them in PREFIX/share/locale beside bin/.
while read -r lang; do
  [[ -z "$lang" || "$lang" == \#* ]] && continue
  install -d "$prefix/share/locale/$lang/LC_MESSAGES"
  msgfmt --check -o "$prefix/share/locale/$lang/LC_MESSAGES/duo-capture.mo" "po/$lang.po"
done < po/LINGUAS
bash Scripts/make-man.sh "$prefix/bin/duo-capture" | gzip -9n > "$prefix/share/man/man1/duo-capture.1.gz"
echo "install.sh: duo-capture installed in $prefix (binary, share/duo-capture, translations, desktop entry, man page, bash completion)"
