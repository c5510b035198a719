#!/usr/bin/env bash
# Makes sure this machine can build and test Trellis: a Swift 6 toolchain on PATH and the
# Debian packages the project uses. Safe to run again; installs only what is missing.
# Sourced by the other scripts (it exports PATH).
set -euo pipefail

# Debian packages the build and tests need (none yet beyond the toolchain's own; the ZeroMQ
# transport adds libzmq3-dev, pkg-config and python3-zmq here).
TRELLIS_APT_PACKAGES=(${TRELLIS_APT_PACKAGES:-})

if ! command -v swift >/dev/null 2>&1; then
    for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
        if [ -x "$candidate/swift" ]; then
            export PATH="$candidate:$PATH"
            break
        fi
    done
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "bootstrap: no Swift toolchain found. Trellis needs Swift 6.0 or newer on PATH" >&2
    echo "bootstrap: (this project's machines have it at /opt/swift/usr/bin)." >&2
    exit 1
fi
swift_major=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\)\..*/\1/p' | head -n 1)
if [ -z "$swift_major" ] || [ "$swift_major" -lt 6 ]; then
    echo "bootstrap: Swift 6.0 or newer is needed, found: $(swift --version 2>&1 | head -n 1)" >&2
    exit 1
fi

missing=()
for package in "${TRELLIS_APT_PACKAGES[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "bootstrap: missing Debian packages: ${missing[*]} (run as root to install them)" >&2
        exit 1
    fi
    echo "bootstrap: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
