"""Process-wide runtime tuning of a server process (issue 10, bench/RESULTS.md section 3).

Python's cyclic garbage collector, at its default thresholds ``(700, 10, 10)``, ran a young
collection every 700 net allocations and a full one every 100 young ones; under load (every
move allocates a state, events, renders and frames) the server spent a large share of its
time collecting: 13 s of collections in a 3-minute 200-room run (``gc.callbacks`` timing),
about 1.3 s at ``GC_THRESHOLDS``. Almost all of those objects are freed by reference counting
anyway; the collector only has to find cycles, which it still does, less often.
"""

from __future__ import annotations

import gc

#: ``gc.set_threshold`` arguments: a young collection every 50,000 net allocations, a middle
#: one every 20 young ones, a full one every 100 middle ones (and, as always in CPython, only
#: once the objects waiting for it are a quarter of the long-lived ones).
GC_THRESHOLDS = (50_000, 20, 100)


def tune_gc() -> None:
    """Set the collector's thresholds to ``GC_THRESHOLDS`` (for this whole process)."""
    gc.set_threshold(*GC_THRESHOLDS)
