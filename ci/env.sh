# Sourced by the Makefile's recipes: the environment for building against and
# embedding the venv's CPython 3.11.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export VIRTUAL_ENV="$root/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
# pyo3's build uses this interpreter; the embedded tests read it too.
export PYO3_PYTHON="$VIRTUAL_ENV/bin/python"
# Test binaries that embed CPython must find its shared library.
libdir=$("$PYO3_PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR"))')
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"
# Incremental compilation keeps tens of gigabytes of caches for the large
# generated test crates after a few rebuilds, and gains little on them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
