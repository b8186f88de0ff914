#!/usr/bin/env bash
# The two passes `make test-rust` runs after `cargo test --workspace`, side
# by side (each keeps about one core busy, and the tests are built): the op
# surface again with every op fused (and 3,000 fuzz cases), and every form
# of the table with 100 cases through the litert backend, within its
# tolerance. Each pass's output is shown whole after both end; either
# failing fails the target.
set -uo pipefail

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

RXT_TF_TEST_FUSED=1 RXT_TF_FUZZ_CASES=3000 cargo test --all-features \
    --test op_surface --test generic_ops --test data_ops --test layer_ops \
    --test runtime_axes --test rank5_layers --test generic_elements \
    --test optional_masks --test half_types --test fuzz_ops >"$logs/fused" 2>&1 &
fused=$!
RXT_TF_TEST_LITERT=1 RXT_TF_FUZZ_CASES=100 cargo test --all-features \
    --test fuzz_ops >"$logs/litert" 2>&1 &
litert=$!

wait "$fused"
fused_status=$?
wait "$litert"
litert_status=$?

echo "op surface again, every op fused (and 3,000 fuzz cases):"
cat "$logs/fused"
echo "every form and 100 cases through the litert backend, within its tolerance:"
cat "$logs/litert"
[ "$fused_status" -eq 0 ] || echo "test-rust: the fused pass failed" >&2
[ "$litert_status" -eq 0 ] || echo "test-rust: the litert pass failed" >&2
[ "$fused_status" -eq 0 ] && [ "$litert_status" -eq 0 ]
