//! The call gate's state machine, apart from threads, clocks and
//! TensorFlow: each method is one step taken under the gate's mutex, and
//! says what the caller does next (go in, wait, make removals).
//!
//! Invariants, true between steps:
//!
//! 1. `removing` implies `in_flight == 0`: removals are made while no call
//!    is in flight, and no call goes in until they are made.
//! 2. `!removing && in_flight == 0` implies `queued` is empty: whoever
//!    takes the last step that frees the gate (the last call leaving, the
//!    thread queueing, the remover finishing) takes the queue, so no
//!    removal is left with nobody to make it (no lost wake-up).
//! 3. `since` is `Some` exactly while `queued` is not empty.
//!
//! ```text
//!             queue (in flight)                 leave (last)
//!   Open ───────────────────────▶ Queued ─────────────────────┐
//!    ▲ ▲                            │ ▲                         ▼
//!    │ │ queue (none in flight)     │ │ enter / leave       Removing
//!    │ └────────────────────────────┼─┼──────────────────────▶  │
//!    │                              │ └── removed (more queued) ─┤
//!    └──────────────────────────────┴──── removed (none queued) ─┘
//! ```
//!
//! A call nested in one its thread holds goes in at once (it cannot wait
//! for its own thread's call to leave). Any other call waits while
//! removals are being made, and, once the oldest queued removal has
//! waited [`PRIORITY_AFTER`], waits for it to be made: for as long as it
//! takes while no call in flight may call back into rxt-tf from another
//! thread, else [`WAIT_AT_MOST`] at most, once per thread and queue (a
//! `tf.py_function`'s Python runs on TensorFlow's threads while its call
//! is in flight, and may call rxt-tf there: a call that waited for it
//! would never see it leave).

use std::time::{Duration, Instant};

/// How long a removal may be put off by calls in flight before new calls
/// wait for it.
pub(crate) const PRIORITY_AFTER: Duration = Duration::from_millis(20);

/// How long a new call waits for an overdue removal at most while a call
/// that may call back into rxt-tf is in flight.
pub(crate) const WAIT_AT_MOST: Duration = Duration::from_millis(5);

/// The gate's state (see the module's text).
#[derive(Clone, Debug)]
pub(crate) struct State<R> {
    /// Calls holding the gate.
    in_flight: usize,
    /// Those of them whose function may call back into rxt-tf from
    /// another thread.
    may_call_back: usize,
    /// A thread is making removals.
    removing: bool,
    /// Removals not made yet.
    queued: Vec<R>,
    /// When the oldest of them was queued.
    since: Option<Instant>,
}

/// What a call asking to go in does.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Go in: it is counted in flight.
    In,
    /// Go in, giving up on the overdue queue of this time: its thread does
    /// not wait for that queue again.
    InGivingUp(Instant),
    /// Wait for the state to change (a notification), until this time at
    /// most where there is one, then ask again.
    Wait(Option<Instant>),
}

/// A call asking to go in: what its thread and its function are.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Asking {
    /// Its thread holds a call already.
    pub(crate) nested: bool,
    /// Its function may call back into rxt-tf from another thread.
    pub(crate) may_call_back: bool,
    /// When it first asked (`None`: now, its first time).
    pub(crate) since: Option<Instant>,
    /// The overdue queue its thread gave up on, if any.
    pub(crate) gave_up_on: Option<Instant>,
}

impl<R> State<R> {
    /// The open gate: nothing in flight or queued.
    pub(crate) const fn new() -> Self {
        State {
            in_flight: 0,
            may_call_back: 0,
            removing: false,
            queued: Vec::new(),
            since: None,
        }
    }

    /// A call asks to go in at `now` (read only where a removal is queued:
    /// the open gate costs no clock).
    pub(crate) fn enter(&mut self, asking: Asking, now: impl FnOnce() -> Instant) -> Entry {
        let entry = self.entry(asking, now);
        if matches!(entry, Entry::In | Entry::InGivingUp(_)) {
            self.in_flight += 1;
            self.may_call_back += usize::from(asking.may_call_back);
        }
        entry
    }

    fn entry(&self, asking: Asking, now: impl FnOnce() -> Instant) -> Entry {
        if asking.nested {
            return Entry::In;
        }
        if self.removing {
            return Entry::Wait(None);
        }
        let Some(since) = self.since else {
            return Entry::In;
        };
        let now = now();
        let overdue_at = since + PRIORITY_AFTER;
        if now < overdue_at || asking.gave_up_on == Some(since) {
            return Entry::In;
        }
        if self.may_call_back == 0 {
            return Entry::Wait(None);
        }
        let deadline = asking.since.unwrap_or(now).max(overdue_at) + WAIT_AT_MOST;
        if now >= deadline {
            return Entry::InGivingUp(since);
        }
        Entry::Wait(Some(deadline))
    }

    /// A call leaves (`may_call_back` as it entered); the removals to make
    /// now, if it was the last.
    pub(crate) fn leave(&mut self, may_call_back: bool) -> Option<Vec<R>> {
        self.in_flight = self.in_flight.saturating_sub(1);
        self.may_call_back = self
            .may_call_back
            .saturating_sub(usize::from(may_call_back));
        self.take_if_free()
    }

    /// Removals are queued at `now` (one kept of those `same` says are the
    /// same); those to make now, if no call is in flight.
    pub(crate) fn queue(
        &mut self,
        removals: impl IntoIterator<Item = R>,
        now: Instant,
        same: impl Fn(&R, &R) -> bool,
    ) -> Option<Vec<R>> {
        for removal in removals {
            if !self.queued.iter().any(|known| same(known, &removal)) {
                self.queued.push(removal);
            }
        }
        if !self.queued.is_empty() {
            self.since.get_or_insert(now);
        }
        self.take_if_free()
    }

    /// The removals taken are made; those queued meanwhile, to make now.
    pub(crate) fn removed(&mut self) -> Option<Vec<R>> {
        self.removing = false;
        self.take_if_free()
    }

    /// Whether a thread is making removals, or some wait.
    pub(crate) fn busy(&self) -> bool {
        self.removing || !self.queued.is_empty()
    }

    /// The queue, taken to be made (the gate closed meanwhile) where no
    /// call is in flight and no removal is being made.
    fn take_if_free(&mut self) -> Option<Vec<R>> {
        if self.in_flight > 0 || self.removing || self.queued.is_empty() {
            return None;
        }
        self.removing = true;
        self.since = None;
        Some(std::mem::take(&mut self.queued))
    }

    /// Calls in flight.
    #[cfg(test)]
    pub(crate) fn in_flight(&self) -> usize {
        self.in_flight
    }
}

#[cfg(test)]
impl<R: std::fmt::Debug> State<R> {
    /// Checks the invariants of the module's text.
    pub(crate) fn check(&self) {
        assert!(!self.removing || self.in_flight == 0, "{self:?}");
        assert!(self.removing || self.in_flight > 0 || self.queued.is_empty());
        assert_eq!(self.since.is_some(), !self.queued.is_empty());
        assert!(self.may_call_back <= self.in_flight);
    }
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
