"""Memory benchmark: what a long headless flight keeps in memory, with and without unloading far columns.

Owns: the flight (a new world of seed 42; the player flies up for RISE_TICKS ticks, then sprint-flies
along +X, as a player crossing the world would) played on a `Session` with no window, in a fresh
process per case so each resident size is its own, and its rows.
Case: the resident size (RSS) and the loaded columns after FLIGHT_TICKS ticks, with the headless
column keeper (`game.rules.column_keeper`: every KEEP_INTERVAL_TICKS ticks the columns farther than
KEEP_RADIUS_COLUMNS from the player are saved if edited and unloaded) against the same flight with
unloading disabled (the reference: a headless run that never unloads a column).
`python -m bench.bench_memory TICKS keep|all` runs one flight and prints its numbers as JSON.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from .harness import ROOT, Row

SUITE = "memory"
SEED = 42
RISE_TICKS = 200
"""[ticks] Flying up (Space) first, above the hills on the way."""
FLIGHT_TICKS = 20_000
"""[ticks] About 17 minutes of play: ~18,000 blocks (over 1,100 columns) of sprint-flight."""
QUICK_FLIGHT_TICKS = 1_500
FLIGHT_TIMEOUT_S = 1_800


def flight_events():
    from game.rules.replay import KeyDown, KeyUp, Look
    return (Look(0, 270.0, 0.0), KeyDown(0, "f"), KeyDown(1, "space"), KeyUp(RISE_TICKS, "space"),
            KeyDown(RISE_TICKS, "w"), KeyDown(RISE_TICKS, "control"))


def fly(ticks: int, keep: bool, folder: Path) -> dict:
    """Fly `ticks` ticks on a new world in `folder`; the numbers at the end, and the most columns loaded."""
    from game.frontends.process_memory import resident_mib
    from game.rules.column_keeper import ColumnKeeper
    from game.rules.replay import ReplayCursor
    from game.rules.session import Session
    from game.world import World

    world = World.create(folder / "flight.boxel", SEED, workers=1)
    session = Session.open(world)
    keeper = ColumnKeeper(world, session.save) if keep else None
    cursor = ReplayCursor(flight_events())
    most = 0
    try:
        for _ in range(ticks):
            for event in cursor.due(session.ticks_run):
                session.apply(event)
            session.tick()
            if keeper is not None:
                keeper.after_tick(session.ticks_run, [session.player.body.feet])
            most = max(most, world.loaded_columns)
        return {"ticks": ticks, "rss_mib": resident_mib(), "loaded_columns": world.loaded_columns,
                "most_loaded_columns": most, "x": session.player.body.feet[0]}
    finally:
        session.close()


def _fly_in_a_process(ticks: int, keep: bool) -> dict:
    done = subprocess.run([sys.executable, "-m", "bench.bench_memory", str(ticks), "keep" if keep else "all"],
                          cwd=ROOT, capture_output=True, text=True, timeout=FLIGHT_TIMEOUT_S, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(quick: bool = False) -> list[Row]:
    ticks = QUICK_FLIGHT_TICKS if quick else FLIGHT_TICKS
    kept, everything = _fly_in_a_process(ticks, True), _fly_in_a_process(ticks, False)
    rows = []
    if kept["rss_mib"] is not None:
        rows.append(Row(SUITE, f"resident size after {ticks:,} ticks of headless flight", kept["rss_mib"], "MiB",
                        everything["rss_mib"], note="reference: the same flight with no column unloaded"))
    rows.append(Row(SUITE, f"loaded columns after {ticks:,} ticks of headless flight", kept["loaded_columns"],
                    "columns", everything["loaded_columns"],
                    note=f"most at once {kept['most_loaded_columns']}; flew {kept['x']:.0f} blocks along +X"))
    return rows


def main(argv: list[str]) -> int:
    ticks, mode = int(argv[0]), argv[1]
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(fly(ticks, mode == "keep", Path(folder))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
