//! The fused functions: built once per trace from its recorded nodes, added
//! to Python's context under a name never reused, kept in a bounded cache
//! (least recently used evicted), and removed from the context once evicted
//! and no call still runs them. The cache does not keep contexts alive:
//! the traces of a context that is gone (after `_reset_context()`) are
//! dropped.
//!
//! Evicted functions' kernels are freed by removing TensorFlow's per-arity
//! call wrappers, through the [`gate`](super::gate).

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, Weak};

use rxt_tf_spec::{DType, Value};

use crate::binding::context::BoundContext;
use crate::call_gate::{self, Removal, WrappedOp, Wrapper};
use crate::eager::emit::{emit_all, GraphEmitter, Node};
use crate::eager::function_node::run_function_call;
use crate::error::Result;
use crate::fused::input::RecordedInput;
use crate::fused::key::{BuildKeyHasher, Part};
use crate::litert::{FrozenModels, ModelCache};
use crate::safe::graph::OwnedGraph;
use crate::safe::handle::OwnedHandle;
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
static FOLLOWED: AtomicU64 = AtomicU64::new(0);
/// Exact calls from Python run as one proven `StatefulPartitionedCall`.
pub(crate) static EXACT_INLINED: AtomicU64 = AtomicU64::new(0);
/// Exact calls from Python run by name.
pub(crate) static EXACT_BY_NAME: AtomicU64 = AtomicU64::new(0);
/// The number of the next function's name.
static NEXT_NAME: AtomicU64 = AtomicU64::new(0);

/// Counters of the fused-function cache, for tests and benchmarks (more
/// may be added: read its fields, do not build one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// Fused calls that followed a trace their thread ran before, to its
    /// end: their ops were checked against it, not recorded again.
    pub followed: u64,
    /// TensorFlow call wrappers a call used that their removal did not
    /// find (their cached kernels stay): nonzero only if TensorFlow names
    /// them differently.
    pub wrappers_kept: u64,
    /// `Function` calls of a litert scope run through LiteRT.
    pub litert_calls: u64,
    /// `Function` calls of a litert scope run on TensorFlow instead: their
    /// conversion or compilation failed (`RXT_TF_LITERT_STRICT=1` makes
    /// that an error).
    pub litert_fallbacks: u64,
    /// LiteRT models compiled (one per function and input shapes, cached).
    pub litert_compiles: u64,
    /// Conversions of functions and traces to LiteRT models tried,
    /// converted or not (one each, and one per input shapes their first
    /// model cannot be sized to or, for a model that did not convert, a
    /// trace for exact shapes).
    pub litert_conversions: u64,
    /// Exact [`Function`](crate::Function) calls from Python
    /// (the `rxt_tf` package's `exact=True`) run as
    /// one `StatefulPartitionedCall` proven to run the by-name graph.
    pub exact_inlined: u64,
    /// Exact calls run by name: their inlined graph differs, or could not
    /// be checked.
    pub exact_by_name: u64,
}

/// Counts a fused call that followed a template to its end.
pub(crate) fn count_followed() {
    FOLLOWED.fetch_add(1, Ordering::Relaxed);
}

/// Counts a fused call run again op by op.
pub(crate) fn count_replay() {
    REPLAYS.fetch_add(1, Ordering::Relaxed);
}

/// The cache's counters now.
pub fn stats() -> Stats {
    let (cached, gone) = {
        let mut library = library();
        let gone = library.without_dead_contexts();
        (library.entries.len(), gone)
    };
    // Their contexts are gone: nothing to remove them from.
    drop(gone);
    Stats {
        builds: BUILDS.load(Ordering::Relaxed),
        evictions: EVICTIONS.load(Ordering::Relaxed),
        cached,
        in_context: IN_CONTEXT.load(Ordering::Relaxed),
        replays: REPLAYS.load(Ordering::Relaxed),
        followed: FOLLOWED.load(Ordering::Relaxed),
        wrappers_kept: call_gate::WRAPPERS_KEPT.load(Ordering::Relaxed),
        litert_calls: crate::litert::COUNTERS.calls.load(Ordering::Relaxed),
        litert_fallbacks: crate::litert::COUNTERS.fallbacks.load(Ordering::Relaxed),
        litert_compiles: crate::litert::COUNTERS.compiles.load(Ordering::Relaxed),
        litert_conversions: crate::litert::COUNTERS.conversions.load(Ordering::Relaxed),
        exact_inlined: EXACT_INLINED.load(Ordering::Relaxed),
        exact_by_name: EXACT_BY_NAME.load(Ordering::Relaxed),
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
    /// Not kept alive by the function: callers hold it while they call.
    context: Weak<BoundContext>,
    inputs: Vec<i32>,
    outputs: Vec<i32>,
    /// Its LiteRT model and compiled models, for runs in a litert scope.
    litert: ModelCache,
    /// Its LiteRT models with inputs that do not change frozen.
    frozen: FrozenModels,
}

/// The function of the trace `key` (which names its context), built on a
/// miss from the recorded `nodes` on inputs of `input_types` (`TF_DataType`
/// codes: a captured variable's is `resource`) and
/// `constants`, returning the nodes `outputs`, and whether it was cached
/// before. Functions the cache lets go of are added to `evicted`, for the
/// caller to [`release`] once it holds no lock.
pub(crate) fn function(
    context: &Arc<BoundContext>,
    key: &[Part],
    inputs: &[RecordedInput],
    constants: &[Arc<OwnedHandle>],
    nodes: &[Node],
    outputs: &[(u32, DType)],
    evicted: &mut Vec<Arc<FusedFunction>>,
) -> Result<(Arc<FusedFunction>, bool)> {
    {
        let mut library = library();
        library.clock += 1;
        let clock = library.clock;
        if let Some(entry) = library.entries.get_mut(key) {
            entry.used = clock;
            return Ok((Arc::clone(&entry.function), true));
        }
    }
    // Built without the lock: two threads may build the same trace at once;
    // the first to insert it wins, and the other's function (never called)
    // leaves the context when dropped (names are never reused).
    let built = Arc::new(build(context, inputs, constants, nodes, outputs)?);
    let mut library = library();
    let used = library.clock;
    evicted.extend(library.without_dead_contexts());
    if let Some(entry) = library.entries.get_mut(key) {
        entry.used = used;
        let function = Arc::clone(&entry.function);
        drop(library);
        drop(built);
        return Ok((function, false));
    }
    if library.entries.len() >= TRACE_CAPACITY {
        evicted.extend(library.evict_least_recent(EVICTION_BATCH));
    }
    let entry = Entry {
        function: Arc::clone(&built),
        used,
    };
    library.entries.insert(key.to_vec(), entry);
    Ok((built, false))
}

/// Traces evicted at once when the cache is full: each eviction also drops
/// TensorFlow's cached kernels of every call of the same arity (see
/// [`release`]), so evicting in batches keeps that rare.
const EVICTION_BATCH: usize = TRACE_CAPACITY / 4;

impl Library {
    /// Takes out the functions whose context is gone.
    fn without_dead_contexts(&mut self) -> Vec<Arc<FusedFunction>> {
        let mut gone = Vec::new();
        self.entries.retain(|_, entry| {
            let alive = entry.function.context.strong_count() > 0;
            if !alive {
                gone.push(Arc::clone(&entry.function));
            }
            alive
        });
        gone
    }

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
/// TensorFlow adds to the context per arity; the compiled kernel of every
/// call of that arity is cached under it and is only freed when the
/// wrapper is removed. Removing it costs the calls that remain one new
/// kernel each (made on their next call); keeping it would keep every
/// evicted function's kernel forever. Only wrappers fused calls used since
/// their last removal are removed, once no call runs ([`call_gate::remove`]).
/// Call with no lock held: dropping a function may release its context.
pub(crate) fn release(evicted: Vec<Arc<FusedFunction>>) {
    if evicted.is_empty() {
        return;
    }
    let removals = evicted
        .iter()
        .map(|function| Removal {
            context: Weak::clone(&function.context),
            wrapper: function.wrapper(),
        })
        .collect();
    drop(evicted);
    call_gate::remove(removals);
}

/// Builds the graph of `nodes` and adds it to `context` as a new function.
fn build(
    context: &Arc<BoundContext>,
    inputs: &[RecordedInput],
    constants: &[Arc<OwnedHandle>],
    nodes: &[Node],
    outputs: &[(u32, DType)],
) -> Result<FusedFunction> {
    let api = context.wheel().api();
    let status = Status::new(api, FUSED)?;
    let mut graph = OwnedGraph::new(api, FUSED)?;
    let mut placeholders = Vec::with_capacity(inputs.len());
    for (index, input) in inputs.iter().enumerate() {
        let mut node = graph.node(c"Placeholder", &format!("input{index}"), FUSED)?;
        node.set_type_code(c"dtype", input.dtype)?;
        placeholders.push(node.finish(&status)?);
    }
    let mut constant_nodes = Vec::with_capacity(constants.len());
    for (index, handle) in constants.iter().enumerate() {
        let dtype = DType::from_code(handle.dtype()).ok_or(crate::Error::Internal {
            op: FUSED,
            defect: "a constant of an unknown element type",
        })?;
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
        .ok_or(crate::Error::Internal {
            op: FUSED,
            defect: "an output names no node",
        })?;
    // Names are never reused, also across copies of this crate in one
    // process (each extension module links its own): the address of this
    // copy's counter tells them apart.
    let number = NEXT_NAME.fetch_add(1, Ordering::Relaxed);
    let copy = std::ptr::addr_of!(NEXT_NAME) as usize;
    let name = CString::new(format!("__rxt_tf_fused_{copy:x}_{number}")).map_err(|_| {
        crate::Error::Internal {
            op: FUSED,
            defect: "a function name with a NUL byte",
        }
    })?;
    let function = graph.to_function(&name, &placeholders, &returned, &status, FUSED)?;
    // SAFETY: the context is live (held by `context`); the function is live
    // and copied into the context's library.
    unsafe { (api.TFE_ContextAddFunction)(context.as_ptr(), function.as_ptr(), status.as_ptr()) };
    status.check(FUSED)?;
    BUILDS.fetch_add(1, Ordering::Relaxed);
    IN_CONTEXT.fetch_add(1, Ordering::Relaxed);
    Ok(FusedFunction {
        name,
        context: Arc::downgrade(context),
        inputs: inputs.iter().map(|input| input.dtype).collect(),
        outputs: outputs.iter().map(|&(_, dtype)| dtype.code()).collect(),
        litert: ModelCache::default(),
        frozen: FrozenModels::default(),
    })
}

impl FusedFunction {
    /// TensorFlow's wrapper its calls go through.
    fn wrapper(&self) -> Wrapper {
        Wrapper {
            op: WrappedOp::Partitioned,
            inputs: self.inputs.len(),
            outputs: self.outputs.len(),
        }
    }

    /// Its name in the context.
    pub(crate) fn name(&self) -> &str {
        self.name.to_str().unwrap_or_default()
    }

    /// Its LiteRT state.
    pub(crate) fn litert(&self) -> &ModelCache {
        &self.litert
    }

    /// Its LiteRT models with frozen inputs.
    pub(crate) fn frozen(&self) -> &FrozenModels {
        &self.frozen
    }

    /// Runs the function on `inputs` as one `PartitionedCall` on `CPU:0`
    /// (TensorFlow inlines it and runs its kernels on this thread), with the
    /// GIL released when `work` says so. `context` must be its context.
    pub(crate) fn call(
        &self,
        context: &Arc<BoundContext>,
        inputs: &[RecordedInput],
        work: i64,
    ) -> Result<Vec<OwnedHandle>> {
        if !std::ptr::eq(self.context.as_ptr(), Arc::as_ptr(context)) {
            return Err(crate::Error::Internal {
                op: FUSED,
                defect: "a fused function called on another context",
            });
        }
        let types = (&self.inputs[..], &self.outputs[..]);
        let call = c"PartitionedCall";
        run_function_call(context, call, &self.name, types, FUSED, |mut op| {
            op.set_bytes(c"config_proto", NO_GRAPH_REWRITES)?;
            for input in inputs {
                op.add_input(&input.handle)?;
            }
            // A fused trace runs only the table's ops: it never calls back.
            let mut open = call_gate::open(false);
            let outputs = op.execute_many(work, self.outputs.len());
            // Noted before the gate opens: a removal made as this call
            // leaves must see the wrapper it may have made.
            open.used(context, self.wrapper());
            outputs
        })
    }
}

impl Drop for FusedFunction {
    fn drop(&mut self) {
        IN_CONTEXT.fetch_sub(1, Ordering::Relaxed);
        // A context that is gone took its functions with it; its error
        // (none expected) cannot be reported from a drop.
        if let Some(context) = self.context.upgrade() {
            context.remove_function(&self.name);
        }
    }
}
