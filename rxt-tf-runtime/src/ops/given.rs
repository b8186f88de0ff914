//! Keyword values `tf!` takes as Rust values that are no axes: the size
//! lists of image ops (`strides = [s[0], s[1]]`) and texts (`padding =
//! self.padding`), checked when the op runs (as the plain functions'
//! keywords are) and kept as `&'static` values, as a literal is.

use rxt_tf_spec::{Keyword, Value, ValueKind};

use super::dispatch::OpRow;
use crate::error::{Error, Result};

/// The size list `sizes` of `Op`'s keyword `index` (`strides`,
/// `dilations`, `ksize`) as its value: one or two positive sizes for a 2-D
/// image op, one or three for a volume op; else the error a plain
/// function's call gives. Each distinct list is kept for the life of the
/// process, as run-time axis lists are.
pub fn sizes<Op: OpRow>(index: usize, sizes: &[i64]) -> Result<Value> {
    let keyword = keyword::<Op>(index)?;
    let value = Value::Ints(crate::eager::kept::list(sizes));
    match keyword.accepts(&value) {
        true => Ok(value),
        false => Err(refused::<Op>(keyword, &format!("{sizes:?}"))),
    }
}

/// The text `text` of `Op`'s keyword `index` (`padding`, `direction`) as
/// its value: one of the values it allows, else the error a plain
/// function's call gives.
pub fn text<Op: OpRow>(index: usize, text: &str) -> Result<Value> {
    let keyword = keyword::<Op>(index)?;
    keyword
        .allowed
        .iter()
        .find(|allowed| matches!(allowed, Value::Str(value) if *value == text))
        .copied()
        .ok_or_else(|| refused::<Op>(keyword, &format!("{text:?}")))
}

/// `Op`'s keyword `index`.
fn keyword<Op: OpRow>(index: usize) -> Result<&'static Keyword> {
    Op::ROW
        .keywords
        .get(index)
        .ok_or_else(|| crate::eager::malformed(Op::ROW))
}

/// The error for `keyword` given `written` (a Rust value) it does not
/// accept.
fn refused<Op: OpRow>(keyword: &Keyword, written: &str) -> Error {
    let accepted = match keyword.kind {
        ValueKind::Spatial => "one or two positive integers".to_owned(),
        ValueKind::Volume => "one or three positive integers".to_owned(),
        _ => keyword.allowed_text(),
    };
    Error::Keyword {
        op: Op::ROW.name,
        message: format!(
            "`{} = {written}` is not supported; `{}` must be {accepted}",
            keyword.name, keyword.name
        ),
    }
}
