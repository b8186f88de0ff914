//! An owned `TF_Graph` being built node by node, and the `TF_Function` made
//! of it: what fused execution adds to Python's context.

use std::ffi::{c_int, CStr, CString};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

use rxt_tf_spec::Value;

use crate::error::{Error, Result};
use crate::safe::handle::{null_pointer, OwnedHandle};
use crate::safe::status::Status;
use crate::sys::{Api, TF_Function, TF_Graph, TF_Operation, TF_OperationDescription, TF_Output};

/// A graph, deleted on drop (the functions made of it are copies).
pub(crate) struct OwnedGraph {
    raw: NonNull<TF_Graph>,
    api: &'static Api,
    /// Tells this graph's outputs from any other's.
    id: u64,
}

/// One output of a finished node of an [`OwnedGraph`]; usable only with
/// the graph that made it (checked).
#[derive(Clone, Copy)]
pub(crate) struct GraphOutput {
    graph: u64,
    output: TF_Output,
}

/// The id of the next graph.
static NEXT_GRAPH: AtomicU64 = AtomicU64::new(0);

impl OwnedGraph {
    /// A new, empty graph.
    pub(crate) fn new(api: &'static Api, op: &'static str) -> Result<OwnedGraph> {
        // SAFETY: no preconditions; the graph is ours to delete.
        let raw = unsafe { (api.TF_NewGraph)() };
        let id = NEXT_GRAPH.fetch_add(1, Ordering::Relaxed);
        NonNull::new(raw)
            .map(|raw| OwnedGraph { raw, api, id })
            .ok_or_else(|| null_pointer(op, "TF_NewGraph"))
    }

    /// Starts the node `name` running `tf_op`.
    pub(crate) fn node<'g>(
        &'g mut self,
        tf_op: &CStr,
        name: &str,
        op: &'static str,
    ) -> Result<NodeBuilder<'g>> {
        let name =
            CString::new(name).map_err(|_| Error::limit(op, "a node name with a NUL byte"))?;
        // SAFETY: the graph is live and exclusively borrowed while the node is
        // built; both names are NUL-terminated and copied by TensorFlow.
        let raw =
            unsafe { (self.api.TF_NewOperation)(self.raw.as_ptr(), tf_op.as_ptr(), name.as_ptr()) };
        NonNull::new(raw)
            .map(|raw| NodeBuilder {
                raw: Some(raw),
                api: self.api,
                op,
                graph: self.id,
                _graph: std::marker::PhantomData,
            })
            .ok_or_else(|| null_pointer(op, "TF_NewOperation"))
    }

    /// The function `name` computing `outputs` from `inputs` (placeholders),
    /// made of every node of the graph.
    pub(crate) fn to_function(
        &self,
        name: &CStr,
        inputs: &[GraphOutput],
        outputs: &[GraphOutput],
        status: &Status,
        op: &'static str,
    ) -> Result<OwnedFunction> {
        let own = |output: &GraphOutput| {
            (output.graph == self.id)
                .then_some(output.output)
                .ok_or_else(|| {
                    Error::internal(
                        op,
                        "a function's input or output is a node of another graph",
                    )
                })
        };
        let inputs = inputs.iter().map(own).collect::<Result<Vec<TF_Output>>>()?;
        let outputs = outputs
            .iter()
            .map(own)
            .collect::<Result<Vec<TF_Output>>>()?;
        let count = |len: usize, what| c_int::try_from(len).map_err(|_| Error::limit(op, what));
        // SAFETY: the graph is live; `inputs` / `outputs` are nodes of it and
        // live for the call, with the counts given; null operation list (-1:
        // every node), output names, options and description are allowed.
        let raw = unsafe {
            (self.api.TF_GraphToFunction)(
                self.raw.as_ptr(),
                name.as_ptr(),
                0,
                -1,
                std::ptr::null(),
                count(inputs.len(), "the number of a function's inputs")?,
                inputs.as_ptr(),
                count(outputs.len(), "the number of a function's outputs")?,
                outputs.as_ptr(),
                std::ptr::null(),
                std::ptr::null(),
                std::ptr::null(),
                status.as_ptr(),
            )
        };
        status.check(op)?;
        NonNull::new(raw)
            .map(|raw| OwnedFunction { raw, api: self.api })
            .ok_or_else(|| null_pointer(op, "TF_GraphToFunction"))
    }
}

impl Drop for OwnedGraph {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `TF_NewGraph` and is deleted once.
        unsafe { (self.api.TF_DeleteGraph)(self.raw.as_ptr()) };
    }
}

/// A node being built; finished by [`NodeBuilder::finish`]. An unfinished
/// node is finished on drop (TensorFlow frees its description and keeps no
/// node of it when it is invalid).
pub(crate) struct NodeBuilder<'g> {
    raw: Option<NonNull<TF_OperationDescription>>,
    api: &'static Api,
    op: &'static str,
    graph: u64,
    _graph: std::marker::PhantomData<&'g mut OwnedGraph>,
}

/// The defect of a node input that belongs to another graph.
const ANOTHER_GRAPH: &str = "a node's input is a node of another graph";

impl NodeBuilder<'_> {
    /// The unfinished description; only [`NodeBuilder::finish`], which
    /// consumes the builder, takes it away.
    fn description(&self) -> Result<*mut TF_OperationDescription> {
        self.raw
            .map(NonNull::as_ptr)
            .ok_or_else(|| Error::internal(self.op, "a graph node was built after it was finished"))
    }

    /// Sets the attribute `attr` to `value`.
    pub(crate) fn set_attr(&mut self, attr: &CStr, value: &Value) -> Result<()> {
        let (node, name) = (self.description()?, attr.as_ptr());
        // In every arm: `node` is an unfinished description and `name` is
        // NUL-terminated; the setters copy what they are given.
        match *value {
            Value::Type(dtype) => {
                // SAFETY: see above.
                unsafe { (self.api.TF_SetAttrType)(node, name, dtype.code()) }
            }
            Value::Bool(flag) => {
                // SAFETY: see above.
                unsafe { (self.api.TF_SetAttrBool)(node, name, u8::from(flag)) }
            }
            Value::Int(int) => {
                // SAFETY: see above.
                unsafe { (self.api.TF_SetAttrInt)(node, name, int) }
            }
            Value::Float(float) => {
                // TensorFlow's float attributes are single precision.
                let float = float as f32;
                // SAFETY: see above.
                unsafe { (self.api.TF_SetAttrFloat)(node, name, float) }
            }
            Value::Str(text) => {
                // SAFETY: see above; `text` is valid for `text.len()` bytes.
                unsafe { (self.api.TF_SetAttrString)(node, name, text.as_ptr().cast(), text.len()) }
            }
            Value::Ints(ints) => {
                let count = c_int::try_from(ints.len()).map_err(|_| Error::Keyword {
                    op: self.op,
                    message: format!("attribute `{}`: too long a list", attr.to_string_lossy()),
                })?;
                // SAFETY: see above; `ints` holds `count` values.
                unsafe { (self.api.TF_SetAttrIntList)(node, name, ints.as_ptr(), count) }
            }
        }
        Ok(())
    }

    /// Sets the type attribute `attr` to the `TF_DataType` `code` (one of
    /// any type, such as `resource`).
    pub(crate) fn set_type_code(&mut self, attr: &CStr, code: i32) -> Result<()> {
        let node = self.description()?;
        // SAFETY: `node` is an unfinished description and `attr`
        // NUL-terminated.
        unsafe { (self.api.TF_SetAttrType)(node, attr.as_ptr(), code) };
        Ok(())
    }

    /// Sets the type-list attribute `attr` to `codes`.
    pub(crate) fn set_type_list(&mut self, attr: &CStr, codes: &[i32]) -> Result<()> {
        let node = self.description()?;
        let count = c_int::try_from(codes.len())
            .map_err(|_| Error::limit(self.op, "the number of types in a type-list attribute"))?;
        // SAFETY: `node` is an unfinished description, `attr` NUL-terminated
        // and `codes` holds `count` codes; the setter copies them.
        unsafe { (self.api.TF_SetAttrTypeList)(node, attr.as_ptr(), codes.as_ptr(), count) };
        Ok(())
    }

    /// Sets the function attribute `attr` to the function named `function`
    /// (of the context the graph's function will run in).
    pub(crate) fn set_function(&mut self, attr: &CStr, function: &CStr) -> Result<()> {
        let node = self.description()?;
        let name = function.to_bytes();
        // SAFETY: `node` is an unfinished description, `attr`
        // NUL-terminated and `name` valid for its length; the setter copies
        // it.
        unsafe {
            (self.api.TF_SetAttrFuncName)(node, attr.as_ptr(), name.as_ptr().cast(), name.len())
        };
        Ok(())
    }

    /// Sets the tensor attribute `attr` to a copy of the tensor behind `handle`
    /// (a computed host tensor).
    pub(crate) fn set_tensor_attr(
        &mut self,
        attr: &CStr,
        handle: &OwnedHandle,
        status: &Status,
    ) -> Result<()> {
        let node = self.description()?;
        // SAFETY: the handle is live and computed (constants are).
        let tensor =
            unsafe { (self.api.TFE_TensorHandleResolve)(handle.as_ptr(), status.as_ptr()) };
        status.check(self.op)?;
        if tensor.is_null() {
            return Err(null_pointer(self.op, "TFE_TensorHandleResolve"));
        }
        // SAFETY: the description is unfinished, `attr` NUL-terminated and
        // `tensor` a live host tensor, which the setter copies.
        unsafe { (self.api.TF_SetAttrTensor)(node, attr.as_ptr(), tensor, status.as_ptr()) };
        // SAFETY: `tensor` came from `TFE_TensorHandleResolve` and is ours.
        unsafe { (self.api.TF_DeleteTensor)(tensor) };
        status.check(self.op)
    }

    /// Adds `input` (a node of the same graph) as the next input.
    pub(crate) fn add_input(&mut self, input: GraphOutput) -> Result<()> {
        if input.graph != self.graph {
            return Err(Error::internal(self.op, ANOTHER_GRAPH));
        }
        // SAFETY: the description is unfinished and `input` is a finished
        // node of the same graph (checked), which is alive: this builder
        // borrows it.
        unsafe { (self.api.TF_AddInput)(self.description()?, input.output) };
        Ok(())
    }

    /// Adds `inputs` (nodes of the same graph) as the next input, a list.
    pub(crate) fn add_input_list(&mut self, inputs: &[GraphOutput]) -> Result<()> {
        if inputs.iter().any(|input| input.graph != self.graph) {
            return Err(Error::internal(self.op, ANOTHER_GRAPH));
        }
        let outputs: Vec<TF_Output> = inputs.iter().map(|input| input.output).collect();
        let count = c_int::try_from(outputs.len())
            .map_err(|_| Error::limit(self.op, "the number of inputs in an input list"))?;
        // SAFETY: the description is unfinished and every input a finished,
        // live node of the same graph (checked); `outputs` holds `count`
        // entries, read during the call only.
        unsafe { (self.api.TF_AddInputList)(self.description()?, outputs.as_ptr(), count) };
        Ok(())
    }

    /// Finishes the node (TensorFlow checks it and infers its shapes) and
    /// returns its first output.
    pub(crate) fn finish(mut self, status: &Status) -> Result<GraphOutput> {
        let description = self.description()?;
        self.raw = None;
        // SAFETY: the description is unfinished; finishing consumes it,
        // also on failure.
        let node: *mut TF_Operation =
            unsafe { (self.api.TF_FinishOperation)(description, status.as_ptr()) };
        status.check(self.op)?;
        if node.is_null() {
            return Err(null_pointer(self.op, "TF_FinishOperation"));
        }
        Ok(GraphOutput {
            graph: self.graph,
            output: TF_Output {
                oper: node,
                index: 0,
            },
        })
    }
}

impl Drop for NodeBuilder<'_> {
    fn drop(&mut self) {
        if let Some(description) = self.raw.take() {
            // An unfinished description can only be released by finishing
            // it; its error (if any) is of no interest here.
            if let Ok(status) = Status::new(self.api, self.op) {
                // SAFETY: the description is unfinished and consumed here.
                unsafe { (self.api.TF_FinishOperation)(description.as_ptr(), status.as_ptr()) };
            }
        }
    }
}

/// A function, deleted on drop (a context it was added to keeps a copy).
pub(crate) struct OwnedFunction {
    raw: NonNull<TF_Function>,
    api: &'static Api,
}

impl OwnedFunction {
    /// The function, still owned by `self`.
    pub(crate) fn as_ptr(&self) -> *mut TF_Function {
        self.raw.as_ptr()
    }
}

impl Drop for OwnedFunction {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `TF_GraphToFunction` and is deleted once.
        unsafe { (self.api.TF_DeleteFunction)(self.raw.as_ptr()) };
    }
}
