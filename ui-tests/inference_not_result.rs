use rxt_tf::TensorF32Cpu2D;

#[rxt_tf::inference]
fn f(x: TensorF32Cpu2D) -> TensorF32Cpu2D {
    x
}

fn main() {}
