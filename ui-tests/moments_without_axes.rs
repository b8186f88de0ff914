// moments needs its axes.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<(TensorF32Cpu1D, TensorF32Cpu1D)> {
    tf!(moments(x))
}

fn main() {}
