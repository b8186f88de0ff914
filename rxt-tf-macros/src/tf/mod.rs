//! `tf!`: one op invocation, checked against the op table of `rxt-tf-spec`
//! and expanded to one generic call of the runtime.

mod expand;
mod index;
mod literal;
mod model;
mod parse;
mod validate;

pub(crate) use expand::expand;
