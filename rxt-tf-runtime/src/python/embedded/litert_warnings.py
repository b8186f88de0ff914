"""The class of the litert backend's fallback warning.

One per process, shared through `sys.modules` by every extension's
runtime.
"""


class LitertFallbackWarning(RuntimeWarning):
    """A call asked of the litert backend ran on TensorFlow.

    Its function did not convert (the message names the function and the
    reason).
    """


LitertFallbackWarning.__module__ = "rxt_tf"
