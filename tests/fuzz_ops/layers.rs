//! Drawing the operands and keywords of the layers: convolutions, pools and
//! `batch_normalization`.

use rxt_tf::__private::DType;
use rxt_tf::{bf16, f16};

use crate::cases::{Keywords, Operand, Values};
use crate::common::Rng;
use crate::draw::{broadcast_from, dim, input, shape};
use crate::table::Family;

/// Sizes along the spatial axes of an image: one (for both axes, or the
/// one axis of a sequence) or a pair.
pub(crate) const SPATIAL: &[&[i64]] = &[
    &[1],
    &[2],
    &[3],
    &[1, 1],
    &[1, 2],
    &[1, 3],
    &[2, 1],
    &[2, 2],
    &[2, 3],
    &[3, 1],
    &[3, 2],
    &[3, 3],
];

/// Sizes along the three spatial axes of a volume: one (for all three) or
/// a triple.
pub(crate) const VOLUME: &[&[i64]] = &[
    &[1],
    &[2],
    &[3],
    &[1, 1, 1],
    &[1, 1, 2],
    &[1, 2, 3],
    &[2, 1, 1],
    &[2, 2, 2],
    &[2, 3, 1],
    &[3, 1, 2],
    &[3, 3, 3],
];

/// Sizes of 1 to `most` along `axes` spatial axes (1, 2 or 3): one
/// (always, for a sequence), or one per axis.
pub(crate) fn spatial(rng: &mut Rng, most: i64, axes: usize) -> &'static [i64] {
    let table = if axes == 3 { VOLUME } else { SPATIAL };
    let sizes: Vec<&'static [i64]> = table
        .iter()
        .copied()
        .filter(|sizes| sizes.iter().all(|&size| size <= most))
        .filter(|sizes| axes > 1 || sizes.len() == 1)
        .collect();
    rng.pick(&sizes)
}

/// A spatial dimension of an image: 0 now and then, else 1–5.
pub(crate) fn spatial_dim(rng: &mut Rng) -> usize {
    match rng.below(100) {
        0..=4 => 0,
        5..=19 => 1,
        _ => rng.within(2, 5),
    }
}

/// An NHWC image, an NWC sequence or an NDHWC volume (`axes` spatial
/// axes): a batch and channels of 0–4 and spatial dimensions of 0–5.
pub(crate) fn image(rng: &mut Rng, axes: usize) -> Vec<usize> {
    let mut shape = vec![dim(rng)];
    shape.extend((0..axes).map(|_| spatial_dim(rng)));
    shape.push(dim(rng));
    shape
}

/// `"SAME"` or `"VALID"`.
pub(crate) fn padding(rng: &mut Rng) -> &'static str {
    rng.pick(&["SAME", "VALID"])
}

/// The size along spatial axis `axis` (from 0) of `sizes`, one for every
/// axis or one per axis.
pub(crate) fn along(sizes: &[i64], axis: usize) -> i64 {
    sizes[axis.min(sizes.len() - 1)]
}

/// Whether a `"VALID"` window (or dilated filter) of `size` with `stride`
/// along an axis of `length` elements is oneDNN's quirk: wider than the
/// axis, which is not empty, and leaving no output (not a negative size,
/// which raises): TensorFlow's oneDNN `Conv2D` and `DepthwiseConv2dNative`
/// then give an output of the wrong size, its elements never written, and
/// its `MaxPool` raises AbortedError or dies of SIGFPE (its `AvgPool` and
/// TensorFlow's own kernels give the empty output).
pub(crate) fn onednn_empty_window(length: usize, size: i64, stride: i64) -> bool {
    let length = length as i64;
    length > 0 && size > length && length - size + stride > -stride
}

/// `padding`, or `"SAME"` for a `"VALID"` one leaving oneDNN's quirk (see
/// [`onednn_empty_window`]) along an axis of `x` (NHWC or NWC) for
/// windows of `sizes` (or dilated filters) and `strides`.
pub(crate) fn avoid_onednn_empty_windows(
    padding: &'static str,
    x: &[usize],
    sizes: &[i64],
    strides: &[i64],
) -> &'static str {
    let axes = x.len() - 2;
    let quirk = (0..axes)
        .any(|axis| onednn_empty_window(x[1 + axis], along(sizes, axis), along(strides, axis)));
    if padding == "VALID" && quirk {
        "SAME"
    } else {
        padding
    }
}

/// An image and filters of kernel sizes 1–3 (the filters' input depth the
/// image's channels, now and then not: raises, but for a divisor of them,
/// a grouped convolution), strides 1–3 (alike along every axis over a
/// one-channel image) and dilations 1–2, or for
/// `depthwise_conv2d` strides mostly alike along both axes (TensorFlow's
/// own kernel takes no others; oneDNN's does) and no dilations, nor for
/// `conv3d` (TensorFlow's CPU `Conv3D` takes none). No `"VALID"` filter
/// leaving oneDNN's quirk (see [`onednn_empty_window`]): `"SAME"` instead.
pub(crate) fn conv_operands(
    rng: &mut Rng,
    family: Family,
    dtype: DType,
) -> (Vec<Operand>, Keywords) {
    let axes = match family {
        Family::Conv1d => 1,
        Family::Conv3d => 3,
        _ => 2,
    };
    let x = image(rng, axes);
    let channels = x[x.len() - 1];
    let depth = if rng.chance(10) {
        rng.pick(&[channels + 1, channels * 2 + 1, channels / 2, 0])
    } else {
        channels
    };
    let kernel: Vec<i64> = (0..axes).map(|_| rng.within(1, 3) as i64).collect();
    let strides: &'static [i64] = if rng.chance(40) {
        match (axes, rng.chance(50)) {
            (1, _) | (_, true) => &[1],
            (2, false) => &[1, 1],
            _ => &[1, 1, 1],
        }
    } else if family == Family::DepthwiseConv2d && rng.chance(80) {
        const ALIKE: &[&[i64]] = &[&[2], &[3], &[2, 2], &[3, 3]];
        rng.pick(ALIKE)
    } else {
        spatial(rng, 3, axes)
    };
    // oneDNN's filters over a one-channel image with stride 1 along an axis
    // and more along a later one compute wrong values from memory they do
    // not own, unlike from one run to the next (measured on a CPU with
    // AVX512-FP16 and AMX, f32 and bf16, `Conv2D`, `Conv3D` and
    // `DepthwiseConv2dNative`): eager's own result varies, so nothing can be
    // compared. One stride along every axis instead.
    let strides = if channels == 1 && strides.iter().any(|&s| s != strides[0]) {
        &strides[..1]
    } else {
        strides
    };
    let undilated = matches!(family, Family::DepthwiseConv2d | Family::Conv3d);
    let dilations: &'static [i64] = if undilated || rng.chance(50) {
        &[1]
    } else {
        spatial(rng, 2, axes)
    };
    let dilated: Vec<i64> = (0..axes)
        .map(|axis| (kernel[axis] - 1) * along(dilations, axis) + 1)
        .collect();
    // `Conv3D` gives the empty output there on some CPUs and unwritten
    // elements on others (measured on one with AVX512-FP16 and AMX):
    // avoided as for the 1-D and 2-D filters.
    let padding = avoid_onednn_empty_windows(padding(rng), &x, &dilated, strides);
    let mut filters: Vec<usize> = kernel.iter().map(|&k| k as usize).collect();
    filters.extend([depth, dim(rng)]);
    let operands = vec![
        Operand::Tensor(input(rng, dtype, x)),
        Operand::Tensor(input(rng, dtype, filters)),
    ];
    let keywords = Keywords::Spatial {
        ksize: &[],
        strides,
        padding,
        dilations,
    };
    (operands, keywords)
}

/// An image and windows of sizes 1–3 and strides 1–3 (windows wider than
/// the image raise with `"VALID"`, or give an empty result); for the max
/// pools no `"VALID"` window leaving oneDNN's quirk (see
/// [`onednn_empty_window`]): `"SAME"` instead.
pub(crate) fn pool_operands(
    rng: &mut Rng,
    axes: usize,
    max: bool,
    dtype: DType,
) -> (Vec<Operand>, Keywords) {
    let x = image(rng, axes);
    let (ksize, strides) = (spatial(rng, 3, axes), spatial(rng, 3, axes));
    let mut padding = padding(rng);
    // `MaxPool3D` gives the empty output there on some CPUs and dies of
    // SIGFPE on others (measured on one with AVX512-FP16 and AMX): avoided
    // as for the 1-D and 2-D pools.
    if max {
        padding = avoid_onednn_empty_windows(padding, &x, ksize, strides);
    }
    let keywords = Keywords::Spatial {
        ksize,
        strides,
        padding,
        dilations: &[],
    };
    (vec![Operand::Tensor(input(rng, dtype, x))], keywords)
}

/// A tensor of rank `rank` and its mean, variance, offset and scale: the
/// mean and the variance of one rank, the offset and the scale of one rank,
/// each at most `rank`, their shapes broadcasting into the tensor's (now
/// and then not: raises, or broadcasting it wider); a variance that is not
/// negative mostly; `variance_epsilon` 0, 1e-12, 1e-5, 1e-3, 0.5 or 3.
pub(crate) fn batch_norm_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
) -> (Vec<Operand>, Keywords) {
    let x = shape(rng, rank);
    let (m, o) = (rng.within(0, rank), rng.within(0, rank));
    let mut shapes = [m, m, o, o].map(|rank| broadcast_from(rng, &x, rank));
    if rng.chance(8) {
        let stat = &mut shapes[rng.below(4)];
        if !stat.is_empty() {
            let i = rng.below(stat.len());
            stat[i] = stat[i] % 4 + 1;
        }
    }
    let mut operands = vec![Operand::Tensor(input(rng, dtype, x))];
    operands.extend(shapes.map(|shape| Operand::Tensor(input(rng, dtype, shape))));
    if rng.chance(85) {
        if let Operand::Tensor(variance) = &mut operands[2] {
            match &mut variance.values {
                Values::F32(v) => v.iter_mut().for_each(|x| *x = x.abs()),
                Values::F64(v) => v.iter_mut().for_each(|x| *x = x.abs()),
                Values::BF16(v) => v
                    .iter_mut()
                    .for_each(|x| *x = bf16::from_f32(x.to_f32().abs())),
                Values::F16(v) => v
                    .iter_mut()
                    .for_each(|x| *x = f16::from_f32(x.to_f32().abs())),
                _ => unreachable!("a float variance"),
            }
        }
    }
    let epsilon = rng.pick(&[1e-3, 1e-5, 0.0, 1e-12, 0.5, 3.0]);
    (operands, Keywords::VarianceEpsilon(epsilon))
}

/// An NHWC image and four statistics of its channels (scale, offset, mean,
/// variance; the variance mostly not negative), now and then one of another
/// length (raises), and an `epsilon`.
pub(crate) fn fused_batch_norm_operands(rng: &mut Rng, dtype: DType) -> (Vec<Operand>, Keywords) {
    let x = shape(rng, 4);
    let channels = x[3];
    let mut lengths = [channels; 4];
    if rng.chance(8) {
        lengths[rng.below(4)] = channels + 1;
    }
    let mut operands = vec![Operand::Tensor(input(rng, dtype, x))];
    operands.extend(lengths.map(|length| Operand::Tensor(input(rng, dtype, vec![length]))));
    if rng.chance(85) {
        if let Operand::Tensor(variance) = &mut operands[4] {
            if let Values::F32(v) = &mut variance.values {
                v.iter_mut().for_each(|x| *x = x.abs());
            }
        }
    }
    let epsilon = rng.pick(&[1e-3, 1e-5, 0.0, 0.5, 3.0]);
    (operands, Keywords::InferenceEpsilon(epsilon))
}
