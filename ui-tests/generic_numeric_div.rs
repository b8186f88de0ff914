// `div` of integers is float64, of floats their own type: in code generic
// over every number type its result has no one type.
use rxt_tf::{tf, Numeric, Tensor};

fn f<T: Numeric>(a: &Tensor<T, 2>, b: &Tensor<T, 2>) -> rxt_tf::Result<Tensor<T, 2>> {
    tf!(a / b)
}

fn main() {}
