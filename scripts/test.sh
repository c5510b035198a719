#!/usr/bin/env bash
# Sets up and runs every test: the Swift test suites (which also run every example scenario
# and the `trellis` binary), the distributed suites again pinned to one CPU, the documentation,
# the runner of
# Examples/Runner (scripts/runner.sh, and over ZeroMQ scripts/runner-zmq.sh), then each fuzz
# target for a short fixed time (Fuzz/README.md; TRELLIS_FUZZ_SECONDS, 20 by default, 0 to skip).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
# No function in Sources/ longer than 80 lines (issue 23; docs/architecture.md).
python3 scripts/function-length.py
# macOS is supported by construction (README, Platforms): no library imports Glibc or Darwin, or
# calls what only Linux has, outside a condition that guards it (issue 26).
python3 scripts/platform-imports.py
swift build --build-tests
swift test --skip-build
# The distributed suites again with every thread on one CPU (SPEC §7, issue #16): scheduling must
# not decide a run's outcome. util-linux's taskset is on every Debian; skipped, and said, without it.
if command -v taskset >/dev/null 2>&1; then
    taskset -c 0 swift test --skip-build --filter 'TrellisTransportTests|TrellisInteropTests'
else
    echo "test.sh: taskset not found; the pinned run of the distributed suites is skipped" >&2
fi
# The DocC documentation of every library product, warnings as errors, and a summary line on
# every public symbol (scripts/doc-coverage.py), so a symbol added later is caught (issue 26).
bash scripts/docs.sh
# The runner of Examples/Runner: built as a user builds theirs (Trellis by path, no warnings),
# and run over its scenarios in-process (SPEC §4.1).
bash scripts/runner.sh
# ... and distributed: its scenarios spread over nodes spawned from the runner give the
# in-process trace, and the plain trellis as a node is refused (SPEC §4.1, §7).
bash scripts/runner-zmq.sh
fuzz_seconds=${TRELLIS_FUZZ_SECONDS:-20}
if [ "$fuzz_seconds" -gt 0 ]; then
    bash scripts/fuzz.sh "$fuzz_seconds"
fi
