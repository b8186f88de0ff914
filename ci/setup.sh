#!/usr/bin/env bash
# Makes .venv (CPython 3.11 with ci/requirements.txt) if it is missing or its
# requirements changed. Safe to run again: it does nothing when up to date.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
requirements="$root/ci/requirements.txt"
stamp="$venv/.rxt-tf-requirements"

find_python() {
    for candidate in "${PYTHON:-}" python3.11 python3; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
            command -v "$candidate"
            return 0
        fi
    done
    echo "setup: CPython 3.11 is required (set PYTHON=/path/to/python3.11)" >&2
    return 1
}

if [ ! -x "$venv/bin/python" ]; then
    python=$(find_python)
    echo "setup: creating $venv with $python"
    "$python" -m venv "$venv"
fi

if ! cmp -s "$requirements" "$stamp"; then
    echo "setup: installing ci/requirements.txt into .venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -r "$requirements"
    cp "$requirements" "$stamp"
fi
