"""The graph comparison behind exact calls' inlined route
(`rxt-tf-runtime/src/python/embedded/same_graph.py`), on hand-built graphs: what
it must tell apart, what it may not tell apart, what it refuses."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest
import tensorflow as tf
from tensorflow.core.framework import attr_value_pb2, graph_pb2, types_pb2
from tensorflow.core.protobuf import config_pb2
from tensorflow.python.eager import context

CHECKER = runpy.run_path(
    str(Path(__file__).resolve().parents[2] / "rxt-tf-runtime/src/python/embedded/same_graph.py")
)
digests = CHECKER["_digests"]
Unprovable = CHECKER["_Unprovable"]

Node = tuple[str, str, list[str], dict[str, Any]]


def graph(*nodes: Node) -> graph_pb2.GraphDef:
    """A GraphDef of `(name, op, inputs, attrs)` nodes; an attr is an int
    (`i`), a bytes (`s`), a DType enum under key `T`, or an AttrValue."""
    made = graph_pb2.GraphDef()
    for name, op, inputs, attrs in nodes:
        node = made.node.add(name=name, op=op, input=inputs, device="/device:CPU:0")
        for key, value in attrs.items():
            if isinstance(value, attr_value_pb2.AttrValue):
                node.attr[key].CopyFrom(value)
            elif key == "T":
                node.attr[key].type = value
            elif isinstance(value, bytes):
                node.attr[key].s = value
            else:
                node.attr[key].i = value
    return made


F = types_pb2.DT_FLOAT


def add_graph(a: str = "x", b: str = "y", *, names: str = "") -> graph_pb2.GraphDef:
    return graph(
        (names + "x", "_Arg", [], {"index": 0, "T": F}),
        (names + "y", "_Arg", [], {"index": 1, "T": F}),
        (names + "add", "AddV2", [names + a, names + b], {"T": F}),
        (names + "out", "_Retval", [names + "add"], {"index": 0, "T": F}),
    )


def test_names_do_not_count() -> None:
    assert digests(add_graph()) == digests(add_graph(names="StatefulPartitionedCall/"))


def test_input_order_counts_even_for_a_commutative_op() -> None:
    assert digests(add_graph("x", "y")) != digests(add_graph("y", "x"))


def test_ports_count_and_port_zero_is_the_plain_name() -> None:
    def split(port: str) -> graph_pb2.GraphDef:
        return graph(
            ("x", "_Arg", [], {"index": 0, "T": F}),
            ("s", "Unpack", ["x"], {"num": 2, "T": F}),
            ("out", "_Retval", [f"s{port}"], {"index": 0, "T": F}),
        )

    assert digests(split("")) == digests(split(":0"))
    assert digests(split(":0")) != digests(split(":1"))


def test_control_edges_count() -> None:
    def ordered(after: bool) -> graph_pb2.GraphDef:
        control = ["^p"] if after else []
        return graph(
            ("x", "_Arg", [], {"index": 0, "T": F}),
            ("p", "NoOp", [], {}),
            ("n", "Neg", ["x", *control], {"T": F}),
            ("out", "_Retval", ["n"], {"index": 0, "T": F}),
        )

    assert digests(ordered(True)) != digests(ordered(False))


def test_annotations_do_not_count_and_other_attributes_do() -> None:
    def annotated(shapes: bytes, index: int) -> graph_pb2.GraphDef:
        return graph(
            ("x", "_Arg", [], {"index": index, "T": F, "_user_specified_name": shapes}),
            ("out", "_Retval", ["x"], {"index": 0, "T": F}),
        )

    assert digests(annotated(b"a", 0)) == digests(annotated(b"b", 0))
    assert digests(annotated(b"a", 0)) != digests(annotated(b"a", 1))


def test_a_device_argument_is_an_argument_on_the_cpu() -> None:
    def argument(op: str) -> graph_pb2.GraphDef:
        return graph(
            ("x", op, [], {"index": 0, "T": types_pb2.DT_INT32}),
            ("out", "_Retval", ["x"], {"index": 0, "T": types_pb2.DT_INT32}),
        )

    assert digests(argument("_DeviceArg")) == digests(argument("_Arg"))


def test_two_stateful_nodes_alike_are_refused() -> None:
    # Which random draw a consumer reads would not show in the digests.
    shape = ("shape", "Const", [], {"dtype": types_pb2.DT_INT32})
    drawn = graph(
        shape,
        ("r1", "RandomStandardNormal", ["shape"], {"dtype": F, "T": types_pb2.DT_INT32}),
        ("r2", "RandomStandardNormal", ["shape"], {"dtype": F, "T": types_pb2.DT_INT32}),
        ("neg", "Neg", ["r1"], {"T": F}),
        ("abs", "Abs", ["r2"], {"T": F}),
    )
    with pytest.raises(Unprovable):
        digests(drawn)
    # Two stateless nodes alike compute the same value: allowed.
    constants = graph(
        ("a", "Const", [], {"dtype": F}),
        ("b", "Const", [], {"dtype": F}),
        ("sum", "AddV2", ["a", "b"], {"T": F}),
    )
    assert len(digests(constants)) == 3


def test_cycles_inputs_from_outside_and_function_attributes_are_refused() -> None:
    loop = graph(
        ("m", "Merge", ["x", "n"], {"N": 2, "T": F}),
        ("x", "Const", [], {"dtype": F}),
        ("n", "NextIteration", ["m"], {"T": F}),
    )
    with pytest.raises(Unprovable):
        digests(loop)
    with pytest.raises(Unprovable):
        digests(graph(("n", "Neg", ["elsewhere"], {"T": F})))
    called = attr_value_pb2.AttrValue()
    called.func.name = "body"
    with pytest.raises(Unprovable):
        digests(graph(("c", "PartitionedCall", [], {"f": called})))


def test_an_optimized_definition_is_made_for_the_caller() -> None:
    @tf.function
    def rescale(x: tf.Tensor) -> tf.Tensor:
        return x * 0.5 + 0.0

    x = tf.constant([-0.0, 1.0])
    concrete = rescale.get_concrete_function(x)
    ctx = context.context()
    config = ctx.function_call_options.config_proto_serialized
    name = concrete.function_def.signature.name
    answer, optimized = CHECKER["inlined_is_same"](name, [x], concrete, [1], config)
    # The by-name graph drops `+ 0.0`, the inlined one keeps it: the call
    # takes a definition made of the by-name graph, which the caller owns.
    assert answer == CHECKER["OPTIMIZED"]
    assert ctx.has_function(optimized)
    ctx.remove_function(optimized)


def identity_graph(identity: Node, *, extra: tuple[Node, ...] = ()) -> graph_pb2.GraphDef:
    return graph(
        ("x", "_Arg", [], {"index": 0, "T": F}),
        identity,
        *extra,
        ("n", "Neg", [identity[0]], {"T": F}),
        ("out", "_Retval", ["n"], {"index": 0, "T": F}),
    )


def test_an_identity_forwards_its_tensor_on_its_own_device_only() -> None:
    plain = graph(
        ("x", "_Arg", [], {"index": 0, "T": F}),
        ("n", "Neg", ["x"], {"T": F}),
        ("out", "_Retval", ["n"], {"index": 0, "T": F}),
    )
    forwarding = identity_graph(("i", "Identity", ["x"], {"T": F}))
    assert digests(forwarding) == digests(plain)
    moved = identity_graph(("i", "Identity", ["x"], {"T": F}))
    moved.node[1].device = "/device:CPU:1"
    assert digests(moved) != digests(plain)
    waiting = identity_graph(
        ("i", "Identity", ["x", "^p"], {"T": F}), extra=(("p", "NoOp", [], {}),)
    )
    assert digests(waiting) != digests(plain)


def test_waiting_on_an_identity_keeps_the_port_it_forwards() -> None:
    def pivots(first: str, second: str) -> graph_pb2.GraphDef:
        return graph(
            ("x", "_Arg", [], {"index": 0, "T": F}),
            ("p", "_Arg", [], {"index": 1, "T": types_pb2.DT_BOOL}),
            ("s", "Switch", ["x", "p"], {"T": F}),
            ("t", "Identity", ["s:1"], {"T": F}),
            ("f", "Identity", ["s:0"], {"T": F}),
            ("one", "Const", [f"^{first}"], {"dtype": F}),
            ("two", "Neg", ["x", f"^{second}"], {"T": F}),
            ("m", "Merge", ["one", "two"], {"N": 2, "T": F}),
        )

    assert digests(pivots("t", "f")) != digests(pivots("f", "t"))


def test_idle_no_ops_are_left_out_and_waited_for_ones_count() -> None:
    plain = graph(
        ("x", "_Arg", [], {"index": 0, "T": F}),
        ("n", "Neg", ["x"], {"T": F}),
    )
    idle = graph(
        ("x", "_Arg", [], {"index": 0, "T": F}),
        ("n", "Neg", ["x"], {"T": F}),
        ("a", "NoOp", [], {}),
        ("b", "NoOp", ["^a"], {}),
    )
    assert digests(idle) == digests(plain)
    waited = graph(
        ("x", "_Arg", [], {"index": 0, "T": F}),
        ("a", "NoOp", [], {}),
        ("n", "Neg", ["x", "^a"], {"T": F}),
    )
    assert digests(waited) != digests(plain)


def test_a_resource_named_after_its_node_is_refused() -> None:
    with pytest.raises(Unprovable):
        digests(graph(("v", "VarHandleOp", [], {"shared_name": b"", "dtype": F})))
    assert digests(graph(("v", "VarHandleOp", [], {"shared_name": b"kept", "dtype": F})))


def test_several_collected_graphs_alike_are_as_good_as_one() -> None:
    pick = CHECKER["_pick"]

    def collected(*graphs: graph_pb2.GraphDef) -> list[Any]:
        metadata = config_pb2.RunMetadata()
        for made in graphs:
            metadata.function_graphs.add().partition_graphs.add().CopyFrom(made)
        return list(metadata.function_graphs)

    def everything(_: Any) -> bool:
        return True

    alike = collected(add_graph(), add_graph(names="other/"))
    assert pick(alike, everything) is alike[0]
    differing = collected(add_graph("x", "y"), add_graph("y", "x"))
    assert pick(differing, everything) == CHECKER["RETRY"]
    assert pick(collected(), everything) == CHECKER["DIFFERENT"]
    assert pick(alike, lambda _: False) == CHECKER["DIFFERENT"]
