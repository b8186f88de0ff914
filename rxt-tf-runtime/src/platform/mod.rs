//! Platform profiles: which targets rxt-tf supports and where each keeps the
//! wheel's images. The table lives in `table.rs`, shared with the build
//! script that selects the active profile.

include!("table.rs");
include!(concat!(env!("OUT_DIR"), "/active_profile.rs"));

/// The profile this crate was built for.
pub const ACTIVE: &PlatformProfile = &PROFILES[ACTIVE_PROFILE_INDEX];
