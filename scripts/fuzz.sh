#!/usr/bin/env bash
# Fuzzes the readers of untrusted input with libFuzzer (Swift's -sanitize=fuzzer): the scenario
# decoder (JSON), its YAML path, the trace readers, the wire decoder and the storyboard reader
# (Fuzz/*Fuzz.swift).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Runs each target for SECONDS (default 600) from a seed corpus of Examples/, the golden wire
# vectors (Protocols/vectors/wire), the test storyboards and Fuzz/seeds/; exits non-zero as soon as one finds a crash,
# a hang or a leak of memory past the limit, with the input saved under .build-fuzz/artifacts/.
# CI (scripts/test.sh) runs every target for a short fixed time.
#
# The build is kept apart from the package's own (.build-fuzz/, instrumented with
# -sanitize=fuzzer): the libraries are compiled by SwiftPM, and each target's entry point is
# linked with them by swiftc, which gives it libFuzzer's main.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh

seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ScenarioJSON ScenarioYAML Trace Wire Storyboard)

build=.build-fuzz
out="$build/fuzzers"
mkdir -p "$out" "$build/artifacts"

# 1. The libraries, instrumented for coverage.
for library in TrellisScenario TrellisStoryboard TrellisWire; do
    swift build --build-path "$build" --target "$library" \
        -Xswiftc -sanitize=fuzzer -Xcc -fsanitize=fuzzer-no-link > "$build/build-$library.log" 2>&1 \
        || { tail -n 40 "$build/build-$library.log" >&2; echo "fuzz: building $library failed" >&2; exit 1; }
done
bin=$(swift build --build-path "$build" --show-bin-path)

# 2. One executable per target: its entry point, the shared input helper and the libraries.
module_maps=()
while IFS= read -r map; do module_maps+=(-Xcc "-fmodule-map-file=$map"); done < <(
    find "$bin" -maxdepth 2 -name module.modulemap; find "$build/checkouts/Yams/Sources/CYaml/include" -name module.modulemap)
objects=()
for module in TrellisModel TrellisJSON TrellisTrace TrellisTraceFiles CTrellisPrefetch TrellisRuntime TrellisStoryboard TrellisScenario TrellisWire Yams CYaml; do
    while IFS= read -r object; do objects+=("$object"); done < <(find "$bin/$module.build" -name '*.o' | sort)
done
for target in "${targets[@]}"; do
    source_file="Fuzz/${target}Fuzz.swift"
    [ -f "$source_file" ] || { echo "fuzz: no target $target (Fuzz/*Fuzz.swift)" >&2; exit 2; }
    if [ ! -x "$out/$target" ] || [ -n "$(find "$source_file" Fuzz/FuzzInput.swift "$bin" -newer "$out/$target" -name '*.swift' -o -newer "$out/$target" -name '*.o' | head -n 1)" ]; then
        swiftc -sanitize=fuzzer -parse-as-library -I "$bin/Modules" -I "$bin" "${module_maps[@]}" \
            "$source_file" Fuzz/FuzzInput.swift "${objects[@]}" -o "$out/$target" \
            || { echo "fuzz: linking $target failed" >&2; exit 1; }
    fi
done

# 3. Seeds.
seed() {
    local dir="$build/corpus/$1"
    mkdir -p "$dir"
    case "$1" in
        ScenarioJSON) cp Examples/*.json "$dir/" ;;
        ScenarioYAML) cp Examples/*.yaml "$dir/"; for f in Examples/*.json; do cp "$f" "$dir/$(basename "$f" .json).yaml"; done ;;
        Trace) cp Fuzz/seeds/trace/*.jsonl "$dir/" ;;
        Storyboard) cp Tests/TrellisStoryboardTests/Storyboards/*.storyboard "$dir/" ;;
        Wire)
            # Each .hex file holds a message's frames, one a line: written as length-prefixed frames.
            python3 - "$dir" Protocols/vectors/wire/*.hex <<'PY'
import sys, pathlib
out = pathlib.Path(sys.argv[1])
for name in sys.argv[2:]:
    frames = [bytes.fromhex(line.strip()) for line in open(name) if line.strip()]
    data = b"".join(len(f).to_bytes(2, "little") + f for f in frames)
    (out / (pathlib.Path(name).stem + ".bin")).write_bytes(data)
PY
            ;;
    esac
    echo "$dir"
}

status=0
for target in "${targets[@]}"; do
    corpus=$(seed "$target")
    echo "fuzz: $target for ${seconds}s" >&2
    # Swift's own backtracer would catch a trap before libFuzzer could save the input.
    if ! SWIFT_BACKTRACE=enable=no "$out/$target" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$build/artifacts/$target-" -print_final_stats=1 > "$build/$target.log" 2>&1; then
        echo "fuzz: $target FAILED — last lines of $build/$target.log:" >&2
        tail -n 40 "$build/$target.log" >&2
        status=1
    else
        grep -E '^stat::number_of_executed_units|^Done' "$build/$target.log" | tr '\n' ' ' >&2; echo >&2
    fi
done
exit $status
