//! Platform profiles: which targets rxt-tf supports and where each keeps the
//! wheel's images. The table is `rxt_tf_spec::platform`, which the build
//! script also reads to select the active profile.

pub use rxt_tf_spec::platform::*;

include!(concat!(env!("OUT_DIR"), "/active_profile.rs"));

/// The profile this crate was built for.
pub const ACTIVE: &PlatformProfile = &PROFILES[ACTIVE_PROFILE_INDEX];
