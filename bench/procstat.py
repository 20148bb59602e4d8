"""CPU time and resident memory of a server process tree, read from ``/proc`` (Linux only).

Used by the load generator ("the server's CPU and RSS (read from /proc of the server
pid)"). A multi-process server (``uvicorn --workers 2``) is measured as the pid plus all its
descendants.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

#: Clock ticks per second of ``/proc/<pid>/stat`` CPU fields.
CLK_TCK = os.sysconf("SC_CLK_TCK")
#: Bytes per page of ``/proc/<pid>/statm``.
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class Sample:
    """One reading of a process tree.

    Attributes:
        cpu_seconds: user + system CPU seconds used so far by every process of the tree.
        rss_bytes: the sum of their resident set sizes, in bytes.
        processes: how many processes were read.
    """

    cpu_seconds: float
    rss_bytes: int
    processes: int


def _stat_fields(pid: int) -> list[str]:
    """Return the fields of ``/proc/<pid>/stat`` after the command name (field 3 first)."""
    with open(f"/proc/{pid}/stat") as handle:
        text = handle.read()
    return text[text.rindex(")") + 2:].split()


def children(pid: int) -> list[int]:
    """Return every descendant pid of ``pid`` (any depth), from each process's parent pid."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent = int(_stat_fields(int(entry))[1])
            except (OSError, ValueError, IndexError):
                continue  # the process ended while we read
            parents.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _one(pid: int) -> tuple[float, int]:
    """Return ``(cpu seconds, rss bytes)`` of one process; ``(0, 0)`` if it is gone."""
    try:
        fields = _stat_fields(pid)
        with open(f"/proc/{pid}/statm") as handle:
            resident_pages = int(handle.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0, 0
    # utime and stime are fields 14 and 15 of stat(5); the list starts at field 3.
    return (int(fields[11]) + int(fields[12])) / CLK_TCK, resident_pages * PAGE


def sample(pid: int) -> Sample:
    """Return the CPU seconds and RSS of ``pid`` and its descendants now.

    Raises:
        ProcessLookupError: when ``pid`` does not exist.
    """
    if not os.path.exists(f"/proc/{pid}"):
        raise ProcessLookupError(pid)
    pids = [pid, *children(pid)]
    readings = [_one(p) for p in pids]
    return Sample(sum(c for c, _ in readings), sum(r for _, r in readings), len(pids))
