//! The ops of rxt-tf's table (`rxt_tf_spec::OPS`) as plain functions, the
//! same ops `tf!` runs: operands by reference (tensors or references to
//! them), typed keywords as const parameters, other keywords as arguments.
//! An operand of an unsupported rank is a compile error.
//!
//! Every function runs through one generic executor; the build script
//! generates the functions and the typed dispatch from the rows.

pub(crate) mod dispatch;

mod composite;
pub(crate) mod given;
pub use dispatch::{Dims, Pairs, Scalar, Size, TensorList};
pub(crate) mod execute;
pub(crate) mod rules;

include!(concat!(env!("OUT_DIR"), "/ops.rs"));
