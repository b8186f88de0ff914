//! The platform table of the runtime, shared here so `#[inference]` emits the
//! unsupported-target error from the same source the runtime's build uses.

#[allow(dead_code)]
mod table {
    include!("../../rxt-tf-runtime/src/platform/table.rs");
}

pub(crate) use table::{profile_index, target_cfg, unsupported_target_message, PROFILES};
