use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(band_part(x, num_lower = 5000000000, num_upper = 0))
}

fn main() {}
