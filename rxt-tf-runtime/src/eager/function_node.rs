//! A TensorFlow function called as one node of a trace (or on its own):
//! one `StatefulPartitionedCall` of its definition in Python's context.

use std::ffi::{CStr, CString};
use std::sync::{Arc, Weak};

use rxt_tf_spec::Op;

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::call_gate;
use crate::error::Result;
use crate::safe::handle::OwnedHandle;
use crate::safe::op::OwnedOp;
use crate::safe::status::Status;

/// A TensorFlow function called as one node: one `StatefulPartitionedCall`
/// of its definition.
pub(crate) struct FunctionNode {
    /// The concrete function: its definition stays in the context while
    /// it lives (dropped where the GIL may be taken).
    pub(crate) _keep: pyo3::Py<pyo3::PyAny>,
    /// The definition's name in the context.
    pub(crate) name: CString,
    /// The `TF_DataType` codes of its inputs (arguments, then captures).
    pub(crate) input_types: Vec<i32>,
    /// The `TF_DataType` codes of its outputs.
    pub(crate) output_types: Vec<i32>,
    /// Its context (not kept alive by it).
    pub(crate) context: Weak<BoundContext>,
    /// Whether a call through TensorFlow's wrapper of its arity was noted
    /// (its kernel is cached under that wrapper): letting it go then
    /// removes the wrapper.
    pub(crate) used_wrapper: std::sync::atomic::AtomicBool,
    /// Whether its graph may call back into rxt-tf from another thread: it
    /// has a stateful op other than variable reads (a `tf.py_function`'s
    /// Python runs on TensorFlow's threads). Calls of it make new calls
    /// wait a bounded time only for an overdue removal.
    pub(crate) may_call_back: bool,
}

impl FunctionNode {
    /// Runs it as one eager `StatefulPartitionedCall` on `CPU:0` on
    /// `inputs` (arguments, then captures) on `context`, the GIL released
    /// meanwhile if this thread holds it.
    pub(crate) fn execute(
        &self,
        context: &Arc<BoundContext>,
        inputs: &[&OwnedHandle],
    ) -> Result<Vec<OwnedHandle>> {
        self.execute_definition(context, inputs, &self.name, None)
    }

    /// Runs the definition `name` of its signature (its own, or one made
    /// from its optimized graph) as [`execute`](Self::execute) runs its
    /// own, with `config` (a serialized `ConfigProto`) as the call's
    /// `config_proto` when given: TensorFlow's graph passes then run with
    /// that configuration, as a call by name with it does.
    pub(crate) fn execute_definition(
        &self,
        context: &Arc<BoundContext>,
        inputs: &[&OwnedHandle],
        name: &CStr,
        config: Option<&[u8]>,
    ) -> Result<Vec<OwnedHandle>> {
        const CALL: &str = FUNCTION_ROW.name;
        let types = (&self.input_types[..], &self.output_types[..]);
        let call = c"StatefulPartitionedCall";
        run_function_call(context, call, name, types, CALL, |mut op| {
            if let Some(config) = config {
                // As `same_graph.py` instantiated it: the same kernel.
                op.set_bytes(c"config_proto", config)?;
            }
            for input in inputs {
                op.add_input(input)?;
            }
            let mut open = call_gate::open(self.may_call_back);
            // A whole function: always worth releasing the GIL for.
            let outputs = op.execute_many(i64::MAX, self.output_types.len());
            self.note_wrapper_used(&mut open, context);
            outputs
        })
    }
}

impl FunctionNode {
    /// Notes that a `StatefulPartitionedCall` of its arity ran on
    /// `context` in the call `open` (its kernel is cached under that
    /// wrapper, which letting it go removes).
    pub(crate) fn note_wrapper_used(&self, open: &mut call_gate::Open, context: &BoundContext) {
        self.used_wrapper
            .store(true, std::sync::atomic::Ordering::Relaxed);
        open.used(context, self.wrapper());
    }

    /// TensorFlow's wrapper its eager calls go through.
    fn wrapper(&self) -> call_gate::Wrapper {
        call_gate::Wrapper {
            op: call_gate::WrappedOp::StatefulPartitioned,
            inputs: self.input_types.len(),
            outputs: self.output_types.len(),
        }
    }

    /// Runs it as TensorFlow's eager call of a function does: an op named
    /// after the definition with `config` (the calling thread's
    /// `config_proto`) and the default executor, so the same graph passes
    /// run and the same kernels give the same bits as when Python calls it.
    /// `inputs` are the arguments, then the captures; the GIL is released
    /// meanwhile if this thread holds it.
    pub(crate) fn execute_by_name(
        &self,
        context: &Arc<BoundContext>,
        inputs: &[&OwnedHandle],
        config: &[u8],
    ) -> Result<Vec<OwnedHandle>> {
        const CALL: &str = FUNCTION_ROW.name;
        let api = context.wheel().api();
        let status = Status::new(api, CALL)?;
        let mut op = OwnedOp::new(context.ops(), &self.name, CPU_DEVICE_C, &status, CALL)?;
        op.set_bytes(c"config_proto", config)?;
        op.set_bytes(c"executor_type", b"")?;
        for input in inputs {
            op.add_input(input)?;
        }
        let _open = call_gate::open(self.may_call_back);
        op.execute_many(i64::MAX, self.output_types.len())
    }
}

/// Builds a `call` (`PartitionedCall` or `StatefulPartitionedCall`) of the
/// function `name` of `context` on `CPU:0`, typed by its input and output
/// `TF_DataType` codes, and lets `finish` add its inputs and run it. `op`
/// names it in errors.
pub(crate) fn run_function_call<R>(
    context: &Arc<BoundContext>,
    call: &CStr,
    name: &CStr,
    (input_types, output_types): (&[i32], &[i32]),
    op: &'static str,
    finish: impl FnOnce(OwnedOp<'_>) -> Result<R>,
) -> Result<R> {
    let api = context.wheel().api();
    let status = Status::new(api, op)?;
    let mut built = OwnedOp::new(context.ops(), call, CPU_DEVICE_C, &status, op)?;
    built.set_type_list(c"Tin", input_types)?;
    built.set_type_list(c"Tout", output_types)?;
    built.set_function(c"f", name)?;
    finish(built)
}

impl Drop for FunctionNode {
    fn drop(&mut self) {
        if !self.used_wrapper.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        // Its kernel is cached under the wrapper of its arity, and only
        // that wrapper's removal frees it (the remaining functions of the
        // arity make a new kernel on their next call).
        call_gate::remove(vec![call_gate::Removal {
            context: Weak::clone(&self.context),
            wrapper: self.wrapper(),
        }]);
    }
}

/// The row errors of a function node name: `function call failed: …`.
pub(crate) const FUNCTION_ROW: Op = Op {
    name: "function call",
    ..rxt_tf_spec::ops::IDENTITY
};
