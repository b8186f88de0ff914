//! Literals as `tf!` reads them, in one place for parse, index and
//! validate: number literals written as operands or index bounds, and the
//! literal values of keywords (a leading `-` allowed on numbers).

use rxt_tf_spec::{DType, Value, ValueKind};
use syn::{Expr, Lit, UnOp};

/// A number literal as an operand: its value, and whether it was written
/// as an integer.
pub(crate) enum NumberLiteral {
    /// `0.5`, `-3.0`, `2.0f32`.
    Float(f64),
    /// `2`, `-1`, `3i64`.
    Int(i64),
    /// An integer literal too large for an `i64`, or with another suffix.
    Unsupported,
}

/// `expr` as a literal and whether a `-` leads it, looking through
/// parentheses and the invisible groups of `macro_rules!`.
fn signed(expr: &Expr) -> Option<(bool, &Lit)> {
    match expr {
        Expr::Lit(lit) => Some((false, &lit.lit)),
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => match &*unary.expr {
            Expr::Lit(lit) => Some((true, &lit.lit)),
            _ => None,
        },
        Expr::Paren(inner) => signed(&inner.expr),
        Expr::Group(inner) => signed(&inner.expr),
        _ => None,
    }
}

/// An `i64` integer literal (no suffix, or `i32` / `i64`), signed.
fn int(negative: bool, lit: &Lit) -> Option<i64> {
    match lit {
        Lit::Int(int) if matches!(int.suffix(), "" | "i32" | "i64") => {
            let magnitude: i64 = int.base10_parse().ok()?;
            Some(if negative { -magnitude } else { magnitude })
        }
        _ => None,
    }
}

/// `expr` as a number literal (a leading `-` allowed), if it is one.
pub(crate) fn number_literal(expr: &Expr) -> Option<NumberLiteral> {
    let (negative, lit) = signed(expr)?;
    match lit {
        Lit::Float(float) => {
            let magnitude: f64 = float.base10_parse().ok()?;
            Some(NumberLiteral::Float(if negative {
                -magnitude
            } else {
                magnitude
            }))
        }
        Lit::Int(_) => {
            Some(int(negative, lit).map_or(NumberLiteral::Unsupported, NumberLiteral::Int))
        }
        _ => None,
    }
}

/// `value` as a keyword literal of `kind`: a bool, an `i64`, a float that
/// fits a float32 (float attributes are float32), or an element type.
pub(crate) fn literal(kind: ValueKind, value: &Expr) -> Option<Value> {
    match (kind, value) {
        (ValueKind::Type, Expr::Path(path)) => {
            let name = path.path.get_ident()?.to_string();
            return DType::from_rust_name(&name).map(Value::Type);
        }
        (ValueKind::Type, Expr::Paren(syn::ExprParen { expr, .. }))
        | (ValueKind::Type, Expr::Group(syn::ExprGroup { expr, .. })) => {
            return literal(kind, expr)
        }
        (ValueKind::Ints | ValueKind::Type | ValueKind::Axes, _) => return None,
        _ => {}
    }
    let (negative, lit) = signed(value)?;
    match (kind, lit) {
        (ValueKind::Bool, Lit::Bool(flag)) if !negative => Some(Value::Bool(flag.value)),
        (ValueKind::Int, Lit::Int(_)) => int(negative, lit).map(Value::Int),
        (ValueKind::Float, Lit::Float(float)) if matches!(float.suffix(), "" | "f32" | "f64") => {
            let magnitude: f64 = float.base10_parse().ok()?;
            // A value that does not fit a float32 is not taken for a
            // literal of the kind.
            let fits = (magnitude as f32).is_finite();
            fits.then_some(Value::Float(if negative { -magnitude } else { magnitude }))
        }
        _ => None,
    }
}

/// `[1, 0]` as integers, if every element is an integer literal.
pub(crate) fn int_list(value: &Expr) -> Option<Vec<i64>> {
    let Expr::Array(array) = value else {
        return None;
    };
    array
        .elems
        .iter()
        .map(|element| match literal(ValueKind::Int, element)? {
            Value::Int(int) => Some(int),
            _ => None,
        })
        .collect()
}

/// The value of `tensordot`'s `axes` written as lists: `[[a…], [b…]]`
/// (two lists of integer literals) or `[a, b]` (one axis each), as one
/// list, the first's axes then the second's; `Err` with the lengths when
/// the two lists differ in length.
pub(crate) fn contraction_lists(value: &Expr) -> Option<Result<Vec<i64>, (usize, usize)>> {
    let Expr::Array(array) = value else {
        return None;
    };
    if let Some(pair) = int_list(value) {
        return (pair.len() == 2).then_some(Ok(pair));
    }
    let [first, second] = [array.elems.first()?, array.elems.get(1)?].map(int_list);
    let (mut first, second) = (first?, second?);
    if array.elems.len() != 2 {
        return None;
    }
    if first.len() != second.len() {
        return Some(Err((first.len(), second.len())));
    }
    first.extend(second);
    Some(Ok(first))
}

/// A string literal's text, if `value` is one.
pub(crate) fn string(value: &Expr) -> Option<String> {
    match value {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(text),
            ..
        }) => Some(text.value()),
        _ => None,
    }
}
