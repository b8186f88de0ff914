use rxt_tf::{tf, TensorF32Cpu2D};

#[rxt_tf::inference]
fn f<T>(x: TensorF32Cpu2D, _marker: T) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(x))
}

fn main() {}
