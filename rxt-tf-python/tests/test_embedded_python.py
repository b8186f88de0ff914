"""The Python the runtime crate embeds (`rxt-tf-runtime/src/python/embedded/`),
loaded from its files: the helpers that need no TensorFlow graph, or only
small tf.functions. The graph comparison of `same_graph.py` has its own
tests (`test_same_graph.py`); these take its smaller helpers."""

from __future__ import annotations

import importlib.util
import logging
import os
import sys
import types
from pathlib import Path
from typing import Any

import keras
import numpy as np
import pytest
import tensorflow as tf
from tensorflow.core.framework import attr_value_pb2, graph_pb2, types_pb2
from tensorflow.core.protobuf import config_pb2
from tensorflow.python.eager import context

EMBEDDED = Path(__file__).resolve().parents[2] / "rxt-tf-runtime/src/python/embedded"


def load(name: str) -> types.ModuleType:
    """The embedded module `name`, run from its file under a name of its own."""
    spec = importlib.util.spec_from_file_location(
        f"rxt_tf_embedded_test_{name}", EMBEDDED / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


litert_convert = load("litert_convert")
litert_warnings = load("litert_warnings")
resolve = load("resolve")
same_graph = load("same_graph")

F32 = types_pb2.DT_FLOAT
I32 = types_pb2.DT_INT32


# litert_convert.py: the converter's refusal in one line.


def test_a_diagnostic_names_the_op_and_where() -> None:
    text = (
        "Could not translate MLIR to FlatBuffer.\n"
        "<unknown>:0: error: loc(\"x\"): 'tf.Erfc' op is neither a custom op nor a flex op\n"
        "<unknown>:0: note: see current operation\n"
    )
    assert litert_convert._first_cause(text) == (
        "TFLite's converter refused 'tf.Erfc' op is neither a custom op nor a flex op (at \"x\")"
    )


def test_a_diagnostic_names_the_users_frame_of_its_call_chain() -> None:
    # TensorFlow 2.21 puts the Python file before `error:`, then the frames
    # that built the op as notes: the first outside TensorFlow is named.
    text = (
        "Could not translate MLIR to FlatBuffer./x/site-packages/tensorflow/a.py:310:1: error: "
        "'tf.Erfc' op is neither a custom op nor a flex op\n  traced = f(x)\n^\n"
        "/x/site-packages/tensorflow/b.py:599:1: note: called from\n    out = g()\n^\n"
        "/home/me/model.py:12:5: note: called from\n    return tf.math.erfc(x)\n^\n"
        "/x/site-packages/tensorflow/ops.py:3653:1: note: called from\n"
    )
    assert litert_convert._first_cause(text) == (
        "TFLite's converter refused 'tf.Erfc' op is neither a custom op nor a flex op"
        " (at /home/me/model.py:12)"
    )


def test_a_diagnostic_of_tensorflows_frames_only_names_its_own_location() -> None:
    text = "/x/site-packages/tensorflow/a.py:310:1: error: 'tf.Erfc' op is neither a custom op\n"
    assert litert_convert._first_cause(text).endswith("(at /x/site-packages/tensorflow/a.py:310)")


def test_the_first_diagnostic_is_the_one_named() -> None:
    text = (
        "error: loc(\"a\"): 'tf.Erfc' op is neither a custom op nor a flex op\n"
        "error: loc(\"b\"): 'tf.Lgamma' op is neither a custom op nor a flex op\n"
    )
    assert litert_convert._first_cause(text).startswith("TFLite's converter refused 'tf.Erfc' op")
    assert litert_convert._first_cause(text).endswith('(at "a")')


def test_text_without_a_diagnostic_gives_its_first_non_blank_line() -> None:
    text = "\n   \nConverter failed: out of memory\nerror: no op named here\n"
    assert litert_convert._first_cause(text) == "Converter failed: out of memory"


def test_empty_text_gives_the_default_sentence() -> None:
    assert litert_convert._first_cause("") == "TFLite's converter refused the function"
    assert litert_convert._first_cause(" \n\t\n") == "TFLite's converter refused the function"


def test_known_sizes_and_unknown_ones() -> None:
    shapes = litert_convert._known([[2, -1, 3], [], [-7]])
    assert [shape.rank for shape in shapes] == [3, 0, 1]
    assert shapes[0].as_list() == [2, None, 3]
    assert shapes[2].as_list() == [None]


def test_unknown_rank_and_rank_above_eight_are_refused_before_converting() -> None:
    def double(x: tf.Tensor) -> tf.Tensor:
        return x * 2.0

    unranked = tf.function(double).get_concrete_function(tf.TensorSpec(None, tf.float32))
    with pytest.raises(ValueError) as refused:
        litert_convert.convert(unranked)
    assert str(refused.value) == (
        "Placeholder gives a tensor of rank None: LiteRT takes ranks up to 8"
    )
    nine = tf.function(double).get_concrete_function(tf.TensorSpec([1] * 9, tf.float32))
    with pytest.raises(ValueError, match="rank 9: LiteRT takes ranks up to 8"):
        litert_convert.convert(nine)


def test_quiet_hides_stderr_and_log_levels_and_restores_them(
    capfd: pytest.CaptureFixture[str],
) -> None:
    tensorflow_logger = logging.getLogger("tensorflow")
    before = tensorflow_logger.level
    tensorflow_logger.setLevel(logging.INFO)
    try:
        with litert_convert._quiet():
            os.write(2, b"hidden")
            assert tensorflow_logger.level == logging.ERROR
        os.write(2, b"shown")
        assert tensorflow_logger.level == logging.INFO
    finally:
        tensorflow_logger.setLevel(before)
    assert capfd.readouterr().err == "shown"


def erfc(x: tf.Tensor) -> tf.Tensor:
    return tf.math.erfc(x)


ERFC_LINE = erfc.__code__.co_firstlineno + 1


def test_a_refused_op_is_named_and_the_converter_kept_quiet(
    capfd: pytest.CaptureFixture[str],
) -> None:
    concrete = tf.function(erfc).get_concrete_function(tf.TensorSpec([2], tf.float32))
    capfd.readouterr()
    with pytest.raises(ValueError) as refused:
        litert_convert.convert(concrete)
    # Named where this file made the op (`erfc` above), not in TensorFlow.
    assert str(refused.value).startswith(
        "TFLite's converter refused 'tf.Erfc' op is neither a custom op nor a flex op (at "
    )
    assert str(refused.value).endswith(f"{Path(__file__).name}:{ERFC_LINE})"), refused.value
    assert "Erfc" not in capfd.readouterr().err


def add(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
    return x + y


def test_input_shapes_given_and_inputs_frozen() -> None:
    concrete = tf.function(add).get_concrete_function(
        tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)
    )
    frozen = {1: np.array([10.0, 20.0, 30.0], np.float32)}
    made = litert_convert._with_input_shapes(
        concrete.graph, concrete.inputs, concrete.outputs, litert_convert._known([[3], [3]]), frozen
    )
    assert [tensor.shape.as_list() for tensor in made.inputs] == [[3]]
    (result,) = tf.nest.flatten(made(tf.constant([1.0, 2.0, 3.0])))
    assert result.numpy().tolist() == [11.0, 22.0, 33.0]


def test_convert_at_gives_a_flatbuffer_traced_again_for_the_shapes() -> None:
    concrete = tf.function(add).get_concrete_function(
        tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)
    )
    asked: list[list[list[int]]] = []

    def retrace(shapes: list[list[int]]) -> Any:
        asked.append(shapes)
        specs = [tf.TensorSpec(shape, tf.float32) for shape in shapes]
        return tf.function(add).get_concrete_function(*specs)

    model = litert_convert.convert_at(concrete, [[4], [4]], retrace)
    assert asked == [[[4], [4]]]
    assert isinstance(model, bytes)
    assert model[4:8] == b"TFL3"  # the flatbuffer's file identifier


def test_convert_function_def_freezes_inputs_and_runs_in_litert() -> None:
    interpreter = pytest.importorskip("ai_edge_litert.interpreter")
    concrete = tf.function(add).get_concrete_function(
        tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)
    )
    name = concrete.function_def.signature.name
    assert context.context().has_function(name)
    frozen = [(1, "float32", [3], np.array([10.0, 20.0, 30.0], np.float32).tobytes())]
    model = litert_convert.convert_function_def(name, [[3], [3]], frozen, None)
    running = interpreter.Interpreter(model_content=model)
    running.allocate_tensors()
    (given,) = running.get_input_details()
    assert given["shape"].tolist() == [3]
    running.set_tensor(given["index"], np.array([1.0, 2.0, 3.0], np.float32))
    running.invoke()
    (output,) = running.get_output_details()
    assert running.get_tensor(output["index"]).tolist() == [11.0, 22.0, 33.0]


def test_convert_function_def_refusal_is_kept_when_no_retry_differs() -> None:
    concrete = tf.function(erfc).get_concrete_function(tf.TensorSpec([None], tf.float32))
    name = concrete.function_def.signature.name
    refusal = "TFLite's converter refused 'tf.Erfc' op is neither a custom op nor a flex op"
    with pytest.raises(ValueError) as refused:
        litert_convert.convert_function_def(name, [[-1]])
    # A graph made from a definition does not tell where its ops were made.
    assert str(refused.value) == refusal
    # Rank 1: only the first size could be left unknown, and it is already.
    with pytest.raises(ValueError) as again:
        litert_convert.convert_function_def(name, [[-1]], (), [[5]])
    assert str(again.value) == refusal


def test_the_fallback_warning_is_a_runtime_warning_of_rxt_tf() -> None:
    warning = litert_warnings.LitertFallbackWarning
    assert issubclass(warning, RuntimeWarning)
    assert warning.__module__ == "rxt_tf"
    assert warning.__qualname__ == "LitertFallbackWarning"


# resolve.py: what the Rust side learns of a function.


def test_spec_is_the_element_type_and_the_rank() -> None:
    assert resolve._spec(tf.TensorSpec([None, 3], tf.float32)) == (F32, 2)
    assert resolve._spec(tf.TensorSpec([], tf.int32)) == (I32, 0)
    assert resolve._spec(tf.TensorSpec(None, tf.int32)) == (I32, -1)


def masked(x: tf.Tensor, mask: tf.Tensor | None = None) -> tf.Tensor:
    return x if mask is None else x * mask


def scaled(x: tf.Tensor, factor: float) -> tf.Tensor:
    return x * factor


def test_presence_tells_tensors_from_none_and_refuses_python_values() -> None:
    function = tf.function(masked)
    x = tf.TensorSpec([2], tf.float32)
    assert resolve._presence(function.get_concrete_function(x)) == (True, False)
    assert resolve._presence(function.get_concrete_function(x, x)) == (True, True)
    python_value = tf.function(scaled).get_concrete_function(x, 2.0)
    assert resolve._presence(python_value) is None


def test_retracer_traces_for_exactly_the_shapes_given() -> None:
    signature = (tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None], tf.int32))

    def pair(x: tf.Tensor, n: tf.Tensor) -> tf.Tensor:
        return tf.reduce_sum(x) + tf.cast(tf.reduce_sum(n), tf.float32)

    retrace = resolve._retracer(lambda: pair, signature)
    concrete = retrace([[3, 2], [5]])
    assert [tensor.shape.as_list() for tensor in concrete.inputs] == [[3, 2], [5]]
    assert [tensor.dtype for tensor in concrete.inputs] == [tf.float32, tf.int32]
    result = concrete(tf.ones([3, 2]), tf.ones([5], tf.int32))
    assert float(result) == 11.0
    with pytest.raises(ValueError, match=r"^1 input shapes for 2 inputs$"):
        retrace([[3, 2]])
    with pytest.raises(ValueError, match=r"^3 input shapes for 2 inputs$"):
        retrace([[3, 2], [5], [1]])


def test_replayable_only_without_stateful_ops_but_variable_reads() -> None:
    x = tf.TensorSpec([2], tf.float32)
    variable = tf.Variable([1.0, 2.0])

    def stateless(t: tf.Tensor) -> tf.Tensor:
        return t * 2.0 + 1.0

    def random(t: tf.Tensor) -> tf.Tensor:
        return t + tf.random.uniform([2])

    def seeded(t: tf.Tensor) -> tf.Tensor:
        return t + tf.random.stateless_uniform([2], seed=[1, 2])

    def reads(t: tf.Tensor) -> tf.Tensor:
        return t * variable

    def assigns(t: tf.Tensor) -> tf.Tensor:
        variable.assign_add(t)
        return t

    inner_stateless = tf.function(stateless)
    inner_random = tf.function(random)

    def calls_stateless(t: tf.Tensor) -> tf.Tensor:
        return inner_stateless(t)

    def calls_random(t: tf.Tensor) -> tf.Tensor:
        return inner_random(t)

    def replayable(python_function: Any) -> bool:
        concrete = tf.function(python_function).get_concrete_function(x)
        answer = resolve._replayable(concrete)
        assert isinstance(answer, bool)
        return answer

    assert replayable(stateless)
    assert not replayable(random)
    assert replayable(seeded)
    assert replayable(reads)
    assert not replayable(assigns)
    assert replayable(calls_stateless)
    assert not replayable(calls_random)


def test_resolve_describes_a_function_with_an_input_signature() -> None:
    variable = tf.Variable([1.0, 2.0])

    def weighted(t: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        return t * variable, tf.shape(t)

    function = tf.function(weighted, input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    ((presence, described, retrace),) = resolve.resolve(function)
    concrete, name, inputs, outputs, captured, trainable, replayable = described
    assert presence is None
    assert name == concrete.function_def.signature.name
    assert inputs == [(F32, 2)]
    assert outputs == [(F32, 2), (I32, 1)]
    assert len(captured) == 1
    assert trainable is True
    assert replayable is True
    assert retrace is not None
    assert [t.shape.as_list() for t in retrace([[4, 2]]).inputs[:1]] == [[4, 2]]


def test_resolve_gives_one_function_per_pattern_of_none_arguments() -> None:
    function = tf.function(masked)
    function(tf.ones([2]))
    function(tf.ones([2]), tf.ones([2]))
    resolved = resolve.resolve(function)
    assert sorted(presence for presence, _, _ in resolved) == [(True, False), (True, True)]
    assert all(retrace is None for _, _, retrace in resolved)
    by_presence = {presence: described for presence, described, _ in resolved}
    assert by_presence[(True, False)][2] == [(F32, 1)]
    assert by_presence[(True, True)][2] == [(F32, 1), (F32, 1)]


def test_resolve_refuses_what_it_cannot_call() -> None:
    with pytest.raises(TypeError) as refused:
        resolve.resolve(3)
    assert str(refused.value) == resolve.EXPECTED + "int"
    function = tf.function(lambda t: t + 1.0)
    function(tf.ones([2]))
    function(tf.ones([3]))
    with pytest.raises(TypeError, match="has been traced 2 times"):
        resolve.resolve(function)


def test_resolve_traces_a_keras_model_under_its_own_name() -> None:
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)], name="tiny-model")
    ((presence, described, retrace),) = resolve.resolve(model)
    assert presence is None
    assert "tiny_model" in described[1]
    assert described[2] == [(F32, 2)]
    assert described[3] == [(F32, 2)]
    assert len(described[4]) == 2  # the kernel and the bias
    assert described[5] is True
    assert retrace is not None
    again = retrace([[4, 3]])
    assert again.inputs[0].shape.as_list() == [4, 3]
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_allclose(again(tf.constant(x)), model(x), rtol=1e-6)


def test_keras_specs_of_a_built_layer_take_any_batch() -> None:
    layer = keras.layers.Dense(2)
    with pytest.raises(TypeError, match="has no known inputs"):
        resolve._keras_specs(layer)
    layer(np.zeros((5, 4), np.float32))
    assert resolve._keras_specs(layer) == [tf.TensorSpec([None, 4], tf.float32)]


# same_graph.py: its answers and smaller helpers.


def test_the_answers_are_the_numbers_the_rust_side_reads() -> None:
    # rxt-tf-runtime/src/function/same_graph.rs has the same constants.
    answers = (
        same_graph.SAME,
        same_graph.OPTIMIZED,
        same_graph.DIFFERENT,
        same_graph.RETRY,
        same_graph.WAIT,
    )
    assert answers == (1, 2, 0, -1, -2)
    assert same_graph.wrapper_calls >= 0


def test_source_splits_producer_and_port() -> None:
    assert same_graph._source("x") == ("x", "0")
    assert same_graph._source("x:2") == ("x", "2")
    assert same_graph._source("scope/x:0") == ("scope/x", "0")
    assert same_graph._source("^x") == ("x", "^")


def node(name: str, op: str, inputs: list[str], device: str = "/device:CPU:0") -> Any:
    made = graph_pb2.GraphDef().node.add(name=name, op=op, input=inputs, device=device)
    return made


def test_forwards_only_an_identity_of_one_data_input_on_its_device() -> None:
    nodes = {"x": node("x", "_Arg", []), "p": node("p", "NoOp", [])}
    assert same_graph._forwards(node("i", "Identity", ["x"]), nodes)
    assert same_graph._forwards(node("i", "Identity", ["x:0"]), nodes)
    assert not same_graph._forwards(node("i", "Identity", ["x"], "/device:CPU:1"), nodes)
    assert not same_graph._forwards(node("i", "Identity", ["^x"]), nodes)
    assert not same_graph._forwards(node("i", "Identity", ["x", "^p"]), nodes)
    assert not same_graph._forwards(node("i", "Neg", ["x"]), nodes)


def test_tensor_and_waited_read_through_forwarding_identities() -> None:
    digests = {"n": "dn"}
    forwarded = {"i": ("dx", "1")}
    assert same_graph._tensor("n:2", digests, forwarded) == ("dn", "2")
    assert same_graph._tensor("n", digests, forwarded) == ("dn", "0")
    assert same_graph._tensor("i:0", digests, forwarded) == ("dx", "1")
    assert same_graph._waited("^n", digests, forwarded) == "dn"
    assert same_graph._waited("^i", digests, forwarded) == "dx:1"


def test_idle_no_ops_go_even_when_waiting_on_each_other() -> None:
    nodes = {
        "x": node("x", "_Arg", []),
        "a": node("a", "NoOp", []),
        "b": node("b", "NoOp", ["^a"]),
        "w": node("w", "NoOp", []),
        "n": node("n", "Neg", ["x", "^w"]),
    }
    kept = same_graph._without_idle_no_ops(nodes)
    assert sorted(kept) == ["n", "w", "x"]
    assert sorted(nodes) == ["a", "b", "n", "w", "x"]  # its argument is left alone


def test_stateful_ops_and_unknown_ones() -> None:
    assert same_graph._stateful("RandomUniform")
    assert same_graph._stateful("AssignVariableOp")
    assert not same_graph._stateful("AddV2")
    assert same_graph._stateful("NoSuchOpAnywhere")


def call_node(name: str, op: str, function: str | None) -> Any:
    made = node(name, op, [])
    if function is not None:
        made.attr["f"].func.name = function
    return made


def test_called_and_calls_find_one_call_of_a_definition() -> None:
    assert same_graph._called(call_node("c", "StatefulPartitionedCall", "body")) == "body"
    assert same_graph._called(call_node("c", "PartitionedCall", "body")) == "body"
    assert same_graph._called(call_node("c", "PartitionedCall", None)) is None
    assert same_graph._called(call_node("c", "Neg", "body")) is None

    def collected(*functions: str) -> Any:
        metadata = config_pb2.RunMetadata()
        graph = metadata.function_graphs.add()
        for index, function in enumerate(functions):
            graph.pre_optimization_graph.node.add().CopyFrom(
                call_node(f"c{index}", "StatefulPartitionedCall", function)
            )
        return graph

    calls = same_graph._calls("body")
    assert calls(collected("body"))
    assert calls(collected("other", "body"))
    assert not calls(collected("other"))
    assert not calls(collected("body", "body"))


def typed(value: int) -> attr_value_pb2.AttrValue:
    made = attr_value_pb2.AttrValue()
    made.type = value
    return made


def partition(*nodes: tuple[str, str, list[str], int | None]) -> graph_pb2.GraphDef:
    """A partition graph of `(name, op, inputs, index)` nodes, all float."""
    made = graph_pb2.GraphDef()
    for name, op, inputs, index in nodes:
        added = made.node.add(name=name, op=op, input=inputs, device="/device:CPU:0")
        added.attr["T"].CopyFrom(typed(F32))
        if index is not None:
            added.attr["index"].i = index
    return made


def function_graph(*partitions: graph_pb2.GraphDef) -> Any:
    metadata = config_pb2.RunMetadata()
    graph = metadata.function_graphs.add()
    for made in partitions:
        graph.partition_graphs.add().CopyFrom(made)
    return graph


def test_an_optimized_definition_of_one_partition() -> None:
    negated = partition(
        ("y", "_Arg", [], 1),
        ("x", "_Arg", [], 0),
        ("n", "Sub", ["x", "y"], None),
        ("out", "_Retval", ["n"], 0),
    )
    definition = same_graph._optimized_definition(function_graph(negated))
    assert definition is not None
    assert [arg.type for arg in definition.signature.input_arg] == [F32, F32]
    assert len(definition.signature.output_arg) == 1
    assert [node.op for node in definition.node_def] == ["Sub"]
    # The inputs in index order: `x` (index 0) is the first.
    (sub,) = definition.node_def
    first = definition.signature.input_arg[0].name
    assert sub.input[0] == first


def test_no_optimized_definition_where_it_cannot_be_made() -> None:
    one = partition(("x", "_Arg", [], 0), ("out", "_Retval", ["x"], 0))
    assert same_graph._optimized_definition(function_graph(one, one)) is None
    assert same_graph._optimized_definition(function_graph()) is None
    gap = partition(("x", "_Arg", [], 1), ("out", "_Retval", ["x"], 0))
    assert same_graph._optimized_definition(function_graph(gap)) is None
    waits = partition(("x", "_Arg", [], 0), ("out", "_Retval", ["^x"], 0))
    assert same_graph._optimized_definition(function_graph(waits)) is None
