"""Process-wide runtime tuning of a server process: the garbage collector's thresholds.

Higher than CPython's ``(700, 10, 10)``, and a middle collection after every young one, so no
collection holds the event loop for long under load (figures: bench/RESULTS.md, "The p99
tail"). Reference counting still frees almost every object; cycles are still found.
"""

from __future__ import annotations

import gc

#: ``gc.set_threshold`` arguments: a young collection every 50,000 net allocations, a middle
#: one after each young one (so it walks the survivors of at most 2 × 50,000 allocations; a
#: ``threshold1`` of 20 let ≈ 1 M objects wait and cost one 300 ms pause), a full one every
#: 101 middle ones. A lower first threshold makes the steady young pauses more frequent.
GC_THRESHOLDS = (50_000, 0, 100)


def tune_gc() -> None:
    """Set the collector's thresholds to ``GC_THRESHOLDS`` (for this whole process)."""
    gc.set_threshold(*GC_THRESHOLDS)
