#!/usr/bin/env bash
# Virtualenvs of other CPython versions with this checkout installed, to prove that replays and
# saved games travel between them (issue 47: the physics is bit-identical on 3.11, 3.12, 3.13).
#
#   bash tools/other_pythons.sh [--require] [VERSION ...]     # default: 3.12 3.13
#
# For each VERSION it finds an interpreter - `pythonX.Y` on PATH, else pyenv's versions folder
# ($PYENV_ROOT, `pyenv root`, ~/.pyenv, /root/.pyenv; the newest X.Y.* there) - makes (or reuses)
# the virtualenv .venvs/pyX.Y (KABUTO_PYVENVS overrides the folder), installs this checkout into it
# with the pinned versions of .ci/constraints.txt, quietly, and prints one line: "X.Y PYTHON".
# A version with no interpreter is named on stderr and skipped; with --require that is a failure.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
venvs="${KABUTO_PYVENVS:-$repo/.venvs}"
require=0
[ "${1:-}" = "--require" ] && { require=1; shift; }
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(3.12 3.13)
missing=0

find_python() {  # the interpreter of version $1 (X.Y), or nothing
    local v="$1" cand roots=()
    for cand in "$(command -v "python$v" 2>/dev/null)"; do
        [ -n "$cand" ] && "$cand" -c "import sys; assert sys.version_info[:2] == tuple(map(int, '$v'.split('.')))" \
            2>/dev/null && { echo "$cand"; return; }
    done
    [ -n "${PYENV_ROOT:-}" ] && roots+=("$PYENV_ROOT")
    command -v pyenv >/dev/null 2>&1 && roots+=("$(pyenv root 2>/dev/null)")
    roots+=("$HOME/.pyenv" /root/.pyenv)
    for root in "${roots[@]}"; do
        # The newest patch release first (3.13.10 after 3.13.9: a version sort).
        for cand in $(ls -d "$root"/versions/"$v".* 2>/dev/null | sort -V -r); do
            [ -x "$cand/bin/python" ] && { echo "$cand/bin/python"; return; }
        done
    done
}

for v in "${versions[@]}"; do
    py="$(find_python "$v")"
    if [ -z "$py" ]; then
        echo "other_pythons: no CPython $v here (neither python$v on PATH nor pyenv's versions/$v.*)" >&2
        missing=1
        continue
    fi
    env="$venvs/py$v"
    # Reuse a virtualenv that imports this checkout's dependencies; else (re)make it.
    if ! "$env/bin/python" -c "import kabuto, physics, pymunk, pyglet, numpy, websockets, PIL, platformdirs" >/dev/null 2>&1 \
        || [ "$("$env/bin/python" -c 'import kabuto, os; print(os.path.dirname(os.path.dirname(kabuto.__file__)))' 2>/dev/null)" != "$repo" ]; then
        echo "other_pythons: setting up CPython $v ($py) in $env" >&2
        rm -rf "$env"
        "$py" -m venv "$env" || { echo "other_pythons: cannot make a virtualenv with $py" >&2; missing=1; continue; }
        PIP_CONSTRAINT="$repo/.ci/constraints.txt" "$env/bin/python" -m pip install -q \
            --disable-pip-version-check -e "$repo" >"$env.log" 2>&1 \
            || { tail -n 20 "$env.log" >&2; echo "other_pythons: installing into $env failed" >&2; missing=1; continue; }
    fi
    echo "$v $env/bin/python"
done
[ "$require" -eq 1 ] && [ "$missing" -ne 0 ] && exit 1
exit 0
