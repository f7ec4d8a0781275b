"""A scripted survival player for headless tests: it looks at cells, digs, clicks screen slots and
places blocks only through the session's events, as a player would, recording every event it sends.

The events it records (`Bot.events`, each with the tick it was applied before) are a replay: played
back on the same world they give the same game (`tests/game/test_survival_play.py` checks it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from game.rules.inventory_events import DropHeld, SlotClick
from game.rules.replay import Click, Event, KeyDown, KeyUp, Look, Release, format_event
from game.world import World

from .scripted_runs import flatten

SEED = 42
PLATFORM = range(-6, 7), range(-6, 7)
CLEARANCE = 8
STONE = tuple((x, z) for z in range(-2, 3) for x in (-3, -4)) + ((-5, 0),)
"""(x, z) of the stone blocks standing on the platform: rows along -x, eleven in all."""
COAL_ORE = (-3, 4)
IRON_ORE = (-3, -4)
"""(x, z) of the ores standing on the platform, apart from the stone."""


def survival_world(path: Path) -> tuple[int, int, int]:
    """A seed-42 survival world with a flat grass platform around the spawn, a tree trunk of four
    logs, stone (STONE), coal ore and iron ore to dig on it; returns the feet cell of the spawn."""
    with World.create(path, SEED, workers=1, game_mode="survival") as world:
        floor = math.floor(world.spawn[1]) - 1
        flatten(world, floor, *PLATFORM, CLEARANCE)
        for y in range(floor + 1, floor + 5):
            world.set_block(3, y, 0, "log")
        for x, z in STONE:
            world.set_block(x, floor + 1, z, "stone")
        world.set_block(COAL_ORE[0], floor + 1, COAL_ORE[1], "coal_ore")
        world.set_block(IRON_ORE[0], floor + 1, IRON_ORE[1], "iron_ore")
        spawn = (math.floor(world.spawn[0]), floor + 1, math.floor(world.spawn[2]))
    return spawn


def angles_towards(eye: Sequence[float], point: Sequence[float]) -> tuple[float, float]:
    """(yaw, pitch) [degrees] that look from `eye` at `point` (`targeting.look_direction` inverted)."""
    dx, dy, dz = (p - e for p, e in zip(point, eye))
    yaw = math.degrees(math.atan2(-dx, dz)) % 360.0
    pitch = -math.degrees(math.atan2(dy, math.hypot(dx, dz)))
    return yaw, pitch


class Bot:
    """Drives the local player of `session` with events (module docstring)."""

    def __init__(self, session) -> None:
        self.session = session
        self.events: list[Event] = []

    # --- sending -------------------------------------------------------------------------------

    def send(self, event: Event) -> None:
        self.events.append(event)
        self.session.apply(event)

    def tick(self, ticks: int = 1) -> None:
        for _ in range(ticks):
            self.session.tick()

    @property
    def now(self) -> int:
        return self.session.ticks_run

    def press(self, key: str) -> None:
        """A key pressed and let go a tick later."""
        self.send(KeyDown(self.now, key))
        self.tick()
        self.send(KeyUp(self.now, key))

    def look_at(self, point: Sequence[float]) -> None:
        yaw, pitch = angles_towards(self.session.player.eye, point)
        self.send(Look(self.now, yaw, pitch))

    def look_at_face(self, cell: Sequence[int], face: Sequence[int]) -> None:
        """Look at the middle of `cell`'s face pointing along `face`."""
        self.look_at([c + 0.5 + 0.499 * f for c, f in zip(cell, face)])

    # --- the world -------------------------------------------------------------------------------

    def dig(self, cell: Sequence[int], face: Sequence[int], most_ticks: int = 800, settle_ticks: int = 20) -> int:
        """Dig `cell` (looking at its `face`) until it breaks; then wait `settle_ticks` for the drop
        to be picked up. Returns the ticks the button was held. AssertionError if it never breaks."""
        block = self.session.world.get_block(*cell)
        self.look_at_face(cell, face)
        self.tick()
        self.send(Click(self.now, "left"))
        held = 0
        while self.session.world.get_block(*cell) == block:
            assert held < most_ticks, f"{block} at {cell} did not break in {most_ticks} ticks"
            self.tick()
            held += 1
        self.send(Release(self.now, "left"))
        self.tick(settle_ticks)
        return held

    def use(self, cell: Sequence[int], face: Sequence[int]) -> None:
        """Right click on `cell`'s `face` (use the block, or place the held one against it)."""
        self.look_at_face(cell, face)
        self.tick()
        self.send(Click(self.now, "right"))
        self.tick()

    def select(self, hotbar_slot: int) -> None:
        self.press(str(hotbar_slot + 1))

    # --- the inventory and screens ---------------------------------------------------------------------

    def slot_of(self, item: str) -> int:
        """The first player inventory slot (0..35) holding `item`; AssertionError if none."""
        for index, stack in enumerate(self.session.player.inventory.slots):
            if stack is not None and stack.item == item:
                return index
        raise AssertionError(f"no {item} in {self.session.player.inventory!r}")

    def empty_slot(self) -> int:
        return self.session.player.inventory.slots.index(None)

    def click(self, slot: int, button: str = "left", shift: bool = False) -> None:
        self.send(SlotClick(self.now, slot, button, shift))
        self.tick()

    def drop(self, whole_stack: bool = False) -> None:
        self.send(DropHeld(self.now, whole_stack))
        self.tick()

    def lines(self) -> list[str]:
        """The recorded events as a replay's lines."""
        return [format_event(event) for event in self.events]


def screen_slot(player_slot: int, main_first: int, hotbar_first: int) -> int:
    """A player inventory slot's number on a screen whose main rows start at `main_first` and whose
    hotbar starts at `hotbar_first` (`game.rules.containers`' numbering)."""
    return hotbar_first + player_slot if player_slot < 9 else main_first + player_slot - 9


def in_inventory(slot: int) -> int:
    """A player slot on the inventory screen (2x2 grid: main 9.., hotbar 36..)."""
    return screen_slot(slot, 9, 36)


def in_table(slot: int) -> int:
    """A player slot on the crafting table's screen (main 10.., hotbar 37..)."""
    return screen_slot(slot, 10, 37)


def in_furnace(slot: int) -> int:
    """A player slot on the furnace's screen (main 3.., hotbar 30..)."""
    return screen_slot(slot, 3, 30)


def walk_to(bot: Bot, x: float, z: float, close_blocks: float = 0.25, most_ticks: int = 200) -> None:
    """Walk (W, looking level) until the feet are within `close_blocks` of (x, z), then stop and settle."""
    player = bot.session.player
    for _ in range(most_ticks):
        fx, _, fz = player.body.feet
        if math.hypot(x - fx, z - fz) <= close_blocks:
            break
        yaw, _ = angles_towards((fx, 0.0, fz), (x, 0.0, z))
        bot.send(Look(bot.now, yaw, 0.0))
        if "w" not in player.input.held:
            bot.send(KeyDown(bot.now, "w"))
        bot.tick()
    if "w" in player.input.held:
        bot.send(KeyUp(bot.now, "w"))
    bot.tick(10)


def gather(bot: Bot, most_items: int = 16) -> None:
    """Walk to every item lying in the world, nearest first, until none is left (each picked up)."""
    for _ in range(most_items):
        live = bot.session.dropped.live
        if not live:
            return
        fx, _, fz = bot.session.player.body.feet
        item = min(live, key=lambda i: math.hypot(i.body.feet[0] - fx, i.body.feet[2] - fz))
        walk_to(bot, item.body.feet[0], item.body.feet[2])
    assert not bot.session.dropped.live, f"items left lying: {bot.session.dropped.live}"
