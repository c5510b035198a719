#!/usr/bin/env bash
# Builds the DocC documentation of every library product with warnings as errors, then checks
# that every public symbol has a summary line (scripts/doc-coverage.py reads the symbol graphs
# this build extracted). Run by scripts/test.sh after the build; the archives go to .build/docs.
#   scripts/docs.sh                    every catalog
#   scripts/docs.sh TrellisTestKit     one (its coverage only)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
# The library products (Package.swift), each with its catalog Sources/<Module>/<Module>.docc.
modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
    modules=(TrellisModel TrellisRuntime TrellisScenario TrellisTestKit TrellisWire TrellisCLI)
fi
targets=()
for module in "${modules[@]}"; do
    targets+=(--target "$module")
done
swift package --allow-writing-to-directory .build/docs generate-documentation \
    "${targets[@]}" --warnings-as-errors --output-path .build/docs
python3 scripts/doc-coverage.py --modules "$(IFS=,; echo "${modules[*]}")"
