// A new axis on a rank-5 tensor would give rank 6: tensors have ranks 0 to 5.
use rxt_tf::{tf, TensorF32Cpu5D};

fn f(x: TensorF32Cpu5D) -> rxt_tf::Result<()> {
    let _ = tf!(expand_dims(x, axis = 0))?;
    Ok(())
}

fn main() {}
