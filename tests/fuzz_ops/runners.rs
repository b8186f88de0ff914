//! Running a case through its op's plain function: `run_family!`, one arm
//! per family, expanded in the table (`table.rs`), which imports the names
//! it uses.

/// Runs `$case` through `ops::$f`, an op of `$family` on `$types`.
macro_rules! run_family {
    (Unary, $py:ident, $case:ident, $f:ident, $types:tt) => {
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4, 5], |x: T, R| {
            finish!($py, ops::$f(&x), x)
        })
    };
    (LeakyRelu, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Alpha(alpha) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4, 5], |x: T, R| {
            finish!($py, ops::$f(&x, alpha), x)
        })
    }};
    (Gelu, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Approximate(approximate) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4, 5], |x: T, R| {
            finish!($py, ops::$f(&x, approximate), x)
        })
    }};
    (Binary, $py:ident, $case:ident, $f:ident, $types:tt) => {
        binary!($py, $case, $f, $types, literals [f32, f64, bf16, f16, i32, i64] [f32, f64, bf16, f16])
    };
    (Logical, $py:ident, $case:ident, $f:ident, $types:tt) => {
        binary!($py, $case, $f, $types)
    };
    (MatMul, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Transpose(ta, tb) = $case.keywords else { unreachable!() };
        let (a, b) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| with_rank!(a.rank(), [2, 3, 4, 5], |RA| {
            with_rank!(b.rank(), [2, 3, 4, 5], |RB| {
                let (a, b) = (tensor!($py, a, T, RA), tensor!($py, b, T, RB));
                finish!($py, ops::$f(&a, &b, ta, tb), a, b)
            })
        }))
    }};
    (BiasAdd, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let bias = $case.tensor(1);
        with_tensor!($py, $case.tensor(0), $types, [2, 3, 4, 5], |x: T, R| {
            let bias = tensor!($py, bias, T, 1);
            finish!($py, ops::$f(&x, &bias), x, bias)
        })
    }};
    (Reduce, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axes(ref axes, keepdims) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            if keepdims {
                finish!($py, ops::$f::<N, true, _>(&x, axes), x)
            } else {
                finish!($py, ops::$f::<N, false, _>(&x, axes), x)
            }
        }))
    }};
    (Moments, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axes(ref axes, keepdims) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            let output = if keepdims {
                native_pair($py, ops::$f::<N, true, _>(&x, axes))
            } else {
                native_pair($py, ops::$f::<N, false, _>(&x, axes))
            };
            (output, vec![to_python($py, "an input", Ok(x))])
        }))
    }};
    (L2Normalize, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Epsilon(ref axes, epsilon) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            finish!($py, ops::$f::<N, _>(&x, axes, epsilon), x)
        }))
    }};
    (ArgReduce, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Index(axis, index) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            with_type!(index, [i32, i64], |I| finish!($py, ops::$f::<I, _>(&x, axis), x))
        })
    }};
    (AlongAxis, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axis(axis) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            finish!($py, ops::$f(&x, axis), x)
        })
    }};
    (Cumsum, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Cumsum(axis, exclusive, reverse) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            finish!($py, ops::$f(&x, axis, exclusive, reverse), x)
        })
    }};
    (Reverse, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axes(ref axes, _) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            finish!($py, ops::$f::<N, _>(&x, axes), x)
        }))
    }};
    (Transpose, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Perm(ref perm, _) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [2, 3, 4, 5], |x: T, R| {
            let perm: [i64; R] = array(perm.as_slice());
            finish!($py, ops::$f(&x, perm), x)
        })
    }};
    (Cast, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::To(to) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4, 5], |x: T, R| {
            with_type!(to, [f32, f64, bf16, f16, i32, i64, bool], |U| {
                finish!($py, ops::$f::<U, _>(&x), x)
            })
        })
    }};
    (ExpandDims, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axis(axis) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4], |x: T, R| {
            finish!($py, ops::$f(&x, axis), x)
        })
    }};
    (Squeeze, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axes(ref axes, _) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            finish!($py, ops::$f::<N, _>(&x, axes), x)
        }))
    }};
    (Shape, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::To(to) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4, 5], |x: T, R| {
            with_type!(to, [i32, i64], |I| finish!($py, ops::$f::<I, _>(&x), x))
        })
    }};
    (Select, $py:ident, $case:ident, $f:ident, $types:tt) => {
        select!($py, $case, $f, $types, [f32, f64, bf16, f16, i32, i64], [f32, f64, bf16, f16])
    };
    (BroadcastTo, $py:ident, $case:ident, $f:ident, $types:tt) => {
        run_family!(Reshape, $py, $case, $f, $types)
    };
    (Reshape, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let sizes = operand!($case, 1, Dims);
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4, 5], |x: T, R| {
            with_rank!(sizes.len(), [0, 1, 2, 3, 4, 5], |N| {
                let sizes = Dims::<N>(array(sizes));
                finish!($py, ops::$f(&x, &sizes), x)
            })
        })
    }};
    (PerAxis, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let multiples = operand!($case, 1, Dims);
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            let multiples = Dims::<R>(array(multiples));
            finish!($py, ops::$f(&x, &multiples), x)
        })
    }};
    (Gather, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Gather(axis, batch_dims) = $case.keywords else { unreachable!() };
        let (x, i) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| with_type!(i.dtype(), [i32, i64], |I| {
            // (params' rank, indices' rank, batch_dims): the result's rank
            // is at most 5.
            with_combo!((x.rank(), i.rank(), batch_dims), [
                (1 0 0) (1 1 0) (1 2 0) (1 3 0) (1 4 0) (1 5 0) (2 0 0) (2 1 0) (2 1 1) (2 2 0)
                (2 2 1) (2 3 0) (2 3 1) (2 4 0) (2 4 1) (2 5 1) (3 0 0) (3 1 0) (3 1 1) (3 2 0)
                (3 2 1) (3 2 2) (3 3 0) (3 3 1) (3 3 2) (3 4 1) (3 4 2) (3 5 2) (4 0 0) (4 1 0)
                (4 1 1) (4 2 0) (4 2 1) (4 2 2) (4 3 1) (4 3 2) (4 3 3) (4 4 2) (4 4 3) (4 5 3)
                (5 0 0) (5 1 0) (5 1 1) (5 2 1) (5 2 2) (5 3 2) (5 3 3) (5 4 3) (5 4 4) (5 5 4)
            ], |RP, RI, B| {
                let (x, i) = (tensor!($py, x, T, RP), tensor!($py, i, I, RI));
                finish!($py, ops::$f::<B, _, _>(&x, &i, axis), x, i)
            })
        }))
    }};
    (Lookup, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let (x, i) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| with_type!(i.dtype(), [i32, i64], |I| {
            with_combo!((x.rank(), i.rank()), [
                (1 0) (1 1) (1 2) (1 3) (1 4) (1 5) (2 0) (2 1) (2 2) (2 3) (2 4) (3 0) (3 1) (3 2)
                (3 3) (4 0) (4 1) (4 2) (5 0) (5 1)
            ], |RP, RI| {
                let (x, i) = (tensor!($py, x, T, RP), tensor!($py, i, I, RI));
                finish!($py, ops::$f(&x, &i), x, i)
            })
        }))
    }};
    (Window, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let (begin, size) = (operand!($case, 1, Dims), operand!($case, 2, Dims));
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            let (begin, size) = (Dims::<R>(array(begin)), Dims::<R>(array(size)));
            finish!($py, ops::$f(&x, &begin, &size), x)
        })
    }};
    (Join, $py:ident, $case:ident, $f:ident, $types:tt) => {
        run_family!(@list $py, $case, $f, $types, [1, 2, 3, 4, 5])
    };
    (Stack, $py:ident, $case:ident, $f:ident, $types:tt) => {
        run_family!(@list $py, $case, $f, $types, [0, 1, 2, 3, 4])
    };
    (@list $py:ident, $case:ident, $f:ident, $types:tt, $ranks:tt) => {{
        let Keywords::Axis(axis) = $case.keywords else { unreachable!() };
        let inputs = operand!($case, 0, List);
        with_type!($case.dtype, $types, |T| with_rank!(inputs[0].rank(), $ranks, |R| {
            let tensors: Vec<Tensor<T, R>> =
                inputs.iter().map(|input| tensor!($py, input, T, R)).collect();
            let output = with_rank!(tensors.len(), [2, 3, 4, 5, 6, 7, 8], |N| {
                let list = TensorList::new(std::array::from_fn::<_, N, _>(|i| &tensors[i]));
                native($py, ops::$f(&list, axis))
            });
            (output, list_to_python($py, tensors))
        }))
    }};
    (Index, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Masks(masks) = $case.keywords else { unreachable!() };
        let [begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask] = masks;
        let begin = operand!($case, 1, Dims);
        let (end, strides) = (operand!($case, 2, Dims), operand!($case, 3, Dims));
        let ellipsis = ellipsis_mask != 0;
        let new = new_axis_mask.count_ones() as usize;
        let shrink = shrink_axis_mask.count_ones() as usize;
        let indexed = begin.len() - new - usize::from(ellipsis);
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| {
            // (rank, indexed axes, shrunk axes, new axes): the result's rank
            // is at most 5; at most 2 new axes.
            with_combo!((x.rank(), indexed, shrink, new), [
                (0 0 0 0) (0 0 0 1) (0 0 0 2) (1 0 0 0) (1 0 0 1) (1 0 0 2) (1 1 0 0) (1 1 0 1)
                (1 1 0 2) (1 1 1 0) (1 1 1 1) (1 1 1 2) (2 0 0 0) (2 0 0 1) (2 0 0 2) (2 1 0 0)
                (2 1 0 1) (2 1 0 2) (2 1 1 0) (2 1 1 1) (2 1 1 2) (2 2 0 0) (2 2 0 1) (2 2 0 2)
                (2 2 1 0) (2 2 1 1) (2 2 1 2) (2 2 2 0) (2 2 2 1) (2 2 2 2) (3 0 0 0) (3 0 0 1)
                (3 0 0 2) (3 1 0 0) (3 1 0 1) (3 1 0 2) (3 1 1 0) (3 1 1 1) (3 1 1 2) (3 2 0 0)
                (3 2 0 1) (3 2 0 2) (3 2 1 0) (3 2 1 1) (3 2 1 2) (3 2 2 0) (3 2 2 1) (3 2 2 2)
                (3 3 0 0) (3 3 0 1) (3 3 0 2) (3 3 1 0) (3 3 1 1) (3 3 1 2) (3 3 2 0) (3 3 2 1)
                (3 3 2 2) (3 3 3 0) (3 3 3 1) (3 3 3 2) (4 0 0 0) (4 0 0 1) (4 1 0 0) (4 1 0 1)
                (4 1 1 0) (4 1 1 1) (4 1 1 2) (4 2 0 0) (4 2 0 1) (4 2 1 0) (4 2 1 1) (4 2 1 2)
                (4 2 2 0) (4 2 2 1) (4 2 2 2) (4 3 0 0) (4 3 0 1) (4 3 1 0) (4 3 1 1) (4 3 1 2)
                (4 3 2 0) (4 3 2 1) (4 3 2 2) (4 3 3 0) (4 3 3 1) (4 3 3 2) (4 4 0 0) (4 4 0 1)
                (4 4 1 0) (4 4 1 1) (4 4 1 2) (4 4 2 0) (4 4 2 1) (4 4 2 2) (4 4 3 0) (4 4 3 1)
                (4 4 3 2) (4 4 4 0) (4 4 4 1) (4 4 4 2) (5 0 0 0) (5 1 0 0) (5 1 1 0) (5 1 1 1)
                (5 2 0 0) (5 2 1 0) (5 2 1 1) (5 2 2 0) (5 2 2 1) (5 2 2 2) (5 3 0 0) (5 3 1 0)
                (5 3 1 1) (5 3 2 0) (5 3 2 1) (5 3 2 2) (5 3 3 0) (5 3 3 1) (5 3 3 2) (5 4 0 0)
                (5 4 1 0) (5 4 1 1) (5 4 2 0) (5 4 2 1) (5 4 2 2) (5 4 3 0) (5 4 3 1) (5 4 3 2)
                (5 4 4 0) (5 4 4 1) (5 4 4 2) (5 5 0 0) (5 5 1 0) (5 5 1 1) (5 5 2 0) (5 5 2 1)
                (5 5 2 2) (5 5 3 0) (5 5 3 1) (5 5 3 2) (5 5 4 0) (5 5 4 1) (5 5 4 2) (5 5 5 0)
                (5 5 5 1) (5 5 5 2)
            ], |R, K, S, N| {
                let x = tensor!($py, x, T, R);
                macro_rules! index {
                    ($length:expr) => {{
                        const L: usize = $length;
                        let (b, e) = (Dims::<L>(array(begin)), Dims::<L>(array(end)));
                        let s = Dims::<L>(array(strides));
                        let result = ops::$f::<K, S, N, _, _, _, _>(
                            &x, &b, &e, &s, begin_mask, end_mask, ellipsis_mask,
                            new_axis_mask, shrink_axis_mask,
                        );
                        finish!($py, result, x)
                    }};
                }
                if ellipsis {
                    index!(K + N + 1)
                } else {
                    index!(K + N)
                }
            })
        })
    }};
    (Split, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Parts(parts, axis) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            with_rank!(parts, [0, 1, 2, 3, 4, 5], |N| {
                finish!(list $py, ops::$f::<N, _>(&x, axis), x)
            })
        })
    }};
    (Unstack, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Parts(num, axis) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            with_rank!(num, [0, 1, 2, 3, 4, 5], |N| {
                finish!(list $py, ops::$f::<N, _>(&x, axis), x)
            })
        })
    }};
    (SplitSizes, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axis(axis) = $case.keywords else { unreachable!() };
        let sizes = operand!($case, 1, Dims);
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            with_rank!(sizes.len(), [1, 2, 3, 4, 5], |N| {
                let sizes = Dims::<N>(array(sizes));
                finish!(list $py, ops::$f(&x, &sizes, axis), x)
            })
        })
    }};
    (TopK, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::TopK(k, sorted) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            let output = native_pair($py, ops::$f(&x, k, sorted));
            (output, vec![to_python($py, "an input", Ok(x))])
        })
    }};
    (Sort, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Sort(axis, direction) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            finish!($py, ops::$f(&x, axis, direction), x)
        })
    }};
    (OneHot, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::OneHot(on, off, axis) = $case.keywords else { unreachable!() };
        let depth = *operand!($case, 1, Size);
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4], |x: T, R| {
            finish!($py, ops::$f(&x, &Size(depth), on, off, axis), x)
        })
    }};
    (Pad, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Constant(value) = $case.keywords else { unreachable!() };
        let paddings = operand!($case, 1, Pairs);
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            let paddings = Pairs::<R>(array(paddings));
            finish!($py, ops::$f(&x, &paddings, value), x)
        })
    }};
    (MirrorPad, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Mode(mode) = $case.keywords else { unreachable!() };
        let paddings = operand!($case, 1, Pairs);
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4, 5], |x: T, R| {
            let paddings = Pairs::<R>(array(paddings));
            finish!($py, ops::$f(&x, &paddings, mode), x)
        })
    }};
    (Fill, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let dims = operand!($case, 0, Dims);
        with_rank!(dims.len(), [0, 1, 2, 3, 4, 5], |N| {
            let dims = Dims::<N>(array(dims));
            match &$case.operands[1] {
                Operand::Int(v) => finish!($py, ops::$f(&dims, &IntLiteral(*v))),
                Operand::Float(v) => finish!($py, ops::$f(&dims, &FloatLiteral(*v))),
                value => with_type!($case.dtype, $types, |T| {
                    with_scalar_operand!($py, value, T, ints, |v| {
                        let output = native($py, ops::$f(&dims, &v));
                        (output, v.leftover($py).into_iter().collect())
                    })
                }),
            }
        })
    }};
    (Filled, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let dims = operand!($case, 0, Dims);
        with_rank!(dims.len(), [0, 1, 2, 3, 4, 5], |N| {
            let dims = Dims::<N>(array(dims));
            with_type!($case.dtype, $types, |U| finish!($py, ops::$f::<U, _>(&dims)))
        })
    }};
    (Eye, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let size = *operand!($case, 0, Size);
        with_type!($case.dtype, $types, |U| finish!($py, ops::$f::<U, _>(&Size(size))))
    }};
    (Range, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let [a, b, c] = [0, 1, 2].map(|i| &$case.operands[i]);
        macro_rules! range {
            ($kinds:ident, $T:ident) => {
                with_scalar_operand!($py, a, $T, $kinds, |a| {
                    with_scalar_operand!($py, b, $T, $kinds, |b| {
                        with_scalar_operand!($py, c, $T, $kinds, |c| {
                            let output = native($py, ops::$f(&a, &b, &c));
                            let inputs = [a.leftover($py), b.leftover($py), c.leftover($py)];
                            (output, inputs.into_iter().flatten().collect())
                        })
                    })
                })
            };
        }
        if $case.dtype.is_float() {
            with_type!($case.dtype, [f32, f64], |T| range!(floats, T))
        } else {
            with_type!($case.dtype, [i32, i64], |T| range!(ints, T))
        }
    }};
    (Clip, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let [lo, hi] = [1, 2].map(|i| &$case.operands[i]);
        macro_rules! clip {
            ($kinds:ident, $listed:tt) => {
                with_tensor!($py, $case.tensor(0), $listed, [0, 1, 2, 3, 4, 5], |x: T, R| {
                    with_scalar_operand!($py, lo, T, $kinds, |lo| {
                        with_scalar_operand!($py, hi, T, $kinds, |hi| {
                            let output = native($py, ops::$f(&x, &lo, &hi));
                            let mut inputs = vec![to_python($py, "an input", Ok(x))];
                            inputs.extend([lo.leftover($py), hi.leftover($py)].into_iter().flatten());
                            (output, inputs)
                        })
                    })
                })
            };
        }
        if $case.dtype.is_float() {
            clip!(floats, [f32, f64, bf16, f16])
        } else {
            clip!(ints, [i32, i64])
        }
    }};
    (Conv2d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { strides, padding, dilations, .. } = $case.keywords else {
            unreachable!()
        };
        let (x, filters) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| {
            let (x, filters) = (tensor!($py, x, T, 4), tensor!($py, filters, T, 4));
            finish!($py, ops::$f(&x, &filters, strides, padding, dilations), x, filters)
        })
    }};
    (DepthwiseConv2d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { strides, padding, .. } = $case.keywords else { unreachable!() };
        let (x, filters) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| {
            let (x, filters) = (tensor!($py, x, T, 4), tensor!($py, filters, T, 4));
            finish!($py, ops::$f(&x, &filters, strides, padding), x, filters)
        })
    }};
    (Conv1d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { strides, padding, dilations, .. } = $case.keywords else {
            unreachable!()
        };
        let (x, filters) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| {
            let (x, filters) = (tensor!($py, x, T, 3), tensor!($py, filters, T, 3));
            let result = ops::$f(&x, &filters, strides[0], padding, dilations[0]);
            finish!($py, result, x, filters)
        })
    }};
    (Conv3d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { strides, padding, .. } = $case.keywords else { unreachable!() };
        let (x, filters) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| {
            let (x, filters) = (tensor!($py, x, T, 5), tensor!($py, filters, T, 5));
            finish!($py, ops::$f(&x, &filters, strides, padding), x, filters)
        })
    }};
    (Pool3d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { ksize, strides, padding, .. } = $case.keywords else {
            unreachable!()
        };
        with_tensor!($py, $case.tensor(0), $types, [5], |x: T, R| {
            finish!($py, ops::$f(&x, ksize, strides, padding), x)
        })
    }};
    (Pool2d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { ksize, strides, padding, .. } = $case.keywords else {
            unreachable!()
        };
        with_tensor!($py, $case.tensor(0), $types, [4], |x: T, R| {
            finish!($py, ops::$f(&x, ksize, strides, padding), x)
        })
    }};
    (Pool1d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { ksize, strides, padding, .. } = $case.keywords else {
            unreachable!()
        };
        with_tensor!($py, $case.tensor(0), $types, [3], |x: T, R| {
            finish!($py, ops::$f(&x, ksize[0], strides[0], padding), x)
        })
    }};
    (BatchNorm, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::VarianceEpsilon(epsilon) = $case.keywords else { unreachable!() };
        let [x, mean, variance, offset, scale] = [0, 1, 2, 3, 4].map(|i| $case.tensor(i));
        with_type!($case.dtype, $types, |T| {
            // (x's rank, the mean's and the variance's, the offset's and the
            // scale's): each at most x's.
            with_combo!((x.rank(), mean.rank(), offset.rank()), [
                (0 0 0) (1 0 0) (1 0 1) (1 1 0) (1 1 1) (2 0 0) (2 0 1) (2 0 2) (2 1 0) (2 1 1)
                (2 1 2) (2 2 0) (2 2 1) (2 2 2) (3 0 0) (3 0 1) (3 0 2) (3 0 3) (3 1 0) (3 1 1)
                (3 1 2) (3 1 3) (3 2 0) (3 2 1) (3 2 2) (3 2 3) (3 3 0) (3 3 1) (3 3 2) (3 3 3)
                (4 0 0) (4 0 1) (4 0 2) (4 0 3) (4 0 4) (4 1 0) (4 1 1) (4 1 2) (4 1 3) (4 1 4)
                (4 2 0) (4 2 1) (4 2 2) (4 2 3) (4 2 4) (4 3 0) (4 3 1) (4 3 2) (4 3 3) (4 3 4)
                (4 4 0) (4 4 1) (4 4 2) (4 4 3) (4 4 4) (5 0 0) (5 0 1) (5 0 2) (5 0 3) (5 0 4)
                (5 0 5) (5 1 0) (5 1 1) (5 1 2) (5 1 3) (5 1 4) (5 1 5) (5 2 0) (5 2 1) (5 2 2)
                (5 2 3) (5 2 4) (5 2 5) (5 3 0) (5 3 1) (5 3 2) (5 3 3) (5 3 4) (5 3 5) (5 4 0)
                (5 4 1) (5 4 2) (5 4 3) (5 4 4) (5 4 5) (5 5 0) (5 5 1) (5 5 2) (5 5 3) (5 5 4)
                (5 5 5)
            ], |R, M, O| {
                let x = tensor!($py, x, T, R);
                let (mean, variance) = (tensor!($py, mean, T, M), tensor!($py, variance, T, M));
                let (offset, scale) = (tensor!($py, offset, T, O), tensor!($py, scale, T, O));
                let result = ops::$f(&x, &mean, &variance, &offset, &scale, epsilon);
                finish!($py, result, x, mean, variance, offset, scale)
            })
        })
    }};
    (Einsum, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Equation(equation, out) = $case.keywords else { unreachable!() };
        let (a, b) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| with_rank!(out, [0, 1, 2, 3, 4, 5], |OUT| {
            with_rank!(a.rank(), [0, 1, 2, 3, 4, 5], |RA| {
                with_rank!(b.rank(), [0, 1, 2, 3, 4, 5], |RB| {
                    let (a, b) = (tensor!($py, a, T, RA), tensor!($py, b, T, RB));
                    finish!($py, ops::$f::<OUT, RA, RB, _, _>(&a, &b, equation), a, b)
                })
            })
        }))
    }};
    (FusedBatchNorm, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::InferenceEpsilon(epsilon) = $case.keywords else { unreachable!() };
        let [x, scale, offset, mean, variance] = [0, 1, 2, 3, 4].map(|i| $case.tensor(i));
        with_type!($case.dtype, $types, |T| {
            let x = tensor!($py, x, T, 4);
            let [scale, offset, mean, variance] =
                [scale, offset, mean, variance].map(|stat| tensor!($py, stat, T, 1));
            let result = ops::$f(&x, &scale, &offset, &mean, &variance, epsilon);
            finish!($py, result, x, scale, offset, mean, variance)
        })
    }};
    (BandPart, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Band(lower, upper) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [2, 3, 4, 5], |x: T, R| {
            finish!($py, ops::$f(&x, lower, upper), x)
        })
    }};
    (Contract, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Contract(axes, out) = $case.keywords else { unreachable!() };
        let (a, b) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| with_rank!(out, [0, 1, 2, 3, 4, 5], |OUT| {
            with_rank!(a.rank(), [0, 1, 2, 3, 4, 5], |RA| {
                with_rank!(b.rank(), [0, 1, 2, 3, 4, 5], |RB| {
                    let (a, b) = (tensor!($py, a, T, RA), tensor!($py, b, T, RB));
                    finish!($py, ops::$f::<OUT, _, _>(&a, &b, axes as i64), a, b)
                })
            })
        }))
    }};
    (EinsumOne, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Equation(equation, out) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4, 5], |x: T, R| {
            with_rank!(out, [0, 1, 2, 3, 4, 5], |OUT| {
                finish!($py, ops::$f::<OUT, R, _>(&x, equation), x)
            })
        })
    }};
    (EinsumThree, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Equation(equation, out) = $case.keywords else { unreachable!() };
        let (a, b, c) = ($case.tensor(0), $case.tensor(1), $case.tensor(2));
        with_type!($case.dtype, $types, |T| with_rank!(out, [0, 1, 2, 3, 4, 5], |OUT| {
            with_rank!(a.rank(), [0, 1, 2, 3, 4, 5], |RA| {
                let a = tensor!($py, a, T, RA);
                with_rank!(b.rank(), [0, 1, 2, 3, 4, 5], |RB| {
                    let b = tensor!($py, b, T, RB);
                    with_rank!(c.rank(), [0, 1, 2, 3, 4, 5], |RC| {
                        let c = tensor!($py, c, T, RC);
                        let result = ops::$f::<OUT, RA, RB, RC, _, _, _>(&a, &b, &c, equation);
                        finish!($py, result, a, b, c)
                    })
                })
            })
        }))
    }};
}
