// An index reads at most the tensor's rank; one `...`; a step is not 0.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu1D> {
    let _ = tf!(x[..., 0, ...]);
    let _ = tf!(x[::0]);
    let _ = tf!(x[0.5]);
    tf!(x[:, :, 0])
}

fn main() {}
