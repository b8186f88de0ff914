use rxt_tf::{tf, TensorF32Cpu1D as T1, TensorF32Cpu2D as T2};

fn tanh(a: &T2, b: &T1) -> rxt_tf::Result<(T2, T1)> {
    Ok((tf!(tanh(a))?, tf!(tanh(tf!(b + b)?))?))
}

fn main() {
    let _ = tanh;
}
