// pad takes one pair per axis and pads with a constant or, with a mirror
// mode (the row mirror_pad), mirrors: a constant has no place there.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _ = tf!(pad(x, [[1, 1], [0]]));
    let _ = tf!(pad(x, [[1, 1], [0, 0]], mode = "REFLECT", constant_values = 1.0));
    let _ = tf!(pad(x, [[1, 1], [0, 0]], mode = "WRAP"));
    tf!(pad(x, [[1, 1]]))
}

fn main() {}
