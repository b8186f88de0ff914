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

/// The name errors of the fused call itself carry.
const FUSED: &str = "fused call";

/// How many functions were built, evicted and are in a context now.
static BUILDS: AtomicU64 = AtomicU64::new(0);
static EVICTIONS: AtomicU64 = AtomicU64::new(0);
static IN_CONTEXT: AtomicU64 = AtomicU64::new(0);
static REPLAYS: AtomicU64 = AtomicU64::new(0);
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
    }
}

/// A trace key on one context.
#[derive(PartialEq, Eq, Hash)]
struct Key {
    context: usize,
    parts: Vec<Part>,
}

struct Entry {
    function: Arc<FusedFunction>,
    used: u64,
}

#[derive(Default)]
struct Library {
    entries: HashMap<Key, Entry, BuildKeyHasher>,
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

/// The function of `parts` on `context`, built by `build` (the recorded
/// `nodes` on inputs of `input_types`, `outputs` the nodes returned) on a miss.
pub(crate) fn function(
    context: &Arc<BoundContext>,
    parts: Vec<Part>,
    input_types: &[DType],
    nodes: &[Node],
    outputs: &[(u32, DType)],
) -> Result<Arc<FusedFunction>> {
    let key = Key {
        context: Arc::as_ptr(context) as usize,
        parts,
    };
    {
        let mut library = library();
        library.clock += 1;
        let clock = library.clock;
        if let Some(entry) = library.entries.get_mut(&key) {
            entry.used = clock;
            return Ok(Arc::clone(&entry.function));
        }
    }
    // Built without the lock: two threads may build the same trace at once;
    // the second insert replaces the first, whose function leaves the
    // context when its call ends (names are never reused).
    let function = Arc::new(build(context, input_types, nodes, outputs)?);
    let evicted = {
        let mut library = library();
        let used = library.clock;
        let evicted = if library.entries.len() >= TRACE_CAPACITY {
            library.evict_least_recent()
        } else {
            None
        };
        library.entries.insert(
            key,
            Entry {
                function: Arc::clone(&function),
                used,
            },
        );
        evicted
    };
    // Dropped outside the lock: removal from the context takes TensorFlow's.
    drop(evicted);
    Ok(function)
}

impl Library {
    fn evict_least_recent(&mut self) -> Option<Arc<FusedFunction>> {
        let oldest = self
            .entries
            .iter()
            .min_by_key(|(_, entry)| entry.used)
            .map(|(key, _)| Key {
                context: key.context,
                parts: key.parts.clone(),
            })?;
        EVICTIONS.fetch_add(1, Ordering::Relaxed);
        self.entries.remove(&oldest).map(|entry| entry.function)
    }
}

/// Builds the graph of `nodes` and adds it to `context` as a new function.
fn build(
    context: &Arc<BoundContext>,
    input_types: &[DType],
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
    let values = emit_all(
        &mut GraphEmitter {
            graph: &mut graph,
            status: &status,
        },
        &placeholders,
        nodes,
    )?;
    let returned = outputs
        .iter()
        .map(|&(node, _)| values.get(node as usize).copied())
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| crate::safe::handle::null_handle(FUSED))?;
    let number = NEXT_NAME.fetch_add(1, Ordering::Relaxed);
    let name = CString::new(format!("__rxt_tf_fused_{number}"))
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
        for attr in [c"config", c"config_proto", c"executor_type"] {
            op.set_attr(attr, &Value::Str(""))?;
        }
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
