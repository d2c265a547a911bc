#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (every package the tests need) and runs the whole test suite.
# Usage: Scripts/test.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh --desktop
swift build --build-tests
swift test --skip-build "$@"
