//! The shape of an op row: what `tf!` accepts, what TensorFlow runs, and how
//! the Rextio plugin spells it in Python.
//!
//! One module per concern: element types (`dtype`), keywords (`keyword`),
//! typing rules (`rule`), how TensorFlow runs a row (`kernel`), the Rextio
//! plugin's rule records (`python`), their constraint sentences
//! (`constraint`), lists in words (`wording`) and the row itself with the
//! steps a composed row runs (`op`: a step may name another row). Everything
//! is re-exported here.

mod constraint;
mod dtype;
mod kernel;
mod keyword;
mod op;
mod python;
mod rule;
mod wording;

pub use crate::axes::{axes_fit, fits_mask};
pub use dtype::{DType, TensorKind, INDEX_DTYPES, MAX_RANK};
pub use kernel::{Attr, AttrValue, Batched, Input, Promotion, Work};
pub use keyword::{Becomes, Keyword, Value, ValueKind};
pub use op::{Op, Steps};
pub use python::{diagnostic_code, PythonKeyword, PythonRule, SiteKind};
pub use rule::{ListEntries, Role, Rule, MAX_LIST};
pub use wording::join_or;
