"""Functions the E2E tests build with `rextio build` and the rxt-tf plugin."""

import tensorflow as tf

from rxt_tf_plugin.types import (
    TensorBf16Cpu2D,
    TensorF32Cpu1D,
    TensorF32Cpu2D,
    TensorF32Cpu3D,
    TensorF32Cpu4D,
    TensorF64Cpu1D,
    TensorI32Cpu1D,
    TensorI32Cpu2D,
    TensorI64Cpu1D,
    TensorI64Cpu2D,
    TensorI64Cpu3D,
)


def inference(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
) -> TensorF32Cpu1D:
    h = tf.matmul(x, weight)
    h = tf.nn.relu(h)
    h = h + bias
    return tf.reduce_mean(h, axis=1)


def inference_aliases(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
) -> TensorF32Cpu1D:
    h = tf.linalg.matmul(x, weight)
    h = tf.nn.sigmoid(h)
    h = tf.math.add(h, bias)
    return tf.math.reduce_mean(h, axis=1, keepdims=False)


def add_1d_1d(a: TensorF32Cpu1D, b: TensorF32Cpu1D) -> TensorF32Cpu1D:
    return a + tf.add(a, b)


def add_1d_2d(a: TensorF32Cpu1D, b: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.add(a, b) + a


def deep_inference(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
    depth: int,
    use_relu: int,
) -> TensorF32Cpu1D:
    h = tf.matmul(x, weight)
    for _ in range(depth):
        if use_relu > 0:
            h = tf.nn.relu(h)
        else:
            h = tf.nn.sigmoid(h)
    h = h + bias
    return tf.reduce_mean(h, axis=1)


def transposed(a: TensorF32Cpu2D, b: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.matmul(a, b, transpose_b=True)


def classifier_head(
    x: TensorF32Cpu2D,
    w1: TensorF32Cpu2D,
    b1: TensorF32Cpu1D,
    w2: TensorF32Cpu2D,
    b2: TensorF32Cpu1D,
) -> TensorF32Cpu2D:
    h = tf.nn.tanh(tf.nn.bias_add(x @ w1, b1))
    logits = tf.matmul(h, w2) + b2
    return tf.nn.softmax(logits)


def classifier_labels(
    x: TensorF32Cpu2D,
    w1: TensorF32Cpu2D,
    b1: TensorF32Cpu1D,
    w2: TensorF32Cpu2D,
    b2: TensorF32Cpu1D,
) -> TensorI64Cpu1D:
    h = tf.tanh(tf.nn.bias_add(tf.matmul(x, w1), b1, data_format="NHWC"))
    return tf.argmax(h @ w2 + b2, axis=1)


def layer_norm(x: TensorF32Cpu2D, gamma: TensorF32Cpu1D, beta: TensorF32Cpu1D) -> TensorF32Cpu2D:
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    centered = x - mean
    variance = tf.reduce_mean(tf.square(centered), axis=-1, keepdims=True)
    return centered * tf.math.rsqrt(variance + 1e-5) * gamma + beta


def scalars(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    h = 0.5 * x - 1.0
    h = tf.maximum(h * -3.0, 0.0) / 2.0
    return tf.nn.leaky_relu(tf.divide(1.0 - h, 4.0))


def activations(x: TensorF32Cpu2D, v: TensorF32Cpu1D) -> TensorF32Cpu2D:
    h = tf.nn.elu(tf.nn.relu6(x)) + tf.nn.softplus(tf.abs(x))
    h = tf.exp(tf.negative(h)) - tf.math.log(tf.sqrt(tf.square(x) + 1.0))
    h = tf.transpose(tf.minimum(h, tf.math.sigmoid(v)), perm=(1, 0))
    return tf.nn.log_softmax(tf.transpose(h), axis=0)


def reductions(x: TensorF32Cpu2D) -> TensorF32Cpu1D:
    return tf.reduce_sum(x, 0) + tf.reduce_max(x, axis=0) - tf.math.reduce_min(x, -2)


def log_probs(v: TensorF32Cpu1D) -> TensorF32Cpu1D:
    return tf.nn.log_softmax(v) * tf.nn.softmax(v, axis=0)


def attention(q: TensorF32Cpu4D, k: TensorF32Cpu4D, v: TensorF32Cpu4D) -> TensorF32Cpu4D:
    # [batch, heads, seq, 64]: scaled dot-product attention, 0.125 = 1 / sqrt(64).
    scores = tf.matmul(q, k, transpose_b=True)
    weights = tf.nn.softmax(scores * 0.125, axis=-1)
    return tf.matmul(weights, v)


def pooled_features(images: TensorF32Cpu4D, w: TensorF32Cpu2D, b: TensorF32Cpu1D) -> TensorF32Cpu2D:
    # [batch, height, width, channels] @ [channels, features], then global average pooling.
    h = tf.nn.relu(tf.nn.bias_add(images @ w, b))
    return tf.reduce_mean(h, axis=(1, 2))


def sequence_encoder(x: TensorF32Cpu3D, w: TensorF32Cpu2D, b: TensorF32Cpu1D) -> TensorF32Cpu2D:
    # [batch, seq, d] @ [d, e] + [e], mean over the sequence.
    h = tf.nn.relu(tf.nn.bias_add(x @ w, b))
    return tf.reduce_mean(h, axis=1)


def sequence_features(x: TensorF32Cpu3D, w: TensorF32Cpu2D) -> TensorF32Cpu3D:
    # An int literal beside a float tensor: TensorFlow converts it to float32.
    h = tf.matmul(x, w) * 2
    return tf.transpose(h - 1, perm=(0, 2, 1))


def token_predictions(logits: TensorF32Cpu3D) -> TensorI64Cpu2D:
    # [batch, seq, vocab] -> [batch, seq] token ids (int64, argmax's default).
    return tf.argmax(logits, axis=-1)


def token_predictions_i32(logits: TensorF32Cpu3D) -> TensorI32Cpu2D:
    # Stays on the Python route: Rextio rejects the attribute value `tf.int32`
    # ("dynamic attribute access") before the plugin sees the call.
    return tf.argmax(logits, axis=-1, output_type=tf.int32)


def token_predictions_named_i32(logits: TensorF32Cpu3D) -> TensorI32Cpu2D:
    # The dtype by name, as TensorFlow also takes it: claimed natively.
    return tf.argmax(logits, axis=-1, output_type="int32")


def shift_ids(ids: TensorI32Cpu2D, offsets: TensorI32Cpu1D) -> TensorI32Cpu2D:
    h = tf.maximum(ids + 1, 0) * 2
    return tf.abs(h - offsets)


def id_counts(ids: TensorI32Cpu2D) -> TensorI32Cpu1D:
    return tf.reduce_sum(tf.abs(ids), axis=1)


def id_ratios(ids: TensorI32Cpu2D) -> TensorF64Cpu1D:
    # Integer division is true division in float64, as tf.divide does it.
    return tf.reduce_sum(ids, axis=1) / 4


def half_scaled(x: TensorBf16Cpu2D, scale: float) -> TensorF32Cpu1D:
    # bfloat16 activations, as Keras's mixed_bfloat16 policy gives them: the
    # float operands convert as TensorFlow converts a Python float.
    h = tf.nn.relu(x * scale + 0.5)
    return tf.reduce_sum(tf.cast(h, dtype="float32"), axis=1)


def ids_as_floats(ids: TensorI32Cpu2D) -> TensorF32Cpu2D:
    # tf.cast by the dtype's name (Rextio refuses the attribute tf.float32).
    return tf.cast(ids, dtype="float32") * 0.5


def id_totals(ids: TensorI64Cpu3D) -> TensorI64Cpu1D:
    return tf.reduce_sum(ids * 3 - 1, axis=(1, 2)) + tf.reduce_max(ids, axis=(1, 2))


def split_heads(x: TensorF32Cpu3D) -> TensorF32Cpu4D:
    # [batch, seq, 8] -> [batch, heads, seq, 4]: reshape with an inferred size.
    h = tf.reshape(x, (-1, 6, 2, 4))
    return tf.transpose(h, perm=(0, 2, 1, 3))


def masked_scores(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    # where with a literal, running sums, a reversal and a tile.
    kept = tf.where(tf.greater(x, 0.0), x, 0.0)
    return tf.tile(tf.reverse(tf.cumsum(kept, axis=1), (0,)), (2, 1))


def ranked_scores(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    # Each column sorted from the top, plus where each entry ranks in its row.
    top = tf.sort(x, axis=0, direction="DESCENDING")
    ranks = tf.cast(tf.argsort(x), dtype="float32")
    return top + ranks


def token_features(table: TensorF32Cpu2D, ids: TensorI32Cpu2D) -> TensorF32Cpu3D:
    # Embeddings of token ids, their one-hot codes, and a window of both.
    embedded = tf.nn.embedding_lookup(table, ids)
    codes = tf.one_hot(ids, 6)
    picked = tf.gather(embedded, ids, axis=1, batch_dims=1)
    first = tf.slice(picked, (0, 0, 0), (-1, -1, 3))
    second = tf.slice(codes, (0, 0, 1), (-1, -1, 3))
    return first + second


def rescaled_grid(x: TensorF32Cpu2D, scale: float) -> TensorF32Cpu3D:
    # Float expressions as run-time scalars, new tensors, broadcast_to.
    y = tf.convert_to_tensor(x) * (1.0 / 255.0)
    z = tf.truediv(y, scale) + tf.zeros((2, 3))
    return tf.broadcast_to(z, (4, 2, 3)) + tf.ones((4, 1, 1))


def plus_identity(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return x + tf.eye(3) + tf.fill((3, 3), 0.5)


def dense_sequence(x: TensorF32Cpu3D, w: TensorF32Cpu2D) -> TensorF32Cpu3D:
    # Keras's Dense on a sequence (`[[2], [0]]` as a pair of ints), and back
    # through the kernel's other axis.
    y = tf.tensordot(x, w, (2, 0))
    return tf.tensordot(y, w, axes=(-1, 1)) + tf.tensordot(x, w, 1) @ tf.transpose(w)


def convolutions(
    x: TensorF32Cpu4D, k: TensorF32Cpu4D, s: TensorF32Cpu3D, f: TensorF32Cpu3D
) -> TensorF32Cpu4D:
    # tf.nn.convolution as Keras Conv layers call it, literal keywords:
    # Conv2D at rank 4, conv1d at rank 3.
    a = tf.nn.convolution(x, k, strides=(1, 1), padding="SAME", dilations=(1, 1))
    b = tf.nn.convolution(s, f, strides=1, padding="VALID", data_format="NWC")
    return a + tf.reduce_sum(b, axis=(0, 1, 2))


def like_typed(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    # A dtype naming the tensor's own type is dropped.
    a = tf.convert_to_tensor(x, dtype="float32")
    b = tf.ones_like(a, dtype="float32")
    c = tf.zeros_like(b, dtype="float32")
    # Another type's name: that type's ones (a cast of the result).
    n = tf.ones_like(a, dtype="int32")
    return c - a + tf.cast(n, dtype="float32")


def causal_scores(scores: TensorF32Cpu2D) -> TensorF32Cpu2D:
    # Model Garden's self-attention mask: the lower triangle.
    mask = tf.linalg.band_part(tf.ones((4, 4)), -1, 0)
    return tf.linalg.band_part(scores, 0, -1) + mask


def positions(n: int) -> TensorI32Cpu1D:
    # tf.range of a run-time int, of a start and a limit, of all three.
    return tf.range(n) * 2 + tf.range(1, n + 1) - tf.range(0, 2 * n, 2)


def reshaped_heads(x: TensorF32Cpu3D, batch: int) -> TensorF32Cpu4D:
    # Sizes known at run time: the transformer tutorial's split_heads.
    y = tf.reshape(x, (batch, -1, 2, 4))
    return y + tf.ones((batch, 1, 1, 4))


def split_last(x: TensorF32Cpu2D) -> TensorF32Cpu3D:
    # Sizes read with get_shape() (`explain --fix` writes `x.shape[0]` so).
    return tf.reshape(x, (x.get_shape()[0], -1, 2))


def runtime_axes(x: TensorF32Cpu3D, ax: int) -> TensorF32Cpu2D:
    # An axis known at run time, given positionally (`explain --fix` moves
    # `axis=ax` there: Rextio offers no keyword that is not a literal).
    return tf.nn.softmax(tf.reduce_sum(x, ax), ax - 1)


def last_step(x: TensorF32Cpu3D) -> TensorF32Cpu2D:
    # The call `x[:, -1]` makes (`explain --fix` writes the subscript so).
    return tf.strided_slice(x, (0, -1), (0, 0), (1, 1), begin_mask=1, end_mask=1,
                            shrink_axis_mask=2)


def positive_part(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    # A comparison of a tensor (plugin API 1.5: native on Rextio 0.1.8 only).
    return tf.where(x > 0, x, tf.zeros_like(x))


def positional_keepdims(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.reduce_sum(x, 1, True)
