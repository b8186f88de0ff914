//! What the rules know of scalar operands and element types: the kind of
//! a scalar (a known element type, or a literal that takes the others'),
//! and the element types literals convert to.

use crate::ops::typed::operands::{FloatLiteral, IntLiteral, Scalar};
use crate::tensor::{Element, Tensor};

/// What a scalar operand says of its element type: known (a tensor or
/// [`Scalar`]), or a literal that takes the others' (else Python's: int32,
/// float32).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not a scalar operand",
    label = "expected a literal, a `Scalar` or a rank-0 tensor",
    note = "`fill`, `range` and `clip_by_value` take scalars here"
)]
pub trait ScalarKind {
    /// [`Known`], [`IntKind`] or [`FloatKind`].
    type Kind;
}

/// A scalar of element type `T`.
pub struct Known<T>(core::marker::PhantomData<T>);
/// An integer literal.
pub struct IntKind;
/// A float literal.
pub struct FloatKind;

impl<T: FromFloatLiteral> Scalar<T> {
    /// `value` as a scalar of the float type `T`, converted as TensorFlow
    /// converts a Python float to a `T` tensor: float64 exactly, the others
    /// through the nearest float32 (bfloat16 flushing a subnormal one to
    /// zero), so `tf!(x * Scalar::from_f64(scale))` is Python's `x * scale`
    /// (as a literal `tf!(x * 0.1)` is).
    pub fn from_f64(value: f64) -> Scalar<T> {
        Scalar(T::from_python_float(value))
    }
}

impl Scalar<i32> {
    /// A Python `int` as the int32 scalar TensorFlow makes of it
    /// (`tf.range(n)`: `tf!(range(0, Scalar::from_python_int("range", n)?, 1))`).
    /// Beyond int32's range TensorFlow makes an int64 instead, which an int32
    /// result cannot hold: [`Error::OutOfRange`](crate::Error::OutOfRange), a
    /// `ValueError`.
    pub fn from_python_int(op: &'static str, value: i64) -> crate::Result<Scalar<i32>> {
        i32::try_from(value)
            .map(Scalar)
            .map_err(|_| crate::Error::OutOfRange {
                op,
                value: value.to_string(),
                dtype: "int32",
            })
    }
}

impl Scalar<f32> {
    /// A Python `float` as the float32 scalar `tf.fill` and `tf.constant`
    /// make of it: rounded to the nearest float32, infinities and NaN kept;
    /// a finite value beyond float32's range is a `ValueError`, as
    /// TensorFlow raises there ([`Error::OutOfRange`](crate::Error::OutOfRange)).
    pub fn from_python_float(op: &'static str, value: f64) -> crate::Result<Scalar<f32>> {
        // Rounds to nearest (ties to even), to infinity past the range.
        #[allow(clippy::cast_possible_truncation)]
        let rounded = value as f32;
        if value.is_finite() && rounded.is_infinite() {
            return Err(crate::Error::OutOfRange {
                op,
                value: format!("{value:e}"),
                dtype: "float32",
            });
        }
        Ok(Scalar(rounded))
    }
}

impl<T: Element> ScalarKind for Tensor<T, 0> {
    type Kind = Known<T>;
}
impl<T: Element> ScalarKind for Scalar<T> {
    type Kind = Known<T>;
}
impl ScalarKind for IntLiteral {
    type Kind = IntKind;
}
impl ScalarKind for FloatLiteral {
    type Kind = FloatKind;
}

/// Two scalar kinds together: one element type, or the literals' default.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: the scalars have no one element type (`{Self}` and `{K}`)",
    label = "mixed element types"
)]
pub trait JoinKind<K> {
    /// The kind of both.
    type Kind;
}

impl<T: Element, U: SameElement<T>> JoinKind<Known<U>> for Known<T> {
    type Kind = Known<T>;
}
impl<T: FromIntLiteral> JoinKind<IntKind> for Known<T> {
    type Kind = Known<T>;
}
impl<T: FromIntLiteral> JoinKind<Known<T>> for IntKind {
    type Kind = Known<T>;
}
impl<T: FromFloatLiteral> JoinKind<FloatKind> for Known<T> {
    type Kind = Known<T>;
}
impl<T: FromFloatLiteral> JoinKind<Known<T>> for FloatKind {
    type Kind = Known<T>;
}
impl JoinKind<IntKind> for IntKind {
    type Kind = IntKind;
}
impl JoinKind<FloatKind> for IntKind {
    type Kind = FloatKind;
}
impl JoinKind<IntKind> for FloatKind {
    type Kind = FloatKind;
}
impl JoinKind<FloatKind> for FloatKind {
    type Kind = FloatKind;
}

/// The element type of a scalar kind: its own, or Python's for literals.
pub trait KindElement {
    /// The element type.
    type Element: Element;
}

impl<T: Element> KindElement for Known<T> {
    type Element = T;
}
impl KindElement for IntKind {
    type Element = i32;
}
impl KindElement for FloatKind {
    type Element = f32;
}

/// The other operand of a binary op has the same element type.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: mixed element types `{Self}` and `{T}`; both operands need one element type",
    label = "`{Self}` here, `{T}` in the other operand",
    note = "TensorFlow does not promote element types: cast one operand first"
)]
pub trait SameElement<T> {}

impl<T: Element> SameElement<T> for T {}

/// Element types an integer literal converts to (as a Python `int` does).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: an integer literal cannot be a `{Self}` operand",
    label = "the literal's type would be `{Self}`",
    note = "bool tensors take no numeric literals"
)]
pub trait FromIntLiteral: Element {}

/// Element types a float literal converts to.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: a float literal cannot be a `{Self}` operand (TensorFlow raises TypeError)",
    label = "the literal's type would be `{Self}`",
    note = "write an integer literal, or cast the tensor to a float type first"
)]
pub trait FromFloatLiteral: Element {
    /// `value` as TensorFlow converts a Python float to a tensor of this
    /// type (see [`Scalar::from_f64`](crate::ops::Scalar::from_f64)).
    #[doc(hidden)]
    fn from_python_float(value: f64) -> Self;
}

#[cfg(test)]
mod tests {
    use crate::ops::typed::operands::Scalar;

    #[test]
    fn a_number_beyond_its_type_names_the_op_the_value_and_the_type() {
        let err = Scalar::<i32>::from_python_int("range", 1 << 31).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rxt-tf: range: 2147483648 is beyond int32's range"
        );
        assert_eq!(
            Scalar::<i32>::from_python_int("range", -(1 << 31)),
            Ok(Scalar(i32::MIN))
        );
        let err = Scalar::<f32>::from_python_float("fill", -3.5e38).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rxt-tf: fill: -3.5e38 is beyond float32's range"
        );
        // Infinities and NaN convert; the largest float32 and what rounds to it too.
        for value in [f64::INFINITY, f64::NEG_INFINITY, 3.4028235e38, 1e-50] {
            assert_eq!(
                Scalar::<f32>::from_python_float("fill", value),
                Ok(Scalar(value as f32))
            );
        }
        assert!(Scalar::<f32>::from_python_float("fill", f64::NAN).is_ok_and(|s| s.0.is_nan()));
    }
}
