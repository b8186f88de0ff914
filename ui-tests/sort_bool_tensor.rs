// sort takes numbers.
use rxt_tf::{tf, TensorBoolCpu1D};

fn f(m: TensorBoolCpu1D) -> rxt_tf::Result<TensorBoolCpu1D> {
    tf!(sort(m))
}

fn main() {}
