//! Random programs, run fused and per op, must observe the same thing at
//! every read: the same values bit for bit, and the same error exactly
//! where per op an op failed or used a failed result. A program goes on
//! after a failing op (it keeps the error as that result), so a failure
//! must fail the results that depend on it and nothing else, whatever the
//! order results are read in and however many traces the scope ran.
//! Programs mix element-wise ops, broadcasting, matmuls, reductions,
//! softmax on either axis, literals and run-time scalars, NaN and ±inf,
//! reads of one result and of all of them in a random order, drops,
//! failing ops, and lengths past the 256-op trace limit. Each program runs
//! fused three times (the third follows the traces the second found
//! cached: the thread's templates), then again with new values and one op
//! changed, which leaves its template there. The seed is fixed.

mod common;

use common::{with_python, Rng};
use rxt_tf::fusion::{self, Scope};
use rxt_tf::ops::Scalar;
use rxt_tf::{tf, TensorF32Cpu2D};

/// Programs run by default; `RXT_TF_RANDOM_PROGRAMS` sets another number
/// (`make fuzz` runs many more).
const PROGRAMS: usize = 500;
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
    /// Reads every live result, in the order this number shuffles them.
    ReadAll(u64),
    Drop(usize),
}

#[derive(Clone)]
struct Program {
    inputs: Vec<(Shape, Vec<f32>)>,
    steps: Vec<Step>,
}

/// What a run observed of one result: its values (as bits) or its error.
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    Values(Vec<u32>),
    Error(String),
}

/// A result as the program holds it: a tensor, or the error of the op that
/// made it (or of the failed result it used), as `tf!` returned it.
type Held = Result<TensorF32Cpu2D, String>;

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
            88..=92 => (Step::ReadAll(rng.next()), None),
            _ if pool.len() > 1 => {
                pool.remove(pick);
                (Step::Drop(pick), None)
            }
            _ => (Step::Read(pick), None),
        };
        if let Some(shape) = made {
            pool.push((shape, index));
        }
        steps.push(step);
    }
    steps.push(Step::ReadAll(rng.next()));
    Program { inputs, steps }
}

/// The bits of each element, so NaNs and signed zeros compare exactly.
fn bits(values: Vec<f32>) -> Vec<u32> {
    values.into_iter().map(f32::to_bits).collect()
}

/// What reading `held` observes.
fn read(held: &Held) -> Seen {
    match held {
        Ok(tensor) => match tensor.to_vec() {
            Ok(values) => Seen::Values(bits(values)),
            Err(err) => Seen::Error(err.to_string()),
        },
        Err(err) => Seen::Error(err.clone()),
    }
}

/// A held result as an operand: its tensor, or its error to hold again.
fn operand(held: &Held) -> Result<&TensorF32Cpu2D, String> {
    held.as_ref().map_err(String::clone)
}

/// Two held results as operands: their tensors, or the error of the first
/// that failed, in order, as per op. Fused, the first may be a result
/// whose op has not run yet: when the second holds an error, the first is
/// read to learn whether its error comes first.
fn operands<'h>(
    a: &'h Held,
    b: &'h Held,
) -> Result<(&'h TensorF32Cpu2D, &'h TensorF32Cpu2D), String> {
    match (a, b) {
        (Ok(x), Ok(y)) => Ok((x, y)),
        (Err(first), _) => Err(first.clone()),
        (Ok(x), Err(second)) => Err(match x.to_vec() {
            Err(first) => first.to_string(),
            Ok(_) => second.clone(),
        }),
    }
}

/// `indices` shuffled by `seed` (Fisher–Yates).
fn shuffled(indices: std::ops::Range<usize>, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = indices.collect();
    let mut rng = Rng(seed | 1);
    for last in (1..order.len()).rev() {
        order.swap(last, rng.below(last + 1));
    }
    order
}

/// `program` with new values of the same shapes and its first unary step
/// from a random one on another unary op: the same ops up to there, then
/// another trace.
fn varied(program: &Program, rng: &mut Rng) -> Program {
    let mut varied = program.clone();
    for (_, values) in &mut varied.inputs {
        for value in values.iter_mut() {
            *value = -*value * 0.5;
        }
    }
    let from = rng.below(varied.steps.len());
    if let Some(Step::Unary(kind, _)) = varied.steps[from..]
        .iter_mut()
        .find(|step| matches!(step, Step::Unary(..)))
    {
        *kind = (*kind + 1) % 9;
    }
    varied
}

/// Runs `program` in a fused or per-op scope: every read, as (step, result
/// read, what it saw). A failing op does not stop the program: its result
/// holds the error, and an op on a failed result holds that error without
/// running (as a program that matched on each `tf!` result would).
fn run(program: &Program, fused: bool) -> Vec<(usize, usize, Seen)> {
    with_python(|py| {
        let mut pool: Vec<Held> = program
            .inputs
            .iter()
            .map(|(shape, values)| {
                TensorF32Cpu2D::from_slice(py, values, *shape).map_err(|err| err.to_string())
            })
            .collect();
        let _scope = Scope::new(fused);
        let mut seen = Vec::new();
        for (index, step) in program.steps.iter().enumerate() {
            // The operands' tensors, or the first failed operand's error.
            let made: Option<Held> = match *step {
                Step::Unary(kind, a) => Some(operand(&pool[a]).and_then(|x| {
                    match kind {
                        0 => tf!(relu(x)),
                        1 => tf!(tanh(x)),
                        2 => tf!(sigmoid(x)),
                        3 => tf!(-x),
                        4 => tf!(abs(x)),
                        5 => tf!(square(x)),
                        6 => tf!(exp(x)),
                        7 => tf!(log(x)),
                        _ => tf!(sqrt(x)),
                    }
                    .map_err(|err| err.to_string())
                })),
                Step::Binary(kind, a, b) => {
                    Some(operands(&pool[a], &pool[b]).and_then(|(x, y)| {
                        match kind {
                            0 => tf!(x + y),
                            1 => tf!(x - y),
                            2 => tf!(x * y),
                            3 => tf!(x / y),
                            4 => tf!(maximum(x, y)),
                            _ => tf!(minimum(x, y)),
                        }
                        .map_err(|err| err.to_string())
                    }))
                }
                Step::Literal(kind, a) => Some(operand(&pool[a]).and_then(|x| {
                    match kind {
                        0 => tf!(x * 1.5),
                        1 => tf!(x + 2),
                        2 => tf!(x - 0.25),
                        _ => tf!(x / 3),
                    }
                    .map_err(|err| err.to_string())
                })),
                Step::RunTimeScalar(a, value) => Some(
                    operand(&pool[a])
                        .and_then(|x| tf!(x * Scalar(value)).map_err(|err| err.to_string())),
                ),
                Step::Matmul(a, b) => Some(
                    operands(&pool[a], &pool[b])
                        .and_then(|(x, y)| tf!(matmul(x, y)).map_err(|err| err.to_string())),
                ),
                Step::Reduce(kind, a, axis0) => Some(operand(&pool[a]).and_then(|x| {
                    match (kind, axis0) {
                        (0, true) => tf!(reduce_sum(x, axis = 0, keepdims = true)),
                        (0, false) => tf!(reduce_sum(x, axis = 1, keepdims = true)),
                        (1, true) => tf!(reduce_mean(x, axis = 0, keepdims = true)),
                        (1, false) => tf!(reduce_mean(x, axis = -1, keepdims = true)),
                        (_, true) => tf!(reduce_max(x, axis = 0, keepdims = true)),
                        (_, false) => tf!(reduce_max(x, axis = 1, keepdims = true)),
                    }
                    .map_err(|err| err.to_string())
                })),
                Step::Softmax(a, axis0) => Some(operand(&pool[a]).and_then(|x| {
                    if axis0 {
                        tf!(softmax(x, axis = 0))
                    } else {
                        tf!(softmax(x))
                    }
                    .map_err(|err| err.to_string())
                })),
                Step::Transpose(a) => Some(
                    operand(&pool[a])
                        .and_then(|x| tf!(transpose(x)).map_err(|err| err.to_string())),
                ),
                Step::Read(a) => {
                    seen.push((index, a, read(&pool[a])));
                    None
                }
                Step::ReadAll(order) => {
                    for a in shuffled(0..pool.len(), order) {
                        seen.push((index, a, read(&pool[a])));
                    }
                    None
                }
                Step::Drop(pick) => {
                    drop(pool.remove(pick));
                    None
                }
            };
            if let Some(held) = made {
                pool.push(held);
            }
        }
        seen
    })
}

#[test]
fn random_programs_observe_the_same_fused_and_per_op() {
    let mut rng = Rng(SEED);
    let before = fusion::stats();
    let (mut failed, mut long, mut kept) = (0, 0, 0);
    let programs = common::count_from_env("RXT_TF_RANDOM_PROGRAMS", PROGRAMS);
    for number in 0..programs {
        let program = generate(&mut rng);
        long += usize::from(program.steps.len() > 256);
        let per_op = run(&program, false);
        let fused = run(&program, true);
        // Cached now: kept as templates, then followed.
        for again in [run(&program, true), run(&program, true)] {
            assert_eq!(again, per_op, "program {number} again: {:?}", program.steps);
        }
        let changed = varied(&program, &mut Rng(SEED ^ number as u64));
        assert_eq!(
            run(&changed, true),
            run(&changed, false),
            "program {number} changed: {:?}",
            changed.steps
        );
        let error = |(_, _, seen): &&(usize, usize, Seen)| matches!(seen, Seen::Error(_));
        if let Some(first) = per_op.iter().position(|read| error(&read)) {
            failed += 1;
            // Values read after the first error: results the failure left
            // alone (per op they hold values; fused they must too).
            kept += per_op[first..].iter().filter(|read| !error(read)).count();
        }
        for (at, (fused, per_op)) in fused.iter().zip(&per_op).enumerate() {
            assert_eq!(
                fused, per_op,
                "program {number}, read {at} (step, result, seen): {:?}",
                program.steps
            );
        }
        assert_eq!(fused.len(), per_op.len(), "program {number}");
    }
    let after = fusion::stats();
    eprintln!(
        "{programs} programs ({failed} with a failing op, {kept} values read after a failure, \
         {long} past 256 ops): {} builds, {} replays, {} followed",
        after.builds - before.builds,
        after.replays - before.replays,
        after.followed - before.followed
    );
    assert!(
        after.followed - before.followed > programs as u64,
        "templates followed"
    );
    assert!(
        failed > programs / 10 && failed < programs * 2 / 3,
        "{failed}"
    );
    assert!(kept > programs, "{kept}");
    assert!(long > programs / 50, "{long}");
}
