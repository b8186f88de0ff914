//! Windows wider than their input: with `padding = "VALID"`, a
//! convolution's dilated filter or a pool's window wider than a non-empty
//! spatial axis has no output along it. TensorFlow 2.21's oneDNN kernels
//! (which eager and rxt-tf both run) return such a `Conv2D` or
//! `DepthwiseConv2dNative` as a tensor of the wrong size holding
//! uninitialized memory, and `MaxPool` may abort the process (`AvgPool`
//! gives the right, empty, result); rxt-tf refuses these inputs to those
//! three before running anything, with the `InvalidArgumentError`
//! TensorFlow's own size check gives. The 3-D kernels (`Conv3D`,
//! `MaxPool3D`, `AvgPool3D`) give the right, empty, result there (measured
//! on 270 such windows, and drawn by the fuzz): not refused.

use rxt_tf_spec::{Op, Rule, Value};

use crate::eager::sizes::Sizes;
use crate::error::{Error, Result};

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

/// The window of a 2-D convolution or pool on an exact NHWC input.
struct Window {
    input: Sizes,
    /// Height and width of the window, dilated.
    effective: (i64, i64),
    strides: (i64, i64),
    /// The output's channels.
    channels: i64,
}

impl Window {
    /// The window of `row` on operands of `sizes` (the filters' first two
    /// sizes, dilated, or `ksize`); `None` if `row` is neither a 2-D
    /// convolution nor a pool, or a size is not known exactly.
    fn of(row: &Op, keywords: &[Value], sizes: &[Sizes]) -> Option<Window> {
        let input = *sizes
            .first()
            .filter(|input| input.exact && input.rank() == 4)?;
        let (kernel, dilation, channels) = match row.rule {
            Rule::Conv { rank: 4 } => {
                let filter = sizes
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
        let effective = |size: i64, dilation: i64| (size - 1).saturating_mul(dilation) + 1;
        Some(Window {
            input,
            effective: (
                effective(kernel.0, dilation.0),
                effective(kernel.1, dilation.1),
            ),
            strides: spatial(keyword(row, keywords, "strides")).unwrap_or((1, 1)),
            channels,
        })
    }

    /// (effective size, stride, input axis) along height and width.
    fn axes(&self) -> [(i64, i64, usize); 2] {
        [
            (self.effective.0, self.strides.0, 1),
            (self.effective.1, self.strides.1, 2),
        ]
    }
}

/// Refuses a window wider than a non-empty spatial axis of the input (see
/// the module), where the input's sizes are known exactly.
pub(crate) fn check(row: &Op, keywords: &[Value], sizes: &[Sizes]) -> Result<()> {
    // The kernels at fault (`AvgPool` gives the right, empty, result).
    let faulty = [
        c"Conv2D".to_bytes(),
        c"DepthwiseConv2dNative".to_bytes(),
        c"MaxPool".to_bytes(),
    ];
    if !faulty.contains(&row.tf_op.to_bytes())
        || keyword(row, keywords, "padding") != Some(&Value::Str("VALID"))
    {
        return Ok(());
    }
    let Some(window) = Window::of(row, keywords, sizes) else {
        return Ok(());
    };
    for (effective, stride, axis) in window.axes() {
        let size = window.input.size(axis);
        if size > 0 && effective > size && stride > 0 {
            return Err(Error::Op {
                op: row.name,
                code: crate::error::code::INVALID_ARGUMENT,
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

/// The exact sizes of a 2-D convolution's or pool's output on operands of
/// exact `sizes`, or `None`.
pub(crate) fn output(row: &Op, keywords: &[Value], sizes: &[Sizes]) -> Option<Sizes> {
    let window = Window::of(row, keywords, sizes)?;
    let padding = keyword(row, keywords, "padding")?;
    let mut sizes = [window.input.size(0), 0, 0, window.channels];
    for (effective, stride, axis) in window.axes() {
        let size = window.input.size(axis);
        if stride <= 0 {
            return None;
        }
        sizes[axis] = match padding {
            Value::Str("SAME") => (size + stride - 1) / stride,
            Value::Str("VALID") => {
                Some((size - effective + stride) / stride).filter(|n| *n >= 0)?
            }
            _ => return None,
        };
    }
    Some(Sizes::exact(&sizes))
}
