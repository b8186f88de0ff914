//! The state machine's steps, and every interleaving of a few threads'
//! calls and removals: removals are made only while no call is in flight,
//! every removal queued is made, and no thread waits for a notification
//! that never comes.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::{Asking, Entry, State, PRIORITY_AFTER, WAIT_AT_MOST};

fn asking(start: Instant) -> Asking {
    Asking {
        nested: false,
        may_call_back: false,
        since: Some(start),
        gave_up_on: None,
    }
}

#[test]
fn a_removal_queued_with_no_call_in_flight_is_made_at_once() {
    let start = Instant::now();
    let mut state = State::new();
    assert_eq!(state.queue([1], start, |a, b| a == b), Some(vec![1]));
    state.check();
    // While it is made, a new call waits for it.
    assert_eq!(state.enter(asking(start), || start), Entry::Wait(None));
    assert_eq!(state.removed(), None);
    assert_eq!(state.enter(asking(start), || start), Entry::In);
    state.check();
}

#[test]
fn the_last_call_to_leave_makes_the_removals_queued_meanwhile() {
    let start = Instant::now();
    let mut state = State::new();
    assert_eq!(state.enter(asking(start), || start), Entry::In);
    assert_eq!(state.enter(asking(start), || start), Entry::In);
    assert_eq!(state.queue([1, 2, 1], start, |a, b| a == b), None);
    state.check();
    assert_eq!(state.leave(false), None);
    assert_eq!(state.leave(false), Some(vec![1, 2]));
    state.check();
    // Queued while they are made: the remover makes them next.
    assert_eq!(state.queue([3], start, |a, b| a == b), None);
    assert_eq!(state.removed(), Some(vec![3]));
    assert_eq!(state.removed(), None);
    state.check();
}

#[test]
fn a_removal_never_waits_for_a_call_of_its_own_thread() {
    // `queue` never blocks: with this thread's call in flight the removal
    // is left to the call, which makes it as it leaves.
    let start = Instant::now();
    let mut state = State::new();
    assert_eq!(state.enter(asking(start), || start), Entry::In);
    assert_eq!(state.queue([1], start, |a, b| a == b), None);
    let nested = Asking {
        nested: true,
        ..asking(start)
    };
    // Nested calls go in even when the removal is overdue.
    let late = start + PRIORITY_AFTER * 10;
    assert_eq!(state.enter(nested, || late), Entry::In);
    assert_eq!(state.leave(false), None);
    assert_eq!(state.leave(false), Some(vec![1]));
}

#[test]
fn an_overdue_removal_makes_new_calls_wait_for_it() {
    let start = Instant::now();
    let mut state = State::new();
    assert_eq!(state.enter(asking(start), || start), Entry::In);
    assert_eq!(state.queue([1], start, |a, b| a == b), None);
    // Not yet overdue: new calls go in.
    let early = start + PRIORITY_AFTER / 2;
    assert_eq!(state.enter(asking(early), || early), Entry::In);
    assert_eq!(state.leave(false), None);
    // Overdue, and no call in flight calls back: a new call waits until it
    // is made, however long the call in flight takes.
    let late = start + PRIORITY_AFTER + Duration::from_secs(3600);
    assert_eq!(state.enter(asking(late), || late), Entry::Wait(None));
    assert_eq!(state.leave(false), Some(vec![1]));
    assert_eq!(state.enter(asking(late), || late), Entry::Wait(None));
    assert_eq!(state.removed(), None);
    assert_eq!(state.enter(asking(late), || late), Entry::In);
}

#[test]
fn with_a_call_back_in_flight_a_new_call_waits_a_bounded_time_once() {
    let start = Instant::now();
    let mut state = State::new();
    let calls_back = Asking {
        may_call_back: true,
        ..asking(start)
    };
    assert_eq!(state.enter(calls_back, || start), Entry::In);
    assert_eq!(state.queue([1], start, |a, b| a == b), None);
    let overdue = start + PRIORITY_AFTER;
    let deadline = overdue + WAIT_AT_MOST;
    assert_eq!(
        state.enter(asking(overdue), || overdue),
        Entry::Wait(Some(deadline))
    );
    // Past its deadline it goes in, giving up on this queue.
    assert_eq!(
        state.enter(asking(overdue), || deadline),
        Entry::InGivingUp(start)
    );
    // Its thread's next call does not wait for the same queue again.
    let again = Asking {
        gave_up_on: Some(start),
        ..asking(deadline)
    };
    assert_eq!(state.enter(again, || deadline), Entry::In);
    state.check();
    assert_eq!(state.in_flight(), 3);
}

/// One step of a thread's script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    /// A call goes in (its function may call back or not).
    Enter { may_call_back: bool },
    /// Its innermost call leaves.
    Leave,
    /// It queues a removal.
    Queue(u8),
}

/// A thread of the model: its script, where it is, what it holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Thread {
    script: &'static [Step],
    at: usize,
    /// Its calls in flight (whether each may call back), innermost last.
    open: Vec<bool>,
    /// It waits: for a notification (`None`) or until a deadline.
    waiting: Option<Option<Instant>>,
    /// When its current call first asked to go in.
    asked: Option<Instant>,
    gave_up_on: Option<Instant>,
    /// It holds removals to make (the gate closed meanwhile).
    making: Option<Vec<u8>>,
}

/// The model: the state, the threads, and the removals made.
#[derive(Clone, Debug)]
struct World {
    state: State<u8>,
    threads: Vec<Thread>,
    made: Vec<u8>,
}

impl World {
    fn key(&self) -> String {
        format!("{:?}|{:?}|{:?}", self.state, self.threads, self.made)
    }

    /// Every thread that can take a step, with the times it may see.
    fn moves(&self, times: &[Instant]) -> Vec<(usize, Instant)> {
        let mut moves = Vec::new();
        for (index, thread) in self.threads.iter().enumerate() {
            if thread.making.is_some() {
                moves.push((index, times[0]));
                continue;
            }
            if thread.at >= thread.script.len() {
                continue;
            }
            match thread.waiting {
                // Woken only by a notification.
                Some(None) => {}
                // Asks again at any later time (a timeout or a wake-up).
                Some(Some(_)) | None => moves.extend(times.iter().map(|&now| (index, now))),
            }
        }
        moves
    }

    /// Thread `index` takes its step at `now`.
    fn step(&mut self, index: usize, now: Instant) {
        let thread = &mut self.threads[index];
        if let Some(batch) = thread.making.take() {
            // Removals are made with no call in flight.
            assert_eq!(self.state.in_flight(), 0, "made with a call in flight");
            self.made.extend(batch);
            thread.making = self.state.removed();
            // The remover notifies every waiting thread.
            for other in &mut self.threads {
                if other.waiting == Some(None) {
                    other.waiting = None;
                }
            }
            return;
        }
        let step = thread.script[thread.at];
        match step {
            Step::Enter { may_call_back } => {
                let asking = Asking {
                    nested: !thread.open.is_empty(),
                    may_call_back,
                    since: thread.asked,
                    gave_up_on: thread.gave_up_on,
                };
                let busy = self.state.busy();
                match self.state.enter(asking, || now) {
                    Entry::Wait(until) => thread.waiting = Some(until),
                    entered => {
                        if let Entry::InGivingUp(queue) = entered {
                            thread.gave_up_on = Some(queue);
                        }
                        thread.open.push(may_call_back);
                        thread.waiting = None;
                        thread.asked = None;
                        thread.at += 1;
                        if may_call_back && busy {
                            for other in &mut self.threads {
                                if other.waiting == Some(None) {
                                    other.waiting = None;
                                }
                            }
                        }
                    }
                }
            }
            Step::Leave => {
                // The scripts leave only calls they made.
                let may_call_back = thread.open.pop().unwrap_or(false);
                thread.making = self.state.leave(may_call_back);
                thread.at += 1;
            }
            Step::Queue(removal) => {
                thread.making = self.state.queue([removal], now, |a, b| a == b);
                thread.at += 1;
            }
        }
        self.state.check();
    }
}

/// Explores every interleaving of `scripts` (each call seeing any of a few
/// times: before the queue is overdue, between, after any deadline); the
/// number of states reached.
fn explore(scripts: &[&'static [Step]]) -> usize {
    let start = Instant::now();
    let times = [
        start,
        start + PRIORITY_AFTER,
        start + PRIORITY_AFTER + WAIT_AT_MOST * 2,
    ];
    let world = World {
        state: State::new(),
        threads: scripts
            .iter()
            .map(|&script| Thread {
                script,
                at: 0,
                open: Vec::new(),
                waiting: None,
                asked: None,
                gave_up_on: None,
                making: None,
            })
            .collect(),
        made: Vec::new(),
    };
    let mut seen = HashSet::new();
    let mut stack = vec![world];
    while let Some(world) = stack.pop() {
        if !seen.insert(world.key()) {
            continue;
        }
        let moves = world.moves(&times);
        if moves.is_empty() {
            // Nothing can move: every thread is done, or some wait for a
            // notification nobody will send (a lost wake-up).
            for thread in &world.threads {
                assert!(thread.at >= thread.script.len(), "stuck: {world:?}");
            }
            assert!(!world.state.busy(), "a removal left unmade: {world:?}");
            let queued: HashSet<u8> = scripts
                .iter()
                .flat_map(|script| script.iter())
                .filter_map(|step| match step {
                    Step::Queue(removal) => Some(*removal),
                    _ => None,
                })
                .collect();
            let made: HashSet<u8> = world.made.iter().copied().collect();
            assert_eq!(made, queued, "every removal queued is made: {world:?}");
            continue;
        }
        for (index, now) in moves {
            let mut next = world.clone();
            next.step(index, now);
            stack.push(next);
        }
    }
    seen.len()
}

const CALL: Step = Step::Enter {
    may_call_back: false,
};
const CALL_BACK: Step = Step::Enter {
    may_call_back: true,
};

#[test]
fn every_interleaving_of_calls_and_removals_keeps_the_invariants() {
    let states = explore(&[
        &[CALL, Step::Queue(1), Step::Leave],
        &[CALL, Step::Leave, CALL, Step::Leave],
        &[Step::Queue(2), CALL, Step::Leave],
        &[CALL, Step::Queue(3), Step::Queue(1), Step::Leave],
    ]);
    assert!(states > 1000, "{states}");
}

#[test]
fn every_interleaving_with_nested_calls_and_call_backs_keeps_them() {
    let states = explore(&[
        &[CALL_BACK, CALL, Step::Queue(1), Step::Leave, Step::Leave],
        &[CALL, Step::Leave, Step::Queue(2)],
        &[CALL_BACK, Step::Leave],
        &[CALL, CALL_BACK, Step::Leave, Step::Leave],
    ]);
    assert!(states > 1000, "{states}");
}
