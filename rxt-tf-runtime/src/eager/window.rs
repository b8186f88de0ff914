//! Windows wider than their input: with `padding = "VALID"`, a
//! convolution's dilated filter or a pool's window wider than a non-empty
//! spatial axis has no output along it. TensorFlow 2.21's oneDNN kernels
//! (which eager and rxt-tf both run) return such a `Conv2D` or
//! `DepthwiseConv2dNative` as a tensor of the wrong size holding
//! uninitialized memory, and `MaxPool` may abort the process (`AvgPool`
//! gives the right, empty, result); rxt-tf refuses these inputs to those
//! three before running anything, with the `InvalidArgumentError`
//! TensorFlow's own size check gives.

use rxt_tf_spec::{Op, Rule, Value};

use crate::eager::work::Dims;
use crate::error::{Error, Result};

/// `INVALID_ARGUMENT`.
const INVALID_ARGUMENT: i32 = 3;

/// A spatial keyword's (height, width): one size for both, a pair, or the
/// NHWC list `[1, h, w, 1]`.
fn spatial(value: Option<&Value>) -> Option<(i64, i64)> {
    match value? {
        Value::Int(size) => Some((*size, *size)),
        Value::Ints([height, width]) | Value::Ints([1, height, width, 1]) => {
            Some((*height, *width))
        }
        _ => None,
    }
}

/// `row`'s keyword `name` in `keywords` (one value per row keyword).
fn keyword<'v>(row: &Op, keywords: &'v [Value], name: &str) -> Option<&'v Value> {
    let index = row.keywords.iter().position(|k| k.name == name)?;
    keywords.get(index)
}

/// The (height, width) of the window of a 2-D convolution or pool `row` on
/// operands of `dims` (the filters' first two sizes, or `ksize`), dilated,
/// with the strides; `None` if `row` is neither, its padding is not
/// `VALID`, or a size is not known exactly.
fn windows(row: &Op, keywords: &[Value], dims: &[Dims]) -> Option<[(i64, i64, usize); 2]> {
    // The kernels at fault (`AvgPool` gives the right, empty, result).
    let faulty = [
        c"Conv2D".to_bytes(),
        c"DepthwiseConv2dNative".to_bytes(),
        c"MaxPool".to_bytes(),
    ];
    if !faulty.contains(&row.tf_op.to_bytes())
        || keyword(row, keywords, "padding") != Some(&Value::Str("VALID"))
    {
        return None;
    }
    let (kernel, dilation) = match row.rule {
        Rule::Conv { rank: 4 } => {
            let filter = dims
                .get(1)
                .filter(|filter| filter.exact && filter.rank() == 4)?;
            let dilation = match keyword(row, keywords, "dilations") {
                Some(value) => spatial(Some(value))?,
                None => (1, 1),
            };
            ((filter.size(0), filter.size(1)), dilation)
        }
        Rule::Pool { rank: 4 } => (spatial(keyword(row, keywords, "ksize"))?, (1, 1)),
        _ => return None,
    };
    let strides = spatial(keyword(row, keywords, "strides")).unwrap_or((1, 1));
    let effective = |size: i64, dilation: i64| (size - 1).saturating_mul(dilation) + 1;
    Some([
        (effective(kernel.0, dilation.0), strides.0, 1),
        (effective(kernel.1, dilation.1), strides.1, 2),
    ])
}

/// Refuses a window wider than a non-empty spatial axis of the input (see
/// the module), where the input's sizes are known exactly.
pub(crate) fn check(row: &Op, keywords: &[Value], dims: &[Dims]) -> Result<()> {
    let Some(input) = dims
        .first()
        .filter(|input| input.exact && input.rank() == 4)
    else {
        return Ok(());
    };
    let Some(windows) = windows(row, keywords, dims) else {
        return Ok(());
    };
    for (effective, stride, axis) in windows {
        let size = input.size(axis);
        if size > 0 && effective > size && stride > 0 {
            return Err(Error::Op {
                op: row.name,
                code: INVALID_ARGUMENT,
                message: format!(
                    "Computed output size would be {}: {} [input_size: {size}, \
                     effective_filter_size: {effective}, stride: {stride}]; rxt-tf refuses a \
                     VALID window wider than its input, which TensorFlow 2.21's oneDNN kernels \
                     compute wrongly",
                    if size - effective + stride < 0 {
                        "negative"
                    } else {
                        "empty"
                    },
                    (size - effective + stride) / stride
                ),
            });
        }
    }
    Ok(())
}

/// The exact dims of a 2-D convolution's or pool's output on operands of
/// exact `dims`, or `None`.
pub(crate) fn output(row: &Op, keywords: &[Value], dims: &[Dims]) -> Option<Dims> {
    let input = dims
        .first()
        .filter(|input| input.exact && input.rank() == 4)?;
    let padding = keyword(row, keywords, "padding")?;
    let strides = spatial(keyword(row, keywords, "strides")).unwrap_or((1, 1));
    let (kernel, dilation, channels) = match row.rule {
        Rule::Conv { rank: 4 } => {
            let filter = dims
                .get(1)
                .filter(|filter| filter.exact && filter.rank() == 4)?;
            let dilation = match keyword(row, keywords, "dilations") {
                Some(value) => spatial(Some(value))?,
                None => (1, 1),
            };
            let channels = match row.tf_op.to_bytes() {
                b"DepthwiseConv2dNative" => filter.size(2).saturating_mul(filter.size(3)),
                _ => filter.size(3),
            };
            ((filter.size(0), filter.size(1)), dilation, channels)
        }
        Rule::Pool { rank: 4 } => (
            spatial(keyword(row, keywords, "ksize"))?,
            (1, 1),
            input.size(3),
        ),
        _ => return None,
    };
    let along = |size: i64, kernel: i64, dilation: i64, stride: i64| -> Option<i64> {
        if stride <= 0 {
            return None;
        }
        let effective = (kernel - 1).saturating_mul(dilation) + 1;
        let valid = (size - effective + stride) / stride;
        match padding {
            Value::Str("SAME") => Some((size + stride - 1) / stride),
            Value::Str("VALID") => (valid >= 0).then_some(valid),
            _ => None,
        }
    };
    let height = along(input.size(1), kernel.0, dilation.0, strides.0)?;
    let width = along(input.size(2), kernel.1, dilation.1, strides.1)?;
    Some(Dims::exact(&[input.size(0), height, width, channels]))
}
