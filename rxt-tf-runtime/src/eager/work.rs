//! The work an op asks of TensorFlow, estimated from its operands' sizes, in
//! the units of [`RELEASE_WORK`](crate::gil::RELEASE_WORK):
//! multiply-adds for a matmul, elements for the others. The per-op path and
//! fused calls (which add up their ops') use the same estimate.

use rxt_tf_spec::{Op, Rule, TensorKind, Value, Work, MAX_RANK};

use super::sizes::Sizes;

/// Whether `row`'s boolean keyword `name` is `true` in `keywords`.
fn flag(row: &Op, keywords: &[Value], name: &str) -> bool {
    let index = row.keywords.iter().position(|k| k.name == name);
    matches!(index.and_then(|i| keywords.get(i)), Some(Value::Bool(true)))
}

/// The work of `row` on operands of `sizes` (in the row's input order).
pub(crate) fn estimate(row: &Op, keywords: &[Value], sizes: &[Sizes]) -> i64 {
    let first = sizes.first().copied().unwrap_or_default();
    let second = sizes.get(1).copied().unwrap_or_default();
    match row.work {
        // Multiply-adds: elements of `a` × columns of the product.
        Work::MatMul => first
            .elements()
            .saturating_mul(second.size_from_end(usize::from(flag(row, keywords, "transpose_b")))),
        Work::FirstInput => first.elements(),
        Work::LargerInput => sizes.iter().map(Sizes::elements).max().unwrap_or(0),
    }
}

/// The sizes of `row`'s output (of `kind`) on operands of `sizes`, estimated
/// (a reduction keeps its input's sizes): what a fused call's later ops are
/// estimated on.
pub(crate) fn output_sizes(
    row: &Op,
    keywords: &[Value],
    kind: TensorKind,
    sizes: &[Sizes],
) -> Sizes {
    let first = sizes.first().copied().unwrap_or_default();
    let second = sizes.get(1).copied().unwrap_or_default();
    if let Some(exact) = crate::eager::window::output(row, keywords, sizes) {
        return exact;
    }
    if let (Rule::ExpandDims, true, Some(Value::Int(axis))) =
        (row.rule, first.exact, keywords.first())
    {
        // One axis of size 1 inserted at `axis` (counted from the end when
        // negative, as in the result).
        let rank = i64::try_from(first.rank).unwrap_or(0);
        let at = if *axis < 0 { axis + rank + 1 } else { *axis };
        if let Ok(at) = usize::try_from(at) {
            if at <= first.rank && first.rank < MAX_RANK as usize {
                let mut sizes: Vec<i64> = first.sizes[..first.rank].to_vec();
                sizes.insert(at, 1);
                return Sizes::exact(&sizes);
            }
        }
    }
    let mut output = estimated_output(row, keywords, kind, &first, &second, sizes);
    // Exact where the rule keeps the operands' sizes and they are exact:
    // element-wise ops, broadcasts and bias additions.
    output.exact = sizes.iter().all(|sizes| sizes.exact)
        && match row.rule {
            Rule::SameRank { .. } | Rule::BiasAdd => usize::from(kind.rank) == first.rank,
            Rule::Broadcast => usize::from(kind.rank) == output.rank,
            _ => false,
        };
    output
}

/// [`output_sizes`]' estimate, by the work kind.
fn estimated_output(
    row: &Op,
    keywords: &[Value],
    kind: TensorKind,
    first: &Sizes,
    second: &Sizes,
    sizes: &[Sizes],
) -> Sizes {
    let (first, second) = (*first, *second);
    match row.work {
        Work::MatMul => {
            let mut output = broadcast(&first, &second);
            let rank = output.rank;
            if rank >= 2 {
                output.sizes[rank - 2] =
                    first.size_from_end(usize::from(!flag(row, keywords, "transpose_a")));
                output.sizes[rank - 1] =
                    second.size_from_end(usize::from(flag(row, keywords, "transpose_b")));
            }
            output
        }
        Work::FirstInput => Sizes {
            rank: usize::from(kind.rank).min(first.rank),
            sizes: first.sizes,
            exact: false,
        },
        Work::LargerInput => sizes
            .iter()
            .skip(1)
            .fold(first, |shape, next| broadcast(&shape, next)),
    }
}

/// The sizes of `first` and `second` broadcast (aligned from the last).
fn broadcast(first: &Sizes, second: &Sizes) -> Sizes {
    let rank = first.rank.max(second.rank);
    let mut output = Sizes {
        rank,
        sizes: [1; MAX_RANK as usize],
        exact: false,
    };
    for index in 0..rank {
        let from_end = rank - 1 - index;
        output.sizes[index] = first
            .size_from_end(from_end)
            .max(second.size_from_end(from_end));
    }
    output
}
