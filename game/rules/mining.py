"""Digging and the arm swing: Beta 1.7.3's `PlayerControllerSP` and `EntityPlayer` swing, headless.

Owns: `Mining`, which a `game.rules.session.Session` holds: whether the attack button is held, the block
being dug and how far (Beta's `curBlockDamage`, float32 as Beta's float), the wait after a break
(`blockHitWait`), the dig sound counter, and the arm swing (`swingProgressInt`); `dig_strength`,
Beta's `Block.blockStrength(player)` by hand or with the held item (`game.rules.harvest`'s); the value
types `MiningProgress` and `DigTick` (what one tick of digging did).
Pure: no Ursina, no world writes: the session breaks the block `tick` names and plays the sounds.
Does not own: which block is targeted (`game.rules.targeting`), hardness (`game.world.blocks.HARDNESS`),
tools and which blocks need one (`game.rules.harvest`), the sounds themselves (`game.rules.sounds`), breaking at
once with damage off (the session does, as Minecraft's creative mode), or drawing the cracks
and the swing (`game.window.render.crack_overlay`, the hand view).

The rules, one tick at a time (`tick`), as Beta's `sendBlockRemoving` with the button held:

- pressing the button (`press`) starts digging the targeted block; each tick held on the SAME
  block adds its strength to the damage; at >= 1.0 the block breaks, the damage returns to 0 and
  the next BLOCK_HIT_WAIT_TICKS ticks dig nothing;
- a tick whose target is another block than the one being dug starts that block with damage 0
  (Beta's first call for a new block only records it: that tick adds nothing);
- releasing the button (`release`), a tick with no block targeted, or a tick the player cannot act
  (dead, a screen open) resets the damage and the wait (Beta's `resetBlockRemoving`);
- every DIG_SOUND_INTERVAL_TICKS-th tick of digging one block plays its step sound, from the first.

The swing (Beta's `swingItem` / `updateArmSwingProgress`): a swing runs SWING_TICKS ticks; `swing`
restarts it unless one is under way and not yet half done (so a dig, which swings every tick,
keeps the arm moving instead of freezing it at the start). `swing_progress(alpha)` is
`swingProgressInt / 8` blended between the last two ticks as Beta's `getSwingProgress`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import harvest
from .harvest import HAND_STRENGTH, HARVEST_DIVISOR, PENALTY_DIVISOR, TOOL_LESS_DIVISOR  # noqa: F401 (their old home)
from .items import ItemStack

Cell = tuple[int, int, int]

BLOCK_HIT_WAIT_TICKS = 5
"""[ticks] Beta's `blockHitWait` after a block breaks: the next block starts this many ticks later,
so holding the button through a row of soft blocks does not take them all at once."""
DIG_SOUND_INTERVAL_TICKS = 4
"""[ticks] Beta plays the dug block's step sound when its dig counter is a multiple of 4."""
STAGES = 10
"""Beta's destroy stages: the crack drawn is int(damage x 10), 0..9."""
SWING_TICKS = 8
"""[ticks] One arm swing: Beta's `swingProgressInt` runs 0..7 and the swing ends at 8."""
SWING_RESTART_TICKS = SWING_TICKS // 2
"""[ticks] A swing under way restarts only from this far on (Minecraft's `swingItem` guard), so a
swing asked for every tick (digging) still plays, restarting halfway."""


@dataclass(frozen=True, slots=True)
class MiningProgress:
    """The block being dug and its crack: Beta's destroy stage int(damage x 10)."""

    cell: Cell
    stage: int
    """0..STAGES - 1."""


@dataclass(frozen=True, slots=True)
class DigTick:
    """What one tick of digging did: the block to break now (None: none) and the block whose dig
    sound to play (None: no sound this tick)."""

    broken: Cell | None = None
    sound: Cell | None = None


_NOTHING = DigTick()
"""A tick that breaks nothing and sounds nothing: an idle player's, or a dig's wait (a frozen value, made once)."""


def dig_strength(block: int, *, in_water: bool = False, on_ground: bool = True,
                 held: ItemStack | None = None) -> np.float32:
    """`_dig_strength`, worked out once per block and case for the bare hand (a digging player asks
    every tick); with an item in hand, `game.rules.harvest.dig_strength` each time."""
    if held is not None:
        return harvest.dig_strength(block, held, in_water, on_ground)
    key = (block, bool(in_water), bool(on_ground))
    found = _STRENGTHS.get(key)
    if found is None:
        found = _STRENGTHS[key] = _dig_strength(block, in_water=key[1], on_ground=key[2])
    return found


_STRENGTHS: dict[tuple[int, bool, bool], np.float32] = {}
"""`dig_strength`'s bare-hand answers, by (block id, in water, on the ground): at most 4 for each block."""


def _dig_strength(block: int, *, in_water: bool = False, on_ground: bool = True) -> np.float32:
    """[damage per tick] Beta's `Block.blockStrength(player)` as float32 with the bare hand
    (`game.rules.harvest.dig_strength`): 0 for an unbreakable block (hardness < 0), 1 / hardness / 100
    for a block the hand cannot harvest (Beta's rock, iron and web), else 1 / hardness / 30 (divided
    by 5 with the eye in water and again by 5 off the ground). Hardness 0 gives infinity: the block
    breaks on the first tick."""
    return harvest.dig_strength(block, None, in_water, on_ground)


class Mining:
    """The attack button, the block being dug and the arm swing of one player."""

    def __init__(self) -> None:
        self.held = False
        """The attack button is down (a `press` not yet released)."""
        self.cell: Cell | None = None
        """The block being dug (Beta's curBlockX/Y/Z); None before any."""
        self.damage = np.float32(0.0)
        """Beta's curBlockDamage: 0 <= damage < 1 between ticks."""
        self.wait = 0
        """[ticks] Beta's blockHitWait: ticks left that dig nothing."""
        self.dug_ticks = 0
        """Ticks this block was dug (Beta's blockDestroySoundCounter)."""
        self._swing_ticks = 0
        self._swinging = False
        self._swing = 0.0
        self._previous_swing = 0.0

    # --- input --------------------------------------------------------------------------------

    def press(self, cell: Cell | None) -> None:
        """The attack button goes down aimed at `cell` (None: at no block): digging starts there."""
        if not self.held:  # a click of a button already down (a repeat) changes nothing
            self._start(cell)
        self.held = True

    def release(self) -> None:
        """The attack button goes up: the damage and the wait are reset."""
        self.held = False
        self._reset()

    def swing(self) -> None:
        """Start an arm swing (a click, a placed block, a punch, a tick of digging), unless one is
        under way and less than half done."""
        if not self._swinging or self._swing_ticks >= SWING_RESTART_TICKS or self._swing_ticks < 0:
            self._swing_ticks = -1
            self._swinging = True

    # --- the tick -----------------------------------------------------------------------------

    def tick(self, target: Cell | None, strength: float, *, can_act: bool = True) -> DigTick:
        """One tick: dig `target` (None: no block targeted) by `strength` (`dig_strength` of its
        block) while the button is held, then advance the swing. Returns what to break and sound."""
        if (not self.held and not self._swinging and not self.wait and self._swing_ticks == 0 and self._swing == 0.0
                and self._previous_swing == 0.0 and not self.damage > 0):
            return _NOTHING  # idle: nothing dug, nothing to reset, the arm at rest (what `_tick` would leave)
        return self._tick(target, strength, can_act=can_act)

    def _tick(self, target: Cell | None, strength: float, *, can_act: bool = True) -> DigTick:
        """`tick` without its shortcut for an idle player (its readable twin: a test compares them)."""
        result = _NOTHING
        if self.held and can_act and target is not None:
            result = self._dig(tuple(target), strength)
            self.swing()
        elif self.damage > 0 or self.wait:
            self._reset()
        self._advance_swing()
        return result

    def _dig(self, target: Cell, strength: float) -> DigTick:
        if self.wait > 0:
            self.wait -= 1
            return _NOTHING
        if target != self.cell:
            self._start(target)
            return _NOTHING
        sound = target if self.dug_ticks % DIG_SOUND_INTERVAL_TICKS == 0 else None
        self.damage = np.float32(self.damage + np.float32(strength))
        self.dug_ticks += 1
        if self.damage >= 1.0:
            self._start(None)
            self.wait = BLOCK_HIT_WAIT_TICKS
            return DigTick(broken=target, sound=sound)
        return _NOTHING if sound is None else DigTick(sound=sound)

    def _start(self, cell: Cell | None) -> None:
        self.cell = None if cell is None else tuple(cell)
        self.damage = np.float32(0.0)
        self.dug_ticks = 0

    def _reset(self) -> None:
        self.damage = np.float32(0.0)
        self.wait = 0
        self.dug_ticks = 0

    def _advance_swing(self) -> None:
        self._previous_swing = self._swing
        if self._swinging:
            self._swing_ticks += 1
            if self._swing_ticks >= SWING_TICKS:
                self._swing_ticks = 0
                self._swinging = False
        else:
            self._swing_ticks = 0
        self._swing = self._swing_ticks / SWING_TICKS

    # --- reading ------------------------------------------------------------------------------

    @property
    def progress(self) -> MiningProgress | None:
        """The block being dug and its crack stage, None while nothing is damaged."""
        if self.cell is None or not self.damage > 0:
            return None
        return MiningProgress(self.cell, min(int(self.damage * STAGES), STAGES - 1))

    def swing_progress(self, alpha: float) -> float:
        """The arm swing in [0, 1) between the last two ticks (`alpha` 0: the one before, 1: the
        last): 0 when not swinging. Beta's `getSwingProgress`: a swing that wrapped to its start
        blends forward to 1 (which is 0, the arm at rest), never back. ValueError unless 0 <= alpha <= 1."""
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0.0 <= alpha <= 1.0:
            raise ValueError(f"alpha is a number in [0, 1], got {alpha!r}")
        step = self._swing - self._previous_swing
        if step < 0.0:
            step += 1.0
        return (self._previous_swing + step * alpha) % 1.0  # a swing that has just ended is at rest: 0
