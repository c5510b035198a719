#!/usr/bin/env bash
# Builds the runner of Examples/Runner (a package of its own that depends on Trellis by path,
# SPEC §4.1) with warnings as failures, then runs each of its scenarios with it: every `expect`
# step must hold (exit 0). The plain `trellis` must refuse them (exit 2), since only the runner
# registers the behaviours they name. Usage: scripts/runner.sh [extra arguments for `run`]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
runner_dir=Examples/Runner
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
# A warning anywhere in the runner's own build fails the script: the runner must build clean.
swift build --package-path "$runner_dir" 2>&1 | tee "$build_log"
if grep -E "warning:" "$build_log" >/dev/null; then
    echo "runner.sh: the runner built with warnings (above)" >&2
    exit 1
fi
runner="$runner_dir/.build/debug/my-trellis"
# The plain trellis, to check it refuses the runner's scenarios: built here (incrementally), so
# the check never passes by being skipped.
swift build --product trellis
plain=$(swift build --show-bin-path)/trellis
[ -x "$plain" ] || { echo "runner.sh: no plain trellis at $plain" >&2; exit 1; }
for scenario in "$runner_dir"/Scenarios/*.json; do
    echo "runner.sh: $scenario"
    "$runner" validate "$scenario"
    "$runner" run "$scenario" "$@" >/dev/null
    status=0
    "$plain" validate "$scenario" 2>/dev/null || status=$?
    if [ "$status" -ne 2 ]; then
        echo "runner.sh: the plain trellis accepted $scenario (exit $status), but it names behaviours only the runner has" >&2
        exit 1
    fi
done
echo "runner.sh: every runner scenario ran and held"
