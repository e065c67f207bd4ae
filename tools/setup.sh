#!/usr/bin/env bash
# One-time (idempotent) set-up of a fresh machine: the Debian packages the app and its tests need
# (a virtual X server, Mesa's software OpenGL, xdotool for real mouse events, venv for Python),
# then a virtualenv `.venv` in this checkout holding this project (editable) and its dependencies.
# Safe to run again: it skips what is present.
#
#   bash tools/setup.sh          # what the app needs; then: .venv/bin/kabuto play
#   bash tools/setup.sh --test   # and the extras the test suite also exercises (OpenSpiel for the
#                                # card games, Ray for distributed tournaments); then:
#                                # .venv/bin/python -m pytest -q
#
# Why always a virtualenv: a distribution's own python3 (Debian 12, Ubuntu 24.04) is "externally
# managed" (PEP 668) and refuses `pip install`; a virtualenv works on every python3 and keeps the
# project's pinned versions away from the system's. When python3 is not externally managed (a
# pyenv or a CI image's interpreter), the virtualenv also sees that interpreter's packages, so what
# is already installed there is not fetched again; a distribution's packages stay out of it.
set -euo pipefail
cd "$(dirname "$0")/.."
target="."
[ "${1:-}" = "--test" ] && target=".[dev,tools,openspiel,ray]"
venv=.venv
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Quiet unless something fails: then the whole output of the step that failed is shown.
quiet() { "$@" >"$log" 2>&1 || { cat "$log" >&2; echo "setup: failed: $*" >&2; exit 1; }; }

need=()
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v xdotool >/dev/null 2>&1 || need+=(xdotool)
command -v xauth >/dev/null 2>&1 || need+=(xauth)  # xvfb-run needs it
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || [ -e /usr/lib/aarch64-linux-gnu/dri/swrast_dri.so ] \
    || ls /usr/lib/*/dri/*swrast* >/dev/null 2>&1 || need+=(libgl1-mesa-dri)
# Debian ships venv's pip bootstrap (ensurepip) apart, in python3-venv.
[ -x "$venv/bin/python" ] || python3 -c "import ensurepip, venv" >/dev/null 2>&1 || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing Debian packages: ${need[*]}"
    quiet $sudo apt-get update -qq
    quiet env DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

if [ ! -x "$venv/bin/python" ]; then
    shared="--system-site-packages"
    # PEP 668's marker sits in the interpreter's standard-library folder.
    python3 -c "import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')))" \
        && shared=""
    echo "setup: making the virtualenv $venv with $(python3 -c 'import sys; print(sys.executable, sys.version.split()[0])')"
    quiet python3 -m venv $shared "$venv"
fi
quiet "$venv/bin/python" -m pip install --disable-pip-version-check -e "$target"
echo "setup: ready in $venv (the app: $venv/bin/kabuto play; the tests: $venv/bin/python -m pytest -q)"
