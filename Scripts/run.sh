#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (packages, release build) and runs duo-capture with the given
# arguments. Usage: Scripts/run.sh [duo-capture options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh >&2
swift build -c release --product duo-capture --static-swift-stdlib >&2
exec .build/release/duo-capture "$@"
