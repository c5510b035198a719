#!/usr/bin/env bash
# Sets up, builds and runs one example scenario in-process, printing its canonical trace.
# Usage: scripts/run-example.sh [SCENARIO.json] [trellis run options…]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
scenario="${1:-Examples/iphone-rotation.json}"
shift || true
swift build --product trellis >&2
exec "$(swift build --show-bin-path)/trellis" run "$scenario" "$@"
