#!/usr/bin/env bash
# One-time (idempotent) set-up of a fresh machine: the Debian packages the app and its tests need
# (a virtual X server, Mesa's software OpenGL, xdotool for real mouse events), then this project
# and its Python dependencies in editable mode. Safe to run again: it skips what is present.
#
#   bash tools/setup.sh          # what the app needs
#   bash tools/setup.sh --test   # and the optional extras the test suite also exercises
#                                # (OpenSpiel for the card games, Ray for distributed tournaments)
set -euo pipefail
cd "$(dirname "$0")/.."
target="."
[ "${1:-}" = "--test" ] && target=".[dev,tools,openspiel,ray]"

need=()
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v xdotool >/dev/null 2>&1 || need+=(xdotool)
command -v xauth >/dev/null 2>&1 || need+=(xauth)  # xvfb-run needs it
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || [ -e /usr/lib/aarch64-linux-gnu/dri/swrast_dri.so ] \
    || ls /usr/lib/*/dri/*swrast* >/dev/null 2>&1 || need+=(libgl1-mesa-dri)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing Debian packages: ${need[*]}"
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

python3 -m pip install -q --disable-pip-version-check -e "$target"
