"""TensorFlow's TFLite converter, as rxt-tf's litert backend calls it.

A concrete function to a flatbuffer of builtin ops, float32, no
quantization, no select-TF ops. The function's variables are frozen into
constants (the converter's path without a saved model, which keeps no
resource ops).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import tensorflow as tf

if TYPE_CHECKING:
    import numpy.typing as npt

# The converter's diagnostics: `<file>:<line>:<col>: error: 'tf.Erfc' op is
# neither a custom op nor a flex op` (older converters: `error: loc(<where>):
# …`), then `<file>:<line>:<col>: note: called from` lines up the Python stack
# that built the op.
_DIAGNOSTIC = re.compile(
    r"(?:(?P<file>[/<][^\s:]*|[A-Za-z]:[/\\][^\s:]*):(?P<line>\d+):\d+: )?"
    r"error: (?:loc\((?P<loc>.*?)\): )?"
    r"(?P<what>'(?P<op>[\w.]+)' op .*)"
)
_CALLED_FROM = re.compile(r"^(?P<file>\S+):(?P<line>\d+):\d+: note: called from")
# Frames of TensorFlow's own Python, and of rxt-tf's, are not where the user
# wrote the op; those of installed packages are less likely to be.
_FRAMEWORK = re.compile(r"[/\\]site-packages[/\\](?:tensorflow|keras|tf_keras)[/\\]|rxt_tf_")
_INSTALLED = re.compile(r"[/\\](?:site|dist)-packages[/\\]")


def convert(function: Any, located: bool = True) -> bytes:
    """The TFLite flatbuffer of ``function`` (a concrete function), as bytes.

    ``located``: name where its Python made the op a refusal names
    (false for a graph its ops' frames do not tell).

    Refuses a graph with a tensor of unknown rank or of a rank above 8:
    LiteRT's layouts hold 8 sizes and it does not check.
    """
    for op in function.graph.get_operations():
        for output in op.outputs:
            rank = output.shape.rank
            if rank is None or rank > 8:
                raise ValueError(
                    f"{op.type} gives a tensor of rank {rank}: LiteRT takes ranks up to 8"
                )
    with _quiet():
        converter = tf.lite.TFLiteConverter.from_concrete_functions([function])
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
        converter.optimizations = []
        try:
            return bytes(converter.convert())
        except Exception as error:  # the converter raises several types
            raise ValueError(_first_cause(str(error), located)) from None


def _first_cause(text: str, located: bool = True) -> str:
    """The converter's refusal in one line.

    Its first unconvertible op and where the user's code made it (the first
    frame of the diagnostic's call chain outside installed packages, else
    outside TensorFlow's own Python, else the diagnostic's own location), or
    its first line. ``located`` false: no location.
    """
    lines = text.splitlines()
    for index, line in enumerate(lines):
        found = _DIAGNOSTIC.search(line)
        if found is None:
            continue
        frames = [(found.group("file"), found.group("line"))] if found.group("file") else []
        for later in lines[index + 1 :]:
            if _DIAGNOSTIC.search(later) is not None:
                break
            called = _CALLED_FROM.match(later)
            if called is not None:
                frames.append((called.group("file"), called.group("line")))
        ours = [frame for frame in frames if not _FRAMEWORK.search(frame[0])]
        users = [frame for frame in ours if not _INSTALLED.search(frame[0])]
        if not located:
            where = ""
        elif found.group("loc"):
            where = found.group("loc")
        elif frames:
            where = "{}:{}".format(*(users or ours or frames)[0])
        else:
            where = ""
        at = f" (at {where})" if where else ""
        return f"TFLite's converter refused {found.group('what')}{at}"
    kept = [line for line in lines if line.strip()]
    return kept[0] if kept else "TFLite's converter refused the function"


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """The converter's own output kept from the user's stderr.

    Its MLIR diagnostics (written by C++ to the process's stderr, so the
    descriptor itself is pointed elsewhere while it runs: other threads'
    output in that time is lost too), its Python warnings ("Please consider
    providing the trackable_obj argument": the frozen path is the one
    wanted here) and its log lines. rxt-tf says why a conversion failed
    once, itself.
    """
    sys.stderr.flush()
    saved = os.dup(2)
    loggers = [logging.getLogger(name) for name in ("tensorflow", "absl")]
    levels = [logger.level for logger in loggers]
    try:
        with tempfile.TemporaryFile() as sink, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for logger in loggers:
                logger.setLevel(logging.ERROR)
            os.dup2(sink.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def convert_at(
    function: Any,
    shapes: list[list[int]],
    retrace: Callable[[list[list[int]]], Any] | None = None,
) -> bytes:
    """The TFLite flatbuffer of ``function`` with its inputs of exactly ``shapes``.

    ``function`` (a concrete function) traced again for them by
    ``retrace`` where given (so sizes its graph fixed at tracing, such as a
    recurrent layer's steps', are known too), else its variables frozen and
    its graph's placeholders given those shapes.
    """
    from tensorflow.python.framework import convert_to_constants

    if retrace is not None:
        with _quiet():
            retraced = retrace(shapes)
        return convert(retraced)
    frozen = convert_to_constants.convert_variables_to_constants_v2(
        function, lower_control_flow=False
    )
    return convert(_with_input_shapes(frozen.graph, frozen.inputs, frozen.outputs, _known(shapes)))


def _known(shapes: list[list[int]]) -> list[Any]:
    """``shapes`` (lists of sizes, -1 unknown) as ``tf.TensorShape``s."""
    return [tf.TensorShape([None if size < 0 else size for size in shape]) for shape in shapes]


def _with_input_shapes(
    graph: Any,
    inputs: list[Any],
    outputs: list[Any],
    shapes: list[Any],
    frozen: dict[int, npt.NDArray[Any]] | None = None,
) -> Any:
    """A concrete function of ``graph`` from ``inputs`` to ``outputs``.

    Its placeholders of ``shapes`` (``tf.TensorShape``s), the graph's own
    copy of their shapes overridden; the inputs of ``frozen`` (position →
    NumPy value) made constants of those values, no longer inputs.
    """
    from tensorflow.python.eager import wrap_function

    frozen = frozen or {}
    graph_def = graph.as_graph_def()
    ranked = {tensor.op.name: shape for tensor, shape in zip(inputs, shapes, strict=False)}
    values = {inputs[position].op.name: value for position, value in frozen.items()}
    for node in graph_def.node:
        if node.name in values:
            value = values[node.name]
            for key in list(node.attr):
                del node.attr[key]
            node.op = "Const"
            node.attr["dtype"].type = tf.as_dtype(value.dtype).as_datatype_enum
            node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(value))
        elif node.name in ranked:
            node.attr["shape"].shape.CopyFrom(ranked[node.name].as_proto())
    return wrap_function.function_from_graph_def(
        graph_def,
        [tensor.name for position, tensor in enumerate(inputs) if position not in frozen],
        [tensor.name for tensor in outputs],
    )


def convert_function_def(
    name: str,
    shapes: list[list[int]],
    frozen: Iterable[tuple[int, str, list[int], bytes]] = (),
    exact: list[list[int]] | None = None,
) -> bytes:
    """The TFLite flatbuffer of the function ``name`` of the eager context, as bytes.

    ``name`` is one rxt-tf built from a fused trace: its inputs of the
    ``shapes`` given, a size of -1 unknown (LiteRT compiles per shape); the
    inputs of ``frozen`` ((position, element type, shape, bytes) each)
    constants of those values. Where that does not convert and ``exact``
    (the call's input shapes) is given, again with only the first size of
    each input unknown: some ops legalize only with their other sizes known
    (`Conv2D` needs its input's channels).
    """
    import numpy as np
    from tensorflow.python.eager import context
    from tensorflow.python.framework import function_def_to_graph

    definition = context.context().get_function_def(name)
    values = {
        position: np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape)
        for position, dtype, shape, data in frozen
    }

    def converted(shapes: list[list[int]]) -> bytes:
        known = _known(shapes)
        graph = function_def_to_graph.function_def_to_graph(definition, input_shapes=known)
        # A graph made from a definition: its ops' Python frames are those
        # of this conversion, not where anyone wrote them.
        graph_of = _with_input_shapes(graph, graph.inputs, graph.outputs, known, values)
        return convert(graph_of, located=False)

    try:
        return converted(shapes)
    except ValueError:
        if exact is None:
            raise
        batched = [
            [-1, *given[1:]] if len(shape) > 1 and -1 in shape else shape
            for shape, given in zip(shapes, exact, strict=False)
        ]
        if batched == [list(shape) for shape in shapes]:
            raise
    return converted(batched)
