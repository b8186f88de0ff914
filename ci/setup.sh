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

# The stamp records what was installed; the import probe catches a venv whose
# packages went missing since.
installed() {
    cmp -s "$requirements" "$stamp" &&
        [ -d "$venv/rextio-0.1.3/rextio" ] &&
        "$venv/bin/python" -c '
import importlib.util, sys
needed = ("tensorflow", "maturin", "pytest", "rextio", "rxt_tf_plugin", "ruff", "mypy",
          "ziglang", "auditwheel")
sys.exit(any(importlib.util.find_spec(name) is None for name in needed))'
}

# mdBook builds the guide (`make guide`, part of `make test`). It comes from
# crates.io, compiled once into the venv (about two minutes on two cores),
# without its server and search features; a different version is replaced.
# It compiles while pip installs the Python packages (mostly waiting on
# downloads and disk), and setup waits for both.
mdbook_version=0.5.4
mdbook_pid=
if [ "$("$venv/bin/mdbook" --version 2>/dev/null)" != "mdbook v$mdbook_version" ]; then
    echo "setup: installing mdbook $mdbook_version into .venv (cargo install)"
    cargo install mdbook --version "$mdbook_version" --locked --no-default-features \
        --quiet --force --root "$venv" &
    mdbook_pid=$!
fi

if ! installed; then
    echo "setup: installing ci/requirements.txt and plugin-py into .venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -r "$requirements"
    # The plugin, editable: it finds the crate sources in this checkout.
    "$venv/bin/python" -m pip install --quiet --no-deps -e "$root/plugin-py"
    # The oldest Rextio the plugin supports, kept apart; the E2E tests run it
    # with PYTHONPATH=.venv/rextio-0.1.3.
    rm -rf "$venv/rextio-0.1.3"
    "$venv/bin/python" -m pip install --quiet --no-deps --target "$venv/rextio-0.1.3" rextio==0.1.3
    cp "$requirements" "$stamp"
fi

if [ -n "$mdbook_pid" ] && ! wait "$mdbook_pid"; then
    echo "setup: cargo install mdbook $mdbook_version failed" >&2
    exit 1
fi
