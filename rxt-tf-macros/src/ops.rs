//! The op vocabulary of `tf!`: the runtime's op table (`ops/table.rs`),
//! shared here so the macros accept exactly the ops the runtime runs. Ranks
//! are checked by the types of the hidden helpers each op expands to.

#[allow(dead_code)]
mod table {
    include!("../../rxt-tf-runtime/src/ops/table.rs");
}

pub(crate) use table::{Keyword, OpSpec, OPS};

/// The op `name`, if `tf!` supports it.
pub(crate) fn lookup(name: &str) -> Option<&'static OpSpec> {
    OPS.iter().copied().find(|op| op.name == name)
}

/// "`matmul`, `relu`, …" for messages.
pub(crate) fn names() -> String {
    OPS.iter()
        .map(|op| format!("`{}`", op.name))
        .collect::<Vec<_>>()
        .join(", ")
}
