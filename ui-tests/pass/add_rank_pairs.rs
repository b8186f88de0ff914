use rxt_tf::{tf, TensorF32Cpu1D as T1, TensorF32Cpu2D as T2};

fn plus(a: &T2, b: &T2, c: &T1, d: &T1) -> rxt_tf::Result<(T2, T1, T2, T2)> {
    Ok((tf!(a + b)?, tf!(c + d)?, tf!(a + c)?, tf!(c + a)?))
}

fn call(a: &T2, b: &T2, c: &T1, d: &T1) -> rxt_tf::Result<(T2, T1, T2, T2)> {
    Ok((tf!(add(a, b))?, tf!(add(c, d))?, tf!(add(a, c))?, tf!(add(c, a))?))
}

fn main() {
    let _ = (plus, call);
}
