// Rank 5: the 3-D layers, shapes of five sizes, and rank-4 tensors
// growing an axis.
use rxt_tf::{
    tf, TensorF32Cpu1D as T1, TensorF32Cpu4D as T4, TensorF32Cpu5D as T5,
    TensorF64Cpu5D as D5,
};

fn volume(x: &T5, w: &T5, g: &T1) -> rxt_tf::Result<T5> {
    let y = tf!(conv3d(x, w, strides = [1, 2, 2], padding = "SAME"))?;
    let y = tf!(max_pool3d(tf!(relu(y))?, ksize = 2, strides = 2, padding = "VALID"))?;
    let y = tf!(avg_pool3d(y, ksize = [1, 2, 2], strides = 1, padding = "SAME"))?;
    tf!(y * g)
}

fn groups(x: &T4) -> rxt_tf::Result<(T5, T5, T5)> {
    let grouped = tf!(reshape(x, [-1, 4, 4, 2, 8]))?;
    let mean = tf!(reduce_mean(grouped, axis = [1, 2, 4], keepdims = true))?;
    let stacked = tf!(stack([x, x], axis = 4))?;
    let grown = tf!(expand_dims(x, axis = -1))?;
    Ok((tf!(grouped - mean)?, stacked, grown))
}

fn doubles(x: &D5) -> rxt_tf::Result<D5> {
    let y = tf!(conv3d(x, x, padding = "VALID"))?;
    tf!(transpose(tf!(softmax(y, axis = 1))?, perm = [0, 2, 1, 3, 4]))
}

fn main() {
    let _ = (volume, groups, doubles);
}
