//! Binding what the Python process has loaded: the wheel (versions, images,
//! symbols), its platform profile, Python's eager context and this
//! thread's eager state.

pub mod checks;
pub(crate) mod constants;
pub(crate) mod context;
pub mod platform;
pub mod thread_state;
pub(crate) mod wheel;
