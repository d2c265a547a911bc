#!/usr/bin/env bash
# Overlay cost per frame : the teleprompter drawn into I420 at 720p, 1080p and 4K with a
# 5,000-word script, next to an empty overlay measured in the same run, and the 4K/1080p ratio.
# Usage: Benchmarks/overlay-cost.sh [FRAMES [WORDS]]   (defaults 600 frames, 5000 words; SCRATCH=dir picks the build folder)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${SCRATCH:-.build}"
swift build -c release --scratch-path "$scratch" --product duo-bench-overlay >&2
exec "$scratch/release/duo-bench-overlay" "${1:-600}" "${2:-5000}"
