//! A map of at most a fixed number of entries, the least recently used
//! evicted first.

use std::collections::HashMap;
use std::hash::Hash;

/// At most `capacity` entries.
pub(crate) struct Lru<K, V> {
    entries: HashMap<K, (V, u64)>,
    clock: u64,
    capacity: usize,
}

impl<K: Hash + Eq + Clone, V: Clone> Lru<K, V> {
    /// An empty map of at most `capacity` entries (at least one).
    pub(crate) fn new(capacity: usize) -> Self {
        Lru {
            entries: HashMap::new(),
            clock: 0,
            capacity: capacity.max(1),
        }
    }

    /// The entry of `key`, marked used.
    pub(crate) fn get(&mut self, key: &K) -> Option<V> {
        self.clock += 1;
        let clock = self.clock;
        self.entries.get_mut(key).map(|(value, used)| {
            *used = clock;
            value.clone()
        })
    }

    /// Adds or replaces `key`'s entry; returns the entry evicted to make
    /// room, if one was (to be dropped by the caller, outside any lock).
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        self.clock += 1;
        let mut evicted = None;
        if self.entries.len() >= self.capacity && !self.entries.contains_key(&key) {
            let oldest = self
                .entries
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(key, _)| key.clone());
            evicted = oldest
                .and_then(|oldest| self.entries.remove(&oldest))
                .map(|(value, _)| value);
        }
        if let Some((previous, _)) = self.entries.insert(key, (value, self.clock)) {
            evicted = evicted.or(Some(previous));
        }
        evicted
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::Lru;

    #[test]
    fn evicts_the_least_recently_used() {
        let mut lru = Lru::new(2);
        assert_eq!(lru.insert("a", 1), None);
        assert_eq!(lru.insert("b", 2), None);
        assert_eq!(lru.get(&"a"), Some(1));
        assert_eq!(lru.insert("c", 3), Some(2));
        assert_eq!(lru.get(&"b"), None);
        assert_eq!(
            (lru.get(&"a"), lru.get(&"c"), lru.len()),
            (Some(1), Some(3), 2)
        );
        assert_eq!(lru.insert("c", 4), Some(3));
        assert_eq!(lru.len(), 2);
    }
}
