"""Explosion benchmark: milliseconds of a creeper's blast (power 3) in the stone under seed 42's spawn,
with the world's re-light and the list of sections to re-mesh.

The case (built untimed): a new seed-42 world; a mine tunnel 2 high and 9 long is cut along x through
the stone TUNNEL_DEPTH blocks under the spawn, and the light is made whole. Each timed sample is one
explosion on the tunnel's floor at its middle, as a creeper standing there blows up:
`explosion.blast` (the rays and Beta's HashSet order), `explosion.apply_blast` (the drops, drawn but
not spawned, and every broken block set to air through `World.set_id` with its neighbour
notifications), then `World.take_changed_sections()` (the world's light resolve for the edits, and
the sections whose mesh changed: the re-mesh list). After each sample the broken blocks are put back
and their light resolved, untimed. The reference is the same blast by the readable twin
(`tests/rules/explosion_reference.py`: one ray, one cell, one block read at a time) with the same
break, re-light and list, timed in the same run, in turns. Both use the same seed, so both make the
same crater (checked before timing).
"""

from __future__ import annotations

import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

from game.rules.explosion import apply_blast, blast
from game.world import World
from game.world.blocks import AIR, block_id
from game.world.java_random import JavaRandom
from tests.rules import explosion_reference

from .harness import Row

SUITE = "explosion"
TARGET = "<= 5 ms"
POWER = 3.0
"""Beta's creeper (`createExplosion(this, posX, posY, posZ, 3F)`)."""
SEED = 42
TUNNEL_DEPTH = 10
"""[blocks] The tunnel's floor is this far under the spawn's feet (seed 42: well inside the stone)."""
TUNNEL_HALF_LENGTH = 4
"""[blocks] The tunnel runs this far either side of the explosion along x."""
RAY_SEED = 7
"""The explosion's random source (a `JavaRandom`), the same for every sample."""
REPEATS, QUICK_REPEATS = 60, 5
REFERENCE_REPEATS, QUICK_REFERENCE_REPEATS = 6, 1


def _build(path: Path) -> tuple[World, tuple[float, float, float]]:
    """The world with the tunnel cut and its light whole; the explosion's centre (the tunnel floor's middle)."""
    world = World.create(path, seed=SEED, workers=1)
    sx, sy, sz = world.spawn
    x, y, z = int(sx // 1), int(sy // 1) - TUNNEL_DEPTH, int(sz // 1)
    stone = block_id("stone")
    solid = sum(world.id_at(x + dx, y + dy, z + dz) == stone
                for dx in range(-3, 4) for dy in range(-3, 4) for dz in range(-3, 4))
    if solid < 300:
        raise RuntimeError(f"the bench's explosion is meant for the stone, but only {solid} of 343 cells are stone")
    for dx in range(-TUNNEL_HALF_LENGTH, TUNNEL_HALF_LENGTH + 1):
        for dy in (0, 1):
            world.set_id(x + dx, y + dy, z, AIR)
    _settle(world)
    return world, (x + 0.5, float(y), z + 0.5)


def _settle(world: World) -> None:
    """Resolve every pending light change and forget the change log (untimed)."""
    world.take_changed_sections()
    world.take_changes()


def _no_drop(cell, stack, rng) -> None:
    """The drops are drawn (their chance and item) but not spawned: items are not the explosion's cost."""


def _ours(world: World, centre) -> tuple[tuple[float, float, float], list, int]:
    """[ms] One timed explosion with the world's re-light and re-mesh list, as its three parts (blast,
    apply, re-light and list); the broken (cell, block)s and how many sections the list has."""
    rng = JavaRandom(RAY_SEED)
    started = time.perf_counter()
    result = blast(world, centre, POWER, rng)
    blasted = time.perf_counter()
    broken = apply_blast(world, result, rng, _no_drop)
    applied = time.perf_counter()
    sections = world.take_changed_sections()
    done = time.perf_counter()
    parts = ((blasted - started) * 1e3, (applied - blasted) * 1e3, (done - applied) * 1e3)
    return parts, [(b.cell, b.block) for b in broken], len(sections)


def _reference(world: World, centre) -> tuple[float, list, int]:
    """[ms] The same by the readable twin."""
    rng = JavaRandom(RAY_SEED)
    started = time.perf_counter()
    cells, _ = explosion_reference.explode(world, centre, POWER, rng)
    broken = explosion_reference.break_cells(world, cells, rng, _no_drop)
    sections = world.take_changed_sections()
    elapsed = (time.perf_counter() - started) * 1e3
    return elapsed, broken, len(sections)


def _restore(world: World, broken: list) -> None:
    """Put the broken blocks back and resolve their light (untimed)."""
    for cell, block in broken:
        world.set_id(*cell, block)
    _settle(world)


def run(quick: bool = False) -> list[Row]:
    repeats = QUICK_REPEATS if quick else REPEATS
    reference_repeats = QUICK_REFERENCE_REPEATS if quick else REFERENCE_REPEATS
    with tempfile.TemporaryDirectory() as folder:
        world, centre = _build(Path(folder) / "explosion.boxel")
        try:
            _, broken, _ = _ours(world, centre)  # warm-up, and the crater both sides must make
            _restore(world, broken)
            _, twin_broken, _ = _reference(world, centre)
            _restore(world, twin_broken)
            if broken != twin_broken:
                raise RuntimeError("the explosion and its readable twin broke different blocks")
            fast, parts, slow, sections = [], [], [], 0
            while len(fast) < repeats:
                gc.collect()
                split, done, sections = _ours(world, centre)
                fast.append(sum(split))
                parts.append(split)
                _restore(world, done)
                if len(slow) < reference_repeats:
                    gc.collect()
                    elapsed, done, _ = _reference(world, centre)
                    slow.append(elapsed)
                    _restore(world, done)
        finally:
            world.close()
    blast_ms, apply_ms, light_ms = (statistics.median(part) for part in zip(*parts))
    note = (f"crater {len(broken)} blocks, {sections} sections to re-mesh; {len(fast)} samples, reference "
            f"{len(slow)} (one ray, one cell at a time); medians of the parts: blast {blast_ms:.2f} ms, apply "
            f"(drops drawn, not spawned; World.set_id each) {apply_ms:.2f} ms, World.take_changed_sections "
            f"(re-light, re-mesh list) {light_ms:.2f} ms")
    print(f"explosion: power {POWER} in a tunnel {TUNNEL_DEPTH} under seed {SEED}'s spawn broke {len(broken)} blocks",
          file=sys.stderr)
    return [Row(SUITE, "creeper's blast (power 3) in stone, with re-light and re-mesh list: median",
                statistics.median(fast), "ms", statistics.median(slow), TARGET, note)]
