"""Rextio plugin for rxt-tf: lowers TensorFlow call sites into ``rxt_tf::tf!``.

Importing this package never imports TensorFlow (nor Rextio): the annotation
markers in :mod:`rxt_tf_plugin.types` are plain classes.
"""

__version__ = "0.1.0"
"""The plugin's version; equal to the ``rxt-tf`` crate version it depends on."""

__all__ = ["__version__"]
