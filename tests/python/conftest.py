"""Shared fixtures: the example extension over the real tensorflow==2.21.0."""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402

# Two logical CPUs, so a tensor on CPU:1 can be offered at the boundary. This
# must happen before anything initializes the eager context.
_cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(
    _cpus[0], [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()]
)

import rxt_tf_example  # noqa: E402


@pytest.fixture
def ext():
    """The hand-written example extension."""
    return rxt_tf_example


def assert_same(native, eager) -> None:
    """Both float32 EagerTensors of one shape; NaN and zero signs in the same
    places; equal within 1e-6 elsewhere (infinities exactly)."""
    assert type(native) is type(eager), (type(native), type(eager))
    assert native.dtype == tf.float32 and native.shape == eager.shape
    n, e = native.numpy(), eager.numpy()
    assert np.array_equal(np.isnan(n), np.isnan(e)), (n, e)
    assert np.array_equal(np.signbit(n), np.signbit(e)), (n, e)
    finite = ~np.isnan(e)
    assert np.array_equal(np.isinf(n[finite]), np.isinf(e[finite])), (n, e)
    assert np.array_equal(n[np.isinf(e)], e[np.isinf(e)]), (n, e)
    both = finite & ~np.isinf(e)
    diff = np.max(np.abs(n[both] - e[both]), initial=0.0)
    assert diff <= 1e-6, diff
