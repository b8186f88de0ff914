//! One input of a fused trace, as the recording, its template and the
//! function built from it take it.

use std::sync::Arc;

use crate::eager::sizes::Sizes;
use crate::safe::handle::OwnedHandle;

/// One input of a trace: a tensor or run-time scalar the fused call is
/// given.
pub(crate) struct RecordedInput {
    pub(crate) handle: Arc<OwnedHandle>,
    /// Its `TF_DataType` code (a captured variable's is `resource`).
    pub(crate) dtype: i32,
    pub(crate) sizes: Sizes,
}
