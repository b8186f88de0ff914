use rxt_tf::{tf, TensorBoolCpu1D};

fn f(a: TensorBoolCpu1D, b: TensorBoolCpu1D) -> rxt_tf::Result<TensorBoolCpu1D> {
    tf!(a + b)
}

fn main() {}
