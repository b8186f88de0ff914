//! Memory of the litert backend stays flat: 100,000 calls of a fused trace
//! and of a `Function` in a litert scope (a test binary of its own, so no
//! other test's allocations move the process's resident size).

mod common;

use common::{heap_in_use, named_inputs, rss, with_python};
use pyo3::prelude::*;
use rxt_tf::fusion::{stats, Scope};
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

/// A fused two-op body on the litert backend.
#[rxt_tf::inference(backend = "litert")]
fn dense(
    x: &TensorF32Cpu2D,
    w: &TensorF32Cpu2D,
    b: &TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    let y = tf!(matmul(x, w))?;
    let z = tf!(y + b)?;
    tf!(relu(z))
}

const INPUTS: &str = "
x = tf.reshape(tf.sin(tf.range(8.0) * 0.7), (1, 8))
w = tf.reshape(tf.sin(tf.range(40.0) * 1.3) * 0.5, (8, 5))
b = tf.constant([0.1, -0.2, 0.3, -0.4, 0.5])
function = tf.function(lambda v: tf.nn.relu(tf.matmul(v, w) + b)).get_concrete_function(tf.TensorSpec([None, 8]))
";

#[test]
fn a_hundred_thousand_litert_calls_keep_memory_flat() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let get =
            |name: &str| -> &Bound<'_, PyAny> { &i.iter().find(|(n, _)| n == name).expect(name).1 };
        let x: TensorF32Cpu2D = get("x").extract().expect("x");
        let w: TensorF32Cpu2D = get("w").extract().expect("w");
        let b: TensorF32Cpu1D = get("b").extract().expect("b");
        let function: rxt_tf::Function = get("function").extract().expect("function");
        let expected = dense(&x, &w, &b).expect("first").to_vec().expect("read");
        let run = |calls: usize| {
            for _ in 0..calls {
                let y = dense(&x, &w, &b).expect("trace");
                let z: TensorF32Cpu2D = {
                    let _litert = Scope::litert();
                    function.call((&x,)).expect("function")
                };
                assert_eq!(y.to_vec().expect("read").len(), 5);
                assert_eq!(z.to_vec().expect("read").len(), 5);
            }
        };
        py.detach(|| run(5_000));
        let (before, heap_before, start) = (rss(), heap_in_use(), stats());
        py.detach(|| run(50_000));
        let (grown, end) = (rss().saturating_sub(before), stats());
        let heap_grown = heap_in_use().saturating_sub(heap_before);
        eprintln!(
            "100,000 litert calls: RSS +{} KiB, heap +{} KiB, {end:?}",
            grown >> 10,
            heap_grown >> 10
        );
        assert_eq!(end.litert_calls - start.litert_calls, 100_000);
        assert_eq!(end.litert_fallbacks, start.litert_fallbacks);
        assert_eq!(end.litert_compiles, start.litert_compiles);
        assert_eq!(
            dense(&x, &w, &b).expect("last").to_vec().expect("read"),
            expected
        );
        assert!(grown < 16 << 20, "RSS grew by {grown} bytes");
        assert!(heap_grown < 8 << 20, "the heap grew by {heap_grown} bytes");
    });
}
