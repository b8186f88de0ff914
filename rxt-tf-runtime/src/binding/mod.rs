//! Binding what the Python process has loaded: the wheel (versions, images,
//! symbols), its platform profile, and Python's eager context.

pub mod checks;
pub(crate) mod constants;
pub(crate) mod context;
pub mod platform;
pub(crate) mod wheel;
