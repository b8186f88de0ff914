//! Every op form of the table, at every accepted rank, with its result type.

use rxt_tf::{tf, TensorF32Cpu1D as T1, TensorF32Cpu2D as T2, TensorI64Cpu1D as I1};
use rxt_tf::{TensorF32Cpu2D, TensorI64Cpu1D};

fn unary(x: &T2, v: &T1) -> rxt_tf::Result<(T2, T1)> {
    let h = tf!(relu(x))?;
    let h = tf!(sigmoid(tf!(tanh(h))?))?;
    let h = tf!(abs(tf!(neg(tf!(square(h))?))?))?;
    let h = tf!(exp(tf!(log(tf!(sqrt(tf!(rsqrt(h))?))?))?))?;
    let h = tf!(relu6(tf!(elu(tf!(softplus(h))?))?))?;
    let h = tf!(leaky_relu(tf!(leaky_relu(h, alpha = 0.1))?))?;
    let h = tf!(-h)?;
    let r = tf!(relu(v))?;
    let r = tf!(leaky_relu(tf!(-tf!(softplus(r))?)?, alpha = -0.5f32))?;
    Ok((h, r))
}

fn binary(a: &T2, b: &T1) -> rxt_tf::Result<(T2, T1, T2, T1)> {
    let h = tf!(sub(tf!(mul(a, b))?, tf!(div(b, a))?))?;
    let h = tf!(maximum(tf!(minimum(h, 1.0))?, -1.0))?;
    let h = tf!(tf!(tf!(tf!(h - 1.0)? * -3.0)? / 2.0)? + 0.5)?;
    let h = tf!(0.5 * h)?;
    let r = tf!(tf!(b * 2.0)? - tf!(b / b)?)?;
    Ok((h, r, tf!(div(a, 2.0))?, tf!(1.0 - b)?))
}

fn matrix(a: &T2, b: &T1) -> rxt_tf::Result<(T2, T2, T2)> {
    let m = tf!(matmul(a, a, transpose_a = true, transpose_b = false))?;
    let m = tf!(bias_add(m, b))?;
    Ok((m, tf!(transpose(a))?, tf!(transpose(a, perm = [1, 0]))?))
}

fn reductions(x: &T2) -> rxt_tf::Result<(T1, T2, T1, T2, I1)> {
    Ok((
        tf!(reduce_mean(x, axis = -1))?,
        tf!(reduce_sum(x, axis = 0, keepdims = true))?,
        tf!(reduce_max(x, axis = -2, keepdims = false))?,
        tf!(reduce_min(x, keepdims = true, axis = 1))?,
        tf!(argmax(x, axis = 0, output_type = i64))?,
    ))
}

fn softmaxes(x: &T2, v: &T1) -> rxt_tf::Result<(T2, T2, T1, T1)> {
    Ok((
        tf!(softmax(x))?,
        tf!(log_softmax(x, axis = 0))?,
        tf!(softmax(v, axis = 0))?,
        tf!(log_softmax(v, axis = -1))?,
    ))
}

#[pyo3::pyfunction]
#[rxt_tf::inference]
fn classify(
    x: TensorF32Cpu2D,
    w: TensorF32Cpu2D,
) -> rxt_tf::Result<(TensorF32Cpu2D, TensorI64Cpu1D)> {
    let p = tf!(softmax(tf!(matmul(x, w))?))?;
    let k = tf!(argmax(p, axis = 1))?;
    Ok((p, k))
}

fn main() {
    let _ = (unary, binary, matrix, reductions, softmaxes, classify);
}
