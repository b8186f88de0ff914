"""Argument specs (CASES) and provenance (SOURCES) of every corpus function.

A spec is ``(dtype, shape)`` for a tensor argument, else the Python value passed.
"""

MODULES = ("keras_layers", "keras_attention", "keras_conv", "model_garden", "tutorials")
"""The corpus modules holding the functions of CASES."""

# =============================================================================
# Argument specs for generated inputs: (dtype, shape) for a tensor parameter,
# a Python value for an int / float / bool / None parameter.
# =============================================================================
CASES = {
    'layer_normalization': [('float32', (2, 5, 8)), ('float32', (8,)), ('float32', (8,))],
    'dense': [('float32', (2, 5, 8)), ('float32', (8, 16)), ('float32', (16,))],
    'einsum_dense': [('float32', (2, 5, 8)), ('float32', (8, 16)), ('float32', (16,))],
    '_masked_softmax': [('float32', (2, 2, 5, 5)), ('bool', (2, 5, 5))],
    'multi_head_attention_compute_attention': [('float32', (2, 5, 2, 4)), ('float32', (2, 6, 2, 4)), ('float32', (2, 6, 2, 4)), ('bool', (2, 5, 6)), False],
    'softmax_layer': [('float32', (2, 5, 8)), ('bool', (2, 5, 8))],
    'global_average_pooling1d': [('float32', (2, 5, 8)), ('bool', (2, 5))],
    'attention_calculate_scores': [('float32', (2, 5, 8)), ('float32', (2, 6, 8)), ('float32', ())],
    'additive_attention_calculate_scores': [('float32', (2, 5, 8)), ('float32', (2, 6, 8)), ('float32', (8,))],
    'dense_attention_apply_scores': [('float32', (2, 5, 6)), ('float32', (2, 6, 8)), ('bool', (2, 1, 6)), False],
    'convolution_op': [('float32', (2, 8, 8, 3)), ('float32', (3, 3, 3, 8))],
    'conv2d': [('float32', (2, 8, 8, 3)), ('float32', (3, 3, 3, 8)), ('float32', (8,))],
    'unit_normalization': [('float32', (4, 8))],
    'normalization': [('float32', (4, 8)), ('float32', (1, 8)), ('float32', (1, 8))],
    'rescaling': [('float32', (2, 8, 8, 3))],
    'thresholded_relu': [('float32', (2, 5, 8))],
    'flatten': [('float32', (2, 4, 4, 3))],
    'permute': [('float32', (2, 5, 8))],
    'cropping1d': [('float32', (2, 8, 4))],
    'cropping2d': [('float32', (2, 8, 8, 3))],
    'repeat_vector': [('float32', (2, 8))],
    'zero_padding2d': [('float32', (2, 6, 6, 3))],
    'position_embedding': [('float32', (2, 5, 8)), ('float32', (16, 8))],
    'masked_softmax': [('float32', (2, 2, 5, 5)), ('float32', (2, 5, 5))],
    'self_attention_mask': [('float32', (2, 5, 8)), ('int32', (2, 5))],
    'on_device_embedding': [('int32', (2, 5)), ('float32', (20, 8))],
    'positional_encoding': [16, 8],
    'scaled_dot_product_attention': [('float32', (2, 2, 5, 4)), ('float32', (2, 2, 6, 4)), ('float32', (2, 2, 6, 4)), ('float32', (2, 1, 1, 6))],
    'create_padding_mask': [('int32', (2, 6))],
    'create_look_ahead_mask': [5],
    'split_heads': [('float32', (2, 5, 8)), 2],
    'gram_matrix': [('float32', (1, 6, 6, 4))],
    'high_pass_x_y': [('float32', (1, 6, 6, 3))],
    'total_variation_loss': [('float32', (1, 6, 6, 3))],
    'interpolate_images': [('float32', (6, 6, 3)), ('float32', (6, 6, 3)), ('float32', (5,))],
    'integral_approximation': [('float32', (5, 6, 6, 3))],
    'my_dense_layer': [('float32', (4, 5)), ('float32', (5, 10))],
}

SOURCES = {
    'layer_normalization': (
        'Source: keras-team/tf-keras tf_keras/layers/normalization/layer_normalization.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, LayerNormalization.call (lines 254-350). '
        'Adapted: config LayerNormalization(axis=-1, epsilon=1e-6) built on a rank-3 input '
        '(axis -> [2], _fused False since epsilon < 1.001e-5) as constants; gamma/beta '
        'weights as parameters.'
    ),
    'dense': (
        'Source: keras-team/tf-keras tf_keras/layers/core/dense.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Dense.call (lines 179-260). Adapted: '
        "config Dense(16, activation='relu') as constants (tf.nn.relu stands in for "
        'keras.activations.relu); kernel/bias weights as parameters. Rank-3 input takes the '
        'tensordot path.'
    ),
    'einsum_dense': (
        'Source: keras-team/tf-keras tf_keras/layers/core/einsum_dense.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, EinsumDense.call (lines 206-212). Adapted:'
        " config EinsumDense('abc,cd->abd', output_shape=(None, 16), bias_axes='d') as "
        'constants (activation None); kernel/bias weights as parameters.'
    ),
    '_masked_softmax': (
        'Source: keras-team/tf-keras tf_keras/layers/attention/multi_head_attention.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, MultiHeadAttention._masked_softmax (lines '
        '492-506). Adapted: config MultiHeadAttention(num_heads=2, key_dim=4) on rank-3 '
        'query/value: _attention_axes (1,) as constant; self._softmax sub-layer call -> '
        'module helper _softmax.'
    ),
    'multi_head_attention_compute_attention': (
        'Source: keras-team/tf-keras tf_keras/layers/attention/multi_head_attention.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, MultiHeadAttention._compute_attention '
        '(lines 508-552). Adapted: config MultiHeadAttention(num_heads=2, key_dim=4) on '
        'rank-3 inputs: _key_dim and the einsum equations built by '
        '_build_attention_equation(4, attn_axes=(1,)) as constants; self._masked_softmax / '
        'self._dropout_layer -> module helpers _masked_softmax / _dropout_layer.'
    ),
    'softmax_layer': (
        'Source: keras-team/tf-keras tf_keras/layers/activation/softmax.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Softmax.call (lines 91-121). Adapted: '
        'config Softmax() (axis=-1, robust_masking=False) as constants; `backend` is the '
        'tf-keras stand-in above.'
    ),
    'global_average_pooling1d': (
        'Source: keras-team/tf-keras tf_keras/layers/pooling/global_average_pooling1d.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, GlobalAveragePooling1D.call (lines 83-95).'
        ' Adapted: config GlobalAveragePooling1D() (channels_last, keepdims=False) as '
        'constants; `backend` is the tf-keras stand-in above.'
    ),
    'attention_calculate_scores': (
        'Source: keras-team/tf-keras tf_keras/layers/attention/attention.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Attention._calculate_scores (lines '
        "171-199). Adapted: config Attention(use_scale=True, score_mode='dot') as constants "
        "(concat_score_weight is None for 'dot'); the scalar `scale` weight as a parameter."
    ),
    'additive_attention_calculate_scores': (
        'Source: keras-team/tf-keras tf_keras/layers/attention/additive_attention.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, AdditiveAttention._calculate_scores (lines'
        ' 154-172). Adapted: config AdditiveAttention(use_scale=True) (the default) as '
        'constant; the `scale` weight (shape [dim]) as a parameter.'
    ),
    'dense_attention_apply_scores': (
        'Source: keras-team/tf-keras tf_keras/layers/attention/base_dense_attention.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, BaseDenseAttention._apply_scores (lines '
        '104-156). Adapted: config dropout=0.0 (the default); dropped the training-only code:'
        ' `training = backend.learning_phase()` (lines 142-143) and the `if self.dropout > '
        "0:` dropout branch (lines 146-155, needs the layer's random generator and "
        'control_flow_util).'
    ),
    'convolution_op': (
        'Source: keras-team/tf-keras tf_keras/layers/convolutional/base_conv.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Conv.convolution_op (lines 253-269). '
        'Adapted: Conv2D config as the CONV2D_* constants above; `self.__class__.__name__` ->'
        ' CONV2D_CLASS_NAME.'
    ),
    'conv2d': (
        'Source: keras-team/tf-keras tf_keras/layers/convolutional/base_conv.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Conv.call (lines 278-321). Adapted: Conv2D'
        ' config as the CONV2D_* constants above; kernel/bias weights as parameters; '
        'self._compute_causal_padding / self._jit_compiled_convolution_op / '
        'self.convolution_op -> module helpers; dropped the graph-mode-only static shape '
        'fix-up `if not tf.executing_eagerly() and input_shape.rank: ... '
        "set_shape(self.compute_output_shape(...))` (lines 314-317, needs the layer's "
        'compute_output_shape).'
    ),
    'unit_normalization': (
        'Source: keras-team/tf-keras tf_keras/layers/normalization/unit_normalization.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, UnitNormalization.call (lines 66-68). '
        'Adapted: config UnitNormalization(axis=-1) as constants.'
    ),
    'normalization': (
        'Source: keras-team/tf-keras tf_keras/layers/preprocessing/normalization.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Normalization.call (lines 349-361). '
        'Adapted: config Normalization(axis=-1, invert=False) adapted on [batch, 8] data: '
        'compute dtype and invert as constants (above _standardize_inputs); the adapted '
        '`mean`/`variance` tensors (shape [1, 8]) as parameters; self._standardize_inputs -> '
        'module helper; `backend` is the tf-keras stand-in above.'
    ),
    'rescaling': (
        'Source: keras-team/tf-keras tf_keras/layers/preprocessing/image_preprocessing.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Rescaling.call (lines 361-366). Adapted: '
        'config Rescaling(scale=1.0 / 255, offset=0.0) as constants.'
    ),
    'thresholded_relu': (
        'Source: keras-team/tf-keras tf_keras/layers/activation/thresholded_relu.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, ThresholdedReLU.call (lines 66-68). '
        'Adapted: config ThresholdedReLU(theta=1.0) as constants (theta as stored by '
        'backend.cast_to_floatx).'
    ),
    'flatten': (
        'Source: keras-team/tf-keras tf_keras/layers/reshaping/flatten.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Flatten.call (lines 70-105). Adapted: '
        'config Flatten() (channels_last) as constant.'
    ),
    'permute': (
        'Source: keras-team/tf-keras tf_keras/layers/reshaping/permute.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Permute.call (lines 79-80). Adapted: '
        'config Permute((2, 1)) as constant.'
    ),
    'cropping1d': (
        'Source: keras-team/tf-keras tf_keras/layers/reshaping/cropping1d.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Cropping1D.call (lines 79-92). Adapted: '
        'config Cropping1D(cropping=(1, 1)) (the default) as constant.'
    ),
    'cropping2d': (
        'Source: keras-team/tf-keras tf_keras/layers/reshaping/cropping2d.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, Cropping2D.call (lines 139-213). Adapted: '
        'config Cropping2D(cropping=((1, 1), (2, 2))) (channels_last) as constants.'
    ),
    'repeat_vector': (
        'Source: keras-team/tf-keras tf_keras/layers/reshaping/repeat_vector.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, RepeatVector.call (lines 63-64). Adapted: '
        'config RepeatVector(3) as constant; `backend` is the tf-keras stand-in above.'
    ),
    'zero_padding2d': (
        'Source: keras-team/tf-keras tf_keras/layers/reshaping/zero_padding2d.py @ '
        'dd0a7237b9b24132dba3f491f3c84b0094ab796e, ZeroPadding2D.call (lines 148-151). '
        'Adapted: config ZeroPadding2D(padding=1) (normalized to ((1, 1), (1, 1)), '
        'channels_last) as constants; `backend` is the tf-keras stand-in above.'
    ),
    'position_embedding': (
        'Source: tensorflow/models official/nlp/modeling/layers/position_embedding.py @ '
        'tf-models-official==2.19.1 (wheel), PositionEmbedding.call (lines 86-94). Adapted: '
        'config PositionEmbedding(max_length=16, seq_axis=1) as constant; the `embeddings` '
        'weight (self._position_embeddings, shape [16, width]) as a parameter.'
    ),
    'masked_softmax': (
        'Source: tensorflow/models official/nlp/modeling/layers/masked_softmax.py @ '
        'tf-models-official==2.19.1 (wheel), MaskedSoftmax.call (lines 58-77). Adapted: '
        'config MaskedSoftmax(mask_expansion_axes=[1]) (normalization_axes default (-1,)) as '
        'constants; its module-level helper _large_compatible_negative beside it, verbatim.'
    ),
    'self_attention_mask': (
        'Source: tensorflow/models official/nlp/modeling/layers/self_attention_mask.py @ '
        'tf-models-official==2.19.1 (wheel), SelfAttentionMask.call (lines 60-64). Adapted: '
        'no config; verbatim.'
    ),
    'on_device_embedding': (
        'Source: tensorflow/models official/nlp/modeling/layers/on_device_embedding.py @ '
        'tf-models-official==2.19.1 (wheel), OnDeviceEmbedding.call (lines 94-114). Adapted: '
        'config OnDeviceEmbedding(vocab_size=20, embedding_width=8) (use_one_hot=False, '
        'scale_factor=None) as constants; the `embeddings` weight as a parameter (the body '
        'rebinds the same name locally).'
    ),
    'positional_encoding': (
        'Source: tensorflow/text docs/tutorials/transformer.ipynb @ '
        '17c38bf014810b80abbb7c13ff1c2ac3cd9f710f, code cell 63 positional_encoding (cell '
        'lines 1-14). Adapted: verbatim.'
    ),
    'scaled_dot_product_attention': (
        'Source: tensorflow/docs site/en/tutorials/text/transformer.ipynb @ '
        'f957ee6185e5b2135da5c3d3f8ba0c429794ebe1, code cell 48 scaled_dot_product_attention '
        '(cell lines 1-35). Adapted: verbatim (old TF Core transformer tutorial, last '
        'revision before it moved to tensorflow/text).'
    ),
    'create_padding_mask': (
        'Source: tensorflow/docs site/en/tutorials/text/transformer.ipynb @ '
        'f957ee6185e5b2135da5c3d3f8ba0c429794ebe1, code cell 41 create_padding_mask (cell '
        'lines 1-6). Adapted: verbatim (old TF Core transformer tutorial).'
    ),
    'create_look_ahead_mask': (
        'Source: tensorflow/docs site/en/tutorials/text/transformer.ipynb @ '
        'f957ee6185e5b2135da5c3d3f8ba0c429794ebe1, code cell 44 create_look_ahead_mask (cell '
        'lines 1-3). Adapted: verbatim (old TF Core transformer tutorial).'
    ),
    'split_heads': (
        'Source: tensorflow/docs site/en/tutorials/text/transformer.ipynb @ '
        'f957ee6185e5b2135da5c3d3f8ba0c429794ebe1, code cell 59 '
        'MultiHeadAttention.split_heads (cell lines 17-22). Adapted: tutorial '
        'MultiHeadAttention(d_model=8, num_heads=2): num_heads and depth (= d_model // '
        'num_heads) as constants.'
    ),
    'gram_matrix': (
        'Source: tensorflow/docs site/en/tutorials/generative/style_transfer.ipynb @ '
        '7c3650212740204359d4ceae481abc79345541be, code cell 37 gram_matrix (cell lines 1-5).'
        ' Adapted: verbatim.'
    ),
    'high_pass_x_y': (
        'Source: tensorflow/docs site/en/tutorials/generative/style_transfer.ipynb @ '
        '7c3650212740204359d4ceae481abc79345541be, code cell 61 high_pass_x_y (cell lines '
        '1-5). Adapted: verbatim.'
    ),
    'total_variation_loss': (
        'Source: tensorflow/docs site/en/tutorials/generative/style_transfer.ipynb @ '
        '7c3650212740204359d4ceae481abc79345541be, code cell 66 total_variation_loss (cell '
        "lines 1-3). Adapted: verbatim; calls the tutorial's high_pass_x_y above."
    ),
    'interpolate_images': (
        'Source: tensorflow/docs '
        'site/en/tutorials/interpretability/integrated_gradients.ipynb @ '
        '7c3650212740204359d4ceae481abc79345541be, code cell 36 interpolate_images (cell '
        'lines 1-9). Adapted: verbatim.'
    ),
    'integral_approximation': (
        'Source: tensorflow/docs '
        'site/en/tutorials/interpretability/integrated_gradients.ipynb @ '
        '7c3650212740204359d4ceae481abc79345541be, code cell 57 integral_approximation (cell '
        'lines 1-5). Adapted: verbatim.'
    ),
    'my_dense_layer': (
        'Source: tensorflow/docs site/en/tutorials/customization/custom_layers.ipynb @ '
        '7c3650212740204359d4ceae481abc79345541be, code cell 14 MyDenseLayer.call (cell lines'
        ' 11-12). Adapted: the `kernel` weight as a parameter.'
    ),
}
