"""100,000 calls of the seed chain do not grow the process."""

from __future__ import annotations

import gc

import tensorflow as tf


def rss_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def test_100k_calls_grow_rss_by_less_than_10_mb(ext):
    x = tf.random.stateless_normal([1, 8], seed=[1, 2])
    w = tf.random.stateless_normal([8, 4], seed=[3, 4])
    b = tf.random.stateless_normal([4], seed=[5, 6])
    for _ in range(2_000):  # warm up allocators and caches
        ext.inference(x, w, b)
    gc.collect()
    before = rss_bytes()
    for _ in range(100_000):
        ext.inference(x, w, b)
    gc.collect()
    growth = rss_bytes() - before
    print(f"RSS growth over 100,000 calls: {growth / 1e6:.2f} MB")
    assert growth < 10 * 1024 * 1024, growth
