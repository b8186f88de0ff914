//! What an op call gives: one tensor, an array of tensors or a pair, each
//! wrapped from the untyped results the runtime computed.

use rxt_tf_spec::{Op, TensorKind, Value};

use crate::error::Result;
use crate::ops::record_or_run::{run_row, run_row_given, run_row_many, Operand};
use crate::tensor::{Element, Rank, SupportedRank, Tensor, TensorType, Untyped};

/// What an op call gives: one tensor (most ops), an array of tensors
/// (`split`, `unstack`) or a pair (`top_k`).
pub trait Outputs: Sized {
    /// Runs `row` on `inputs` with `keywords` and wraps what it gives.
    fn run(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<Self>;

    /// [`Outputs::run`], the keywords in `runtime` (bit `i` for keyword
    /// `i`) given at run time: inputs of a fused trace, not part of its
    /// key. Ops of several outputs run at once (no trace): as `run`.
    fn run_given(
        row: &'static Op,
        inputs: &[Operand<'_>],
        keywords: &[Value],
        runtime: u32,
    ) -> Result<Self> {
        let _ = runtime;
        Self::run(row, inputs, keywords)
    }

    /// Wraps tensors already computed as `row`'s result (the last step of a
    /// composite op): as many as the result holds, of its kinds.
    fn from_cores(row: &'static Op, cores: Vec<Untyped>) -> Result<Self>;

    /// The kinds of its tensors.
    fn kinds() -> Vec<TensorKind>;
}

impl<T: Element, const R: usize> Outputs for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    fn run(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<Self> {
        run_row(row, inputs, keywords, <Self as TensorType>::KIND).map(TensorType::from_core)
    }

    fn run_given(
        row: &'static Op,
        inputs: &[Operand<'_>],
        keywords: &[Value],
        runtime: u32,
    ) -> Result<Self> {
        let kind = <Self as TensorType>::KIND;
        run_row_given(row, inputs, keywords, kind, runtime).map(TensorType::from_core)
    }

    fn from_cores(row: &'static Op, cores: Vec<Untyped>) -> Result<Self> {
        match <[Untyped; 1]>::try_from(cores) {
            Ok([core]) => Ok(TensorType::from_core(core)),
            Err(_) => Err(crate::eager::malformed(row)),
        }
    }

    fn kinds() -> Vec<TensorKind> {
        vec![<Self as TensorType>::KIND]
    }
}

impl<X: TensorType, const N: usize> Outputs for [X; N] {
    fn run(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<Self> {
        let kinds = [X::KIND; N];
        Self::from_cores(row, run_row_many(row, inputs, keywords, &kinds)?)
    }

    fn from_cores(row: &'static Op, cores: Vec<Untyped>) -> Result<Self> {
        let tensors: Vec<X> = cores.into_iter().map(TensorType::from_core).collect();
        tensors.try_into().map_err(|_| crate::eager::malformed(row))
    }

    fn kinds() -> Vec<TensorKind> {
        vec![X::KIND; N]
    }
}

impl<A: TensorType, B: TensorType> Outputs for (A, B) {
    fn run(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<Self> {
        let kinds = [A::KIND, B::KIND];
        Self::from_cores(row, run_row_many(row, inputs, keywords, &kinds)?)
    }

    fn from_cores(row: &'static Op, cores: Vec<Untyped>) -> Result<Self> {
        match <[Untyped; 2]>::try_from(cores) {
            Ok([a, b]) => Ok((TensorType::from_core(a), TensorType::from_core(b))),
            Err(_) => Err(crate::eager::malformed(row)),
        }
    }

    fn kinds() -> Vec<TensorKind> {
        vec![A::KIND, B::KIND]
    }
}
