#!/usr/bin/env bash
# The runner's scenarios over ZeroMQ (SPEC §4.1, §7; issue 28's done-when): each scenario of
# Examples/Runner named below is spread over nodes b and c (every controller but the root, in
# turn), then run by the runner in-process and with `--transport zmq` — its nodes are spawned
# from the runner's own executable, so the Swift behaviours run on other nodes — and the two
# traces must be equal line for line. The plain `trellis` started by hand as node b must be
# refused: the runner exits 2 naming node b. Builds the runner and the plain trellis (incrementally).
# Usage: scripts/runner-zmq.sh [SCENARIO_NAME...]   (default: every scenario in Examples/Runner/Scenarios)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
set -euo pipefail
runner_dir=Examples/Runner
runner="$runner_dir/.build/debug/my-trellis"
swift build --package-path "$runner_dir"
swift build --product trellis
plain=$(swift build --show-bin-path)/trellis
[ -x "$plain" ] || { echo "runner-zmq.sh: no plain trellis at $plain" >&2; exit 1; }
work=$(mktemp -d)
node_pid=
trap '[ -n "$node_pid" ] && kill -9 "$node_pid" 2>/dev/null; rm -rf "$work"' EXIT
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for file in "$runner_dir"/Scenarios/*.json; do names+=("$(basename "$file" .json)"); done
fi
for name in "${names[@]}"; do
    placed="$work/$name.json"
    /usr/bin/python3 - "$runner_dir/Scenarios/$name.json" "$placed" <<'PY'
import json, sys
scenario = json.load(open(sys.argv[1]))
others = [ident for ident in scenario["controllers"] if ident != scenario["root"]]
scenario["placement"] = {ident: ("b", "c")[index % 2] for index, ident in enumerate(others)}
json.dump(scenario, open(sys.argv[2], "w"), indent=1)
PY
    "$runner" run "$placed" > "$work/$name.inproc"
    "$runner" run "$placed" --transport zmq > "$work/$name.zmq"
    if [ ! -s "$work/$name.inproc" ] || ! diff -u "$work/$name.inproc" "$work/$name.zmq"; then
        echo "runner-zmq.sh: $name over ZeroMQ differs from the in-process trace (above)" >&2
        exit 1
    fi
    echo "runner-zmq.sh: $name: $(wc -l < "$work/$name.zmq") lines, the same in-process and over ZeroMQ ($(python3 -c "import json,sys; print(' '.join(f'{k}={v}' for k,v in json.load(open(sys.argv[1]))['placement'].items()))" "$placed"))"
done
# A node of another program: the plain trellis started by hand as node b is refused (exit 2).
# Bounded: a node nobody sets up gives up after 20 s, and the trap kills it if the script fails.
placed="$work/${names[0]}.json"
"$plain" node --name b --bind "ipc://$work/b.sock" --peer "main=ipc://$work/main.sock" --conductor main \
    --setup-timeout 20 2>/dev/null &
node_pid=$!
{
    status=0
    "$runner" run "$placed" --transport zmq --listen "ipc://$work/main.sock" --node "b=ipc://$work/b.sock" \
        > /dev/null 2> "$work/refused.err" || status=$?
    node_status=0
    wait "$node_pid" || node_status=$?
    node_pid=
    if [ "$status" -ne 2 ] || ! grep -q "node b does not know the behaviour" "$work/refused.err" || [ "$node_status" -ne 2 ]; then
        echo "runner-zmq.sh: the plain trellis as node b was not refused as it must be (runner exit $status, node exit $node_status):" >&2
        cat "$work/refused.err" >&2
        exit 1
    fi
    echo "runner-zmq.sh: the plain trellis as node b is refused: $(grep -o 'node b does not know[^:]*' "$work/refused.err" | head -1)"
}
echo "runner-zmq.sh: the runner's scenarios give the in-process trace over ZeroMQ"
