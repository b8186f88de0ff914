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
