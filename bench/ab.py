"""Two builds of the example extension side by side, interleaved.

    python bench/ab.py BASE_DIR NEW_DIR

Each directory holds an unpacked wheel of `examples/inference-ext` (the
`rxt_tf_example` module), built from the two commits to compare, e.g.
`maturin build --release -m examples/inference-ext/Cargo.toml --out W` and
`python -m zipfile -e W/*.whl DIR`. One worker process per build and mode
(fused, and per op with `RXT_TF_FUSE=0`) and one for eager TensorFlow import
TensorFlow and wait (each kind as several processes, pooled, since one
process can run persistently faster than another); the coordinator then
asks them in a shuffled order,
round after round, for one timed sample of every case, so every build sees
the same machine state. Prints medians (µs) and ratios: new / base, and each
build to eager. The cases are the per-op floor (one `relu`), the seed chain
at 1x8 @ 8x4 (four ops) and the 10-op MLP at 4x16.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

import machine

CASES = ("relu", "seed", "mlp")
SAMPLE_SECONDS = 0.03
ROUNDS = int(os.environ.get("RXT_BENCH_ROUNDS", "25"))
# Worker processes of each kind, sampled alike and pooled: one process can
# run persistently faster than another of the same build, so one process
# per build would bias the ratio.
REPLICAS = int(os.environ.get("RXT_BENCH_REPLICAS", "4"))


def inputs(tf: Any) -> dict[str, tuple[Any, ...]]:
    """The seeded inputs of each case."""
    rng = tf.random.Generator.from_seed(7)

    def normal(*shape: int) -> Any:
        return rng.normal(shape, dtype=tf.float32)

    return {
        "relu": (normal(1, 8),),
        "seed": (normal(1, 8), normal(8, 4), normal(4)),
        "mlp": (normal(4, 16), normal(16, 16) * 0.25, normal(16)),
    }


def calls_of(kind: str, tf: Any) -> dict[str, Any]:
    """The callable of each case in a worker of `kind`."""
    if kind == "eager":

        def seed(x: Any, w: Any, b: Any) -> Any:
            return tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + b, axis=1)

        def mlp(x: Any, w: Any, b: Any) -> Any:
            h = x
            for _ in range(3):
                h = tf.nn.relu(tf.matmul(h, w) + b)
            return tf.nn.log_softmax(h)

        return {"relu": tf.nn.relu, "seed": seed, "mlp": mlp}
    import rxt_tf_example as ext

    return {
        "relu": ext.relu,
        "seed": ext.inference,
        "mlp": lambda x, w, b: ext.mlp_loop(x, w, b, 3),
    }


def worker(kind: str) -> None:
    """Answers `sample` requests on stdin with one mean time per case."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf

    data = inputs(tf)
    calls = calls_of(kind, tf)
    counts = {}
    for case in CASES:
        fn, args = calls[case], data[case]
        for _ in range(20):
            fn(*args)
        start = time.perf_counter()
        for _ in range(20):
            fn(*args)
        estimate = (time.perf_counter() - start) / 20
        counts[case] = max(5, int(SAMPLE_SECONDS / max(estimate, 1e-7)))
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "sample":
            break
        times = {}
        for case in CASES:
            fn, args, count = calls[case], data[case], counts[case]
            start = time.perf_counter()
            for _ in range(count):
                fn(*args)
            times[case] = (time.perf_counter() - start) / count
        print(json.dumps(times), flush=True)


def main() -> None:
    """Starts the workers, samples them interleaved, prints the table."""
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
        return
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    builds = {"base": sys.argv[1], "new": sys.argv[2]}
    kinds: dict[str, tuple[str | None, str]] = {"eager": (None, "1")}
    for build, path in builds.items():
        kinds[f"{build} fused"] = (path, "1")
        kinds[f"{build} per op"] = (path, "0")
    workers: dict[tuple[str, int], subprocess.Popen[str]] = {}
    for (kind, (where, fuse)), replica in itertools.product(kinds.items(), range(REPLICAS)):
        env = dict(os.environ)
        if where is not None:
            env["PYTHONPATH"] = os.path.abspath(where)
            env["RXT_TF_FUSE"] = fuse
        workers[(kind, replica)] = subprocess.Popen(
            [sys.executable, __file__, "--worker", "eager" if where is None else "ours"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
    for (kind, _), process in workers.items():
        assert process.stdout is not None
        if process.stdout.readline().strip() != "ready":
            raise SystemExit(f"worker {kind} failed to start")
    samples: dict[str, dict[str, list[float]]] = {
        kind: {case: [] for case in CASES} for kind in kinds
    }
    order = list(workers)
    for _ in range(ROUNDS):
        random.shuffle(order)
        for kind, replica in order:
            process = workers[(kind, replica)]
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write("sample\n")
            process.stdin.flush()
            for case, seconds in json.loads(process.stdout.readline()).items():
                samples[kind][case].append(seconds)
    for process in workers.values():
        assert process.stdin is not None
        process.stdin.close()
        process.wait()
    median = {
        kind: {case: statistics.median(values) for case, values in cases.items()}
        for kind, cases in samples.items()
    }
    print(f"machine: {machine.summary(machine.describe())}")
    print(
        f"{ROUNDS} interleaved rounds, {REPLICAS} processes per kind; medians in µs; "
        "ratios new/base and to eager"
    )
    header = ("case", "mode", "base", "new", "new/base", "base/eager", "new/eager")
    print("{:<6} {:<7} {:>8} {:>8} {:>9} {:>11} {:>10}".format(*header))
    for case in CASES:
        eager = median["eager"][case]
        for mode in ("fused", "per op"):
            base, new = median[f"base {mode}"][case], median[f"new {mode}"][case]
            print(
                f"{case:<6} {mode:<7} {base * 1e6:8.1f} {new * 1e6:8.1f} {new / base:9.3f} "
                f"{base / eager:11.3f} {new / eager:10.3f}"
            )
        print(f"{case:<6} {'eager':<7} {eager * 1e6:8.1f}")


if __name__ == "__main__":
    main()
