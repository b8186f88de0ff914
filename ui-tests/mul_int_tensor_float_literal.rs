use rxt_tf::{tf, TensorI32Cpu2D};

fn f(ids: TensorI32Cpu2D) -> rxt_tf::Result<TensorI32Cpu2D> {
    tf!(ids * 0.5)
}

fn main() {}
