"""Shared helpers: the rxt_tf package over the real tensorflow==2.21.0."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

ROOT = Path(__file__).resolve().parents[2]
# The corpus of real layer functions and the bit-for-bit comparison.
sys.path.insert(0, str(ROOT / "tests" / "python"))
sys.path.insert(0, str(ROOT / "tests" / "python" / "rextio_real"))

import tensorflow as tf  # noqa: E402

# Two logical CPUs, so a tensor can sit on CPU:1. This must happen before
# anything initializes the eager context.
_cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(
    _cpus[0], [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()]
)
