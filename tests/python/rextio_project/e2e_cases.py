"""The inputs the E2E tests give each function of `e2e_model.py`.

Imported by `check_built.py` (results against the Python function) and by
the certification test (shapes and dtypes for the inputs it draws).
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(7)


def tensor(*shape: int) -> tf.Tensor:
    return tf.constant(rng.standard_normal(shape).astype(np.float32))


def ints(dtype: type, *shape: int) -> tf.Tensor:
    """Token-id-like integers, some negative (for `abs` and `maximum`)."""
    return tf.constant(rng.integers(-50, 1000, shape).astype(dtype))


x, weight, bias = tensor(3, 8), tensor(8, 4), tensor(4)
a1, b1, b2 = tensor(4), tensor(4), tensor(3, 4)
head = (x, tensor(8, 16), tensor(16), tensor(16, 5), tensor(5))
# [batch, heads, seq, 64]; a second case broadcasts k and v over the batch.
q, k, v = tensor(2, 3, 5, 64), tensor(2, 3, 7, 64), tensor(2, 3, 7, 64)
seq, w_seq, b_seq = tensor(2, 6, 8), tensor(8, 4), tensor(4)
images = tensor(2, 5, 4, 3)
ids32 = ints(np.int32, 3, 7)
special = tf.constant(
    np.array([[1.5, -2.0, 0.0, -0.0], [np.nan, 3.25, -np.inf, 7.0], [np.inf, -1e-30, 1e3, -5.5]],
             dtype=np.float32))
CASES = {
    "inference": [(x, weight, bias), (tensor(1, 8), weight, bias)],
    "inference_aliases": [(x, weight, bias)],
    "add_1d_1d": [(a1, b1)],
    "add_1d_2d": [(a1, b2)],
    "deep_inference": [
        (x, weight, bias, depth, use_relu) for depth in (0, 1, 3) for use_relu in (0, 1)
    ],
    "transposed": [(x, tensor(5, 8))],
    "classifier_head": [head, (tensor(1, 8), *head[1:])],
    "classifier_labels": [head],
    "layer_norm": [(x, tensor(8), tensor(8)), (tensor(0, 8), tensor(8), tensor(8))],
    "scalars": [(x,), (special,)],
    "activations": [(b2, tensor(4)), (special, tensor(4))],
    "reductions": [(x,), (special,)],
    "log_probs": [(tensor(6),)],
    "attention": [(q, k, v), (q, tensor(1, 3, 7, 64), tensor(1, 3, 7, 64))],
    "pooled_features": [(images, tensor(3, 16), tensor(16)), (tensor(1, 1, 1, 3), tensor(3, 16),
                                                            tensor(16))],
    "sequence_encoder": [(seq, w_seq, b_seq), (tensor(0, 6, 8), w_seq, b_seq)],
    "sequence_features": [(seq, w_seq), (tensor(1, 0, 8), w_seq)],
    "token_predictions": [(tensor(2, 6, 11),), (tensor(0, 6, 11),)],
    "token_predictions_i32": [(tensor(2, 6, 11),)],
    "token_predictions_named_i32": [(tensor(2, 6, 11),), (tensor(0, 6, 11),)],
    "shift_ids": [(ids32, ints(np.int32, 7)), (ints(np.int32, 1, 7), ints(np.int32, 7))],
    "id_counts": [(ids32,), (ints(np.int32, 2, 0),)],
    "id_ratios": [(ids32,), (ints(np.int32, 2, 0),)],
    "ids_as_floats": [(ids32,), (ints(np.int32, 0, 3),)],
    "id_totals": [(ints(np.int64, 4, 3, 5),), (ints(np.int64, 1, 1, 1),)],
    "split_heads": [(seq,), (tensor(0, 6, 8),)],
    "masked_scores": [(x,), (special,)],
    "ranked_scores": [(x,), (special,)],
    "token_features": [(tensor(6, 4), ints(np.int32, 2, 3) % 3), (tensor(6, 4), ints(np.int32, 0, 3) % 3)],
    # Not -0.0: eager TensorFlow keeps the scalars it converts from Python
    # floats by value, and 0.0 == -0.0, so after `scalars` converted 0.0 its
    # `tf.truediv(y, -0.0)` divides by +0.0 (rxt-tf keeps -0.0, as a fresh
    # process's eager does).
    "half_scaled": [
        (tf.cast(tensor(3, 5), tf.bfloat16), 1.5),
        (tf.cast(tensor(2, 4), tf.bfloat16), 3e-39),
    ],
    "rescaled_grid": [(tensor(2, 3), 4.0), (tensor(2, 3), 0.0), (special[:2, :3], 1e-40)],
    "plus_identity": [(tensor(3, 3),), (special[:, :3],)],
    "dense_sequence": [(seq, w_seq), (tensor(1, 0, 8), w_seq)],
    "convolutions": [
        (tensor(2, 5, 4, 3), tensor(3, 3, 3, 2), tensor(2, 7, 3), tensor(3, 3, 2)),
        (tensor(1, 1, 1, 3), tensor(1, 1, 3, 2), tensor(1, 3, 3), tensor(3, 3, 2)),
    ],
    "like_typed": [(x,), (special,)],
    "causal_scores": [(tensor(4, 4),), (tf.concat([special, special[:1]], 0),)],
    "positional_keepdims": [(x,)],
    "positions": [(5,), (0,), (1,)],
    "reshaped_heads": [(seq, 2), (tensor(1, 6, 8), 1)],
    "last_step": [(seq,), (tensor(1, 1, 8),)],
    "split_last": [(x,), (tensor(1, 6),)],
    "runtime_axes": [(seq, 1), (seq, -1), (tensor(1, 0, 3), 2)],
    "positive_part": [(x,), (special,)],
}
