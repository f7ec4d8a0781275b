"""The seeded players of `python -m bench session`, and the worker process that times their ticks.

Owns: the bots (`Bot`: what one player does each tick, decided from its seeded random numbers and
its body, and sent as the replay events a person's keys and mouse would make), the scripted game
they play (`play`: a new seed-SEED world, the columns around the spawn made first, the players
spread out and their mobs spawned untimed, then every tick timed) and the worker's command line.
Does not own: the rows, the reference commit or how runs are paired (`bench.bench_session`).

The worker runs as a file, `python bench/session_bots.py --code DIR ...`, with DIR first on
`sys.path`: the `game` and `physics` it imports are DIR's, the working tree's or an older
commit's (extracted by `bench_session`), so the same script times both and they do identical
work. So this module imports only the standard library at its top, and of the game only names
that every version since the headless Session has (`Session.open`, `apply`, `tick`, the event
types); the multiplayer calls (`Session.join`, `apply(event, player=name)`) are used only with
more than one player.

What each bot does (all of it drawn from `random.Random` seeded by the bot's number):
1. spread: hold forward along its own direction (the golden angle around the spawn, so a crowd
   fans out evenly) for a drawn number of ticks (a uniform spot in a disc whose area grows with
   the crowd: SPREAD_TICKS_PER_ROOT_PLAYER); where it stops is its home;
2. at home, bring its mobs: look down at the ground ahead and press the spawn-mob key
   MOBS_PER_PLAYER times, a quarter turn between them;
3. then, timed: walk, turning at walls (a jump first, a new drawn direction when still stuck),
   turning back towards home when it strays over HOME_HALF_WIDTH_BLOCKS from it, jumping now and
   then, and every DIG_GAP_TICKS or so stopping to look down and dig the block in front of its feet
   (holding the attack button for DIG_HOLD_TICKS, long enough to break dirt, grass or sand by hand).
A dead bot presses the respawn key.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import math
import random
import sys
import tempfile
import time
from pathlib import Path

SEED = 42
"""The world seed: plains around the spawn (seed 42's spawn column is grass)."""
MOBS_PER_PLAYER = 2
"""Mobs each player spawns with the spawn-mob key: "the mobs they bring"."""
SPREAD_TICKS_PER_ROOT_PLAYER = 24
"""[ticks] The longest spread walk is this times the square root of the players (plus
SPREAD_TICKS_LEAST): the disc they fan out over grows with their number, so each has about the
same room (at Beta's walking speed, 4.3 blocks/s, 100 players spread over a disc ~60 blocks across,
a 10 x 10 patch each; 1 player walks ~8 blocks)."""
SPREAD_TICKS_LEAST = 16
"""[ticks] Every bot walks at least this far from the spawn before it settles."""
HOME_HALF_WIDTH_BLOCKS = 6.0
"""[blocks] A bot farther than this (on x or z) from its home turns back towards it."""
HOME_TURN_JITTER_DEGREES = 40.0
"""[degrees] Turning back home aims this much either side of straight home, drawn."""
STUCK_STEP_BLOCKS = 0.02
"""[blocks] A walking bot that moved less than this in a tick (horizontally) is blocked."""
TURN_AFTER_STUCK_TICKS = 5
"""[ticks] A bot blocked this many ticks in a row (its jump did not free it) turns to a new direction."""
JUMP_CHANCE = 1 / 40
"""Chance that a walking bot jumps in a tick (about every 2 s)."""
DIG_GAP_TICKS = (40, 100)
"""[ticks] Drawn time between one dig's end and the next dig."""
DIG_HOLD_TICKS = 24
"""[ticks] The attack button is held this long: Beta breaks dirt (0.75 s), grass (0.9 s) and sand
(0.75 s) by hand within it; a block it cannot break in time (stone) stays cracked."""
DIG_PITCH_DEGREES = 55.0
"""[degrees] Looking down this far from the eye (1.62 blocks up) meets the ground about 1.1 blocks
ahead: the block in front of the feet."""
MOB_PITCH_DEGREES = 60.0
"""[degrees] Looking down this far to spawn a mob on the ground ahead."""
LOCAL_NAME = "player"
"""The local player's name (`game.rules.player.LOCAL_PLAYER`): bot 0 is always the local player."""
GOLDEN_ANGLE_DEGREES = 180.0 * (3.0 - math.sqrt(5.0))
"""[degrees] Bot i sets off at i times this around the spawn: evenly fanned out for any count."""
PRELOAD_MARGIN_BLOCKS = 48.0
"""[blocks] Columns this far beyond the farthest home are made before the timed ticks (mobs spawn
and wander within 32 blocks of a player), so the timed ticks seldom generate terrain."""
COLUMN_SIZE = 16
"""[blocks] A column's width (`game.world.coords.CHUNK_SIZE`)."""
WALKING_BLOCKS_PER_TICK = 0.2158
"""[blocks/tick] Beta's walking speed on the ground (4.317 blocks/s), for sizing the spread only."""


def bot_name(index: int) -> str:
    """Bot 0 is the local player; the others are bot001, bot002, ... (valid Beta usernames)."""
    return LOCAL_NAME if index == 0 else f"bot{index:03d}"


def yaw_towards(dx: float, dz: float) -> float:
    """[degrees] Minecraft's yaw (0 faces +Z, 90 faces -X, 270 faces +X) that faces (dx, dz)."""
    return math.degrees(math.atan2(-dx, dz)) % 360.0


def facing(yaw: float) -> tuple[float, float]:
    """The horizontal unit vector (x, z) a yaw faces."""
    radians = math.radians(yaw)
    return -math.sin(radians), math.cos(radians)


class Bot:
    """One scripted player: `decide(tick, player)` returns the events it sends before that tick."""

    def __init__(self, index: int, events, spread_ticks_most: int) -> None:
        self.index = index
        self.name = bot_name(index)
        self.events = events
        """The game's event types: a namespace with KeyDown, KeyUp, Look, Click, Release, RESPAWN_KEY."""
        self.rng = random.Random(f"boxel-bench-session-bot-{index}")
        self.yaw = (index * GOLDEN_ANGLE_DEGREES + self.rng.uniform(-10.0, 10.0)) % 360.0
        self.spread_left = SPREAD_TICKS_LEAST + int(spread_ticks_most * math.sqrt(self.rng.random()))
        self.mobs_left = MOBS_PER_PLAYER
        self.home: tuple[float, float] | None = None
        self.started = False
        self.jumping = False
        self.stuck = 0
        self.dig_left = 0
        self.next_dig = 0

    @property
    def settled(self) -> bool:
        """At home with its mobs brought: the timed part of the script has begun for this bot."""
        return self.home is not None and self.mobs_left == 0

    def decide(self, tick: int, player) -> list:
        e = self.events
        if player.dead:
            return [e.KeyDown(tick, e.RESPAWN_KEY)]
        sent = []
        if self.jumping:
            sent.append(e.KeyUp(tick, "space"))
            self.jumping = False
        if not self.started:
            self.started = True
            return [*sent, e.Look(tick, self.yaw, 0.0), e.KeyDown(tick, "w")]
        if self.home is None:
            self.spread_left -= 1
            if self.spread_left > 0:
                return sent + self._walk(tick, player)
            x, _, z = player.body.feet
            self.home = (x, z)
            return [*sent, e.KeyUp(tick, "w"), e.Look(tick, self.yaw, MOB_PITCH_DEGREES)]
        if self.mobs_left:
            self.mobs_left -= 1
            sent.append(e.KeyDown(tick, "m"))
            sent.append(e.KeyUp(tick, "m"))
            self.yaw = (self.yaw + 90.0) % 360.0
            if self.mobs_left:
                sent.append(e.Look(tick, self.yaw, MOB_PITCH_DEGREES))
            else:
                sent += [e.Look(tick, self.yaw, 0.0), e.KeyDown(tick, "w")]
                # The first dig anywhere in a whole cycle, so the crowd digs steadily from the start.
                self.next_dig = tick + self.rng.randint(0, DIG_GAP_TICKS[1] + DIG_HOLD_TICKS)
            return sent
        if self.dig_left:
            self.dig_left -= 1
            if self.dig_left == 0:
                sent += [e.Release(tick, "left"), e.Look(tick, self.yaw, 0.0), e.KeyDown(tick, "w")]
                self.next_dig = tick + self.rng.randint(*DIG_GAP_TICKS)
            return sent
        if tick >= self.next_dig:
            self.dig_left = DIG_HOLD_TICKS
            self.stuck = 0
            return [*sent, e.KeyUp(tick, "w"), e.Look(tick, self.yaw, DIG_PITCH_DEGREES), e.Click(tick, "left")]
        return sent + self._walk(tick, player)

    def _walk(self, tick: int, player) -> list:
        """Walking on: jump or turn when blocked, turn back when far from home, jump now and then."""
        e = self.events
        (x0, _, z0), (x1, _, z1) = player.previous.feet, player.body.feet
        self.stuck = self.stuck + 1 if math.hypot(x1 - x0, z1 - z0) < STUCK_STEP_BLOCKS else 0
        turn = None
        if self.stuck >= TURN_AFTER_STUCK_TICKS:
            turn = self.rng.uniform(0.0, 360.0)
            self.stuck = 0
        elif self.home is not None:
            dx, dz = self.home[0] - x1, self.home[1] - z1
            fx, fz = facing(self.yaw)
            if max(abs(dx), abs(dz)) > HOME_HALF_WIDTH_BLOCKS and fx * dx + fz * dz < 0.0:
                turn = yaw_towards(dx, dz) + self.rng.uniform(-HOME_TURN_JITTER_DEGREES, HOME_TURN_JITTER_DEGREES)
        sent = []
        if turn is not None:
            self.yaw = turn % 360.0
            sent.append(e.Look(tick, self.yaw, 0.0))
        if self.stuck == 1 or self.rng.random() < JUMP_CHANCE:
            sent.append(e.KeyDown(tick, "space"))
            self.jumping = True
        return sent


class _Events:
    """The game's event types and respawn key, looked up once from whichever `game` was imported."""

    def __init__(self) -> None:
        try:
            from game.rules import controls, replay
        except ImportError:  # the reference's layout: game/ held every module flat
            from game import controls, replay

        self.KeyDown, self.KeyUp, self.Look = replay.KeyDown, replay.KeyUp, replay.Look
        self.Click, self.Release = replay.Click, replay.Release
        self.RESPAWN_KEY = controls.RESPAWN_KEY


def spread_ticks_most(players: int) -> int:
    return round(SPREAD_TICKS_PER_ROOT_PLAYER * math.sqrt(players))


def _preload(world, radius_blocks: float) -> int:
    """Make every column within `radius_blocks` of the spawn (untimed); how many."""
    sx, _, sz = world.spawn
    reach = math.ceil(radius_blocks / COLUMN_SIZE)
    cx0, cz0 = math.floor(sx) // COLUMN_SIZE, math.floor(sz) // COLUMN_SIZE
    made = 0
    for cx in range(cx0 - reach, cx0 + reach + 1):
        for cz in range(cz0 - reach, cz0 + reach + 1):
            world.column(cx, cz)
            made += 1
    return made


def play(players: int, ticks: int, *, spread_scale: float = 1.0, profile: str | None = None,
         turn_ticks: int | None = None) -> dict:
    """Play the script with `players` bots on a new world: untimed setup, then `ticks` timed ticks.
    Returns JSON values: every timed tick's milliseconds (`tick_ms` by the wall clock, `tick_cpu_ms`
    this thread's CPU time, which other work on a shared machine adds little to) and what the game held at the end.

    `turn_ticks`: take turns with another process (`bench_session` pairs the reference with
    ours): after the setup print "ready", then before every `turn_ticks` ticks wait for a line on
    stdin and after them print "done", so the two never run at once and a slow spell of the
    machine falls on both alike."""
    from game.session import Session  # the name every version has (game.rules.session in the layered layout)
    from game.world import World

    events = _Events()
    most = round(spread_ticks_most(players) * spread_scale)
    with tempfile.TemporaryDirectory(prefix="boxel-bench-session-") as folder:
        world = World.create(Path(folder) / "bench.boxel", seed=SEED, workers=1)
        try:
            made = _preload(world, (SPREAD_TICKS_LEAST + most) * WALKING_BLOCKS_PER_TICK
                            + HOME_HALF_WIDTH_BLOCKS + PRELOAD_MARGIN_BLOCKS)
            session = Session.open(world, autosave=False)
            bots = [Bot(index, events, most) for index in range(players)]
            if players > 1:
                if not hasattr(session, "join"):
                    return {"error": "this Session has no join(name): one player only"}
                for bot in bots[1:]:
                    session.join(bot.name)
                lookup = session.players.__getitem__

                def apply(event, name):
                    session.apply(event, player=name)
            else:
                lookup = lambda name: session.player  # noqa: E731 (every version has session.player)

                def apply(event, name):
                    session.apply(event)
            setup_ticks = 0
            while not all(bot.settled for bot in bots):
                _one_tick(session, world, bots, lookup, apply)
                setup_ticks += 1
            gc.collect()
            gc.freeze()  # what the setup made is long-lived, as the server freezes what loading made
            mobs_at_start = len(session.mobs)
            profiler = cProfile.Profile() if profile else None
            samples, pulls, cpu_samples = [], [], []
            if turn_ticks is not None:
                print("ready", flush=True)
            for index in range(ticks):
                if turn_ticks is not None and index % turn_ticks == 0:
                    if index:
                        print("done", flush=True)
                    sys.stdin.readline()
                elapsed, pull, cpu = _one_tick(session, world, bots, lookup, apply, profiler)
                samples.append(elapsed * 1e3)
                pulls.append(pull * 1e3)
                cpu_samples.append(cpu * 1e3)
            if turn_ticks is not None:
                print("done", flush=True)
            if profiler is not None:
                profiler.dump_stats(profile)
            gc.unfreeze()
            end = [list(lookup(bot.name).body.feet) for bot in bots]
            return {"tick_ms": samples, "tick_cpu_ms": cpu_samples, "light_pull_ms": pulls, "setup_ticks": setup_ticks,
                    "columns_made": made, "mobs_at_start": mobs_at_start, "mobs": len(session.mobs), "edited_cells": len(session.edited_cells),
                    "end_feet": end, "game": str(Path(sys.modules["game"].__file__).parent)}
        finally:
            world.close()


def _one_tick(session, world, bots, lookup, apply, profiler=None) -> tuple[float, float, float]:
    """One tick: every bot decides (untimed), then its events are applied and the session ticks
    (timed: the events' work is part of a tick). Code from before the tick published its changes
    (its `tick()` returns None) brought light up to date only when a window pulled the changed
    sections: that pull is timed as part of its tick too, so both do the light. [s] the tick, the pull."""
    tick = session.ticks_run
    decided = [(bot.name, bot.decide(tick, lookup(bot.name))) for bot in bots]
    if profiler is not None:
        profiler.enable()
    started, cpu_started = time.perf_counter(), time.thread_time()
    for name, sent in decided:
        for event in sent:
            apply(event, name)
    changes = session.tick()
    pulled = time.perf_counter()
    if changes is None and hasattr(world, "take_changed_sections"):
        world.take_changed_sections()
    done, cpu_done = time.perf_counter(), time.thread_time()
    if profiler is not None:
        profiler.disable()
    return done - started, done - pulled, cpu_done - cpu_started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time the bench's session script on the game in --code.")
    parser.add_argument("--code", required=True, help="the folder holding the game and physics packages")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--ticks", type=int, required=True)
    parser.add_argument("--spread-scale", type=float, default=1.0)
    parser.add_argument("--profile", help="write the timed ticks' cProfile stats to this file")
    parser.add_argument("--turn-ticks", type=int, help="take turns of this many ticks with another process (see play)")
    parser.add_argument("--out", required=True, help="write the result (JSON) to this file")
    args = parser.parse_args(argv)
    code = str(Path(args.code).resolve())
    sys.path.insert(0, code)
    import game

    if not Path(game.__file__).resolve().is_relative_to(code):
        raise SystemExit(f"imported game from {game.__file__}, not from {code}")
    result = play(args.players, args.ticks, spread_scale=args.spread_scale, profile=args.profile,
                  turn_ticks=args.turn_ticks)
    Path(args.out).write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
