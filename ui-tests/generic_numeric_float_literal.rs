// A float literal does not convert to every number type (integers raise in
// TensorFlow): code generic over `Numeric` takes integer literals only.
use rxt_tf::{tf, Numeric, Tensor};

fn f<T: Numeric>(x: &Tensor<T, 2>) -> rxt_tf::Result<Tensor<T, 2>> {
    tf!(x * 0.5)
}

fn main() {}
