//! The Python side: tensors crossing the boundary as EagerTensors, and
//! rxt-tf's own Python modules.

pub(crate) mod boundary;
pub(crate) mod module;
