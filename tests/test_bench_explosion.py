"""The explosion suite (`python -m bench explosion`) still runs: its quick run times the creeper's blast
beside the readable twin, and both break seed 42's 27-block crater (the suite raises if they differ).
Numbers are not checked: times are not for tests."""

from __future__ import annotations


def test_the_explosion_suite_breaks_the_same_27_block_crater_as_its_readable_twin_and_lists_4_sections():
    from bench import bench_explosion

    rows = bench_explosion.run(quick=True)
    assert [row.case for row in rows] == [
        "creeper's blast (power 3) in stone, with re-light and re-mesh list: median"]
    row = rows[0]
    assert row.median > 0 and row.reference is not None
    assert row.note.startswith("crater 27 blocks, 4 sections to re-mesh;"), row.note
