// `one_hot`'s `on_value` and `off_value` become constant inputs of their
// own: they stay literals, where `alpha` and the epsilons may be Rust
// floats read when the op runs.
use rxt_tf::{tf, TensorF32Cpu2D, TensorI32Cpu1D};

fn encode(indices: &TensorI32Cpu1D, on: f64) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(one_hot(indices, 4, on_value = on))
}

fn main() {
    let _ = encode;
}
