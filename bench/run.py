"""`make bench`: the seed's inference chain, interleaved, beside eager TF and the peer.

A second chain, a classifier head (matmul → bias_add → tanh → matmul → + →
softmax), and a third, a 10-op looped MLP (three times relu(h @ w + b), then
log-softmax, at 4x16), run the same way beside their own eager and `tf.function`
versions. Each of our builds runs fused (one TensorFlow call per Python call)
and, in worker processes started with `RXT_TF_FUSE=0`, per op.

The coordinator (this script without arguments) starts one worker process per
alternative (`--worker NAME`); workers import TensorFlow, prepare the same
seeded inputs and wait. The coordinator then asks them in turn, round after
round, for one timed sample each, so every alternative sees the same machine
state; it reports medians and p25-p75 per size, the GIL stall of a concurrent
Python thread during a 2048x2048 chain, and the `rextio build` wall time of
the seed project with our plugin and with the published one.

Writes bench/results/latest.json (with the machine: CPU, AVX-512, oneDNN),
latest.md and latest.png.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import machine

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
OURS_PROJECT = ROOT / "examples" / "rextio-project"
PUBLISHED_PROJECT = ROOT / "bench" / "projects" / "published"
PUBLISHED_PATH = ROOT / ".venv" / "bench-published"

SIZES = [(1, 8, 4), (32, 64, 32), (256, 256, 256), (1024, 1024, 1024)]
MLP_SIZES = [(4, 16, 16)]
MLP_LAYERS = 3
STALL_SIZE = (2048, 2048, 2048)
SAMPLE_SECONDS = 0.03
PAUSE_SECONDS = 0.02
ROUNDS = int(os.environ.get("RXT_BENCH_ROUNDS", "15"))
# Worker processes of each kind, sampled alike and pooled: one process can run
# a size persistently faster than another (by up to 2x at 256x256 here, the
# same for every alternative in that process), so alternatives in separate
# single processes would get biased ratios.
REPLICAS = int(os.environ.get("RXT_BENCH_REPLICAS", "4"))

ALTERNATIVES = {
    "eager": "Python eager TF",
    "tf_function": "tf.function (traced)",
    "ours_macro": "rxt-tf macro extension, fused",
    "ours_macro_per_op": "rxt-tf macro extension, per op",
    "ours_rextio": "rxt-tf Rextio build, fused",
    "ours_rextio_per_op": "rxt-tf Rextio build, per op",
    "published": "rextio-tensorflow 0.1.3 build",
    "floor": "runtime floor, per op (no boundary)",
    "fused_floor": "runtime floor, fused (no boundary)",
    "boundary": "boundary only (3 in, 1 out)",
    "head_eager": "head: Python eager TF",
    "head_tf_function": "head: tf.function (traced)",
    "head_ours_macro": "head: rxt-tf macro, fused",
    "head_ours_macro_per_op": "head: rxt-tf macro, per op",
    "mlp_eager": "MLP: Python eager TF",
    "mlp_tf_function": "MLP: tf.function (traced)",
    "mlp_ours_macro": "MLP: rxt-tf macro, fused",
    "mlp_ours_macro_per_op": "MLP: rxt-tf macro, per op",
}
PER_OP = "_per_op"


def chain_of(name: str) -> str:
    """The chain an alternative runs: `seed`, `head` or `mlp`."""
    return name.split("_", 1)[0] if name.startswith(("head_", "mlp_")) else "seed"


EAGER_OF = {"seed": "eager", "head": "head_eager", "mlp": "mlp_eager"}
SIZES_OF = {"seed": SIZES, "head": SIZES, "mlp": MLP_SIZES}
STALL_ALTERNATIVES = ["eager", "ours_macro", "ours_macro_per_op", "ours_rextio", "published"]


def process_of(name: str) -> str:
    """The worker process kind of an alternative.

    Per-op builds run in processes with `RXT_TF_FUSE=0`; the published build
    needs its own (its module names are the ones our Rextio build uses). The
    others share one process and its inputs, so they see the same memory layout.
    """
    if name == "published":
        return "published"
    return "perop" if name.endswith(PER_OP) else "main"


# --------------------------------------------------------------------------- worker


def chain_eager(tf: Any) -> Any:
    """The seed's chain in plain eager TensorFlow."""

    def inference(x: Any, weight: Any, bias: Any) -> Any:
        h = tf.matmul(x, weight)
        h = tf.nn.relu(h)
        h = h + bias
        return tf.reduce_mean(h, axis=1)

    return inference


def head_eager(tf: Any) -> Any:
    """The classifier head in plain eager TensorFlow."""

    def classifier_head(x: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
        h = tf.nn.tanh(tf.nn.bias_add(tf.matmul(x, w1), b1))
        return tf.nn.softmax(tf.matmul(h, w2) + b2)

    return classifier_head


def mlp_eager(tf: Any) -> Any:
    """The looped MLP in plain eager TensorFlow."""

    def mlp(x: Any, w: Any, b: Any) -> Any:
        h = x
        for _ in range(MLP_LAYERS):
            h = tf.nn.relu(tf.matmul(h, w) + b)
        return tf.nn.log_softmax(h)

    return mlp


def load_callable(name: str, tf: Any) -> Any:
    """The function under test; the floors return seconds per call themselves.

    A per-op alternative is the same function, in a process without fusion.
    """
    name = name.removesuffix(PER_OP)
    if name == "mlp_eager":
        return mlp_eager(tf)
    if name == "mlp_tf_function":
        return tf.function(mlp_eager(tf))
    if name == "mlp_ours_macro":
        import rxt_tf_example as ext

        return lambda x, w, b: ext.mlp_loop(x, w, b, MLP_LAYERS)
    if name == "eager":
        return chain_eager(tf)
    if name == "tf_function":
        return tf.function(chain_eager(tf))
    if name == "head_eager":
        return head_eager(tf)
    if name == "head_tf_function":
        return tf.function(head_eager(tf))
    if name == "head_ours_macro":
        import rxt_tf_example as ext

        return ext.classifier_head
    if name in ("ours_macro", "floor", "fused_floor", "boundary"):
        import rxt_tf_example as ext

        return {
            "ours_macro": ext.inference,
            "floor": ext.chain_floor_seconds,
            "fused_floor": ext.fused_floor_seconds,
            "boundary": ext.boundary_only,
        }[name]
    project = OURS_PROJECT if name == "ours_rextio" else PUBLISHED_PROJECT
    sys.path.insert(0, str(project / ".rextio" / "build" / "python"))
    import seed_model

    return seed_model.inference


def inputs(tf: Any, size: tuple[int, int, int], chain: str = "seed") -> tuple[Any, ...]:
    """Seeded float32 inputs for `size` = (m, k, n) and `chain`.

    The seed chain takes `x`, `weight`, `bias`; the head `x`, `w1` (k×n),
    `b1`, `w2` (n×n), `b2`; the MLP `x`, `w` (k×k), `b`. The head's and the
    MLP's are scaled so their values stay moderate.
    """
    import numpy as np

    m, k, n = size
    rng = np.random.default_rng(m * 7 + k)
    shapes = {
        "seed": [(m, k), (k, n), (n,)],
        "head": [(m, k), (k, n), (n,), (n, n), (n,)],
        "mlp": [(m, k), (k, k), (k,)],
    }[chain]
    return tuple(
        tf.constant((rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32))
        if chain != "seed"
        else tf.constant(rng.standard_normal(shape).astype(np.float32))
        for shape in shapes
    )


def worker(kind: str) -> None:
    """Serves timing requests for every alternative of its process `kind`."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ["REXTIO_NATIVE_MODE"] = "native"
    import numpy as np
    import tensorflow as tf

    names = [name for name in ALTERNATIVES if process_of(name) == kind]
    fns = {name: load_callable(name, tf) for name in names}
    references = {"seed": chain_eager(tf), "head": head_eager(tf), "mlp": mlp_eager(tf)}
    data = {
        (chain, size): inputs(tf, size, chain) for chain in references for size in SIZES_OF[chain]
    }
    calls: dict[tuple[str, tuple[int, int, int]], int] = {}

    def timed(name: str, size: tuple[int, int, int], count: int) -> float:
        fn, args = fns[name], data[(chain_of(name), size)]
        if name in ("floor", "fused_floor"):
            return float(fn(*args, count))
        start = time.perf_counter()
        for _ in range(count):
            fn(*args)
        return (time.perf_counter() - start) / count

    for name in names:  # warm up, check, and pick the calls per sample
        for size in SIZES_OF[chain_of(name)]:
            args = data[(chain_of(name), size)]
            if name not in ("floor", "fused_floor", "boundary"):
                got, want = fns[name](*args), references[chain_of(name)](*args)
                diff = float(np.max(np.abs(got.numpy() - want.numpy())))
                if diff > 1e-3 * max(1.0, float(np.max(np.abs(want.numpy())))):
                    raise SystemExit(f"{name} differs from eager at {size}: {diff}")
            for _ in range(3):  # first calls build kernels and caches
                timed(name, size, 1)
            estimate = timed(name, size, 5)
            count = max(3, min(20000, int(SAMPLE_SECONDS / max(estimate, 1e-7))))
            calls[(name, size)] = count
            timed(name, size, count)
    print(json.dumps({"ready": kind}), flush=True)

    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "time":
            key = (request["name"], tuple(request["size"]))
            seconds = timed(key[0], key[1], calls[key])  # type: ignore[arg-type]
            print(json.dumps({"seconds": seconds}), flush=True)
        elif request["cmd"] == "stall":
            args = inputs(tf, STALL_SIZE)
            print(json.dumps(stall(fns[request["name"]], args)), flush=True)
        elif request["cmd"] == "first_call":
            print(json.dumps(first_calls(tf)), flush=True)
        elif request["cmd"] == "quit":
            return


def first_calls(tf: Any) -> dict[str, Any]:
    """Milliseconds of the first call of 20 new traces, and of the second.

    The first builds the function, adds it to the context and has TensorFlow
    run it for the first time: `deep_inference` at depths 1-10, relu and
    sigmoid (4 to 22 ops), on 4x16 inputs.
    """
    import rxt_tf_example as ext

    x, w, b = inputs(tf, (4, 16, 16), "mlp")
    first, second = [], []
    for depth in range(1, 11):
        for use_relu in (True, False):
            for times in (first, second):
                start = time.perf_counter()
                ext.deep_inference(x, w, b, depth, use_relu)
                times.append(1e3 * (time.perf_counter() - start))
    return {
        "first_ms_median": statistics.median(first),
        "first_ms_max": max(first),
        "second_ms_median": statistics.median(second),
        "first_ms": [round(t, 3) for t in first],
    }


def stall(fn: Any, args: tuple[Any, ...], runs: int = 3) -> dict[str, float]:
    """Longest gap a pure-Python thread sees while `fn(*args)` runs."""
    fn(*args)  # warm up
    worst_gaps, call_seconds = [], []
    for _ in range(runs):
        stop = threading.Event()
        worst = [0.0]

        def spin(stop: threading.Event = stop, worst: list[float] = worst) -> None:
            last = time.perf_counter()
            while not stop.is_set():
                now = time.perf_counter()
                worst[0] = max(worst[0], now - last)
                last = now

        spinner = threading.Thread(target=spin)
        spinner.start()
        time.sleep(0.05)
        worst[0] = 0.0
        start = time.perf_counter()
        fn(*args)
        call_seconds.append(time.perf_counter() - start)
        stop.set()
        spinner.join()
        worst_gaps.append(worst[0])
    return {
        "stall_ms": 1e3 * statistics.median(worst_gaps),
        "stall_ms_max": 1e3 * max(worst_gaps),
        "call_ms": 1e3 * statistics.median(call_seconds),
    }


# ---------------------------------------------------------------------- coordinator


class Worker:
    """One worker process."""

    def __init__(self, kind: str) -> None:
        """Starts a worker process of `kind` (see process_of)."""
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
        if kind == "published":
            env["PYTHONPATH"] = str(PUBLISHED_PATH)
        if kind == "perop":
            env["RXT_TF_FUSE"] = "0"
        self.name = kind
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", kind],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )

    def read(self) -> dict[str, Any]:
        """The worker's next JSON reply."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"bench worker {self.name} exited early")
        return json.loads(line)  # type: ignore[no-any-return]

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Sends `request` and returns the reply."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self.read()

    def close(self) -> None:
        """Asks the worker to quit and waits for it."""
        if self.process.poll() is None and self.process.stdin is not None:
            self.process.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
            self.process.stdin.flush()
        self.process.wait(timeout=60)


def rextio_build(project: Path, extra_path: Path | None = None) -> float:
    """Wall seconds of `rextio build .` in `project` (extra_path on PYTHONPATH)."""
    env = dict(os.environ)
    if extra_path is not None:
        env["PYTHONPATH"] = str(extra_path)
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "rextio.cli.main", "build", "."],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if out.returncode != 0 or "native build: built" not in out.stdout:
        raise SystemExit(f"rextio build failed in {project}:\n{out.stdout}\n{out.stderr}")
    return seconds


def quantiles(values: list[float]) -> dict[str, float]:
    """Median and p25/p75 of `values` (seconds) in microseconds."""
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return {"median_us": 1e6 * q[1], "p25_us": 1e6 * q[0], "p75_us": 1e6 * q[2]}


def coordinate() -> None:
    """Runs the benchmark and writes the results."""
    only = os.environ.get("RXT_BENCH_ONLY")  # diagnosis: a comma-separated subset
    if only:
        for name in set(ALTERNATIVES) - set(only.split(",")):
            del ALTERNATIVES[name]
    build_seconds: dict[str, list[float]] = {"ours": [], "published": []}
    print("bench: building the seed project with rextio (ours, published, twice each)")
    subprocess.run(
        [sys.executable, "-m", "rxt_tf_plugin", "setup", str(OURS_PROJECT)],
        check=True,
        capture_output=True,
    )
    for _ in range(0 if only else 2):
        build_seconds["ours"].append(rextio_build(OURS_PROJECT))
        build_seconds["published"].append(rextio_build(PUBLISHED_PROJECT, PUBLISHED_PATH))

    kinds = sorted({process_of(name) for name in ALTERNATIVES})
    print(f"bench: starting {REPLICAS} worker processes of each kind: {', '.join(kinds)}")
    workers = {(kind, r): Worker(kind) for kind in kinds for r in range(REPLICAS)}
    try:
        for w in workers.values():
            w.read()
        samples: dict[str, dict[str, list[float]]] = {
            name: {label(size): [] for size in SIZES_OF[chain_of(name)]} for name in ALTERNATIVES
        }
        print(f"bench: {ROUNDS} interleaved rounds")
        for _ in range(ROUNDS):
            # Every (size, alternative) once per round, in a fresh random order,
            # so no alternative or size always follows the same neighbour.
            turns = [
                (s, n, r)
                for n in ALTERNATIVES
                for s in SIZES_OF[chain_of(n)]
                for r in range(REPLICAS)
            ]
            random.shuffle(turns)
            for size, name, replica in turns:
                # Let the previous worker's TensorFlow threads go idle (they
                # spin a little after work) before the next sample.
                time.sleep(PAUSE_SECONDS)
                request = {"cmd": "time", "name": name, "size": list(size)}
                seconds = workers[(process_of(name), replica)].ask(request)["seconds"]
                samples[name][label(size)].append(seconds)
        stalls = {}
        for name in [n for n in STALL_ALTERNATIVES if n in ALTERNATIVES]:
            time.sleep(PAUSE_SECONDS)
            stalls[name] = workers[(process_of(name), 0)].ask({"cmd": "stall", "name": name})
        first_call = workers[("main", 0)].ask({"cmd": "first_call"}) if not only else {}
    finally:
        for w in workers.values():
            w.close()

    if only:
        for name, by_size in samples.items():
            for size, values in by_size.items():
                print(name, size, " ".join(f"{1e6 * v:.1f}" for v in values))
        return
    report = summarize(samples, stalls, build_seconds, first_call)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(report, indent=2) + "\n")
    (RESULTS / "latest.md").write_text(
        machine.summary(report["machine"]) + "\n\n" + markdown(report)
    )
    print_table(report)
    plot(report)


def label(size: tuple[int, int, int]) -> str:
    """`mxk@kxn`."""
    m, k, n = size
    return f"{m}x{k}@{k}x{n}"


def summarize(
    samples: dict[str, dict[str, list[float]]],
    stalls: dict[str, dict[str, float]],
    build_seconds: dict[str, list[float]],
    first_call: dict[str, Any],
) -> dict[str, Any]:
    """The report: quantiles, samples, ratios, stalls, first calls, build times."""
    latency = {
        name: {size: quantiles(values) for size, values in by_size.items()}
        for name, by_size in samples.items()
    }
    med = {
        name: {size: q["median_us"] for size, q in by_size.items()}
        for name, by_size in latency.items()
    }
    ratios: dict[str, dict[str, float]] = {}
    for name, by_size in med.items():
        eager = EAGER_OF[chain_of(name)]
        for size, value in by_size.items():
            row = ratios.setdefault(size, {})
            row[f"{name}/{eager}"] = value / med[eager][size]
            if name + PER_OP in med:
                row[f"{name}/{name}{PER_OP}"] = value / med[name + PER_OP][size]
    for size in med["eager"]:
        row = ratios[size]
        row["ours_macro/published"] = med["ours_macro"][size] / med["published"][size]
        row["ours_rextio/published"] = med["ours_rextio"][size] / med["published"][size]
        row["fused_floor/floor"] = med["fused_floor"][size] / med["floor"][size]
        row["ours_macro/(floor+boundary)"] = med["ours_macro"][size] / (
            med["floor"][size] + med["boundary"][size]
        )
    builds = {name: statistics.median(values) for name, values in build_seconds.items()}
    return {
        "command": "make bench",
        "machine": machine.describe(),
        "rounds": ROUNDS,
        "replicas": REPLICAS,
        "alternatives": ALTERNATIVES,
        "latency": latency,
        "samples_us": {
            name: {size: [round(1e6 * v, 2) for v in values] for size, values in by_size.items()}
            for name, by_size in samples.items()
        },
        "ratios": ratios,
        "gil_stall_2048": stalls,
        "first_call_of_a_new_trace": first_call,
        "rextio_build_seconds": {
            "ours": build_seconds["ours"],
            "published": build_seconds["published"],
            "median_ours": builds["ours"],
            "median_published": builds["published"],
            "ours/published": builds["ours"] / builds["published"],
        },
    }


def cell(report: dict[str, Any], name: str, size: str) -> str:
    """`median (ratio to eager×[, to per-op])` for one alternative and size."""
    median = report["latency"][name][size]["median_us"]
    text = f"{median / 1e3:.2f} ms" if median >= 1000 else f"{median:.1f}"
    ratios = report["ratios"][size]
    parts = [f"{ratios[f'{name}/{EAGER_OF[chain_of(name)]}']:.2f}× eager"]
    if f"{name}/{name}{PER_OP}" in ratios:
        parts.append(f"{ratios[f'{name}/{name}{PER_OP}']:.2f}× per op")
    return f"{text} ({', '.join(parts)})"


def markdown(report: dict[str, Any]) -> str:
    """The results as the README's tables (one per chain)."""
    lines = []
    for chain, title in (
        ("seed", "seed chain (matmul → relu → + bias → mean)"),
        ("head", "classifier head (6 ops)"),
        ("mlp", f"looped MLP ({3 * MLP_LAYERS + 1} ops)"),
    ):
        sizes = [label(size) for size in SIZES_OF[chain]]
        names = [name for name in ALTERNATIVES if chain_of(name) == chain]
        lines.append(
            f"| {title}: µs per call, median | " + " | ".join(f"`{s}`" for s in sizes) + " |"
        )
        lines.append("| --- |" + " --- |" * len(sizes))
        for name in names:
            lines.append(
                f"| {ALTERNATIVES[name]} | "
                + " | ".join(cell(report, name, s) for s in sizes)
                + " |"
            )
        lines.append("")
    return "\n".join(lines)


def print_table(report: dict[str, Any]) -> None:
    """Prints the results tables and the other measurements."""
    print("\n" + markdown(report))
    for size, r in report["ratios"].items():
        if "ours_macro/published" in r:
            print(
                f"{size:>22}: fused floor / per-op floor {r['fused_floor/floor']:.2f}, "
                f"macro/published {r['ours_macro/published']:.2f}, "
                f"rextio/published {r['ours_rextio/published']:.2f}"
            )
    print("\nGIL: longest stall of a pure-Python thread during a 2048x2048 chain")
    for name, stall_ in report["gil_stall_2048"].items():
        print(
            f"  {ALTERNATIVES[name]:36} {stall_['stall_ms']:7.1f} ms "
            f"(max {stall_['stall_ms_max']:.1f}; call {stall_['call_ms']:.0f} ms)"
        )
    first = report["first_call_of_a_new_trace"]
    print(
        f"\nfirst call of a new trace: median {first['first_ms_median']:.2f} ms, "
        f"max {first['first_ms_max']:.2f} ms (second call {first['second_ms_median']:.3f} ms)"
    )
    b = report["rextio_build_seconds"]
    print(
        f"\nrextio build (seed project): ours {b['median_ours']:.1f} s, published "
        f"{b['median_published']:.1f} s ({b['ours/published']:.2f}x)"
    )
    print(machine.summary(report["machine"]))


def plot(report: dict[str, Any]) -> None:
    """Draws latest.png: latency by size, log scale, one line per alternative."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [label(size) for size in SIZES]
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for name, title in ALTERNATIVES.items():
        if chain_of(name) != "seed":
            continue
        meds = [report["latency"][name][s]["median_us"] for s in sizes]
        lows = [report["latency"][name][s]["p25_us"] for s in sizes]
        highs = [report["latency"][name][s]["p75_us"] for s in sizes]
        ax.plot(sizes, meds, marker="o", label=title)
        ax.fill_between(sizes, lows, highs, alpha=0.15)
    ax.set_yscale("log")
    ax.set_ylabel("µs per call (median; band p25-p75)")
    ax.set_xlabel("x @ weight (the seed's matmul → relu → + bias → mean(axis=1))")
    m = report["machine"]
    ax.set_title(f"rxt-tf bench — {m['cpu_model']}, {m['logical_cpus']} CPUs")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(RESULTS / "latest.png", dpi=110)


def main() -> None:
    """`--worker KIND` serves as a worker; no argument coordinates."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
    else:
        coordinate()


if __name__ == "__main__":
    main()
