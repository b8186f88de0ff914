# The two commands of the README: `make demo` and `make test`. Both set up
# .venv (CPython 3.11, tensorflow==2.21.0, maturin, pytest) if it is missing.

SHELL := /bin/bash
ENV := source ci/env.sh &&
EXAMPLE := examples/inference-ext/Cargo.toml

.PHONY: setup example demo test test-rust test-python lint

setup:
	@bash ci/setup.sh

## Build the hand-written example extension into .venv.
example: setup
	@$(ENV) maturin develop --quiet --release -m $(EXAMPLE)

## Run the seed's inference natively and with eager TF, side by side.
demo: example
	@$(ENV) python examples/demo.py

## Every Rust and Python test.
test: setup test-rust test-python

test-rust: setup
	@$(ENV) cargo test --workspace

test-python: example
	@$(ENV) python -m pytest tests/python -q

lint: setup
	@$(ENV) cargo fmt --all -- --check && cargo clippy --all-targets -- -D warnings
