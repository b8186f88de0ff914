//! The constant inputs ops take, made once per context and reused: axes and
//! permutations from keywords (a set the op table bounds), and scalars (literals of `tf!`, or values known only at run time), of which
//! only the most recently used are kept.

use std::sync::Arc;

use crate::safe::constant::ConstantKey;
use crate::safe::handle::OwnedHandle;
use crate::safe::host::ScalarBits;

/// How many scalars a context keeps: a program's literals are far fewer, and
/// values that change from call to call must not grow the cache.
const MAX_SCALARS: usize = 32;

/// The constants of one context. Lookups scan: the lists are short, and a
/// scan costs less than hashing the key.
#[derive(Default)]
pub(crate) struct Constants {
    keyword: Vec<(ConstantKey, Arc<OwnedHandle>)>,
    /// By the scalar's bits (so `-0.0` and `0.0` differ); least recently
    /// used first.
    scalars: Vec<(ScalarBits, Arc<OwnedHandle>)>,
}

impl Constants {
    /// The handle for `key`, made by `make` the first time.
    pub(crate) fn keyword(
        &mut self,
        key: ConstantKey,
        make: impl FnOnce(&ConstantKey) -> crate::Result<OwnedHandle>,
    ) -> crate::Result<Arc<OwnedHandle>> {
        if let Some((_, handle)) = self.keyword.iter().find(|(known, _)| *known == key) {
            return Ok(Arc::clone(handle));
        }
        let handle = Arc::new(make(&key)?);
        self.keyword.push((key, Arc::clone(&handle)));
        Ok(handle)
    }

    /// The handle for the scalar `value`, made by `make` unless kept; the
    /// least recently used scalar makes room.
    pub(crate) fn scalar(
        &mut self,
        bits: ScalarBits,
        make: impl FnOnce() -> crate::Result<OwnedHandle>,
    ) -> crate::Result<Arc<OwnedHandle>> {
        if let Some(index) = self.scalars.iter().position(|(known, _)| *known == bits) {
            let entry = self.scalars.remove(index);
            let handle = Arc::clone(&entry.1);
            self.scalars.push(entry);
            return Ok(handle);
        }
        let handle = Arc::new(make()?);
        if self.scalars.len() >= MAX_SCALARS {
            self.scalars.remove(0);
        }
        self.scalars.push((bits, Arc::clone(&handle)));
        Ok(handle)
    }
}
