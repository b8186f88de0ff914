//! Owned, safe wrappers over the C objects rxt-tf creates: statuses, tensor
//! handles, ops being built, host constants and host copies. Each frees its object on
//! drop; nothing here touches Python.

pub(crate) mod constant;
pub(crate) mod graph;
pub(crate) mod handle;
pub(crate) mod host;
pub(crate) mod op;
pub(crate) mod status;
