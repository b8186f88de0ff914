//! The fused functions: built once per trace from its recorded nodes, added
//! to Python's context under a name never reused, kept in a bounded cache
//! (least recently used evicted), and removed from the context once evicted
//! and no call still runs them.

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

use rxt_tf_spec::{DType, Value};

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::error::Result;
use crate::fused::emit::{emit_all, GraphEmitter, Node};
use crate::fused::key::{BuildKeyHasher, Part};
use crate::safe::graph::OwnedGraph;
use crate::safe::handle::OwnedHandle;
use crate::safe::op::OwnedOp;
use crate::safe::status::Status;

/// Traces kept per process; the least recently used beyond this is evicted
/// and its function removed from the context.
pub const TRACE_CAPACITY: usize = 256;

/// `ConfigProto { graph_options { rewrite_options { disable_meta_optimizer:
/// true } } }`, serialized: the function runs the ops as recorded, with the
/// kernels the per-op path runs (no Grappler rewrites such as fusing a
/// matmul with its bias and activation).
const NO_GRAPH_REWRITES: &[u8] = &[82, 5, 82, 3, 152, 1, 1];

/// The name errors of the fused call itself carry.
const FUSED: &str = "fused call";

/// How many functions were built, evicted and are in a context now.
static BUILDS: AtomicU64 = AtomicU64::new(0);
static EVICTIONS: AtomicU64 = AtomicU64::new(0);
static IN_CONTEXT: AtomicU64 = AtomicU64::new(0);
static REPLAYS: AtomicU64 = AtomicU64::new(0);
static WRAPPERS_KEPT: AtomicU64 = AtomicU64::new(0);
/// The number of the next function's name.
static NEXT_NAME: AtomicU64 = AtomicU64::new(0);

/// Counters of the fused-function cache, for tests and benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Functions built (each a cache miss).
    pub builds: u64,
    /// Functions evicted from the cache.
    pub evictions: u64,
    /// Functions in the cache now.
    pub cached: usize,
    /// Functions in a context now (evicted ones leave when their last call ends).
    pub in_context: u64,
    /// Fused calls that failed and were run again op by op.
    pub replays: u64,
    /// TensorFlow call wrappers an eviction could not remove (their cached
    /// kernels stay): nonzero only if TensorFlow names them differently.
    pub wrappers_kept: u64,
}

/// Counts a fused call run again op by op.
pub(crate) fn count_replay() {
    REPLAYS.fetch_add(1, Ordering::Relaxed);
}

/// The cache's counters now.
pub fn stats() -> Stats {
    Stats {
        builds: BUILDS.load(Ordering::Relaxed),
        evictions: EVICTIONS.load(Ordering::Relaxed),
        cached: library().entries.len(),
        in_context: IN_CONTEXT.load(Ordering::Relaxed),
        replays: REPLAYS.load(Ordering::Relaxed),
        wrappers_kept: WRAPPERS_KEPT.load(Ordering::Relaxed),
    }
}

struct Entry {
    function: Arc<FusedFunction>,
    used: u64,
}

#[derive(Default)]
struct Library {
    /// By trace key (which begins with the context).
    entries: HashMap<Vec<Part>, Entry, BuildKeyHasher>,
    clock: u64,
}

static LIBRARY: LazyLock<Mutex<Library>> = LazyLock::new(Mutex::default);

/// The cache, locked.
fn library() -> MutexGuard<'static, Library> {
    LIBRARY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// One function in a context: its name and signature.
pub(crate) struct FusedFunction {
    name: CString,
    context: Arc<BoundContext>,
    inputs: Vec<i32>,
    outputs: Vec<i32>,
}

/// The function of the trace `key` (which names its context), built on a
/// miss from the recorded `nodes` on inputs of `input_types` and
/// `constants`, returning the nodes `outputs`.
pub(crate) fn function(
    context: &Arc<BoundContext>,
    key: &[Part],
    input_types: &[DType],
    constants: &[Arc<OwnedHandle>],
    nodes: &[Node],
    outputs: &[(u32, DType)],
) -> Result<Arc<FusedFunction>> {
    {
        let mut library = library();
        library.clock += 1;
        let clock = library.clock;
        if let Some(entry) = library.entries.get_mut(key) {
            entry.used = clock;
            return Ok(Arc::clone(&entry.function));
        }
    }
    // Built without the lock: two threads may build the same trace at once;
    // the second insert replaces the first, whose function leaves the
    // context when its call ends (names are never reused).
    let function = Arc::new(build(context, input_types, constants, nodes, outputs)?);
    let evicted = {
        let mut library = library();
        let used = library.clock;
        let mut evicted = Vec::new();
        if library.entries.len() >= TRACE_CAPACITY && !library.entries.contains_key(key) {
            evicted = library.evict_least_recent(EVICTION_BATCH);
        }
        let entry = Entry {
            function: Arc::clone(&function),
            used,
        };
        if let Some(replaced) = library.entries.insert(key.to_vec(), entry) {
            evicted.push(replaced.function);
        }
        evicted
    };
    // Released outside the lock: removal from the context takes TensorFlow's.
    release(evicted);
    Ok(function)
}

/// Traces evicted at once when the cache is full: each eviction also drops
/// TensorFlow's cached kernels of every call of the same arity (see
/// [`release`]), so evicting in batches keeps that rare.
const EVICTION_BATCH: usize = TRACE_CAPACITY / 4;

impl Library {
    fn evict_least_recent(&mut self, count: usize) -> Vec<Arc<FusedFunction>> {
        let mut ages: Vec<u64> = self.entries.values().map(|entry| entry.used).collect();
        ages.sort_unstable();
        let Some(&newest_evicted) = ages.get(count.saturating_sub(1)) else {
            return Vec::new();
        };
        let mut evicted = Vec::with_capacity(count);
        self.entries.retain(|_, entry| {
            let keep = entry.used > newest_evicted || evicted.len() >= count;
            if !keep {
                evicted.push(Arc::clone(&entry.function));
            }
            keep
        });
        EVICTIONS.fetch_add(evicted.len() as u64, Ordering::Relaxed);
        evicted
    }
}

/// Releases evicted functions, then TensorFlow's kernel cache of their
/// calls. Each `PartitionedCall` runs through a one-op wrapper function that
/// TensorFlow adds to the context per arity (its name holds the numbers of
/// inputs and outputs); the compiled kernel of every call of that arity is
/// cached under it and is only freed when the wrapper is removed. Removing
/// it costs the calls that remain one new kernel each (made on their next
/// call); keeping it would keep every evicted function's kernel forever.
fn release(evicted: Vec<Arc<FusedFunction>>) {
    let mut wrappers: Vec<(Arc<BoundContext>, usize, usize)> = Vec::new();
    for function in &evicted {
        let arity = (function.inputs.len(), function.outputs.len());
        if !wrappers
            .iter()
            .any(|(context, i, o)| Arc::ptr_eq(context, &function.context) && (*i, *o) == arity)
        {
            wrappers.push((Arc::clone(&function.context), arity.0, arity.1));
        }
    }
    drop(evicted);
    for (context, inputs, outputs) in wrappers {
        let name = format!(
            "__wrapped__PartitionedCall_Tin_{inputs}_Tout_{outputs}_device_{}",
            CPU_DEVICE_C.to_string_lossy()
        );
        let api = context.wheel().api();
        let (Ok(name), Ok(status)) = (CString::new(name), Status::new(api, FUSED)) else {
            continue;
        };
        // SAFETY: the context is live (held by `context`); the name is
        // NUL-terminated. A wrapper TensorFlow has not made (or has already
        // dropped) is an error of no consequence.
        unsafe {
            (api.TFE_ContextRemoveFunction)(context.as_ptr(), name.as_ptr(), status.as_ptr())
        };
    }
}

/// Builds the graph of `nodes` and adds it to `context` as a new function.
fn build(
    context: &Arc<BoundContext>,
    input_types: &[DType],
    constants: &[Arc<OwnedHandle>],
    nodes: &[Node],
    outputs: &[(u32, DType)],
) -> Result<FusedFunction> {
    let api = context.wheel().api();
    let status = Status::new(api, FUSED)?;
    let mut graph = OwnedGraph::new(api, FUSED)?;
    let mut placeholders = Vec::with_capacity(input_types.len());
    for (index, &dtype) in input_types.iter().enumerate() {
        let mut node = graph.node(c"Placeholder", &format!("input{index}"), FUSED)?;
        node.set_attr(c"dtype", &Value::Type(dtype))?;
        placeholders.push(node.finish(&status)?);
    }
    let mut constant_nodes = Vec::with_capacity(constants.len());
    for (index, handle) in constants.iter().enumerate() {
        let dtype = DType::from_code(handle.dtype())
            .ok_or_else(|| crate::safe::handle::null_handle(FUSED))?;
        let mut node = graph.node(c"Const", &format!("constant{index}"), FUSED)?;
        node.set_attr(c"dtype", &Value::Type(dtype))?;
        node.set_tensor_attr(c"value", handle, &status)?;
        constant_nodes.push(node.finish(&status)?);
    }
    let values = emit_all(
        &mut GraphEmitter {
            graph: &mut graph,
            status: &status,
        },
        &placeholders,
        &constant_nodes,
        nodes,
    )?;
    let returned = outputs
        .iter()
        .map(|&(node, _)| values.get(node as usize).copied())
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| crate::safe::handle::null_handle(FUSED))?;
    // Names are never reused, also across copies of this crate in one
    // process (each extension module links its own): the address of this
    // copy's counter tells them apart.
    let number = NEXT_NAME.fetch_add(1, Ordering::Relaxed);
    let copy = std::ptr::addr_of!(NEXT_NAME) as usize;
    let name = CString::new(format!("__rxt_tf_fused_{copy:x}_{number}"))
        .map_err(|_| crate::safe::handle::null_handle(FUSED))?;
    let function = graph.to_function(&name, &placeholders, &returned, &status, FUSED)?;
    // SAFETY: the context is live (held by `context`); the function is live
    // and copied into the context's library.
    unsafe { (api.TFE_ContextAddFunction)(context.as_ptr(), function.as_ptr(), status.as_ptr()) };
    status.check(FUSED)?;
    BUILDS.fetch_add(1, Ordering::Relaxed);
    IN_CONTEXT.fetch_add(1, Ordering::Relaxed);
    Ok(FusedFunction {
        name,
        context: Arc::clone(context),
        inputs: input_types.iter().map(|dtype| dtype.code()).collect(),
        outputs: outputs.iter().map(|&(_, dtype)| dtype.code()).collect(),
    })
}

impl FusedFunction {
    /// Runs the function on `inputs` as one `PartitionedCall` on `CPU:0`
    /// (TensorFlow inlines it and runs its kernels on this thread), with the
    /// GIL released when `work` says so.
    pub(crate) fn call(&self, inputs: &[Arc<OwnedHandle>], work: i64) -> Result<Vec<OwnedHandle>> {
        let api = self.context.wheel().api();
        let status = Status::new(api, FUSED)?;
        // SAFETY: the context lives while `self.context` does, which
        // outlives the op.
        let mut op = unsafe {
            OwnedOp::new(
                api,
                self.context.as_ptr(),
                c"PartitionedCall",
                CPU_DEVICE_C,
                &status,
                FUSED,
            )
        }?;
        op.set_type_list(c"Tin", &self.inputs)?;
        op.set_type_list(c"Tout", &self.outputs)?;
        op.set_function(c"f", &self.name)?;
        op.set_bytes(c"config_proto", NO_GRAPH_REWRITES)?;
        for input in inputs {
            op.add_input(input)?;
        }
        op.execute_many(work, self.outputs.len())
    }
}

impl Drop for FusedFunction {
    fn drop(&mut self) {
        let api = self.context.wheel().api();
        if let Ok(status) = Status::new(api, FUSED) {
            // SAFETY: the context is live (held by `self.context`); the name
            // is NUL-terminated and names a function this value added. Its
            // error (none expected) cannot be reported from a drop.
            unsafe {
                (api.TFE_ContextRemoveFunction)(
                    self.context.as_ptr(),
                    self.name.as_ptr(),
                    status.as_ptr(),
                )
            };
        }
        IN_CONTEXT.fetch_sub(1, Ordering::Relaxed);
    }
}
