//! The Python side: tensors crossing the boundary as EagerTensors.

pub(crate) mod boundary;
