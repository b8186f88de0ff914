// A new axis on a rank-4 tensor would give rank 5: tensors have ranks 0 to 4.
use rxt_tf::{tf, TensorF32Cpu4D};

fn f(x: TensorF32Cpu4D) -> rxt_tf::Result<()> {
    let _ = tf!(expand_dims(x, axis = 0))?;
    Ok(())
}

fn main() {}
