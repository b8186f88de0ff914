//! The typed surface of the ops: the traits through which every op call is
//! checked at compile time and run. The build script implements them from
//! the op table (`OUT_DIR/ops.rs`): one marker type per op in
//! [`op`](super::op) with its rule, the element types ([`ElementOf`]) and
//! ranks ([`RankOf`]) it takes at each operand, and the rank arithmetic of
//! the rules. Each rule's [`Signature`] is implemented once, generically, in
//! `ops::rules`. `tf!` expands to one call of the entry point
//! `execute` whose operands are each checked through [`OperandOf`] at their
//! own span.
//!
//! One module per concern: the operands (`operands`), what scalar operands
//! say of their element type (`scalars`), the forms accepted at each
//! position (`forms`), the typed keyword values (`markers`) and what a call
//! gives (`outputs`).

mod forms;
mod markers;
pub(crate) mod operands;
mod outputs;
mod scalars;

pub use forms::*;
pub use markers::*;
pub use operands::*;
pub use outputs::*;
pub use scalars::*;
