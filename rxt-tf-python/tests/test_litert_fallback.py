"""A fallback from the litert backend says why, once: a `LitertFallbackWarning`
naming the function and the first op the converter refused, the reason kept
in `stats()`, the converter's own output kept off stderr; strict mode makes
it an error; a missing LiteRT fails at construction with the install
command."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import keras
import models
import numpy as np
import pytest
import tensorflow as tf

import rxt_tf


def test_a_fallback_warns_once_naming_the_function_and_the_refused_op(
    capfd: pytest.CaptureFixture[str],
) -> None:
    @rxt_tf.function(backend="litert")
    def complementary(x):
        return tf.math.erfc(x) * 2.0

    x = tf.constant([[0.5, -1.0, 2.0]])
    before = rxt_tf.stats()["litert"]["fallbacks"]
    with pytest.warns(rxt_tf.LitertFallbackWarning) as caught:
        first = complementary(x)
    assert np.array_equal(first, tf.math.erfc(x) * 2.0), "TensorFlow ran it"
    (warning,) = [w for w in caught if w.category is rxt_tf.LitertFallbackWarning]
    message = str(warning.message)
    assert "the function `complementary`" in message, message
    assert "tf.Erfc" in message, message
    assert issubclass(rxt_tf.LitertFallbackWarning, RuntimeWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("error", rxt_tf.LitertFallbackWarning)
        again = complementary(x)
    assert np.array_equal(again, first)
    stats = rxt_tf.stats()["litert"]
    assert stats["fallbacks"] == before + 2
    reason = stats["reasons"]["the function `complementary`"]
    assert "tf.Erfc" in reason and reason in message
    err = capfd.readouterr().err
    assert "error:" not in err and "neither a custom op" not in err, err


def test_the_warning_can_be_filtered_and_reset_stats_warns_again() -> None:
    @rxt_tf.function(backend="litert")
    def doubled(x):
        return x * 2.0

    x64 = tf.constant([1.0, 2.0], tf.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rxt_tf.LitertFallbackWarning)
        doubled(x64)
    rxt_tf.reset_stats()
    assert rxt_tf.stats()["litert"]["reasons"] == {}
    with pytest.warns(rxt_tf.LitertFallbackWarning, match="runs no float64 tensors"):
        doubled(x64)


def test_strict_mode_makes_a_fallback_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    @rxt_tf.function(backend="litert")
    def strict_erfc(x):
        return tf.math.erfc(x)

    monkeypatch.setenv("RXT_TF_LITERT_STRICT", "1")
    with pytest.raises(RuntimeError, match=r"`strict_erfc` cannot run through LiteRT.*tf\.Erfc"):
        strict_erfc(tf.constant([1.0]))


def test_a_keras_model_converts_without_autograph_or_converter_noise(
    capfd: pytest.CaptureFixture[str],
) -> None:
    model = models.mlp_keras()
    x = tf.random.stateless_normal((2, 16), seed=(1, 2))
    capfd.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error", rxt_tf.LitertFallbackWarning)
        rxt_tf.Predictor(model, backend="litert")(x)
    err = capfd.readouterr().err
    assert "AutoGraph" not in err and "trackable_obj" not in err, err


def test_litert_missing_fails_at_construction_with_the_install_command() -> None:
    # `ai_edge_litert` hidden from the import system: `find_spec` gives None.
    script = textwrap.dedent(
        """
        import sys
        sys.modules["ai_edge_litert"] = None
        import rxt_tf, tensorflow as tf
        f = tf.function(lambda x: x * 2.0, input_signature=[tf.TensorSpec([None], tf.float32)])
        for make in (lambda: rxt_tf.Predictor(f, backend="litert"),
                     lambda: rxt_tf.function(lambda x: x, backend="litert")):
            try:
                make()
            except ImportError as error:
                print("ImportError:", error)
            else:
                print("constructed")
        """
    )
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    lines = [line for line in ran.stdout.splitlines() if line.startswith(("Import", "constr"))]
    assert len(lines) == 2, ran.stdout + ran.stderr
    for line in lines:
        assert "pip install ai-edge-litert==2.3.0" in line, line
        assert "rxt-tf[litert]" in line, line


def test_a_model_refused_alike_at_exact_shapes_is_not_converted_again() -> None:
    # A Keras model can be traced again for each call's shapes (what a
    # recurrent model needs); where that trace is refused just as the model
    # for any shapes was (an op with no builtin), no other shapes are tried.
    inputs = keras.Input((4,))
    model = keras.Model(inputs, keras.layers.Lambda(tf.math.erfc)(inputs))
    predictor = rxt_tf.Predictor(model, backend="litert")
    before = rxt_tf.stats()["litert"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rxt_tf.LitertFallbackWarning)
        for batch in (1, 2, 3):
            x = tf.fill((batch, 4), 0.5)
            assert np.array_equal(predictor(x), tf.math.erfc(x))
    after = rxt_tf.stats()["litert"]
    assert after["fallbacks"] - before["fallbacks"] == 3
    # The model for any shapes, then batch 1's: refused alike.
    assert after["conversions"] - before["conversions"] == 2
    (reason,) = [r for name, r in after["reasons"].items() if name not in before["reasons"]]
    assert "tf.Erfc" in reason and reason.endswith("(for these exact shapes too)"), reason
