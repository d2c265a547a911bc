#!/usr/bin/env bash
# Remakes po/duo-capture.pot from the sources (xgettext, through Scripts/po-extract.py) and merges it into
# every translation in po/LINGUAS (msgmerge), then checks each with msgfmt --check. Run it after changing
# any marked string; translators then fill in the new entries (msgmerge marks changed ones fuzzy).
# Usage: Scripts/update-po.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v xgettext >/dev/null || { echo "update-po.sh: xgettext is missing; install gettext (bash Scripts/install-deps.sh)" >&2; exit 69; }
python3 Scripts/po-extract.py extract --pot po/duo-capture.pot
# The header's creation date would change the file on every run: keep it stable.
sed -i 's/^"POT-Creation-Date: .*\\n"$/"POT-Creation-Date: 2026-12-01 00:00+0000\\n"/; s/^"Content-Type: text\/plain; charset=CHARSET\\n"$/"Content-Type: text\/plain; charset=UTF-8\\n"/' po/duo-capture.pot
while read -r lang; do
  [[ -z "$lang" || "$lang" == \#* ]] && continue
  if [[ -f "po/$lang.po" ]]; then
    msgmerge --quiet --update --backup=none --no-wrap --previous --add-location=file "po/$lang.po" po/duo-capture.pot
  else
    msginit --no-translator --no-wrap --locale="$lang.UTF-8" --input=po/duo-capture.pot --output-file="po/$lang.po"
  fi
  msgfmt --check --statistics -o /dev/null "po/$lang.po"
done < po/LINGUAS
