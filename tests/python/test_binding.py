"""Binding the wheel, in fresh interpreters: tensorflow imported on demand,
and a failed binding reported and cached."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap


def run(code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_tensorflow_is_imported_when_the_caller_has_not():
    result = run(
        """
        import sys, rxt_tf_example
        assert "tensorflow" not in sys.modules
        try:
            rxt_tf_example.relu(None)
        except TypeError as err:
            print(err)
        assert "tensorflow" in sys.modules
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "rxt-tf: expected a TensorFlow EagerTensor, got NoneType"


def test_a_wrong_tensorflow_version_is_refused_and_the_failure_cached():
    result = run(
        """
        import sys, types, rxt_tf_example
        fake = types.ModuleType("tensorflow")
        fake.__version__ = "2.20.0"
        sys.modules["tensorflow"] = fake
        for attempt in range(2):
            try:
                rxt_tf_example.relu(None)
            except RuntimeError as err:
                print(type(err).__name__, err)
            fake.__version__ = "2.21.0"  # the failure stays cached
        """
    )
    assert result.returncode == 0, result.stderr
    line = 'RuntimeError rxt-tf: expected tensorflow.__version__ == "2.21.0", found "2.20.0"'
    assert result.stdout.splitlines() == [line, line]


def test_a_wheel_whose_images_are_not_loaded_is_refused(tmp_path):
    (tmp_path / "libtensorflow_cc.so.2").write_bytes(b"not a shared object")
    result = run(
        f"""
        import sys, types, rxt_tf_example
        fake = types.ModuleType("tensorflow")
        fake.__version__ = "2.21.0"
        fake.__file__ = {str(tmp_path / "__init__.py")!r}
        sys.modules["tensorflow"] = fake
        try:
            rxt_tf_example.relu(None)
        except RuntimeError as err:
            print(err)
        """
    )
    assert result.returncode == 0, result.stderr
    expected = f"rxt-tf: expected the TensorFlow image {tmp_path}/libtensorflow_cc.so.2 to be loaded in this process: not loaded by this process"
    assert result.stdout.startswith(expected), result.stdout


def test_an_interrupt_while_binding_propagates_unchanged_and_is_not_cached():
    result = run(
        """
        import platform, rxt_tf_example, tensorflow as tf
        real = platform.machine
        def raising(exc):
            def machine():
                raise exc
            return machine
        for exc in (KeyboardInterrupt("stop"), MemoryError("full")):
            platform.machine = raising(exc)
            try:
                rxt_tf_example.relu(tf.ones([2, 2]))
            except BaseException as err:
                print(type(err).__name__, err, err is exc)
        platform.machine = real
        print(rxt_tf_example.relu(tf.ones([1, 2]) * -1).numpy().tolist())
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "KeyboardInterrupt stop True",
        "MemoryError full True",
        "[[0.0, 0.0]]",
    ]
