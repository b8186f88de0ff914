//! The shape of an op row: what `tf!` accepts, what TensorFlow runs, and how
//! the Rextio plugin spells it in Python.
//!
//! One module per concern: element types (`dtype`), keywords (`keyword`),
//! typing rules (`rule`), how TensorFlow runs a row (`kernel`), the Rextio
//! plugin's rule records (`python`), their constraint sentences
//! (`constraint`) and the row itself (`op`). Everything is
//! re-exported here.

mod constraint;
mod dtype;
mod kernel;
mod keyword;
mod op;
mod python;
mod rule;

pub use crate::axes::{axes_fit, fits_mask};
pub use constraint::INDEX_DTYPES;
pub use dtype::{DType, TensorKind, MAX_RANK};
pub use kernel::{Attr, AttrValue, Batched, Input, Promotion, Steps, Work};
pub use keyword::{Becomes, Keyword, Value, ValueKind};
pub use op::{join_or, Op};
pub use python::{diagnostic_code, PythonKeyword, PythonRule, SiteKind};
pub use rule::{ListEntries, Role, Rule, MAX_LIST};
