// eye's dtype is an element type of rxt-tf.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f() -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(eye(3, dtype = u16))
}

fn main() {}
