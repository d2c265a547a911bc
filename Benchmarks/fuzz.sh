#!/usr/bin/env bash
# Fuzz run of the control-message, timeline and script parsers for a bounded time (seeded, so a failure
# can be replayed with the same seed). Exits non-zero on the first failure, printing the input.
# Usage: Benchmarks/fuzz.sh [SECONDS (default 60)] [SEED (default 1)]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product duo-fuzz >&2
.build/release/duo-fuzz "${1:-60}" "${2:-1}"
