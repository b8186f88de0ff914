use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D, TensorF32Cpu3D, TensorI32Cpu2D};

/// Axes and permutations as Rust values: their count types the call.
fn f(h: TensorF32Cpu2D, axis: i32) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(reduce_mean(h, axis = axis))
}

fn g(x: TensorF32Cpu3D, a: usize, perm: [u8; 3]) -> rxt_tf::Result<(TensorF32Cpu1D, TensorF32Cpu3D)> {
    let summed: TensorF32Cpu1D = tf!(reduce_sum(x, axis = [a, 2]))?;
    let moved: TensorF32Cpu3D = tf!(transpose(x, perm = [perm[0], perm[1], perm[2]]))?;
    Ok((summed, moved))
}

fn h(x: TensorF32Cpu2D, axis: i64) -> rxt_tf::Result<(TensorF32Cpu2D, TensorF32Cpu3D, TensorI32Cpu2D)> {
    let soft: TensorF32Cpu2D = tf!(softmax(x, axis = axis))?;
    let expanded: TensorF32Cpu3D = tf!(expand_dims(x, axis = axis))?;
    let sorted: TensorI32Cpu2D = tf!(argsort(x, axis = axis))?;
    Ok((soft, expanded, sorted))
}

fn main() {
    let _ = (f, g, h);
}
