"""``explain --fix``'s rewrites: each made where it keeps behaviour, and nowhere else."""

from __future__ import annotations

import ast
import textwrap

import pytest

from rxt_tf_plugin import rewrite


def fixed(source: str, augmented: set[tuple[int, int]] | None = None) -> str:
    return rewrite.fix(textwrap.dedent(source), augmented or set())[0]


HEADER = "import tensorflow as tf\nfrom rxt_tf_plugin.types import TensorF32Cpu2D\n"


def test_module_constants_bound_once_to_literals_are_inlined() -> None:
    out = fixed(
        HEADER
        + """
AXIS = -1
EPS = 1e-3
PERM = (1, 0)
SCALE = 1.0 / 255
NAME = "x"


def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    y = tf.nn.softmax(x, axis=AXIS) * EPS ** 2
    return tf.transpose(y, perm=PERM) * SCALE
"""
    )
    assert "tf.nn.softmax(x, axis=(-1)) * 1e-3 ** 2" in out
    assert "tf.transpose(y, perm=(1, 0)) * (0.00392156862745098)" in out
    # The definitions stay: other code may read them.
    assert "AXIS = -1" in out and "PERM = (1, 0)" in out


@pytest.mark.parametrize(
    ("module", "why"),
    [
        ("AXIS = -1\nAXIS = 1\n", "bound twice"),
        ("AXIS = [1]\n", "a list is mutable"),
        ("AXIS = int('1')\n", "not a literal"),
        ("AXIS = -1\n\ndef g():\n    global AXIS\n    AXIS = 2\n", "rebound through global"),
    ],
)
def test_constants_that_may_change_are_not_inlined(module: str, why: str) -> None:
    source = HEADER + module + "\n\ndef f(x):\n    return tf.nn.softmax(x, axis=AXIS)\n"
    assert "axis=AXIS" in fixed(source), why


def test_a_local_or_parameter_of_the_same_name_shadows_the_constant() -> None:
    out = fixed(
        HEADER
        + """
AXIS = -1


def f(x, AXIS):
    return tf.nn.softmax(x, axis=AXIS)


def g(x):
    AXIS = 0
    AXIS = AXIS + 1
    return tf.nn.softmax(x, axis=AXIS)
"""
    )
    assert out.count("axis=AXIS") == 2


def test_a_local_bound_once_to_a_literal_is_inlined_after_its_binding() -> None:
    out = fixed(
        HEADER
        + """
def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    dtype = "float32"
    y = tf.cast(x, dtype)
    return y


def g(x: TensorF32Cpu2D, flag: bool) -> TensorF32Cpu2D:
    if flag:
        dtype = "float64"
    return tf.cast(x, dtype)
"""
    )
    assert 'y = tf.cast(x, dtype="float32")' in out
    assert "return tf.cast(x, dtype)" in out  # bound under a branch: left alone


def test_dtypes_become_strings_and_keywords() -> None:
    out = fixed(
        HEADER
        + """
def f(x: TensorF32Cpu2D, y: TensorF32Cpu2D) -> TensorF32Cpu2D:
    a = tf.cast(x, dtype=tf.float64)
    b = tf.cast(y, x.dtype)
    c = tf.zeros((2, 3), tf.dtypes.int32)
    return a


def g(x: TensorF32Cpu2D, y: TensorF32Cpu2D) -> TensorF32Cpu2D:
    x = tf.cast(x, "int32")
    return tf.cast(y, x.dtype)
"""
    )
    assert 'a = tf.cast(x, dtype="float64")' in out
    assert 'b = tf.cast(y, dtype="float32")' in out
    assert 'c = tf.zeros((2, 3), dtype="int32")' in out
    # `x` is rebound in g: its annotation no longer fixes its element type.
    assert "return tf.cast(y, x.dtype)" in out


def _calls(source: str, result: str) -> dict[tuple[int, int], str]:
    """Every call of ``source`` as Rextio's report shows a claimed one."""
    return {
        (node.lineno, node.col_offset): result
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
    }


def test_the_dtype_of_a_local_bound_once_to_a_claimed_call_is_a_string() -> None:
    source = textwrap.dedent(
        HEADER
        + """
def f(x: TensorF32Cpu2D, m: TensorF32Cpu2D) -> TensorF32Cpu2D:
    y = tf.nn.relu(x)
    a = tf.cast(m, dtype=y.dtype)
    z = tf.nn.relu(x)
    z = tf.cast(z, "int32")
    b = tf.cast(m, dtype=z.dtype)
    if a is not None:
        w = tf.nn.relu(x)
    c = tf.cast(m, dtype=w.dtype)
    return a


def g(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    early = tf.cast(x, dtype=later.dtype)
    later = tf.nn.relu(x)
    return early
"""
    )
    out = rewrite.fix(source, set(), set(), _calls(source, "rxt-tf/tensor-f32-cpu-2d"))[0]
    assert 'a = tf.cast(m, dtype="float32")' in out
    # Rebound, bound under a branch, or read before its binding: left alone.
    assert "b = tf.cast(m, dtype=z.dtype)" in out
    assert "c = tf.cast(m, dtype=w.dtype)" in out
    assert "early = tf.cast(x, dtype=later.dtype)" in out
    # Without the report's claims nothing says `y` is a tensor.
    assert "dtype=y.dtype" in rewrite.fix(source)[0]
    # Nor when the claimed call gives no tensor.
    assert "dtype=y.dtype" in rewrite.fix(source, set(), set(), _calls(source, "int"))[0]


def test_int_lists_passed_to_tensorflow_become_tuples() -> None:
    out = fixed(
        HEADER
        + """
def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    y = tf.transpose(x, perm=[1, 0])
    z = tf.reshape(y, [-1])
    w = tf.concat([y, z], axis=0)
    return helper([1, 2])
"""
    )
    assert "perm=(1, 0)" in out and "tf.reshape(y, (-1,))" in out
    assert "tf.concat([y, z], axis=0)" in out  # a list of tensors stays a list
    assert "helper([1, 2])" in out  # not a TensorFlow call


def test_tensordot_axes_of_one_axis_each_become_a_pair_of_ints() -> None:
    out = fixed(
        HEADER
        + """
def f(x: TensorF32Cpu3D, k: TensorF32Cpu2D) -> TensorF32Cpu3D:
    a = tf.tensordot(x, k, [[2], [0]])
    b = tf.linalg.tensordot(x, k, axes=((-1,), (0,)))
    c = tf.tensordot(x, x, [[1, 2], [1, 2]])
    return tf.tensordot(x, k, [[rank - 1], [0]])
"""
    )
    assert "tf.tensordot(x, k, (2, 0))" in out
    assert "tf.linalg.tensordot(x, k, axes=(-1, 0))" in out
    assert "[[1, 2], [1, 2]]" in out  # two axes each: no pair of ints says it
    assert "[[rank - 1], [0]]" in out  # not a literal
    import tensorflow as tf

    x = tf.reshape(tf.range(24.0), (2, 3, 4))
    k = tf.reshape(tf.range(20.0), (4, 5))
    assert tf.reduce_all(tf.tensordot(x, k, [[2], [0]]) == tf.tensordot(x, k, (2, 0)))


def test_only_the_augmented_assignments_rextio_typed_as_tensors_change() -> None:
    source = HEADER + "\ndef f(x, y, items):\n    x += y * 2\n    items += [1]\n    return x\n"
    out = fixed(source, {(5, 4)})
    assert "x = x + (y * 2)" in out
    assert "items += [1]" in out


def test_aliases_of_tensorflow_functions_are_replaced() -> None:
    out = fixed(HEADER + "\n_mm = tf.matmul\n\n\ndef f(a, b):\n    return _mm(a, b)\n")
    assert "return tf.matmul(a, b)" in out


def test_an_optional_annotation_gets_postponed_annotations_after_the_docstring() -> None:
    source = (
        '"""Doc."""\n'
        + HEADER
        + (
            "from typing import Optional\n\n\ndef f(x, m: Optional[TensorF32Cpu2D] = None):\n"
            "    return x\n"
        )
    )
    out = fixed(source)
    assert out.startswith('"""Doc."""\nfrom __future__ import annotations\nimport tensorflow')
    assert fixed(out) == out  # once only


def test_a_module_without_anything_to_fix_is_unchanged() -> None:
    source = HEADER + "\n\ndef f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    return tf.nn.relu(x)\n"
    assert fixed(source) == textwrap.dedent(source)
    assert rewrite.plan(source) == []


def test_rewritten_code_computes_the_same() -> None:
    source = (
        HEADER
        + """
SCALE = 0.5
AXIS = -1
_sm = tf.nn.softmax


def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    dtype = "float32"
    x += x
    y = tf.cast(x, dtype) * SCALE
    return tf.transpose(_sm(y, axis=AXIS), perm=[1, 0])
"""
    )
    import tensorflow as tf

    out = fixed(source, {(11, 4)})
    assert "x = x + x" in out
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    exec(compile(source, "before", "exec"), before)
    exec(compile(out, "after", "exec"), after)
    x = tf.constant([[1.0, -2.0, 3.0], [0.5, 0.0, -0.0]])
    assert tf.reduce_all(before["f"](x) == after["f"](x))  # type: ignore[operator]


def test_expressions_of_literals_fold_to_their_value() -> None:
    out = fixed(
        HEADER
        + """
PERM = (2, 1)
MASK_AXES = (-1,)
FORMAT = "channels_last"


def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    y = tf.transpose(x, perm=(0,) + PERM)
    z = tf.nn.softmax(y, axis=MASK_AXES[0]) * (1.0 / 255)
    n = len(MASK_AXES) + (1 if FORMAT == "channels_last" else 2)
    return z * -1 * (3 // 0)
"""
    )
    assert "tf.transpose(x, perm=(0, 2, 1))" in out
    assert "tf.nn.softmax(y, axis=(-1)) * (0.00392156862745098)" in out
    assert "n = 2" in out
    assert "z * -1 * (3 // 0)" in out  # a division by zero raises: left as written
    assert fixed(out) == out


def test_a_shadowed_len_is_not_folded() -> None:
    out = fixed(HEADER + "\n\ndef len(x):\n    return 0\n\n\ndef f():\n    return len((1, 2))\n")
    assert "return len((1, 2))" in out


def test_a_constant_is_not_inlined_where_the_literal_would_not_compile_cleanly() -> None:
    out = fixed(
        HEADER
        + """
ACTIVATION = None
AXIS = -1
AXES = (-1,)
SIZE = 2


def f(x):
    if ACTIVATION is not None:
        x = ACTIVATION(x)
    if False:
        x = tf.nn.softmax(x, axis=AXIS[0])
    return tf.nn.softmax(x, axis=AXES[0]) * SIZE.real
"""
    )
    assert "if False:" in out and "x = ACTIVATION(x)" in out
    assert "axis=AXIS[0]" in out and "axis=(-1)" in out and "SIZE.real" in out
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compile(out, "fixed", "exec")


BRANCHES = """import tensorflow as tf

USE = True
MODE = "concat"


def f(x, scale):
    if USE:
        scale = scale
    else:
        scale = 1.0
    if MODE == "dot":
        y = x
    elif MODE == "concat":
        y = x * 2.0
    else:
        y = x * 3.0
    if False:
        z = 1
    return tf.reduce_sum(scale * y)
"""


def test_an_axis_that_is_no_literal_is_passed_positionally() -> None:
    source = HEADER + (
        "\n\ndef f(x, ax):\n"
        "    a = tf.reduce_sum(x, axis=ax, keepdims=True)\n"
        "    b = tf.nn.softmax(x, axis=ax + 1)\n"
        "    c = tf.reduce_sum(x, keepdims=True, axis=ax)\n"
        "    d = tf.nn.relu(x)\n"
        "    return a, b, c, d\n"
    )
    out = fixed(source)
    assert "a = tf.reduce_sum(x, ax, keepdims=True)" in out
    assert "b = tf.nn.softmax(x, ax + 1)" in out
    assert "c = tf.reduce_sum(x, keepdims=True, axis=ax)" in out  # not the first keyword


def test_a_branch_on_a_constant_becomes_the_branch_taken() -> None:
    fixed, edits = rewrite.fix(BRANCHES)
    assert fixed.endswith(
        "def f(x, scale):\n    scale = scale\n    y = x * 2.0\n    if False:\n        z = 1\n"
        "    return tf.reduce_sum(scale * y)\n"
    ), fixed
    assert any(e.reason == "write the branch a constant test always takes" for e in edits)
    for args in ((2.0, 3.0), (-1.5, 0.0)):
        assert _call(BRANCHES, *args) == _call(fixed, *args)


def _call(source: str, *args: float) -> float:
    import types

    fake_tf = types.SimpleNamespace(reduce_sum=lambda v: v)
    scope: dict[str, object] = {}
    exec(compile(source.replace("import tensorflow as tf\n", ""), "<m>", "exec"), scope)
    scope["tf"] = fake_tf
    function = scope["f"]
    assert callable(function)
    return float(function(*args))  # type: ignore[arg-type]


def test_a_branch_holding_a_string_of_several_lines_stays() -> None:
    source = 'def f():\n    if True:\n        s = """a\n    b"""\n    return s\n'
    assert rewrite.fix(source) == (source, [])


NONE_TESTS = """from rxt_tf_plugin.types import TensorF32Cpu1D


def f(x: TensorF32Cpu1D, y, z: TensorF32Cpu1D, m: TensorF32Cpu1D = None):
    if m is not None:
        a = 0
    if x is not None:
        a = 1
    if x is None:
        a = 2
    if y is not None:
        a = 3
    z = x
    if z is not None:
        a = 4
    return a
"""


def test_none_tests_of_tensor_parameters_are_constants_as_unsafe_fixes() -> None:
    tree = ast.parse(NONE_TESTS)
    compares = {(n.lineno, n.col_offset) for n in ast.walk(tree) if isinstance(n, ast.Compare)}
    assert rewrite.fix(NONE_TESTS)[0] == NONE_TESTS  # only as unsafe fixes
    fixed, edits = rewrite.fix(NONE_TESTS, unsafe_at=compares)
    tests = [e for e in edits if "against None" in e.reason]
    assert len(tests) == 2 and all(e.unsafe for e in tests), fixed
    # Untyped, rebound, or None when omitted: left alone.
    assert "if y is not None:" in fixed and "if z is not None:" in fixed
    assert "if m is not None:" in fixed
    assert "x is" not in fixed


@pytest.mark.parametrize(
    "branch",
    [
        # A decorated function keeps its decorator.
        "    if True:\n        @staticmethod\n        def g():\n            return 1\n",
        # A `global` in either branch makes the name module-level: left alone.
        "    if False:\n        global G\n    else:\n        y = 1\n",
        # An elif holding a string of several lines: left alone.
        '    if False:\n        y = 0\n    elif x:\n        y = """a\n    b"""\n',
    ],
)
def test_constant_branches_keep_decorators_and_leave_unsafe_blocks(branch: str) -> None:
    source = "def f(x):\n" + branch + "    return x\n"
    out = rewrite.fix(source)[0]
    compile(out, "<out>", "exec")
    if "staticmethod" in source:
        assert "    @staticmethod\n    def g():\n        return 1\n" in out, out
    else:
        assert out == source, out


def test_a_form_feed_does_not_shift_the_lines_a_branch_is_read_from() -> None:
    source = "def f(x):\n    y = 1  # \x0c page\n    if True:\n        y = 2\n    return y\n"
    out = rewrite.fix(source)[0]
    assert out == "def f(x):\n    y = 1  # \x0c page\n    y = 2\n    return y\n", repr(out)
