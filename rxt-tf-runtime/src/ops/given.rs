//! Keyword values `tf!` takes as Rust values that are no axes: the size
//! lists of image ops (`strides = [s[0], s[1]]`) and texts (`padding =
//! self.padding`), kept as `&'static` values as a literal is (each
//! distinct one once, as run-time axis lists are). The op's plan checks
//! them when it runs, as it checks the plain functions' keywords.

use rxt_tf_spec::Value;

use crate::eager::kept;

/// The size list `sizes` (`strides`, `dilations`, `ksize`) as a value.
pub fn sizes(sizes: &[i64]) -> Value {
    Value::Ints(kept::list(sizes))
}

/// The text `text` (`padding`, `direction`) as a value.
pub fn text(text: &str) -> Value {
    Value::Str(kept::text(text))
}
