"""Session benchmark: milliseconds of one `Session.tick()` with 1, 10 and 100 players walking and digging.

Rows, with their targets:
- 1 player, against the code of REFERENCE_COMMIT (a session of one player, before players were plural) in the same run: within 10 %;
- 10 players and 100 players, each with the mobs it brings: the 100-player median <= 10 ms. Their
  notes give each median over the 1-player reference's of the same run: a yardstick for comparing
  runs on machines of other speeds (the reference code never changes).
Every row plays the same seeded script (`bench.session_bots`: a new seed-42 world, the players
fanned out from the spawn and their mobs spawned untimed, then walking, jumping, turning at walls
and digging the block in front now and then) and times each tick: the events applied before it
and `Session.tick()`, plus, on code from before the tick published its changes, the window's pull
of the changed sections that brought light up to date then (so both sides do the light).

The reference is REFERENCE_COMMIT's `game` and `physics` (BOXEL_BENCH_REFERENCE names another
commit), extracted once with `git archive` into REFERENCE_CACHE (git-ignored). Each side runs in
its own worker process (`python bench/session_bots.py --code DIR`, DIR first on sys.path); the
two take strict turns of TURN_TICKS ticks (reference, ours, reference, ...), so a slow spell of
this shared machine falls on both alike; each median is over every timed tick. Without git or that commit (a
tarball install) the reference column is left empty with a note; nothing fails. Code without
`Session.join` (the 10- and 100-player rows need it) gets those rows skipped with a note.

`--profile` runs the 100-player case under cProfile instead and returns one row per function that
takes the most time of its own, in milliseconds a tick (`python -m bench session --profile`).
"""

from __future__ import annotations

import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from .harness import ROOT, Row

SUITE = "session"
REFERENCE_COMMIT = "8c6c74bd8803aef134da7c5ece8b52488d716875"
"""The 1-player row's reference: the last commit whose session held exactly one player and returned
no record of its tick (nor had the hardening of saves, light and crowds that came with it)."""
REFERENCE_ENV = "BOXEL_BENCH_REFERENCE"
"""An environment variable naming another commit (any git revision) to compare with."""
REFERENCE_CACHE = ROOT / ".cache" / "bench_reference"
"""Extracted reference trees, one folder per full commit hash (git-ignored; delete freely)."""
REFERENCE_PACKAGES = ("game", "physics")
"""What a reference tree needs: the script imports only these."""
BOTS = Path(__file__).resolve().parent / "session_bots.py"
WORKER_TIMEOUT_S = 900
"""[s] Only stops a hang: the longest full run (100 players) takes a few minutes on a slow machine."""
ONE_PLAYER_TARGET = "within 10 % of the reference"
CROWD_TARGET = "<= 10 ms"
SAME_WORK_TOLERANCE = 0.10
"""The 1-player target: our median at most this fraction over the reference's."""
TURN_TICKS = 20
"""[ticks] The 1-player row's reference and ours take turns of this many ticks (a second of play,
~40 ms here): short enough that the machine's speed hardly drifts within a pair of turns."""
PROFILE_PLAYERS = 100
PROFILE_TICKS = 40
"""[ticks] Ticks profiled at most (a profiled 100-player tick takes ~0.3 s here)."""
PROFILE_ROWS = 15
"""Functions listed by `--profile`."""


class _Plan:
    """How much each row plays: timed ticks and how far the players spread."""

    def __init__(self, quick: bool) -> None:
        self.one_ticks = 100 if quick else 2400
        self.crowds = ((10, 40, 0.5), (100, 20, 0.25)) if quick else ((10, 600, 1.0), (100, 300, 1.0))
        """(players, timed ticks, spread scale): the quick run spreads the crowds less (a shorter setup)."""


def run(quick: bool = False, profile: bool = False) -> list[Row]:
    plan = _Plan(quick)
    if profile:
        return _profile_rows(plan)
    one_player = _one_player_row(plan)
    return [one_player, *(_crowd_row(*crowd, yardstick_ms=one_player.reference) for crowd in plan.crowds)]


# --- the reference code ----------------------------------------------------------------------------

def reference_tree() -> tuple[Path | None, str]:
    """The reference commit's tree (extracted into REFERENCE_CACHE on first use) and its short name;
    (None, why) when git, the repository or the commit is not there."""
    wanted = os.environ.get(REFERENCE_ENV) or REFERENCE_COMMIT
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None, "no git repository here (a tarball install?)"
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{wanted}^{{commit}}"],
                           capture_output=True, text=True)
    if found.returncode != 0:
        return None, f"commit {wanted} is not in this repository"
    commit = found.stdout.strip()
    tree = REFERENCE_CACHE / commit
    if all((tree / package / "__init__.py").is_file() for package in REFERENCE_PACKAGES):
        return tree, commit[:7]
    REFERENCE_CACHE.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f"{commit}-", dir=REFERENCE_CACHE))
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, *REFERENCE_PACKAGES],
                                 capture_output=True)
        if archive.returncode != 0:
            return None, f"git archive {commit[:7]} failed: {archive.stderr.decode(errors='replace').strip()}"
        archive_path = partial / "reference.tar"
        archive_path.write_bytes(archive.stdout)
        with tarfile.open(archive_path) as tar:
            if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4: refuse links and paths out of the folder
                tar.extractall(partial / "tree", filter="data")
            else:  # our own repository's archive
                tar.extractall(partial / "tree")
        archive_path.unlink()
        shutil.rmtree(tree, ignore_errors=True)
        (partial / "tree").rename(tree)  # whole or not at all: a run stopped midway leaves only `partial`
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return tree, commit[:7]


# --- running the script ----------------------------------------------------------------------------

def play(code: Path, players: int, ticks: int, *, spread_scale: float = 1.0, profile: Path | None = None) -> dict:
    """The script's result (`session_bots.play`) with the game in `code`, in a worker process.
    RuntimeError with the worker's last output when it fails."""
    with tempfile.TemporaryDirectory(prefix="boxel-bench-session-") as folder:
        out = Path(folder) / "result.json"
        command = [sys.executable, str(BOTS), "--code", str(code), "--players", str(players), "--ticks", str(ticks),
                   "--spread-scale", repr(spread_scale), "--out", str(out)]
        if profile is not None:
            command += ["--profile", str(profile)]
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=WORKER_TIMEOUT_S)
        if done.returncode != 0:
            raise RuntimeError(f"the session script failed on {code}:\n{done.stderr[-3000:]}")
        return json.loads(out.read_text(encoding="utf-8"))


def play_in_turns(trees: list[Path], players: int, ticks: int, turn_ticks: int) -> list[dict]:
    """The script's result with the game in each of `trees`, their workers taking strict turns of
    `turn_ticks` timed ticks (the first tree's, the second's, ...; `session_bots.play`): a slow
    spell of this shared machine falls on all alike. RuntimeError with a worker's last output
    when it fails."""
    with tempfile.TemporaryDirectory(prefix="boxel-bench-session-") as folder:
        workers = []
        try:
            for index, code in enumerate(trees):
                out, errors = Path(folder) / f"result-{index}.json", Path(folder) / f"stderr-{index}.txt"
                with errors.open("w", encoding="utf-8") as stderr:
                    process = subprocess.Popen(
                        [sys.executable, str(BOTS), "--code", str(code), "--players", str(players),
                         "--ticks", str(ticks), "--turn-ticks", str(turn_ticks), "--out", str(out)],
                        cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True)
                workers.append((process, out, errors, code))
            for worker in workers:
                _expect(worker, "ready")
            for _ in range(-(-ticks // turn_ticks)):
                for worker in workers:
                    worker[0].stdin.write("go\n")
                    worker[0].stdin.flush()
                    _expect(worker, "done")
            results = []
            for process, out, errors, code in workers:
                process.stdin.close()
                if process.wait(timeout=WORKER_TIMEOUT_S) != 0:
                    raise RuntimeError(f"the session script failed on {code}:\n{errors.read_text()[-3000:]}")
                results.append(json.loads(out.read_text(encoding="utf-8")))
            return results
        finally:
            for process, *_ in workers:
                if process.poll() is None:
                    process.kill()
                    process.wait()


def _expect(worker, word: str) -> None:
    process, _, errors, code = worker
    line = process.stdout.readline().strip()
    if line != word:
        process.wait(timeout=WORKER_TIMEOUT_S)
        raise RuntimeError(f"the session script on {code} said {line!r}, not {word!r}:\n{errors.read_text()[-3000:]}")


def _one_player_row(plan: _Plan) -> Row:
    case = "session tick, 1 player walking and digging"
    tree, name = reference_tree()
    runs = f"{plan.one_ticks:,} ticks"
    if tree is None:
        ours = play(ROOT, 1, plan.one_ticks)
        return Row(SUITE, case, statistics.median(ours["tick_ms"]), "ms", None, ONE_PLAYER_TARGET,
                   f"{runs}; no reference: {name}")
    theirs, ours = play_in_turns([tree, ROOT], 1, plan.one_ticks, TURN_TICKS)
    median, reference = statistics.median(ours["tick_ms"]), statistics.median(theirs["tick_ms"])
    verdict = "within" if median <= reference * (1.0 + SAME_WORK_TOLERANCE) else "NOT within"
    note = (f"{runs} each, in turns of {TURN_TICKS}; reference: commit {name} (one-player session), same script"
            f"{', same end state' if theirs['end_feet'] == ours['end_feet'] else ', END STATES DIFFER'}; "
            f"{verdict} 10 %")
    return Row(SUITE, case, median, "ms", reference, ONE_PLAYER_TARGET, note)


def _crowd_row(players: int, ticks: int, spread_scale: float, yardstick_ms: float | None = None) -> Row:
    """`yardstick_ms`: the 1-player reference's median in the same run (None: none), which the note
    divides the crowd's median by: the machine's speed differs from hour to hour and machine to
    machine, the reference code does not."""
    case = f"session tick, {players} players walking and digging, with the mobs they bring"
    result = play(ROOT, players, ticks, spread_scale=spread_scale)
    if "error" in result:
        return Row(SUITE, case, 0.0, "ms", None, CROWD_TARGET if players >= 100 else "", f"skipped: {result['error']}")
    samples = result["tick_ms"]
    cpu = result.get("tick_cpu_ms")
    note = (f"{ticks:,} ticks, worst {max(samples):.3g} ms"
            f"{f', CPU median {statistics.median(cpu):.3g} ms' if cpu else ''}; {result['mobs_at_start']} mobs at the start, "
            f"{result['mobs']} at the end (natural spawns), "
            f"{result['edited_cells']} blocks dug, {result['columns_made']} columns made before timing")
    median = statistics.median(samples)
    if yardstick_ms:
        note += f"; {median / yardstick_ms:.1f}x the 1-player reference's median in this run"
    return Row(SUITE, case, median, "ms", None, CROWD_TARGET if players >= 100 else "", note)


def _profile_rows(plan: _Plan) -> list[Row]:
    players, ticks, spread_scale = next(crowd for crowd in plan.crowds if crowd[0] == PROFILE_PLAYERS)
    ticks = min(ticks, PROFILE_TICKS)
    with tempfile.TemporaryDirectory(prefix="boxel-bench-session-profile-") as folder:
        stats_path = Path(folder) / "ticks.prof"
        result = play(ROOT, players, ticks, spread_scale=spread_scale, profile=stats_path)
        if "error" in result:
            return [Row(SUITE, f"profile of {players} players", 0.0, "ms", note=f"skipped: {result['error']}")]
        stats = pstats.Stats(str(stats_path)).stats
    per_tick = 1e3 / ticks
    ranked = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:PROFILE_ROWS]
    rows = [Row(SUITE, f"{players} players: whole tick (profiled)", statistics.median(result["tick_ms"]), "ms",
                note="cProfile slows Python calls: read the rows below as shares")]
    for (file, line, function), (_, calls, own, cumulative, _) in ranked:
        where = f"{Path(file).parent.name}/{Path(file).name}:{line}" if line else "built-in"
        rows.append(Row(SUITE, f"{function} ({where})", own * per_tick, "ms",
                        note=f"own time a tick; {calls / ticks:,.0f} calls and {cumulative * per_tick:.3g} ms "
                             f"with callees a tick"))
    return rows
