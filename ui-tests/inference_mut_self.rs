use rxt_tf::{tf, TensorF32Cpu2D};

struct Model {
    w: TensorF32Cpu2D,
}

impl Model {
    #[rxt_tf::inference]
    fn forward(&mut self, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
        tf!(matmul(x, self.w))
    }
}

fn main() {}
