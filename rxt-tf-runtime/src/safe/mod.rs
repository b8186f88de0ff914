//! Owned, safe wrappers over the C objects rxt-tf creates: statuses, tensor
//! handles, ops being built, and host constants. Each frees its object on
//! drop; nothing here touches Python.

pub(crate) mod constant;
pub(crate) mod handle;
pub(crate) mod op;
pub(crate) mod status;
