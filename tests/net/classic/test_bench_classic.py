"""`bench/bench_classic.py` runs (quick) and gives its two rows, the Classic bots uncorrected."""

from __future__ import annotations

import pytest


@pytest.mark.slow
def test_the_classic_bench_gives_the_level_encoding_and_the_tick_with_classic_and_boxel_bots():
    from bench import bench_classic

    rows = bench_classic.run(quick=True)
    assert [row.case for row in rows] == ["Classic level encoding, 256x128x256 window",
                                          "server tick, 20 Classic bots walking beside 20 Boxel bots"]
    assert [row.unit for row in rows] == ["ms", "ms"] and all(row.median > 0 for row in rows)
    assert rows[1].note.endswith("; 0 corrections")
