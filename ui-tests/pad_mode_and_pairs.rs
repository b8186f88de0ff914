// pad takes one pair per axis and pads with a constant; mirror_pad mirrors.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _ = tf!(pad(x, [[1, 1], [0]]));
    let _ = tf!(pad(x, [[1, 1], [0, 0]], mode = "REFLECT"));
    tf!(pad(x, [[1, 1]]))
}

fn main() {}
