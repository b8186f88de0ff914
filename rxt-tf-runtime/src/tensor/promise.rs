//! A tensor still to be computed: the promise of a producer (a fused
//! call's trace) that computes all its promises at once. The tensor module
//! knows promises and producers only through this interface, not who makes
//! them.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::error::{Error, Result};
use crate::safe::handle::OwnedHandle;

/// What computes promises: runs, and fulfils every promise it made that is
/// still held.
pub(crate) trait Producer: Send + Sync {
    /// Computes and fulfils the producer's promises, if they are not yet.
    /// An error means nothing ran and no promise was fulfilled (the calling
    /// thread cannot run it now: its executor is asynchronous, say).
    fn produce(&self) -> Result<()>;
}

/// What a promise holds once fulfilled.
pub(crate) type Fulfilment = Result<Arc<OwnedHandle>>;

/// One output a [`Producer`] will compute.
pub(crate) struct Promise {
    /// Its producer, until it is fulfilled: a fulfilled promise holds only
    /// its value, not the producer and what the producer holds.
    producer: Mutex<Option<Arc<dyn Producer>>>,
    /// Which of its producer's outputs it is.
    index: u32,
    value: OnceLock<Fulfilment>,
}

impl Promise {
    /// Output `index` of `producer`.
    pub(crate) fn new(producer: Arc<dyn Producer>, index: u32) -> Promise {
        Promise {
            producer: Mutex::new(Some(producer)),
            index,
            value: OnceLock::new(),
        }
    }

    /// Which of its producer's outputs it is.
    pub(crate) fn index(&self) -> u32 {
        self.index
    }

    /// Its producer, if it is not fulfilled yet.
    pub(crate) fn producer(&self) -> Option<Arc<dyn Producer>> {
        if self.is_fulfilled() {
            return None;
        }
        self.producer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Whether it is not fulfilled yet and `producer` (an address) is its
    /// producer.
    pub(crate) fn is_pending_from(&self, producer: *const ()) -> bool {
        !self.is_fulfilled()
            && self
                .producer
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .as_ref()
                .is_some_and(|own| std::ptr::addr_eq(Arc::as_ptr(own), producer))
    }

    /// Whether it holds its value (or its producer's error).
    pub(crate) fn is_fulfilled(&self) -> bool {
        self.value.get().is_some()
    }

    /// Sets its value (the first time only) and lets go of its producer.
    /// The producer reference is returned, for the caller to drop where
    /// dropping is safe (outside its own locks).
    #[must_use = "the producer reference is to be dropped by the caller"]
    pub(crate) fn fulfil(&self, value: Fulfilment) -> Option<Arc<dyn Producer>> {
        let _ = self.value.set(value);
        self.producer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// The value, running its producer first if needed.
    pub(crate) fn resolve(&self) -> Result<&Arc<OwnedHandle>> {
        if !self.is_fulfilled() {
            if let Some(producer) = self.producer() {
                producer.produce()?;
            }
        }
        match self.value.get() {
            Some(Ok(handle)) => Ok(handle),
            Some(Err(err)) => Err(err.clone()),
            None => Err(Error::Internal {
                op: "fused call",
                defect: "a fused call set no result",
            }),
        }
    }
}
