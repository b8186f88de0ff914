//! The Python side: tensors crossing the boundary as EagerTensors, and the
//! GIL released while TensorFlow computes a large op.

pub(crate) mod boundary;
pub(crate) mod gil;
