"""Whether a native call lets other Python threads run, judged by what
another thread did during it, on any machine speed.

A sampler thread records the moments it finds this thread inside the call.
Holding the GIL through the call stops the sampler, so the longest gap
between samples is about the whole call; releasing it, the sampler keeps
sampling and the gaps stay near a switch interval. No duration is asserted:
the call is made longer (its work doubled) until it lasts `SWITCHES` switch
intervals (of `SWITCH_INTERVAL`, set while observing), so that the edges of the call (Python code that runs before and
after the native part, where a sample may fall either way) are a small part
of it, and the verdict compares the longest gap with the call's own length.
"""

from __future__ import annotations

import itertools
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType

SWITCH_INTERVAL = 0.001
"""Python's switch interval while a call is observed (seconds): short, so
the sampler's turns at the call's edges are short too."""
SWITCHES = 100
"""How many switch intervals a judged call lasts at least."""
DOUBLINGS = 16
"""The most times a call's work is doubled to reach that length."""


@dataclass
class Observed:
    """One call as the sampler saw it."""

    longest_gap: float
    """The longest time without a sample, between the call's two marks."""
    length: float
    """The time between the call's two marks."""
    work: int
    """The work the judged call was given."""

    @property
    def other_thread_ran(self) -> bool:
        """The sampler kept sampling through the call."""
        return self.longest_gap < 0.5 * self.length

    @property
    def other_thread_stopped(self) -> bool:
        """The sampler stopped for (nearly) the whole call."""
        return self.longest_gap > 0.9 * self.length


def observe_once(call: Callable[[], object]) -> Observed:
    """Runs `call()` in a helper frame while another thread samples."""
    main = threading.get_ident()
    seen: list[float] = []
    marks: list[float] = []
    stop = threading.Event()

    def helper() -> None:
        marks.append(time.perf_counter())
        call()
        marks.append(time.perf_counter())

    def inside(frame: FrameType | None) -> bool:
        # The call's own frame (a lambda) may sit above the helper's.
        for _ in range(3):
            if frame is None:
                return False
            if frame.f_code is helper.__code__:
                return True
            frame = frame.f_back
        return False

    def sample() -> None:
        while not stop.is_set():
            if inside(sys._current_frames().get(main)):
                seen.append(time.perf_counter())

    sampler = threading.Thread(target=sample)
    sampler.start()
    helper()
    stop.set()
    sampler.join()
    start, end = marks
    points = [start, *(t for t in seen if start < t < end), end]
    longest = max(b - a for a, b in itertools.pairwise(points))
    return Observed(longest, end - start, 0)


def observe(prepare: Callable[[int], Callable[[], object]], work: int) -> Observed:
    """The call `prepare(work)` gives, observed; `work` doubled (and the call
    prepared again, outside the observed time) until the call lasts at least
    `SWITCHES` switch intervals, at most `DOUBLINGS` times."""
    wanted = SWITCHES * SWITCH_INTERVAL
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        observed = observe_once(prepare(work))
        for _ in range(DOUBLINGS):
            if observed.length >= wanted:
                break
            work *= 2
            observed = observe_once(prepare(work))
    finally:
        sys.setswitchinterval(before)
    observed.work = work
    return observed
