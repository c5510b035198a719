#!/usr/bin/env bash
# Makes sure this machine can build and test Trellis: a Swift 6 toolchain on PATH and the
# Debian packages the project uses. Safe to run again; installs only what is missing.
# Sourced by the other scripts (it exports PATH); it leaves the caller's
# shell options as they were, and returns non-zero instead of exiting when something is missing.
trellis_bootstrap_options=$(set +o)
# `set +o` runs in a command substitution, which bash starts without errexit (unless
# inherit_errexit is on): its output says errexit is off even when the caller has it on, and
# restoring it silently turned `set -e` off in every script that sourced this one — so a failing
# `swift test` in scripts/test.sh did not fail CI. Remember errexit from `$-` instead.
case $- in
    *e*) trellis_bootstrap_options+=$'\nset -o errexit' ;;
esac
set -uo pipefail
# Says what is wrong and restores the caller's options; the caller then stops the script.
trellis_bootstrap_fail() {
    echo "bootstrap: $*" >&2
    eval "$trellis_bootstrap_options"
}

# Debian packages the build and tests need: libzmq for the ZeroMQ transport (headers and library),
# pyzmq for the Python interoperability client. Extra ones can be given in TRELLIS_APT_PACKAGES.
TRELLIS_APT_PACKAGES=(libzmq3-dev python3-zmq ${TRELLIS_APT_PACKAGES:-})

if ! command -v swift >/dev/null 2>&1; then
    for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
        if [ -x "$candidate/swift" ]; then
            export PATH="$candidate:$PATH"
            break
        fi
    done
fi
if ! command -v swift >/dev/null 2>&1; then
    { trellis_bootstrap_fail "no Swift toolchain found. Trellis needs Swift 6.0 or newer on PATH (this project's machines have it at /opt/swift/usr/bin)."; return 1 2>/dev/null || exit 1; }
fi
swift_major=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\)\..*/\1/p' | head -n 1)
if [ -z "$swift_major" ] || [ "$swift_major" -lt 6 ]; then
    { trellis_bootstrap_fail "Swift 6.0 or newer is needed, found: $(swift --version 2>&1 | head -n 1)"; return 1 2>/dev/null || exit 1; }
fi

missing=()
for package in "${TRELLIS_APT_PACKAGES[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        { trellis_bootstrap_fail "missing Debian packages: ${missing[*]} (run as root to install them)"; return 1 2>/dev/null || exit 1; }
    fi
    echo "bootstrap: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || { trellis_bootstrap_fail "apt-get update failed"; return 1 2>/dev/null || exit 1; }
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || { trellis_bootstrap_fail "could not install ${missing[*]}"; return 1 2>/dev/null || exit 1; }
fi

eval "$trellis_bootstrap_options"
