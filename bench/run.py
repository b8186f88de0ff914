"""`make bench`: the seed's inference chain, interleaved, beside eager TF and the peer.

A second chain, a classifier head (matmul → bias_add → tanh → matmul → + →
softmax), runs the same way beside its own eager and `tf.function` versions.

The coordinator (this script without arguments) starts one worker process per
alternative (`--worker NAME`); workers import TensorFlow, prepare the same
seeded inputs and wait. The coordinator then asks them in turn, round after
round, for one timed sample each, so every alternative sees the same machine
state; it reports medians and p25-p75 per size, the GIL stall of a concurrent
Python thread during a 2048x2048 chain, and the `rextio build` wall time of
the seed project with our plugin and with the published one.

Writes bench/results/latest.json and bench/results/latest.png.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
OURS_PROJECT = ROOT / "examples" / "rextio-project"
PUBLISHED_PROJECT = ROOT / "bench" / "projects" / "published"
PUBLISHED_PATH = ROOT / ".venv" / "bench-published"

SIZES = [(1, 8, 4), (32, 64, 32), (256, 256, 256), (1024, 1024, 1024)]
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
    "ours_macro": "rxt-tf macro extension",
    "ours_rextio": "rxt-tf Rextio build",
    "published": "rextio-tensorflow 0.1.3 build",
    "floor": "runtime floor (no boundary)",
    "boundary": "boundary only (3 in, 1 out)",
    "head_eager": "head: Python eager TF",
    "head_tf_function": "head: tf.function (traced)",
    "head_ours_macro": "head: rxt-tf macro extension",
}
# Which chain each alternative runs; ratios are to that chain's eager.
CHAIN_OF = {name: "head" if name.startswith("head_") else "seed" for name in ALTERNATIVES}
EAGER_OF = {"seed": "eager", "head": "head_eager"}
STALL_ALTERNATIVES = ["eager", "ours_macro", "ours_rextio", "published"]
# Alternatives share one process (and its input tensors), so they see the same
# memory layout; the published build needs its own (its module names are the
# ones our Rextio build uses).
PROCESS_OF = {name: "published" if name == "published" else "main" for name in ALTERNATIVES}


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


def load_callable(name: str, tf: Any) -> Any:
    """The function under test; `floor` returns seconds per call itself."""
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
    if name in ("ours_macro", "floor", "boundary"):
        import rxt_tf_example as ext

        return {
            "ours_macro": ext.inference,
            "floor": ext.chain_floor_seconds,
            "boundary": ext.boundary_only,
        }[name]
    project = OURS_PROJECT if name == "ours_rextio" else PUBLISHED_PROJECT
    sys.path.insert(0, str(project / ".rextio" / "build" / "python"))
    import seed_model

    return seed_model.inference


def inputs(tf: Any, size: tuple[int, int, int], chain: str = "seed") -> tuple[Any, ...]:
    """Seeded float32 inputs for `size` = (m, k, n) and `chain`.

    The seed chain takes `x`, `weight`, `bias`; the head `x`, `w1` (k×n),
    `b1`, `w2` (n×n), `b2`, scaled so its logits stay moderate.
    """
    import numpy as np

    m, k, n = size
    rng = np.random.default_rng(m * 7 + k)
    shapes = [(m, k), (k, n), (n,)] + ([(n, n), (n,)] if chain == "head" else [])
    return tuple(
        tf.constant((rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32))
        if chain == "head"
        else tf.constant(rng.standard_normal(shape).astype(np.float32))
        for shape in shapes
    )


def worker(kind: str) -> None:
    """Serves timing requests for every alternative of its process `kind`."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ["REXTIO_NATIVE_MODE"] = "native"
    import numpy as np
    import tensorflow as tf

    names = [name for name in ALTERNATIVES if PROCESS_OF[name] == kind]
    fns = {name: load_callable(name, tf) for name in names}
    references = {"seed": chain_eager(tf), "head": head_eager(tf)}
    data = {(chain, size): inputs(tf, size, chain) for chain in references for size in SIZES}
    calls: dict[tuple[str, tuple[int, int, int]], int] = {}

    def timed(name: str, size: tuple[int, int, int], count: int) -> float:
        fn, args = fns[name], data[(CHAIN_OF[name], size)]
        if name == "floor":
            return float(fn(*args, count))
        start = time.perf_counter()
        for _ in range(count):
            fn(*args)
        return (time.perf_counter() - start) / count

    for name in names:  # warm up, check, and pick the calls per sample
        for size in SIZES:
            args = data[(CHAIN_OF[name], size)]
            if name not in ("floor", "boundary"):
                got, want = fns[name](*args), references[CHAIN_OF[name]](*args)
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
        elif request["cmd"] == "quit":
            return


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
        """Starts a worker process of `kind` (see PROCESS_OF)."""
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
        if kind == "published":
            env["PYTHONPATH"] = str(PUBLISHED_PATH)
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


def machine() -> dict[str, Any]:
    """The machine the numbers come from."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu_model": model,
        "logical_cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }


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

    kinds = sorted({PROCESS_OF[name] for name in ALTERNATIVES})
    print(f"bench: starting {REPLICAS} worker processes of each kind: {', '.join(kinds)}")
    workers = {(kind, r): Worker(kind) for kind in kinds for r in range(REPLICAS)}
    try:
        for w in workers.values():
            w.read()
        samples: dict[str, dict[str, list[float]]] = {
            name: {f"{m}x{k}@{k}x{n}": [] for m, k, n in SIZES} for name in ALTERNATIVES
        }
        print(f"bench: {ROUNDS} interleaved rounds")
        for _ in range(ROUNDS):
            # Every (size, alternative) once per round, in a fresh random order,
            # so no alternative or size always follows the same neighbour.
            turns = [(s, n, r) for s in SIZES for n in ALTERNATIVES for r in range(REPLICAS)]
            random.shuffle(turns)
            for size, name, replica in turns:
                # Let the previous worker's TensorFlow threads go idle (they
                # spin a little after work) before the next sample.
                time.sleep(PAUSE_SECONDS)
                request = {"cmd": "time", "name": name, "size": list(size)}
                seconds = workers[(PROCESS_OF[name], replica)].ask(request)["seconds"]
                samples[name][label(size)].append(seconds)
        stalls = {}
        for name in [n for n in STALL_ALTERNATIVES if n in ALTERNATIVES]:
            time.sleep(PAUSE_SECONDS)
            stalls[name] = workers[(PROCESS_OF[name], 0)].ask({"cmd": "stall", "name": name})
    finally:
        for w in workers.values():
            w.close()

    if only:
        for name, by_size in samples.items():
            for size, values in by_size.items():
                print(name, size, " ".join(f"{1e6 * v:.1f}" for v in values))
        return
    report = summarize(samples, stalls, build_seconds)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(report, indent=2) + "\n")
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
) -> dict[str, Any]:
    """The report: quantiles, raw samples, ratios, stalls and build times."""
    sizes = [label(size) for size in SIZES]
    latency = {
        name: {size: quantiles(samples[name][size]) for size in sizes} for name in ALTERNATIVES
    }
    med = {name: {size: latency[name][size]["median_us"] for size in sizes} for name in latency}
    ratios = {}
    for size in sizes:
        floor_plus_boundary = med["floor"][size] + med["boundary"][size]
        ratios[size] = {
            **{
                f"{name}/{EAGER_OF[CHAIN_OF[name]]}": med[name][size]
                / med[EAGER_OF[CHAIN_OF[name]]][size]
                for name in ALTERNATIVES
            },
            "ours_macro/published": med["ours_macro"][size] / med["published"][size],
            "ours_rextio/published": med["ours_rextio"][size] / med["published"][size],
            "floor+boundary_us": floor_plus_boundary,
            "ours_macro/(floor+boundary)": med["ours_macro"][size] / floor_plus_boundary,
            "ours_rextio/(floor+boundary)": med["ours_rextio"][size] / floor_plus_boundary,
        }
    builds = {name: statistics.median(values) for name, values in build_seconds.items()}
    return {
        "command": "make bench",
        "machine": machine(),
        "rounds": ROUNDS,
        "replicas": REPLICAS,
        "alternatives": ALTERNATIVES,
        "latency": latency,
        "samples_us": {
            name: {size: [round(1e6 * v, 2) for v in samples[name][size]] for size in sizes}
            for name in ALTERNATIVES
        },
        "ratios": ratios,
        "gil_stall_2048": stalls,
        "rextio_build_seconds": {
            "ours": build_seconds["ours"],
            "published": build_seconds["published"],
            "median_ours": builds["ours"],
            "median_published": builds["published"],
            "ours/published": builds["ours"] / builds["published"],
        },
    }


def print_table(report: dict[str, Any]) -> None:
    """Prints the results table."""
    sizes = list(report["ratios"])
    head = f"{'µs per call (median, p25-p75)':38}" + "".join(f"{s:>28}" for s in sizes)
    print("\n" + head)
    for name, title in ALTERNATIVES.items():
        row = f"{title:38}"
        for size in sizes:
            q = report["latency"][name][size]
            ratio = report["ratios"][size][f"{name}/{EAGER_OF[CHAIN_OF[name]]}"]
            cell = f"{q['median_us']:.1f} ({q['p25_us']:.0f}-{q['p75_us']:.0f}) {ratio:.2f}x"
            row += f"{cell:>28}"
        print(row)
    print("\n(ratios are to Python eager TF running the same chain)")
    for size in sizes:
        r = report["ratios"][size]
        print(
            f"{size:>22}: macro/published {r['ours_macro/published']:.2f}, "
            f"rextio/published {r['ours_rextio/published']:.2f}, floor+boundary "
            f"{r['floor+boundary_us']:.1f} µs, macro/(floor+boundary) "
            f"{r['ours_macro/(floor+boundary)']:.2f}, rextio/(floor+boundary) "
            f"{r['ours_rextio/(floor+boundary)']:.2f}"
        )
    print("\nGIL: longest stall of a pure-Python thread during a 2048x2048 chain")
    for name, stall_ in report["gil_stall_2048"].items():
        print(
            f"  {ALTERNATIVES[name]:36} {stall_['stall_ms']:7.1f} ms "
            f"(max {stall_['stall_ms_max']:.1f}; call {stall_['call_ms']:.0f} ms)"
        )
    b = report["rextio_build_seconds"]
    print(
        f"\nrextio build (seed project): ours {b['median_ours']:.1f} s, published "
        f"{b['median_published']:.1f} s ({b['ours/published']:.2f}x)"
    )
    print(f"machine: {report['machine']['cpu_model']}, {report['machine']['logical_cpus']} CPUs")


def plot(report: dict[str, Any]) -> None:
    """Draws latest.png: latency by size, log scale, one line per alternative."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = list(report["ratios"])
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for name, title in ALTERNATIVES.items():
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
