#!/usr/bin/env bash
# Sets up and runs every test: the Swift test suites (which also run every example scenario
# and the `trellis` binary).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build
