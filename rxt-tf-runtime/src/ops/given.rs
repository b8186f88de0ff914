//! Keyword values `tf!` takes as Rust values that are no axes: the size
//! lists of image ops (`strides = [s[0], s[1]]`) and texts (`padding =
//! self.padding`), checked when the op runs (as the plain functions'
//! keywords are) and kept as `&'static` values, as a literal is.

use std::sync::{Mutex, PoisonError};

use rxt_tf_spec::{Keyword, Value, ValueKind};

use super::dispatch::OpRow;
use crate::error::{Error, Result};

/// The most distinct size lists given at run time that the process keeps
/// (each a key of the traces that use it); a program's layers use a few.
pub const SIZE_LISTS: usize = 64;

/// The size list `sizes` of `Op`'s keyword `index` (`strides`,
/// `dilations`, `ksize`) as its value: one or two positive sizes for a 2-D
/// image op, one or three for a volume op; else the error a plain
/// function's call gives.
pub fn sizes<Op: OpRow>(index: usize, sizes: &[i64]) -> Result<Value> {
    let keyword = keyword::<Op>(index)?;
    let counts: &[usize] = match keyword.kind {
        ValueKind::Spatial => &[1, 2],
        ValueKind::Volume => &[1, 3],
        _ => return Err(crate::eager::malformed(Op::ROW)),
    };
    let positive = sizes.iter().all(|&size| keyword.accepts(&Value::Int(size)));
    if !positive || !counts.contains(&sizes.len()) {
        return Err(refused::<Op>(keyword, &format!("{sizes:?}")));
    }
    kept(sizes).map(Value::Ints).ok_or_else(|| Error::Keyword {
        op: Op::ROW.name,
        message: format!(
            "`{} = {sizes:?}`: rxt-tf keeps at most {SIZE_LISTS} distinct size lists given at \
             run time, and has kept as many",
            keyword.name
        ),
    })
}

/// The text `text` of `Op`'s keyword `index` (`padding`, `mode`,
/// `direction`) as its value: one of the values it allows, else the error a
/// plain function's call gives.
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

/// The error for `keyword` given `written` it does not accept.
fn refused<Op: OpRow>(keyword: &Keyword, written: &str) -> Error {
    Error::Keyword {
        op: Op::ROW.name,
        message: format!(
            "`{} = {written}` is not supported; `{}` must be {}",
            keyword.name,
            keyword.name,
            keyword.allowed_text()
        ),
    }
}

/// `sizes`, kept for the life of the process (each distinct list once, at
/// most [`SIZE_LISTS`]); `None` when that many others are kept.
fn kept(sizes: &[i64]) -> Option<&'static [i64]> {
    static KEPT: Mutex<Vec<&'static [i64]>> = Mutex::new(Vec::new());
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = kept.iter().find(|known| **known == sizes) {
        return Some(found);
    }
    if kept.len() >= SIZE_LISTS {
        return None;
    }
    let list: &'static [i64] = Box::leak(sizes.to_vec().into_boxed_slice());
    kept.push(list);
    Some(list)
}
