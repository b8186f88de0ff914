# The two commands of the README: `make demo` and `make test`. Both set up
# .venv (CPython 3.11, tensorflow==2.21.0, maturin, pytest, rextio, the plugin, mdbook) if it is
# missing, and build the rxt_tf Python package (rxt-tf-python) into it.

SHELL := /bin/bash
ENV := source ci/env.sh &&
EXAMPLE := examples/inference-ext/Cargo.toml

.PHONY: setup wheel example demo demo-rextio test test-rust test-python codegen codegen-check package lint lint-rust lint-python guide bench fuzz

setup:
	@bash ci/setup.sh
	@$(ENV) maturin develop --quiet --release -m rxt-tf-python/Cargo.toml

## The wheels a user installs without Rust, into dist/: rxt-tf for CPython
## 3.11 on x86_64 Linux (manylinux_2_28: linked by zig against glibc 2.28,
## checked by auditwheel) and the Rextio plugin.
wheel: setup
	@rm -f dist/rxt_tf-*.whl dist/rxt_tf_plugin-*.whl
	@$(ENV) maturin build --quiet --release --zig --compatibility manylinux_2_28 \
		-m rxt-tf-python/Cargo.toml -i python --out dist
	@$(ENV) python -m pip wheel --quiet --no-deps -w dist ./plugin-py
	@$(ENV) auditwheel show dist/rxt_tf-*.whl | tee /dev/stderr | tr -d '\n' | \
		grep -q 'platform tag: *"manylinux_2_28_x86_64"' || \
		{ echo "wheel: auditwheel does not find the wheel manylinux_2_28" >&2; exit 1; }

## Build the hand-written example extension into .venv.
example: setup
	@$(ENV) maturin develop --quiet --release -m $(EXAMPLE)

## Run the seed's inference natively and with eager TF, side by side: first
## through the hand-written extension, then through a `rextio build`.
demo: example
	@$(ENV) python examples/demo.py
	@$(MAKE) --no-print-directory demo-rextio

## The Rextio route: build examples/rextio-project with the rxt-tf plugin.
demo-rextio: setup
	@$(ENV) python -m rxt_tf_plugin setup examples/rextio-project
	@$(ENV) cd examples/rextio-project && time rextio build . | grep -E "native (build|module)|accepted native|wheel artifact"
	@$(ENV) python examples/rextio_demo.py

## Every Rust and Python test (the README's and the guide's Rust snippets
## are the facade's doctests), the generated files' freshness, the guide
## built, and the publishable crates packaged and verified.
test: setup lint codegen-check test-rust test-python guide package

## The guide (guide/, mdBook) into target/guide; mdbook comes from setup.
## mdbook only logs a missing {{#include}} (a renamed UI test, say) and exits
## 0, so any ERROR or WARN line fails the target. Also checked: the README
## stays a short door, and every chapter with Rust code is a doctest of the
## facade (src/lib.rs) except the error gallery, whose cases are ui-tests/.
guide: setup
	@$(ENV) log=$$(mdbook build guide 2>&1); status=$$?; echo "$$log"; \
	if [ $$status -ne 0 ] || grep -qE "ERROR|WARN" <<<"$$log"; then \
		echo "guide: mdbook build guide reported errors" >&2; exit 1; fi
	@lines=$$(wc -l < README.md); [ "$$lines" -le 200 ] || \
		{ echo "guide: README.md has $$lines lines; keep it to 200, the rest in guide/" >&2; exit 1; }
	@for chapter in guide/src/*.md; do \
		[ "$$chapter" = guide/src/error-gallery.md ] && continue; \
		if grep -q '^```rust' "$$chapter" && ! grep -qF "\"../$$chapter\"" src/lib.rs; then \
			echo "guide: $$chapter has Rust code but is not a doctest in src/lib.rs" >&2; exit 1; fi; \
	done

## Regenerate what derives from the op table (rxt-tf-spec): the plugin's
## table and the README's tables.
codegen: setup
	@$(ENV) cargo run --quiet -p xtask -- codegen

codegen-check: setup
	@$(ENV) cargo run --quiet -p xtask -- codegen --check

## Package every publishable crate and verify each builds from its tarball.
## Verification builds our crates as registry packages (from a temporary
## local registry), which cargo takes for immutable: an unpacked copy or a
## build left by an earlier run of the same version would be reused, so both
## are removed first (verification builds in its own target dir).
PACKAGE_TARGET := target/package-verify
package: setup
	@rm -rf "$${CARGO_HOME:-$$HOME/.cargo}"/registry/src/*/rxt-tf-{spec,macros,runtime}-[0-9]*
	@rm -rf $(PACKAGE_TARGET)/debug/.fingerprint/rxt-tf-* $(PACKAGE_TARGET)/debug/deps/*rxt_tf*
	@$(ENV) CARGO_TARGET_DIR=$(PACKAGE_TARGET) cargo package --quiet --workspace \
		--exclude rxt-tf-example --exclude rxt-tf-python --exclude xtask --allow-dirty

test-rust: setup
	@$(ENV) cargo test --workspace --all-features
	@$(ENV) bash ci/test-passes.sh

## Differential fuzzing of every op against eager TensorFlow, longer than the
## 10,000 cases `test-rust` runs (tests/fuzz_ops.rs; RXT_TF_FUZZ_SEED picks
## another seed); 20,000 random fused programs (tests/fused_random.rs, 500 in
## `make test`); two threads building 50,000 traces (tests/fused_pressure.rs,
## 12,000 in `make test`); then 20,000 cases through the litert backend,
## within its tolerance.
fuzz: setup
	@$(ENV) RXT_TF_FUZZ_CASES=200000 cargo test --release --all-features --test fuzz_ops -- --nocapture
	@$(ENV) RXT_TF_RANDOM_PROGRAMS=20000 cargo test --release --all-features --test fused_random -- --nocapture
	@$(ENV) RXT_TF_PRESSURE_CALLS=25000 cargo test --release --all-features --test fused_pressure -- --nocapture
	@$(ENV) RXT_TF_TEST_LITERT=1 RXT_TF_FUZZ_CASES=20000 cargo test --release --all-features --test fuzz_ops -- --nocapture

test-python: example wheel
	@$(ENV) python -m pytest tests/python -q
	@echo "the example extension again, per op (RXT_TF_FUSE=0):"
	@$(ENV) RXT_TF_FUSE=0 python -m pytest tests/python/test_equality.py tests/python/test_boundary.py tests/python/test_models.py -q
	@$(ENV) python -m pytest plugin-py/tests -q
	@$(ENV) python -m pytest rxt-tf-python/tests -q

## Both halves: rustfmt and clippy, then ruff and mypy.
lint: lint-rust lint-python

## The Rust half needs no .venv. Clippy still runs pyo3's build script, which
## needs a CPython 3.11: the venv's when there is one (with ci/env.sh's
## environment, as every other target, so pyo3 is not rebuilt), otherwise
## $$PYTHON or python3.11 from PATH.
lint-rust:
	@if [ -x .venv/bin/python ]; then source ci/env.sh; \
	else export PYO3_PYTHON=$$(command -v "$${PYTHON:-python3.11}"); fi && \
	cargo fmt --all -- --check && cargo clippy --workspace --all-targets --all-features -- -D warnings

## The Python half: ruff and mypy come from .venv.
lint-python: setup
	@$(ENV) cd plugin-py && ruff check . && ruff format --check . && mypy
	@$(ENV) ruff check bench && ruff format --check bench
	@$(ENV) cd rxt-tf-python && ruff check . && ruff format --check . && mypy
	@$(ENV) cd rxt-tf-runtime && ruff check src/python/embedded && ruff format --check src/python/embedded && mypy

## The benchmark (bench/run.py): our builds beside eager TF, tf.function and the
## published rextio-tensorflow 0.1.3 plugin; writes bench/results/latest.*.
## Then the three example models (bench/models.py) and a Keras model called
## through rxt_tf::Function (bench/functions.py), real layers through
## rxt_tf.function (bench/layers.py) and the litert backend beside LiteRT
## called from Python and TensorFlow's floor (bench/litert_backend.py). Each results file records
## the machine (bench/machine.py: CPU model, AVX-512 flags, whether oneDNN's
## custom ops are on), printed first.
bench: example
	@$(ENV) python bench/machine.py | tail -n 1
	@$(ENV) python -m pip install --quiet -r bench/requirements.txt
	@$(ENV) [ -d .venv/bench-published/rextio_tensorflow ] || python -m pip install --quiet --no-deps --target .venv/bench-published rextio-tensorflow==0.1.3
	@$(ENV) python bench/run.py
	@$(ENV) python bench/models.py
	@$(ENV) python bench/functions.py
	@$(ENV) python bench/rextio_corpus.py
	@$(ENV) python bench/layers.py
	@$(ENV) python bench/litert_backend.py
