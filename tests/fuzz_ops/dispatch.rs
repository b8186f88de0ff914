//! Typed dispatch: run-time element types and ranks to the types of the API.

use pyo3::prelude::*;
use pyo3::types::PyList;
use rxt_tf::__private::{FloatLiteral, IntLiteral};
use rxt_tf::ops::Scalar;
use rxt_tf::{Element, Tensor};

use crate::common::to_python;

/// `$body` with the type `$T` the element type `$dtype` names, one of the
/// listed ones.
macro_rules! with_type {
    ($dtype:expr, [$($ty:ty),*], |$T:ident| $body:expr) => {{
        let dtype: DType = $dtype;
        $(if dtype == <$ty as Element>::DTYPE {
            type $T = $ty;
            $body
        } else)* {
            panic!("{dtype:?} is not an element type of this dispatch")
        }
    }};
}

/// `$body` with the constant `$R` the rank `$rank`, one of the listed ones.
macro_rules! with_rank {
    ($rank:expr, [$($r:literal),+], |$R:ident| $body:expr) => {
        match $rank {
            $($r => {
                const $R: usize = $r;
                $body
            })+
            rank => panic!("rank {rank} is not a rank of this dispatch"),
        }
    };
}

/// `$body` with `$R` the rank of a tensor, `$N` the number of axes and
/// `$axes` them as an array, for every rank 1–5 and count up to it.
macro_rules! with_axes {
    ($rank:expr, $list:expr, |$R:ident, $N:ident, $axes:ident| $body:expr) => {{
        let list: &[i64] = $list;
        match ($rank, list.len()) {
            (1, 1) => with_axes!(@ 1, 1, list, $R, $N, $axes, $body),
            (2, 1) => with_axes!(@ 2, 1, list, $R, $N, $axes, $body),
            (2, 2) => with_axes!(@ 2, 2, list, $R, $N, $axes, $body),
            (3, 1) => with_axes!(@ 3, 1, list, $R, $N, $axes, $body),
            (3, 2) => with_axes!(@ 3, 2, list, $R, $N, $axes, $body),
            (3, 3) => with_axes!(@ 3, 3, list, $R, $N, $axes, $body),
            (4, 1) => with_axes!(@ 4, 1, list, $R, $N, $axes, $body),
            (4, 2) => with_axes!(@ 4, 2, list, $R, $N, $axes, $body),
            (4, 3) => with_axes!(@ 4, 3, list, $R, $N, $axes, $body),
            (4, 4) => with_axes!(@ 4, 4, list, $R, $N, $axes, $body),
            (5, 1) => with_axes!(@ 5, 1, list, $R, $N, $axes, $body),
            (5, 2) => with_axes!(@ 5, 2, list, $R, $N, $axes, $body),
            (5, 3) => with_axes!(@ 5, 3, list, $R, $N, $axes, $body),
            (5, 4) => with_axes!(@ 5, 4, list, $R, $N, $axes, $body),
            (5, 5) => with_axes!(@ 5, 5, list, $R, $N, $axes, $body),
            (rank, n) => panic!("{n} axes of a rank-{rank} tensor"),
        }
    }};
    (@ $r:literal, $n:literal, $list:ident, $R:ident, $N:ident, $axes:ident, $body:expr) => {{
        const $R: usize = $r;
        const $N: usize = $n;
        let $axes: [i64; $n] = array($list);
        $body
    }};
}

/// `$body` with the constants `$C…` the values of `$key`, a tuple of
/// `usize`s, one of the listed combinations (`(1 0 0)` for `(1, 0, 0)`).
macro_rules! with_combo {
    ($key:expr, [$($combo:tt)+], |$($C:ident),+| $body:expr) => {
        with_combo!(@match $key, [$($combo)+], ($($C)+), $body)
    };
    (@match $key:expr, [$(($($v:literal)+))+], $names:tt, $body:expr) => {
        match $key {
            $(($($v),+) => with_combo!(@bind $names, ($($v)+), $body),)+
            key => panic!("{key:?} is not a combination of this dispatch"),
        }
    };
    (@bind ($($C:ident)+), ($($v:literal)+), $body:expr) => {{
        $(const $C: usize = $v;)+
        $body
    }};
}

/// The input `$input` as a `Tensor<$T, $R>`.
macro_rules! tensor {
    ($py:expr, $input:expr, $T:ident, $R:tt) => {
        Tensor::<$T, $R>::from_slice(
            $py,
            <$T as Host>::slice(&$input.values),
            array($input.shape.as_slice()),
        )
        .expect("an input tensor")
    };
}

/// `$body` with `$x` the input `$input` as a tensor of its element type
/// `$T` (one of `$types`) and rank `$R` (one of `$ranks`).
macro_rules! with_tensor {
    ($py:expr, $input:expr, $types:tt, $ranks:tt, |$x:ident: $T:ident, $R:ident| $body:expr) => {{
        let input: &Input = $input;
        with_type!(input.dtype(), $types, |$T| {
            with_rank!(input.rank(), $ranks, |$R| {
                let $x = tensor!($py, input, $T, $R);
                $body
            })
        })
    }};
}

/// The native result read into Python, then the input tensors as Python
/// objects (after the result: a fused op reads them first). `list`: a
/// result of several tensors, read as a Python list.
macro_rules! finish {
    (list $py:expr, $result:expr $(, $tensor:ident)*) => {{
        let output = native_list($py, $result);
        (output, vec![$(to_python($py, "an input", Ok($tensor))),*])
    }};
    ($py:expr, $result:expr $(, $tensor:ident)*) => {{
        let output = native($py, $result);
        (output, vec![$(to_python($py, "an input", Ok($tensor))),*])
    }};
}

/// `$body` with `$v` the operand `$operand` as its Rust value beside
/// others of element type `$T`: a run-time scalar or a rank-0 tensor of
/// `$T`, or a literal (a float literal with `floats` only).
macro_rules! with_scalar_operand {
    ($py:expr, $operand:expr, $T:ident, $kinds:ident, |$v:ident| $body:expr) => {
        match $operand {
            Operand::Scalar(s) => {
                let $v = Scalar(<$T as Host>::slice(&s.values)[0]);
                $body
            }
            Operand::Tensor(t) => {
                let $v = tensor!($py, t, $T, 0);
                $body
            }
            Operand::Int(n) => {
                let $v = IntLiteral(*n);
                $body
            }
            Operand::Float(x) => with_scalar_operand!(@float $kinds, x, |$v| $body),
            other => unreachable!("a scalar operand {other:?}"),
        }
    };
    (@float floats, $x:ident, |$v:ident| $body:expr) => {{
        let $v = FloatLiteral(*$x);
        $body
    }};
    (@float ints, $x:ident, |$v:ident| $body:expr) => {
        unreachable!("a float literal {} beside integers", $x)
    };
}

/// The tensors of a list operand as Python objects.
pub(crate) fn list_to_python<'py, T: Element, const R: usize>(
    py: Python<'py>,
    tensors: Vec<Tensor<T, R>>,
) -> Vec<Bound<'py, PyAny>>
where
    Tensor<T, R>: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    tensors
        .into_iter()
        .map(|t| to_python(py, "an input", Ok(t)))
        .collect()
}

/// A broadcasting binary op on the operand forms of `$case`: two tensors
/// of any ranks, or a tensor and a run-time scalar (`$types`), or with
/// `literals`, an integer literal (`$ints`) or a float literal (`$floats`),
/// on either side.
macro_rules! binary {
    ($py:expr, $case:expr, $f:ident, $types:tt $(, literals $ints:tt $floats:tt)?) => {{
        let case: &Case = $case;
        match (&case.operands[0], &case.operands[1]) {
            (Operand::Tensor(a), Operand::Tensor(b)) => with_type!(case.dtype, $types, |T| {
                with_rank!(a.rank(), [0, 1, 2, 3, 4, 5], |RA| {
                    with_rank!(b.rank(), [0, 1, 2, 3, 4, 5], |RB| {
                        let (a, b) = (tensor!($py, a, T, RA), tensor!($py, b, T, RB));
                        finish!($py, ops::$f(&a, &b), a, b)
                    })
                })
            }),
            (Operand::Tensor(a), Operand::Scalar(s)) => {
                with_tensor!($py, a, $types, [0, 1, 2, 3, 4, 5], |a: T, R| {
                    let s = Scalar(<T as Host>::slice(&s.values)[0]);
                    finish!($py, ops::$f(&a, &s), a)
                })
            }
            (Operand::Scalar(s), Operand::Tensor(b)) => {
                with_tensor!($py, b, $types, [0, 1, 2, 3, 4, 5], |b: T, R| {
                    let s = Scalar(<T as Host>::slice(&s.values)[0]);
                    finish!($py, ops::$f(&s, &b), b)
                })
            }
            $((Operand::Tensor(a), Operand::Int(v)) => {
                with_tensor!($py, a, $ints, [0, 1, 2, 3, 4, 5], |a: T, R| {
                    finish!($py, ops::$f(&a, &IntLiteral(*v)), a)
                })
            }
            (Operand::Int(v), Operand::Tensor(b)) => {
                with_tensor!($py, b, $ints, [0, 1, 2, 3, 4, 5], |b: T, R| {
                    finish!($py, ops::$f(&IntLiteral(*v), &b), b)
                })
            }
            (Operand::Tensor(a), Operand::Float(v)) => {
                with_tensor!($py, a, $floats, [0, 1, 2, 3, 4, 5], |a: T, R| {
                    finish!($py, ops::$f(&a, &FloatLiteral(*v)), a)
                })
            }
            (Operand::Float(v), Operand::Tensor(b)) => {
                with_tensor!($py, b, $floats, [0, 1, 2, 3, 4, 5], |b: T, R| {
                    finish!($py, ops::$f(&FloatLiteral(*v), &b), b)
                })
            })?
            operands => unreachable!("operands {operands:?}"),
        }
    }};
}

/// `where` on the operand forms of `$case`: a bool condition and two
/// tensors of any ranks, or a tensor and a run-time scalar (`$types`), an
/// integer literal (`$ints`) or a float literal (`$floats`) on either side.
macro_rules! select {
    ($py:expr, $case:expr, $f:ident, $types:tt, $ints:tt, $floats:tt) => {{
        let case: &Case = $case;
        let c = case.tensor(0);
        match (&case.operands[1], &case.operands[2]) {
            (Operand::Tensor(a), Operand::Tensor(b)) => with_type!(case.dtype, $types, |T| {
                with_rank!(c.rank(), [0, 1, 2, 3, 4, 5], |RC| {
                    with_rank!(a.rank(), [0, 1, 2, 3, 4, 5], |RA| {
                        with_rank!(b.rank(), [0, 1, 2, 3, 4, 5], |RB| {
                            let c = tensor!($py, c, bool, RC);
                            let (a, b) = (tensor!($py, a, T, RA), tensor!($py, b, T, RB));
                            finish!($py, ops::$f(&c, &a, &b), c, a, b)
                        })
                    })
                })
            }),
            (Operand::Tensor(a), Operand::Scalar(s)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4, 5], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, a, $types, [0, 1, 2, 3, 4, 5], |a: T, R| {
                        let s = Scalar(<T as Host>::slice(&s.values)[0]);
                        finish!($py, ops::$f(&c, &a, &s), c, a)
                    })
                })
            }
            (Operand::Scalar(s), Operand::Tensor(b)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4, 5], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, b, $types, [0, 1, 2, 3, 4, 5], |b: T, R| {
                        let s = Scalar(<T as Host>::slice(&s.values)[0]);
                        finish!($py, ops::$f(&c, &s, &b), c, b)
                    })
                })
            }
            (Operand::Tensor(a), Operand::Int(v)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4, 5], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, a, $ints, [0, 1, 2, 3, 4, 5], |a: T, R| {
                        finish!($py, ops::$f(&c, &a, &IntLiteral(*v)), c, a)
                    })
                })
            }
            (Operand::Int(v), Operand::Tensor(b)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4, 5], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, b, $ints, [0, 1, 2, 3, 4, 5], |b: T, R| {
                        finish!($py, ops::$f(&c, &IntLiteral(*v), &b), c, b)
                    })
                })
            }
            (Operand::Tensor(a), Operand::Float(v)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4, 5], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, a, $floats, [0, 1, 2, 3, 4, 5], |a: T, R| {
                        finish!($py, ops::$f(&c, &a, &FloatLiteral(*v)), c, a)
                    })
                })
            }
            (Operand::Float(v), Operand::Tensor(b)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4, 5], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, b, $floats, [0, 1, 2, 3, 4, 5], |b: T, R| {
                        finish!($py, ops::$f(&c, &FloatLiteral(*v), &b), c, b)
                    })
                })
            }
            operands => unreachable!("operands {operands:?}"),
        }
    }};
}

/// The list operand `$i` of `$case` (a `Dims`, `Pairs` or tensor list).
macro_rules! operand {
    ($case:ident, $i:expr, $variant:ident) => {
        match &$case.operands[$i] {
            Operand::$variant(value) => value,
            other => unreachable!("operand {} is {other:?}", $i),
        }
    };
}

/// The native result, and the case's tensors, as Python objects.
pub(crate) type Native<'py> = (PyResult<Bound<'py, PyAny>>, Vec<Bound<'py, PyAny>>);

/// An op's result read into Python (a fused op runs here), or its error as
/// the Python exception it converts to.
pub(crate) fn native<'py, O>(
    py: Python<'py>,
    result: rxt_tf::Result<O>,
) -> PyResult<Bound<'py, PyAny>>
where
    O: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    result.map_err(PyErr::from)?.into_pyobject(py)
}

/// An op's several results read into Python, as a list.
pub(crate) fn native_list<'py, O, const N: usize>(
    py: Python<'py>,
    result: rxt_tf::Result<[O; N]>,
) -> PyResult<Bound<'py, PyAny>>
where
    O: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    let items = result
        .map_err(PyErr::from)?
        .into_iter()
        .map(|item| item.into_pyobject(py))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, items)?.into_any())
}

/// An op's pair of results (`top_k`'s values and indices, `moments`'
/// mean and variance) read into Python, as a list.
pub(crate) fn native_pair<'py, A, B>(
    py: Python<'py>,
    result: rxt_tf::Result<(A, B)>,
) -> PyResult<Bound<'py, PyAny>>
where
    A: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
    B: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    let (a, b) = result.map_err(PyErr::from)?;
    let items = [a.into_pyobject(py)?, b.into_pyobject(py)?];
    Ok(PyList::new(py, items)?.into_any())
}

/// A scalar operand's Python object for eager, if it is a tensor (a
/// run-time scalar or a literal is written into the eager call instead).
pub(crate) trait Leftover<'py> {
    fn leftover(self, py: Python<'py>) -> Option<Bound<'py, PyAny>>;
}

impl<'py, T: Element> Leftover<'py> for Tensor<T, 0> {
    fn leftover(self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        Some(to_python(py, "an input", Ok(self)))
    }
}

impl<'py, T> Leftover<'py> for Scalar<T> {
    fn leftover(self, _: Python<'py>) -> Option<Bound<'py, PyAny>> {
        None
    }
}

impl<'py> Leftover<'py> for IntLiteral {
    fn leftover(self, _: Python<'py>) -> Option<Bound<'py, PyAny>> {
        None
    }
}

impl<'py> Leftover<'py> for FloatLiteral {
    fn leftover(self, _: Python<'py>) -> Option<Bound<'py, PyAny>> {
        None
    }
}

/// `items` as an array of `N` (the length the dispatch chose).
pub(crate) fn array<T: Copy + std::fmt::Debug, const N: usize>(items: &[T]) -> [T; N] {
    items
        .try_into()
        .unwrap_or_else(|_| panic!("{items:?} has not {N} items"))
}
