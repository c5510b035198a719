#!/usr/bin/env bash
# The differential tester's soak (SPEC §7, CONFORMANCE 36): runs N random scenarios (default
# 1000), each in one process and spread over 2–4 `trellis node` processes, and compares the two
# traces line for line. Every mismatch is reported with its seed, placement and scenario, and
# written to $TMPDIR/trellis-differential/seed-S.json for `trellis run FILE --transport zmq`.
#   scripts/soak.sh [N] [FIRST]      N seeds from FIRST (default 1000; CI runs seeds 1–24 over
#                                    ZeroMQ, 1–400 over loopback)
#   TRELLIS_SOAK_PARALLEL=K          runs K scenarios at a time (default 2)
#   TRELLIS_SOAK_MEDIUM=loopback     every node in the test process, over an in-memory link
#   TRELLIS_SEED=S scripts/soak.sh   runs seed S alone and prints its scenario
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
count=${1:-1000}
first=${2:-1000}
case "$count$first" in
    *[!0-9]*) echo "usage: scripts/soak.sh [N] [FIRST] (whole numbers)" >&2; exit 2 ;;
esac
swift build --build-tests
if [ -n "${TRELLIS_SEED:-}" ]; then
    exec swift test --skip-build --filter 'DifferentialTests/soak'
fi
# In chunks of at most 400 seeds, each in a fresh test process: a conductor process keeps a few
# descriptors per distributed run it conducts (spawned nodes), and thousands of runs in one
# process would exhaust them.
failed=0
while [ "$count" -gt 0 ]; do
    chunk=$(( count < 400 ? count : 400 ))
    TRELLIS_SOAK_SEEDS=$chunk TRELLIS_SOAK_FIRST=$first swift test --skip-build --filter 'DifferentialTests/soak' || failed=1
    first=$(( first + chunk ))
    count=$(( count - chunk ))
done
exit $failed
