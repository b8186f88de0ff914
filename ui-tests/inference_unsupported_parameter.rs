use rxt_tf::{tf, TensorF32Cpu2D};

#[rxt_tf::inference]
fn f(x: TensorF32Cpu2D, name: String) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _ = name;
    tf!(relu(x))
}

fn main() {}
