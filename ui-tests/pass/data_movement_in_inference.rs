// The data-movement forms inside `#[inference]` bodies: lists of sizes with
// run-time integers, lists of tensors, `where`, indexing, several outputs.
use pyo3::prelude::*;
use rxt_tf::{tf, TensorF32Cpu2D, TensorF32Cpu3D, TensorF32Cpu4D, TensorI32Cpu2D};

#[pyfunction]
#[rxt_tf::inference]
fn heads(q: TensorF32Cpu3D, heads: usize) -> rxt_tf::Result<TensorF32Cpu4D> {
    let split = tf!(reshape(q, [2, -1, heads, 4]))?;
    tf!(transpose(split, perm = [0, 2, 1, 3]))
}

#[pyfunction]
#[rxt_tf::inference(fuse = false)]
fn mixed(x: TensorF32Cpu2D, ids: TensorI32Cpu2D, i: i64) -> rxt_tf::Result<TensorF32Cpu2D> {
    let mask = tf!(greater(x, 0.0))?;
    let kept = tf!(where(mask, x, 0.0))?;
    let row = tf!(kept[i, :])?;
    let both = tf!(concat([tf!(kept[:, 0])?, row], axis = 0))?;
    let [left, _right] = tf!(split(x, 2, axis = 1))?;
    let codes = tf!(one_hot(ids, 3))?;
    let _ = (both, codes, tf!(zeros([2, 3], f32))?);
    tf!(pad(left, [[0, 0], [1, 0]]))
}

fn main() {
    let _ = (heads, mixed);
}
