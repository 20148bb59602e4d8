"""Process-wide runtime tuning of a server process (issue 10, bench/RESULTS.md §3 and §3b).

Python's cyclic garbage collector, at its default thresholds ``(700, 10, 10)``, ran a young
collection every 700 net allocations and a full one every 100 young ones; under load (every
move allocates a state, events, renders and frames) the server spent a large share of its
time collecting: 13 s of collections in a 3-minute 200-room run (``gc.callbacks`` timing),
about 1.3 s at ``(50000, 20, 100)``. Almost all of those objects are freed by reference
counting anyway; the collector only has to find cycles, which it still does, less often.

A collection holds the event loop for as long as it walks its generations: about 0.3-0.45 µs
per tracked object on the bench host (a young collection of 50,000 surviving objects: 20-24
ms). At ``(50000, 20, 100)`` the middle generation gathered the survivors of 20 young
collections before it was walked: at 1,000 rooms that was every object made while the rooms
and their 4,000 sockets were set up, about 1 M objects, walked in one 260-350 ms pause that
delayed every move then (the p99 of the 1,000-room load, bench/RESULTS.md §3b "tail").
``GC_THRESHOLDS`` bounds what a middle collection walks; a full collection still walks every
tracked object, rarely.
"""

from __future__ import annotations

import gc

#: ``gc.set_threshold`` arguments: a young collection every 50,000 net allocations, a middle
#: one right after each young one (CPython walks the middle generation once more than
#: ``threshold1`` young collections ran since its last walk: with 0 it holds the survivors of
#: at most 2 × 50,000 allocations, 21-50 ms of CPU while 1,000 rooms were set up; with 20 it
#: was 21 × 50,000), a full one every 101 middle ones (≈ 10 M net allocations; and, as always
#: in CPython, only once the objects waiting for it are a quarter of the long-lived ones).
#: In steady play a young collection costs what the objects made since the last one and
#: still alive cost (every room's newest state, views and legal lists: 64-80 ms at 1,000
#: rooms, whatever the first threshold), and the net count grows slowly (most objects die
#: young, by reference counting), so the first threshold stays high: at 20,000 those pauses
#: came every 7 s instead of every 15 s or more.
GC_THRESHOLDS = (50_000, 0, 100)


def tune_gc() -> None:
    """Set the collector's thresholds to ``GC_THRESHOLDS`` (for this whole process)."""
    gc.set_threshold(*GC_THRESHOLDS)
