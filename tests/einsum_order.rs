//! The order rxt-tf contracts an einsum of three or more operands in
//! (`rxt_tf_spec::einsum::order`) against the path `tf.einsum` itself finds
//! (`opt_einsum`'s greedy search, as TensorFlow 2.21 calls it), for random
//! equations and shapes: the same pairs, in the same order, on the same
//! equations. Results bitwise equal to `tf.einsum`'s rest on it.

mod common;

use common::with_python;
use pyo3::prelude::*;

/// A small deterministic generator (SplitMix64).
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A random equation of `operands` operands and shapes that fit it.
fn case(draw: &mut Draw, operands: usize) -> (String, Vec<Vec<i64>>) {
    let alphabet: Vec<char> = "abcdefgXY".chars().collect();
    let sizes: Vec<i64> = alphabet
        .iter()
        .map(|_| match [0, 1, 2, 3, 5, 8, 13][draw.below(7)] {
            0 if !draw.chance(20) => 4,
            size => size,
        })
        .collect();
    let ellipsis = draw.chance(25);
    let broadcast: Vec<i64> = (0..2).map(|_| [1, 2, 3, 6][draw.below(4)]).collect();
    let mut subscripts = Vec::new();
    let mut shapes = Vec::new();
    let mut used = String::new();
    for _ in 0..operands {
        let named = draw.below(if ellipsis { 3 } else { 5 });
        let mut labels = String::new();
        let mut shape = Vec::new();
        for _ in 0..named {
            let index = draw.below(alphabet.len());
            labels.push(alphabet[index]);
            shape.push(sizes[index]);
        }
        used.push_str(&labels);
        if ellipsis {
            let at = draw.below(labels.len() + 1);
            let axes = draw.below(3);
            let dims: Vec<i64> = broadcast[2 - axes.min(2)..]
                .iter()
                .map(|dim| if draw.chance(30) { 1 } else { *dim })
                .collect();
            labels.insert_str(at, "...");
            shape.splice(at..at, dims.into_iter().take(axes));
        }
        subscripts.push(labels);
        shapes.push(shape);
    }
    let mut equation = subscripts.join(",");
    if draw.chance(70) {
        let mut distinct: Vec<char> = Vec::new();
        for label in used.chars() {
            if !distinct.contains(&label) && draw.chance(50) {
                distinct.push(label);
            }
        }
        for i in (1..distinct.len()).rev() {
            distinct.swap(i, draw.below(i + 1));
        }
        let mut output: String = distinct.into_iter().collect();
        if ellipsis {
            output.insert_str(draw.below(output.len() + 1), "...");
        }
        equation = format!("{equation}->{output}");
    }
    (equation, shapes)
}

const TF_PATH: &str = "
def tf_path(equation, shapes):
    import collections
    from tensorflow.python.ops import special_math_ops as m
    shaped = collections.namedtuple('shaped', ['shape'])
    resolved, dims, ellipsis = m._einsum_v2_parse_and_resolve_equation(
        equation, [list(s) for s in shapes])
    path = m._get_opt_einsum_contract_path(
        resolved, tuple(shaped(tuple(d)) for d in dims), 'greedy')
    return [(list(positions), e.replace(ellipsis, '...') if ellipsis else e)
            for positions, e in path]
";

#[test]
fn contraction_order_is_tf_einsums() {
    with_python(|py| {
        let module = PyModule::from_code(
            py,
            &std::ffi::CString::new(TF_PATH).expect("no NUL"),
            c"tf_path.py",
            c"tf_path",
        )
        .expect("the reference");
        let tf_path = module.getattr("tf_path").expect("tf_path");
        let mut draw = Draw(0x0e1d_5eed);
        let (mut compared, mut skipped) = (0, 0);
        for index in 0..3000 {
            let operands = 3 + draw.below(3);
            let (equation, shapes) = case(&mut draw, operands);
            let Ok(parsed) = rxt_tf_spec::einsum::parse(&equation, operands) else {
                skipped += 1;
                continue;
            };
            let views: Vec<&[i64]> = shapes.iter().map(Vec::as_slice).collect();
            let ours: Vec<(Vec<usize>, String)> =
                rxt_tf_spec::einsum::order::contractions(&parsed, &views)
                    .into_iter()
                    .map(|c| (c.positions, c.equation))
                    .collect();
            let theirs: Vec<(Vec<usize>, String)> = tf_path
                .call1((equation.as_str(), shapes.clone()))
                .and_then(|path| path.extract())
                .unwrap_or_else(|err| panic!("case {index}: {equation} {shapes:?}: {err}"));
            assert_eq!(ours, theirs, "case {index}: {equation} {shapes:?}");
            compared += 1;
        }
        eprintln!("einsum order: {compared} equations compared, {skipped} not einsums rxt-tf runs");
        assert!(compared > 2000, "too few compared: {compared}");
    });
}
