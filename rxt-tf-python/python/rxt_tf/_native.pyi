"""Types of the native half (rxt-tf-python/src)."""

from typing import Any

from rxt_tf._stats import Stats

class Function:
    """A Python function traced by `tf.function`, called through rxt-tf."""

    def __new__(
        cls,
        tf_function: Any,
        parameters: Any,
        tracer: Any,
        capacity: int,
        exact: bool,
        backend: str = "tensorflow",
    ) -> Function: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
    @property
    def tf_function(self) -> Any: ...
    @property
    def exact(self) -> bool: ...
    @property
    def backend(self) -> str: ...
    def cache_size(self) -> int: ...

class Predictor:
    """A model or signature called at the cost of one TensorFlow call."""

    def __new__(
        cls, target: Any, *, exact: bool = True, backend: str = "tensorflow"
    ) -> Predictor: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

def stats() -> Stats: ...
def reset_stats() -> None: ...

class LitertFallbackWarning(RuntimeWarning):
    """A call asked of the litert backend ran on TensorFlow instead."""
