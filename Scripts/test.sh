#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (every package the tests need) and runs the whole test suite.
# Usage: Scripts/test.sh [extra swift test arguments, e.g. --filter DuoMediaTests]
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh --desktop
swift build --build-tests
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The suite is XCTest; Swift Testing would only add a closing "0 tests" line that reads like an empty run.
status=0
swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$log" || status=$?
summary=$(grep -E 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$log" | tail -n 1 || true)
if [[ -z "$summary" ]]; then
  echo "test.sh: no test summary found (the test runner did not finish)"
  exit 1
fi
executed=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
failed=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$summary")
echo "$((executed - failed)) passed, $failed failed"
if (( status != 0 || failed != 0 || executed == 0 )); then exit 1; fi
