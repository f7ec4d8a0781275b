"""How much memory this process holds: what the window's memory log and the memory benchmark report.

Owns: `resident_mib`. Does not own: when it is read or where it is written (the window's
`--memory-log`, `bench.bench_memory`).
"""

from __future__ import annotations

import os


def resident_mib() -> float | None:
    """[MiB] This process's resident size now (from /proc/self/statm), or None where the system does not say."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError, AttributeError):
        return None
