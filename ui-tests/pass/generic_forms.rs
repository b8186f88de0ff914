//! Forms the rules accept at every element type and rank: each binding's
//! type is what the rule derives.
use rxt_tf::ops::Scalar;
use rxt_tf::{tf, TensorBoolCpu2D, TensorF32Cpu0D, TensorF32Cpu2D, TensorF32Cpu3D,
    TensorF32Cpu4D, TensorF64Cpu2D, TensorF64Cpu3D, TensorI32Cpu1D, TensorI32Cpu2D,
    TensorI64Cpu2D, TensorI64Cpu3D};

type R<T> = rxt_tf::Result<T>;

#[rxt_tf::inference]
fn attention(q: TensorF32Cpu4D, k: TensorF32Cpu4D, scale: TensorF32Cpu0D) -> R<TensorF32Cpu4D> {
    let scores = tf!(matmul(q, k, transpose_b = true))?;
    let scores = tf!(scores * scale)?;
    tf!(softmax(scores, axis = -1))
}

#[rxt_tf::inference]
fn ints(ids: TensorI32Cpu2D, offsets: TensorI32Cpu1D) -> R<(TensorI32Cpu2D, TensorI32Cpu1D)> {
    let shifted = tf!(ids + 1)?;
    let shifted = tf!(maximum(shifted, 0))?;
    let shifted = tf!(shifted + offsets)?;
    let sums = tf!(reduce_sum(shifted, axis = 0))?;
    let sums = tf!(sums * Scalar(2_i32))?;
    Ok((tf!(-shifted)?, tf!(abs(sums))?))
}

fn shapes(x: &TensorF32Cpu3D, w: &TensorF32Cpu2D, l: &TensorI64Cpu3D, m: &TensorBoolCpu2D) -> R<()> {
    let _: TensorF32Cpu3D = tf!(matmul(x, w))?;
    let _: TensorF32Cpu3D = tf!(x * 0.5)?;
    let _: TensorF32Cpu3D = tf!(2 * x)?;
    let _: TensorF32Cpu3D = tf!(bias_add(x, tf!(reduce_mean(w, axis = 0))?))?;
    let _: TensorF32Cpu0D = tf!(reduce_mean(x, axis = [0, 1, 2]))?;
    let _: TensorF32Cpu3D = tf!(reduce_max(x, axis = [0, -1], keepdims = true))?;
    let _: TensorF32Cpu2D = tf!(log_softmax(w, axis = 0))?;
    let _: TensorI64Cpu2D = tf!(argmax(x, axis = 1))?;
    let _: TensorI32Cpu2D = tf!(argmax(x, axis = -1, output_type = i32))?;
    let _: TensorF32Cpu3D = tf!(transpose(x, perm = [0, 2, 1]))?;
    let _: TensorF32Cpu3D = tf!(transpose(x))?;
    let _: TensorBoolCpu2D = tf!(transpose(m))?;
    let _: TensorI64Cpu3D = tf!(l - tf!(reduce_min(l, axis = 2, keepdims = true))?)?;
    // Comparisons give bool tensors of the broadcast rank.
    let positive: TensorBoolCpu2D = tf!(greater(w, 0.0))?;
    let _: TensorBoolCpu2D = tf!(logical_and(positive, m))?;
    let _: TensorBoolCpu2D = tf!(logical_not(positive))?;
    let _: rxt_tf::TensorBoolCpu3D = tf!(not_equal(l, 0))?;
    // Integer division is true division in float64, as `tf.divide`.
    let _: TensorF64Cpu3D = tf!(l / l)?;
    let _: TensorF64Cpu2D = tf!(tf!(argmax(x, axis = 1))? / 2)?;
    Ok(())
}

fn main() {
    let _ = (attention, ints, shapes);
}
