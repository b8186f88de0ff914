//! The eager side.

use std::ffi::CString;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::IntoPyObjectExt;
use rxt_tf::__private::DType;

use crate::cases::{Case, Keywords, Operand};
use crate::table::Family;

/// The NumPy scalar type of `dtype`.
pub(crate) fn numpy_type(dtype: DType) -> &'static str {
    match dtype {
        DType::F32 => "np.float32",
        DType::F64 => "np.float64",
        DType::BF16 => "tf.bfloat16.as_numpy_dtype",
        DType::F16 => "np.float16",
        DType::I32 => "np.int32",
        DType::I64 => "np.int64",
        DType::Bool => "np.bool_",
    }
}

pub(crate) fn python_bool(flag: bool) -> &'static str {
    if flag {
        "True"
    } else {
        "False"
    }
}

/// The eager expression of `case`, and the names it uses: the case's
/// tensors (`tensors`, in order, those of a list too) and scalars.
pub(crate) fn eager_call<'py>(
    py: Python<'py>,
    case: &Case,
    tensors: Vec<Bound<'py, PyAny>>,
) -> (String, Vec<(&'static str, Bound<'py, PyAny>)>) {
    let mut tensors = tensors.into_iter();
    let names: &[&str] = if case.operands.len() == 1 {
        &["x"]
    } else {
        &["a", "b", "c", "d", "e"]
    };
    let mut bound = Vec::new();
    let mut args = Vec::new();
    for (operand, &name) in case.operands.iter().zip(names) {
        let text = match operand {
            Operand::Tensor(_) => {
                bound.push((name, tensors.next().expect("a tensor")));
                name.to_owned()
            }
            Operand::Scalar(input) => {
                bound.push((name, input.python_scalar(py)));
                format!("{}({name})", numpy_type(input.dtype()))
            }
            Operand::Int(v) => {
                bound.push((name, v.into_bound_py_any(py).expect("an int")));
                name.to_owned()
            }
            Operand::Float(v) => {
                bound.push((name, v.into_bound_py_any(py).expect("a float")));
                name.to_owned()
            }
            Operand::List(inputs) => {
                const ITEMS: [&str; 8] = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"];
                let items = &ITEMS[..inputs.len()];
                for &item in items {
                    bound.push((item, tensors.next().expect("a tensor of the list")));
                }
                format!("[{}]", items.join(", "))
            }
            // An empty Python list converts to float32, which no index list
            // of `tf.strided_slice` takes: a NumPy array of rxt-tf's int64.
            Operand::Dims(dims) if case.op.family == Family::Index => {
                format!("np.array({dims:?}, np.int64)")
            }
            Operand::Dims(dims) => format!("{dims:?}"),
            Operand::Pairs(pairs) => format!("{pairs:?}"),
            Operand::Size(size) => size.to_string(),
        };
        args.push(text);
    }
    let args = args.join(", ");
    let f = case.op.python;
    let code = match &case.keywords {
        Keywords::None if f.len() == 1 => args.replace(", ", &format!(" {f} ")),
        Keywords::None => format!("{f}({args})"),
        Keywords::Alpha(alpha) => format!("{f}({args}, alpha={alpha:?})"),
        Keywords::Approximate(approximate) => {
            format!("{f}({args}, approximate={})", python_bool(*approximate))
        }
        Keywords::Transpose(ta, tb) => format!(
            "{f}({args}, transpose_a={}, transpose_b={})",
            python_bool(*ta),
            python_bool(*tb)
        ),
        Keywords::Axes(axes, keepdims) if case.op.family == Family::Reduce => {
            format!(
                "{f}({args}, axis={axes:?}, keepdims={})",
                python_bool(*keepdims)
            )
        }
        // `tf.nn.moments`' tuple, as rxt-tf's pair.
        Keywords::Axes(axes, keepdims) if case.op.family == Family::Moments => {
            format!(
                "list({f}({args}, axes={axes:?}, keepdims={}))",
                python_bool(*keepdims)
            )
        }
        Keywords::Axes(axes, _) => format!("{f}({args}, axis={axes:?})"),
        // One axis as an integer, several as a list.
        Keywords::Epsilon(axes, epsilon) => match axes.as_slice() {
            [axis] => format!("{f}({args}, axis={axis}, epsilon={epsilon:?})"),
            axes => format!("{f}({args}, axis={axes:?}, epsilon={epsilon:?})"),
        },
        Keywords::Axis(axis) if case.op.family == Family::ExpandDims => {
            format!("{f}({args}, {axis})")
        }
        Keywords::Axis(axis) => format!("{f}({args}, axis={axis})"),
        Keywords::Cumsum(axis, exclusive, reverse) => format!(
            "{f}({args}, axis={axis}, exclusive={}, reverse={})",
            python_bool(*exclusive),
            python_bool(*reverse)
        ),
        Keywords::Index(axis, index) => {
            format!("{f}({args}, axis={axis}, output_type=tf.{})", index.name())
        }
        Keywords::Perm(_, true) => format!("{f}({args})"),
        Keywords::Perm(perm, false) => format!("{f}({args}, perm={perm:?})"),
        Keywords::To(to) if case.op.family == Family::Shape => {
            format!("{f}({args}, out_type=tf.{})", to.name())
        }
        Keywords::To(to) if case.op.family == Family::Eye => {
            format!("{f}({args}, dtype=tf.{})", to.name())
        }
        Keywords::To(to) => format!("{f}({args}, tf.{})", to.name()),
        Keywords::Gather(axis, batch_dims) => {
            format!("{f}({args}, axis={axis}, batch_dims={batch_dims})")
        }
        // A list of tensors, as rxt-tf's array.
        Keywords::Parts(parts, axis) if case.op.family == Family::Split => {
            format!("list({f}({args}, {parts}, axis={axis}))")
        }
        Keywords::Parts(num, axis) => format!("{f}({args}, num={num}, axis={axis})"),
        // `TopKV2`'s named tuple, as rxt-tf's pair.
        Keywords::TopK(k, sorted) => {
            format!("list({f}({args}, k={k}, sorted={}))", python_bool(*sorted))
        }
        Keywords::Sort(axis, direction) => {
            format!("{f}({args}, axis={axis}, direction='{direction}')")
        }
        Keywords::OneHot(on, off, axis) => {
            format!("{f}({args}, on_value={on:?}, off_value={off:?}, axis={axis})")
        }
        Keywords::Constant(value) => {
            let value = match case.dtype {
                DType::F32 | DType::F64 | DType::BF16 | DType::F16 => value.into_bound_py_any(py),
                DType::I32 | DType::I64 => (*value as i64).into_bound_py_any(py),
                DType::Bool => (*value != 0.0).into_bound_py_any(py),
            };
            bound.push(("v", value.expect("a Python number")));
            format!("{f}({args}, constant_values=v)")
        }
        Keywords::Mode(mode) => format!("{f}({args}, mode='{mode}')"),
        Keywords::Masks([begin, end, ellipsis, new_axis, shrink_axis]) => format!(
            "{f}({args}, begin_mask={begin}, end_mask={end}, ellipsis_mask={ellipsis}, \
             new_axis_mask={new_axis}, shrink_axis_mask={shrink_axis})"
        ),
        Keywords::Spatial {
            ksize,
            strides,
            padding,
            dilations,
        } => match case.op.family {
            Family::Conv2d => format!(
                "{f}({args}, strides={strides:?}, padding='{padding}', dilations={dilations:?})"
            ),
            // `tf.nn.depthwise_conv2d` takes the four strides of NHWC.
            Family::DepthwiseConv2d => {
                let (h, w) = (strides[0], strides[strides.len() - 1]);
                format!("{f}({args}, strides=[1, {h}, {w}, 1], padding='{padding}')")
            }
            Family::Conv1d => format!(
                "{f}({args}, stride={}, padding='{padding}', dilations={})",
                strides[0], dilations[0]
            ),
            Family::Pool2d => {
                format!("{f}({args}, ksize={ksize:?}, strides={strides:?}, padding='{padding}')")
            }
            Family::Pool1d => format!(
                "{f}({args}, ksize={}, strides={}, padding='{padding}')",
                ksize[0], strides[0]
            ),
            // `tf.nn.conv3d` takes the five strides of NDHWC.
            Family::Conv3d => {
                let [d, h, w] = [0, 1, 2].map(|axis| strides[axis.min(strides.len() - 1)]);
                format!("{f}({args}, strides=[1, {d}, {h}, {w}, 1], padding='{padding}')")
            }
            Family::Pool3d => {
                format!("{f}({args}, ksize={ksize:?}, strides={strides:?}, padding='{padding}')")
            }
            family => unreachable!("spatial keywords of {family:?}"),
        },
        Keywords::VarianceEpsilon(epsilon) => {
            format!("{f}({args}, variance_epsilon={epsilon:?})")
        }
        Keywords::Equation(equation, _) => format!("{f}({equation:?}, {args})"),
        Keywords::Contract(axes, _) => format!("{f}({args}, axes={axes})"),
        Keywords::Band(lower, upper) => format!("{f}({args}, {lower}, {upper})"),
        Keywords::InferenceEpsilon(epsilon) => {
            format!("{f}({args}, epsilon={epsilon:?}, is_training=False)[0]")
        }
    };
    (code, bound)
}

/// Evaluates `code` with `tf`, `np` and `names` in scope; eager's exception
/// is returned, not raised.
pub(crate) fn eager<'py>(
    py: Python<'py>,
    code: &str,
    names: &[(&str, Bound<'py, PyAny>)],
) -> PyResult<Bound<'py, PyAny>> {
    let globals = PyDict::new(py);
    globals.set_item("tf", py.import("tensorflow")?)?;
    globals.set_item("np", py.import("numpy")?)?;
    for (name, value) in names {
        globals.set_item(*name, value)?;
    }
    let code = CString::new(code).expect("no NUL");
    py.eval(&code, Some(&globals), None)
}
