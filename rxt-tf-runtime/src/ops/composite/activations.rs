//! The activations TensorFlow composes: `gelu`, `silu`, `hard_sigmoid`.

use rxt_tf_spec::ops::{ADD, DIV, ERFC, MUL, NEG, POW, RELU6, SIGMOID, TANH};
use rxt_tf_spec::{Op, Value};

use crate::eager::malformed;
use crate::error::Result;
use crate::ops::record_or_run::{run_row, Number, Operand};
use crate::ops::typed::Outputs;

use super::{cast_constant, literal, step, tensor_operand};

/// `tf.nn.gelu(x, approximate)`: `0.5 * x * erfc(-x * cast(√½))`, or
/// `0.5 * x * (1 + tanh(0.7978845608028654 * (x + cast(0.044715) * x³)))`.
pub(super) fn gelu<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let [Value::Bool(approximate)] = keywords else {
        return Err(malformed(row));
    };
    let apply =
        |op: &'static Op, operands: &[Operand<'_>]| run_row(step(row, op), operands, &[], kind);
    let half = apply(&MUL, &[literal(0.5), x])?;
    let half = Operand::Tensor(&half, kind);
    if !*approximate {
        let negative = apply(&NEG, &[x])?;
        // `0.7071067811865476` in `tf.nn.gelu`: the same double.
        let root_half = cast_constant(std::f64::consts::FRAC_1_SQRT_2, kind.dtype);
        let scaled = apply(&MUL, &[Operand::Tensor(&negative, kind), root_half])?;
        let erfc = apply(&ERFC, &[Operand::Tensor(&scaled, kind)])?;
        return O::run(step(row, &MUL), &[half, Operand::Tensor(&erfc, kind)], &[]);
    }
    let cube = apply(&POW, &[x, Operand::Literal(Number::Int(3))])?;
    let coefficient = cast_constant(0.044_715, kind.dtype);
    let scaled_cube = apply(&MUL, &[coefficient, Operand::Tensor(&cube, kind)])?;
    let inner = apply(&ADD, &[x, Operand::Tensor(&scaled_cube, kind)])?;
    let scale = literal(0.797_884_560_802_865_4);
    let scaled = apply(&MUL, &[scale, Operand::Tensor(&inner, kind)])?;
    let tanh = apply(&TANH, &[Operand::Tensor(&scaled, kind)])?;
    let one_plus = apply(&ADD, &[literal(1.0), Operand::Tensor(&tanh, kind)])?;
    O::run(
        step(row, &MUL),
        &[half, Operand::Tensor(&one_plus, kind)],
        &[],
    )
}

/// `tf.nn.silu(x)`: `x * sigmoid(beta * x)` with `beta` a tensor of 1.
pub(super) fn silu<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>]) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let beta = Operand::Scalar(kind.dtype, Number::Float(1.0));
    let scaled = run_row(step(row, &MUL), &[beta, x], &[], kind)?;
    let sigmoid = run_row(
        step(row, &SIGMOID),
        &[Operand::Tensor(&scaled, kind)],
        &[],
        kind,
    )?;
    O::run(step(row, &MUL), &[x, Operand::Tensor(&sigmoid, kind)], &[])
}

/// Keras's `hard_sigmoid` as its TensorFlow backend runs it:
/// `relu6(x + 3) / 6`, the constants of `x`'s element type.
pub(super) fn hard_sigmoid<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>]) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let three = Operand::Scalar(kind.dtype, Number::Float(3.0));
    let shifted = run_row(step(row, &ADD), &[x, three], &[], kind)?;
    let clipped = run_row(
        step(row, &RELU6),
        &[Operand::Tensor(&shifted, kind)],
        &[],
        kind,
    )?;
    let six = Operand::Scalar(kind.dtype, Number::Float(6.0));
    O::run(
        step(row, &DIV),
        &[Operand::Tensor(&clipped, kind), six],
        &[],
    )
}
