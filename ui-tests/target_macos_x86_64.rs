use rxt_tf::{tf, TensorF32Cpu2D};

// The target is injected (a proc macro cannot see the real target, and this
// host cannot build for it); the message comes from the platform table.
#[rxt_tf::inference(__target = "x86_64-apple-darwin")]
fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(x))
}

fn main() {}
