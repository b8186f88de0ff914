use rxt_tf::{tf, TensorF32Cpu0D, TensorI64Cpu0D};

fn f(x: TensorF32Cpu0D) -> rxt_tf::Result<TensorI64Cpu0D> {
    tf!(argmax(x, axis = 0))
}

fn main() {}
