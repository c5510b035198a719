#!/usr/bin/env bash
# Sets up and runs every test: the Swift test suites (which also run every example scenario
# and the `trellis` binary), then each fuzz target for a short fixed time (Fuzz/README.md;
# TRELLIS_FUZZ_SECONDS, 20 by default, 0 to skip).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build
fuzz_seconds=${TRELLIS_FUZZ_SECONDS:-20}
if [ "$fuzz_seconds" -gt 0 ]; then
    bash scripts/fuzz.sh "$fuzz_seconds"
fi
