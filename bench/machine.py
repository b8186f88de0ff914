"""The machine a benchmark ran on, recorded in every results file.

TensorFlow 2.21 turns oneDNN's custom ops on by default only on CPUs with
AVX-512 features (and whenever `TF_ENABLE_ONEDNN_OPTS=1`); on, a batch-1
convolution or pool costs up to 10x more, so results compare only between
runs where the CPU and this state match. `python bench/machine.py` prints
the record.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# What TensorFlow reports: oneDNN's custom ops on in this environment.
ONEDNN_PROBE = (
    "from tensorflow.python.util import _pywrap_util_port as port; print(port.IsMklEnabled())"
)


def cpu(cpuinfo: str) -> tuple[str, list[str]]:
    """The CPU model and its AVX-512 and AMX flags, from /proc/cpuinfo's text."""
    model = ""
    flags: list[str] = []
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "model name" and not model:
            model = value.strip()
        elif key == "flags" and not flags:
            flags = sorted(f for f in value.split() if f.startswith(("avx512", "amx")))
    return model, flags


def onednn_enabled() -> bool | None:
    """Whether TensorFlow reports oneDNN's custom ops on; None if it cannot say.

    Asked in this process when it has imported TensorFlow, else in a child
    with the same environment (a coordinator need not import TensorFlow).
    """
    if "tensorflow" in sys.modules:
        from tensorflow.python.util import _pywrap_util_port

        return bool(_pywrap_util_port.IsMklEnabled())
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    try:
        out = subprocess.run(
            [sys.executable, "-c", ONEDNN_PROBE],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    answer = out.stdout.strip().splitlines()[-1:] if out.returncode == 0 else []
    return {"True": True, "False": False}.get(answer[0]) if answer else None


def describe() -> dict[str, Any]:
    """The record: CPU model and count, AVX-512 flags, oneDNN's state, software, date."""
    try:
        model, flags = cpu(Path("/proc/cpuinfo").read_text())
    except OSError:
        model, flags = platform.processor(), []
    return {
        "cpu_model": model,
        "logical_cpus": os.cpu_count(),
        "avx512_flags": flags,
        "onednn": {
            "TF_ENABLE_ONEDNN_OPTS": os.environ.get("TF_ENABLE_ONEDNN_OPTS"),
            "enabled": onednn_enabled(),
        },
        "platform": platform.platform(),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }


def summary(record: dict[str, Any]) -> str:
    """One line for the results tables: CPU, AVX-512, oneDNN's custom ops."""
    flags = record["avx512_flags"]
    # The features oneDNN's default looks at; the JSON keeps every flag.
    named = [f for f in flags if f in ("avx512f", "avx512_vnni", "avx512_bf16") or "amx" in f]
    avx512 = f"AVX-512 ({', '.join(named)})" if flags else "no AVX-512"
    onednn = record["onednn"]
    state = {True: "on", False: "off", None: "unknown"}[onednn["enabled"]]
    opts = onednn["TF_ENABLE_ONEDNN_OPTS"]
    env = "unset" if opts is None else f"= {opts}"
    return (
        f"Machine: {record['cpu_model'] or 'unknown CPU'}, {record['logical_cpus']} CPUs, "
        f"{avx512}; oneDNN custom ops {state} (TF_ENABLE_ONEDNN_OPTS {env}); {record['date']}."
    )


if __name__ == "__main__":
    record = describe()
    print(json.dumps(record, indent=2))
    print(summary(record))
