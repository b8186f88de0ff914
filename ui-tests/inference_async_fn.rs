use rxt_tf::{tf, TensorF32Cpu2D};

#[rxt_tf::inference]
async fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(x))
}

fn main() {}
