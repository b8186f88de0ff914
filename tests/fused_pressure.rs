//! Fused execution under pressure: a result held behind a user's lock,
//! reads on asynchronous threads, scopes dropped out of order, kept
//! results, replays that report the earliest failing op, and two threads
//! building traces at once (memory bounded, no spurious replays).

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{heap_in_use, patterned, rss, serial, with_python};
use pyo3::prelude::*;
use rxt_tf::fusion::{self, Scope};
use rxt_tf::{tf, TensorF32Cpu2D};

/// Runs this test binary's test `name` again in a child process with
/// `RXT_TF_TEST_CHILD` set, failing if it fails or runs past `limit`.
fn in_child(name: &str, limit: Duration) {
    let mut child = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("RXT_TF_TEST_CHILD", "1")
        .spawn()
        .expect("run the test binary");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            assert!(status.success(), "the child run of {name} failed");
            return;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name}: the child hung for {limit:?} (a deadlock)");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn is_child() -> bool {
    std::env::var_os("RXT_TF_TEST_CHILD").is_some()
}

/// A result recorded in a fused scope and then held behind a mutex: a
/// thread that locks it and adds a small tensor must not run the result's
/// large trace there (with the GIL released, under the lock), while a
/// second thread holding the GIL waits for the same lock. The scope ran the
/// trace when it closed, so both threads finish, as per op they do.
#[test]
fn a_result_held_behind_a_lock_was_computed_when_its_scope_closed() {
    if !is_child() {
        in_child(
            "a_result_held_behind_a_lock_was_computed_when_its_scope_closed",
            Duration::from_secs(300),
        );
        return;
    }
    let (held, small) = with_python(|py| {
        let big =
            TensorF32Cpu2D::from_slice(py, &vec![0.001; 1024 * 1024], [1024, 1024]).expect("big");
        let small = TensorF32Cpu2D::from_slice(py, &[1.0; 1024], [1, 1024]).expect("small");
        let held = {
            let _scope = Scope::fused();
            let h = tf!(matmul(big, big)).expect("matmul");
            let h = tf!(matmul(h, big)).expect("matmul");
            tf!(reduce_mean(h, axis = 0, keepdims = true)).expect("mean")
        };
        (Arc::new(Mutex::new(held)), small)
    });
    std::thread::scope(|scope| {
        let adder = scope.spawn(|| {
            for _ in 0..20 {
                Python::attach(|_py| {
                    let _scope = Scope::fused();
                    let guard = held.lock().expect("lock");
                    let sum = tf!(*guard + small).expect("add");
                    drop(guard);
                    assert_eq!(sum.shape().expect("shape"), vec![1, 1024]);
                });
            }
        });
        let waiter = scope.spawn(|| {
            for _ in 0..20 {
                // Holds the GIL while it waits for the lock.
                Python::attach(|_py| {
                    let guard = held.lock().expect("lock");
                    assert_eq!(guard.shape().expect("shape"), vec![1, 1024]);
                });
            }
        });
        adder.join().expect("the adding thread panicked");
        waiter.join().expect("the waiting thread panicked");
    });
}

/// Reading one promised tensor where the executor is asynchronous fails
/// for that read only: its siblings (and itself, read again on a
/// synchronous thread) get their values.
#[test]
fn a_read_refused_by_an_asynchronous_executor_poisons_no_sibling() {
    let _serial = serial();
    with_python(|py| {
        let t = TensorF32Cpu2D::from_slice(py, &[1.0, -2.0, 3.0, -4.0], [2, 2]).expect("t");
        let _scope = Scope::fused();
        let a = tf!(relu(t)).expect("relu");
        let b = tf!(abs(t)).expect("abs");
        let refused = common::in_async_scope(py, || a.to_vec());
        assert_eq!(
            refused.expect_err("asynchronous"),
            rxt_tf::Error::AsyncContext
        );
        assert_eq!(b.to_vec().expect("sibling"), vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(a.to_vec().expect("itself"), vec![1.0, 0.0, 3.0, 0.0]);
    });
}

/// Whether `tensor` is still promised (its Debug form says so without
/// running anything).
fn is_promised(tensor: &TensorF32Cpu2D) -> bool {
    format!("{tensor:?}").contains("pending: true")
}

#[test]
fn scopes_dropped_out_of_order_restore_the_mode() {
    let _serial = serial();
    with_python(|py| {
        let t = TensorF32Cpu2D::from_slice(py, &[1.0, -2.0], [1, 2]).expect("t");
        let fused = Scope::fused();
        let per_op = Scope::per_op();
        assert!(!is_promised(&tf!(relu(t)).expect("per op")));
        drop(fused);
        assert!(!is_promised(&tf!(relu(t)).expect("still per op")));
        drop(per_op);
        let outside = tf!(relu(t)).expect("outside any scope");
        assert!(
            !is_promised(&outside),
            "an op outside any scope runs at once"
        );

        let outer = Scope::per_op();
        let inner = Scope::fused();
        let recorded = tf!(relu(t)).expect("fused");
        assert!(is_promised(&recorded));
        drop(outer);
        assert!(is_promised(&tf!(relu(t)).expect("the inner scope is open")));
        drop(inner);
        assert!(
            !is_promised(&recorded),
            "closing the last scope ran the trace"
        );
        assert!(!is_promised(&tf!(relu(t)).expect("outside")));
    });
}

#[test]
fn a_scope_computes_its_tensors_when_it_closes() {
    let _serial = serial();
    with_python(|py| {
        let t = TensorF32Cpu2D::from_slice(py, &[1.0, -2.0], [1, 2]).expect("t");
        let (kept, nested) = {
            let _outer = Scope::fused();
            let kept = tf!(relu(t)).expect("relu");
            let nested = {
                let _inner = Scope::fused();
                tf!(abs(t)).expect("abs")
            };
            // The inner scope joined the outer one's trace.
            assert!(is_promised(&nested));
            let _unread = tf!(neg(t)).expect("dropped unread");
            (kept, nested)
        };
        assert!(!is_promised(&kept) && !is_promised(&nested));
        // A per-op scope inside a fused one ends the trace too.
        let _fused = Scope::fused();
        let before = tf!(tanh(t)).expect("tanh");
        assert!(is_promised(&before));
        let per_op = Scope::per_op();
        assert!(!is_promised(&before));
        drop(per_op);
    });
}

/// Kept results hold only their handle: memory per kept result is about
/// what per-op execution costs.
#[test]
fn kept_results_hold_only_their_handle() {
    let _serial = serial();
    with_python(|py| {
        let t = TensorF32Cpu2D::from_slice(py, &[1.0, -2.0, 3.0, -4.0], [1, 4]).expect("t");
        const KEPT: usize = 20_000;
        let keep = |fused: bool| {
            let before = heap_in_use();
            let kept: Vec<TensorF32Cpu2D> = (0..KEPT)
                .map(|_| {
                    let _scope = Scope::new(fused);
                    tf!(relu(t)).expect("relu")
                })
                .collect();
            let bytes = heap_in_use().saturating_sub(before) / KEPT as u64;
            (bytes, kept)
        };
        // Warm up both paths (the trace, the caches), then measure each
        // while the other's results are still held.
        drop((keep(true), keep(false)));
        let (per_op, _per_op_kept) = keep(false);
        let (fused, _fused_kept) = keep(true);
        eprintln!("bytes per kept 1x4 result: fused {fused}, per op {per_op}");
        assert!(
            fused <= per_op + 512,
            "a kept fused result costs {fused} bytes, per op {per_op}"
        );
    });
}

/// Two failing ops in one trace: each result reports its own op's error,
/// and a result that depends on neither holds its value, as per op.
#[test]
fn the_replay_gives_each_failing_op_its_own_error() {
    let _serial = serial();
    with_python(|py| {
        let a = TensorF32Cpu2D::from_slice(py, &[1.0; 6], [2, 3]).expect("a");
        let b = TensorF32Cpu2D::from_slice(py, &[1.0; 6], [3, 2]).expect("b");
        // Each op's result as the program holds it (not stopping at `?`).
        let program = || -> Vec<rxt_tf::Result<TensorF32Cpu2D>> {
            let first = tf!(relu(a));
            let wrong_matmul = tf!(matmul(a, a)); // [2, 3] @ [2, 3]
            let wrong_add = tf!(a + b); // [2, 3] + [3, 2]
            let last = tf!(abs(b));
            vec![first, wrong_add, wrong_matmul, last]
        };
        let per_op = {
            let _scope = Scope::per_op();
            program()
        };
        let per_op_add = per_op[1].as_ref().expect_err("the add fails");
        let per_op_matmul = per_op[2].as_ref().expect_err("the matmul fails");
        assert!(per_op_add.to_string().contains("add"), "{per_op_add}");
        assert!(
            per_op_matmul.to_string().contains("matmul"),
            "{per_op_matmul}"
        );
        let before = fusion::stats();
        let results = {
            let _scope = Scope::fused();
            program()
                .into_iter()
                .collect::<rxt_tf::Result<Vec<_>>>()
                .expect("recorded")
        };
        assert_eq!(fusion::stats().replays, before.replays + 1);
        // Read last to first: the order does not matter.
        assert_eq!(results[3].to_vec().expect("after both"), vec![1.0; 6]);
        assert_eq!(results[2].to_vec().expect_err("the matmul"), *per_op_matmul);
        assert_eq!(results[1].to_vec().expect_err("the add"), *per_op_add);
        assert_eq!(
            results[0].to_vec().expect("before the failures"),
            vec![1.0; 6]
        );
    });
}

/// Two threads each cycling through 600 traces of their own (so the
/// 256-entry cache evicts all the time, removing TensorFlow's call
/// wrappers) over 12,000 calls (`RXT_TF_PRESSURE_CALLS` per thread, 6,000
/// by default; `make fuzz` runs 25,000): memory stays bounded, no call is
/// replayed (no failure) and every wrapper an eviction removes is found.
/// The heap bound (8 MiB over at least 9,600 builds) catches a leak of
/// about 870 bytes per build.
#[test]
fn two_threads_building_traces_stay_bounded_without_replays() {
    let _serial = serial();
    let x = with_python(|py| TensorF32Cpu2D::from_slice(py, &[0.5, -0.5, 1.5], [1, 3]).expect("x"));
    let run = |x: &TensorF32Cpu2D, calls: u32| {
        std::thread::scope(|scope| {
            for thread in 0..2_u32 {
                scope.spawn(move || {
                    for call in 0..calls {
                        let bits = thread * 600 + call % 600;
                        let _scope = Scope::fused();
                        let out = patterned(x, bits, 11).expect("fused");
                        assert_eq!(out.to_vec().expect("read").len(), 3);
                    }
                });
            }
        });
    };
    let calls: u32 = common::count_from_env("RXT_TF_PRESSURE_CALLS", 6_000);
    run(&x, 1_200);
    let (before, heap_before, start) = (rss(), heap_in_use(), fusion::stats());
    run(&x, calls);
    let (grown, end) = (rss().saturating_sub(before), fusion::stats());
    let heap_grown = heap_in_use().saturating_sub(heap_before);
    eprintln!(
        "2 threads, {} calls, {} builds: RSS +{} KiB, heap +{} KiB, {:?}",
        2 * calls,
        end.builds - start.builds,
        grown >> 10,
        heap_grown >> 10,
        end
    );
    // Most calls build: each thread's 600 traces cycle through a cache of
    // 256 shared by both.
    assert!(
        end.builds - start.builds >= u64::from(calls) * 8 / 5,
        "{end:?}"
    );
    assert_eq!(end.replays, start.replays, "no fused call failed");
    assert_eq!(end.wrappers_kept, start.wrappers_kept, "{end:?}");
    assert!(end.cached <= fusion::TRACE_CAPACITY, "{end:?}");
    assert!(grown < 16 << 20, "RSS grew by {grown} bytes");
    assert!(heap_grown < 8 << 20, "the heap grew by {heap_grown} bytes");
}
