//! Random programs, run fused and per op, must observe the same thing:
//! the same values bit for bit at every read, and the same error where per
//! op the program stops. Programs mix element-wise ops, broadcasting,
//! matmuls, reductions, softmax on either axis, literals and run-time
//! scalars, NaN and ±inf, reads of one tensor and of all of them, drops,
//! failing ops, and lengths past the 256-op trace limit. The seed is fixed.

mod common;

use common::{with_python, Rng};
use rxt_tf::fusion::{self, Scope};
use rxt_tf::ops::Scalar;
use rxt_tf::{tf, TensorF32Cpu2D};

const PROGRAMS: usize = 2_000;
const SEED: u64 = 0x5eed_2026_1201;

type Shape = [usize; 2];

const SHAPES: [Shape; 5] = [[2, 3], [3, 2], [3, 3], [2, 2], [1, 3]];
const SPECIAL: [f32; 6] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0, 1e30];

#[derive(Clone, Copy, Debug)]
enum Step {
    Unary(u8, usize),
    Binary(u8, usize, usize),
    Literal(u8, usize),
    RunTimeScalar(usize, f32),
    Matmul(usize, usize),
    Reduce(u8, usize, bool),
    Softmax(usize, bool),
    Transpose(usize),
    Read(usize),
    ReadAll,
    Drop(usize),
}

struct Program {
    inputs: Vec<(Shape, Vec<f32>)>,
    steps: Vec<Step>,
}

/// What a run observed: at each step, values read or an error.
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    Values(Vec<Vec<u32>>),
    Error(String),
}

/// Whether two shapes broadcast, and to what.
fn broadcast(a: Shape, b: Shape) -> Option<Shape> {
    let dim = |x: usize, y: usize| match (x, y) {
        _ if x == y => Some(x),
        (1, _) => Some(y),
        (_, 1) => Some(x),
        _ => None,
    };
    Some([dim(a[0], b[0])?, dim(a[1], b[1])?])
}

/// A random program; shapes are tracked so most ops are well formed and
/// some fail (about one program in three stops at a failing op).
fn generate(rng: &mut Rng) -> Program {
    let inputs: Vec<(Shape, Vec<f32>)> = (0..4)
        .map(|_| {
            let shape = SHAPES[rng.below(SHAPES.len())];
            let values = (0..shape[0] * shape[1])
                .map(|_| {
                    if rng.chance(8) {
                        SPECIAL[rng.below(SPECIAL.len())]
                    } else {
                        (rng.below(2001) as f32 - 1000.0) / 250.0
                    }
                })
                .collect();
            (shape, values)
        })
        .collect();
    // The pool as the generator sees it: each tensor's shape and the step
    // it was made at (inputs at 0).
    let mut pool: Vec<(Shape, usize)> = inputs.iter().map(|(shape, _)| (*shape, 0)).collect();
    let mut last_read_all = 0;
    let length = if rng.chance(8) {
        260 + rng.below(400)
    } else {
        3 + rng.below(50)
    };
    let mut steps = Vec::with_capacity(length);
    for index in 1..=length {
        let pick = rng.below(pool.len());
        let shape = pool[pick].0;
        // A partner whose shape fits, most of the time.
        let partner = |rng: &mut Rng, fits: &dyn Fn(Shape) -> bool| {
            let fitting: Vec<usize> = (0..pool.len()).filter(|&i| fits(pool[i].0)).collect();
            if fitting.is_empty() || rng.chance(4) {
                rng.below(pool.len())
            } else {
                fitting[rng.below(fitting.len())]
            }
        };
        let (step, made) = match rng.below(100) {
            0..=24 => (Step::Unary(rng.below(9) as u8, pick), Some(shape)),
            25..=44 => {
                let other = partner(rng, &|s| broadcast(shape, s).is_some());
                let out = broadcast(shape, pool[other].0).unwrap_or(shape);
                (Step::Binary(rng.below(6) as u8, pick, other), Some(out))
            }
            45..=51 => (Step::Literal(rng.below(4) as u8, pick), Some(shape)),
            52..=55 => {
                let value = (rng.below(9) as f32 - 4.0) * 0.75;
                (Step::RunTimeScalar(pick, value), Some(shape))
            }
            56..=63 => {
                let other = partner(rng, &|s| s[0] == shape[1]);
                (
                    Step::Matmul(pick, other),
                    Some([shape[0], pool[other].0[1]]),
                )
            }
            64..=70 => {
                let axis0 = rng.chance(50);
                let out = if axis0 { [1, shape[1]] } else { [shape[0], 1] };
                (Step::Reduce(rng.below(3) as u8, pick, axis0), Some(out))
            }
            71..=75 => (Step::Softmax(pick, rng.chance(50)), Some(shape)),
            76..=79 => (Step::Transpose(pick), Some([shape[1], shape[0]])),
            80..=87 => (Step::Read(pick), None),
            88..=92 => {
                last_read_all = index;
                (Step::ReadAll, None)
            }
            _ => {
                let old: Vec<usize> = (0..pool.len())
                    .filter(|&i| pool[i].1 < last_read_all)
                    .collect();
                if pool.len() > 1 && !old.is_empty() {
                    let chosen = old[rng.below(old.len())];
                    pool.remove(chosen);
                    (Step::Drop(chosen), None)
                } else {
                    (Step::Read(pick), None)
                }
            }
        };
        if let Some(shape) = made {
            pool.push((shape, index));
        }
        steps.push(step);
    }
    steps.push(Step::ReadAll);
    Program { inputs, steps }
}

/// The bits of each element, so NaNs and signed zeros compare exactly.
fn bits(values: Vec<f32>) -> Vec<u32> {
    values.into_iter().map(f32::to_bits).collect()
}

/// Runs `program` in a fused or per-op scope: what it saw at each step,
/// until the first error (as `?` would stop it).
fn run(program: &Program, fused: bool) -> Vec<(usize, Seen)> {
    with_python(|py| {
        let mut pool: Vec<TensorF32Cpu2D> = program
            .inputs
            .iter()
            .map(|(shape, values)| TensorF32Cpu2D::from_slice(py, values, *shape).expect("input"))
            .collect();
        let _scope = Scope::new(fused);
        let mut seen = Vec::new();
        for (index, step) in program.steps.iter().enumerate() {
            let at = |pick: usize| &pool[pick];
            let made = match *step {
                Step::Unary(kind, a) => {
                    let x = at(a);
                    Some(match kind {
                        0 => tf!(relu(x)),
                        1 => tf!(tanh(x)),
                        2 => tf!(sigmoid(x)),
                        3 => tf!(-x),
                        4 => tf!(abs(x)),
                        5 => tf!(square(x)),
                        6 => tf!(exp(x)),
                        7 => tf!(log(x)),
                        _ => tf!(sqrt(x)),
                    })
                }
                Step::Binary(kind, a, b) => {
                    let (x, y) = (at(a), at(b));
                    Some(match kind {
                        0 => tf!(x + y),
                        1 => tf!(x - y),
                        2 => tf!(x * y),
                        3 => tf!(x / y),
                        4 => tf!(maximum(x, y)),
                        _ => tf!(minimum(x, y)),
                    })
                }
                Step::Literal(kind, a) => {
                    let x = at(a);
                    Some(match kind {
                        0 => tf!(x * 1.5),
                        1 => tf!(x + 2),
                        2 => tf!(x - 0.25),
                        _ => tf!(x / 3),
                    })
                }
                Step::RunTimeScalar(a, value) => {
                    let x = at(a);
                    Some(tf!(x * Scalar(value)))
                }
                Step::Matmul(a, b) => Some(tf!(matmul(at(a), at(b)))),
                Step::Reduce(kind, a, axis0) => {
                    let x = at(a);
                    Some(match (kind, axis0) {
                        (0, true) => tf!(reduce_sum(x, axis = 0, keepdims = true)),
                        (0, false) => tf!(reduce_sum(x, axis = 1, keepdims = true)),
                        (1, true) => tf!(reduce_mean(x, axis = 0, keepdims = true)),
                        (1, false) => tf!(reduce_mean(x, axis = -1, keepdims = true)),
                        (_, true) => tf!(reduce_max(x, axis = 0, keepdims = true)),
                        (_, false) => tf!(reduce_max(x, axis = 1, keepdims = true)),
                    })
                }
                Step::Softmax(a, axis0) => {
                    let x = at(a);
                    Some(if axis0 {
                        tf!(softmax(x, axis = 0))
                    } else {
                        tf!(softmax(x))
                    })
                }
                Step::Transpose(a) => Some(tf!(transpose(at(a)))),
                Step::Read(a) => {
                    match at(a).to_vec() {
                        Ok(values) => seen.push((index, Seen::Values(vec![bits(values)]))),
                        Err(err) => {
                            seen.push((index, Seen::Error(err.to_string())));
                            return seen;
                        }
                    }
                    None
                }
                Step::ReadAll => {
                    let mut all = Vec::with_capacity(pool.len());
                    for tensor in &pool {
                        match tensor.to_vec() {
                            Ok(values) => all.push(bits(values)),
                            Err(err) => {
                                seen.push((index, Seen::Error(err.to_string())));
                                return seen;
                            }
                        }
                    }
                    seen.push((index, Seen::Values(all)));
                    None
                }
                Step::Drop(pick) => {
                    pool.remove(pick);
                    None
                }
            };
            match made {
                Some(Ok(tensor)) => pool.push(tensor),
                Some(Err(err)) => {
                    seen.push((index, Seen::Error(err.to_string())));
                    return seen;
                }
                None => {}
            }
        }
        seen
    })
}

#[test]
fn random_programs_observe_the_same_fused_and_per_op() {
    let mut rng = Rng(SEED);
    let before = fusion::stats();
    let (mut failed, mut long) = (0, 0);
    for number in 0..PROGRAMS {
        let program = generate(&mut rng);
        long += usize::from(program.steps.len() > 256);
        let per_op = run(&program, false);
        let fused = run(&program, true);
        let stop = match per_op.last() {
            Some((step, Seen::Error(_))) => Some(*step),
            _ => None,
        };
        let Some(stop) = stop else {
            assert_eq!(fused, per_op, "program {number}: {:?}", program.steps);
            continue;
        };
        failed += 1;
        // Up to the failing op both saw the same; then the fused run's
        // first error (when a read meets it) is the per-op one.
        let before_stop = |seen: &[(usize, Seen)]| -> Vec<(usize, Seen)> {
            seen.iter()
                .filter(|(step, _)| *step < stop)
                .cloned()
                .collect()
        };
        assert_eq!(
            before_stop(&fused),
            before_stop(&per_op),
            "program {number}: {:?}",
            program.steps
        );
        let fused_error = fused.iter().find_map(|(_, seen)| match seen {
            Seen::Error(err) => Some(err),
            Seen::Values(_) => None,
        });
        let per_op_error = match per_op.last() {
            Some((_, Seen::Error(err))) => err,
            _ => unreachable!("per op stopped at an error"),
        };
        assert_eq!(
            fused_error,
            Some(per_op_error),
            "program {number}: {:?}",
            program.steps
        );
    }
    let after = fusion::stats();
    eprintln!(
        "{PROGRAMS} programs ({failed} stopped by a failing op, {long} past 256 ops): \
         {} builds, {} replays",
        after.builds - before.builds,
        after.replays - before.replays
    );
    assert!(
        failed > PROGRAMS / 10 && failed < PROGRAMS * 2 / 3,
        "{failed}"
    );
    assert!(long > PROGRAMS / 50, "{long}");
}
