//! The ops of rxt-tf's table (`rxt_tf_spec::OPS`) as plain functions, the
//! same ops `tf!` runs: operands by reference (tensors or references to
//! them), typed keywords as const parameters, other keywords as arguments.
//! An operand of an unsupported rank is a compile error.
//!
//! Every function runs through one generic executor; the build script
//! generates the functions and the typed dispatch from the rows.

mod composite;
pub(crate) mod entry;
pub(crate) mod given;
pub(crate) mod record_or_run;
pub(crate) mod rules;
pub(crate) mod typed;

pub use typed::{Dims, Pairs, Scalar, Size, TensorList};

include!(concat!(env!("OUT_DIR"), "/ops.rs"));
