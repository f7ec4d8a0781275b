"""Falling sand and gravel: Beta 1.7.3's `EntityFallingSand`, moved by Boxel physics.

Owns: `FallingBlock` (one falling block: its key, body, block id, age and the box it had a tick
earlier) and `FallingBlocks` (the live ones in a session: made from the world's
`take_falling_starts`, moved each tick, landed as blocks; `views` blends them between ticks for
drawing, as `FallingBlockView`s), and the entity's constants.
Pure: no Ursina. Does not own: deciding that a block starts to fall (`game.world.falling`, run by
the world's scheduled updates), collision (`physics.move`), or drawing.

One tick of a falling block (Beta's order): age + 1; vy -= GRAVITY; move by the velocity
(`physics.move`, no step-up); velocity *= DRAG; if the cell at its centre (floor of the box's
centre x and z, and of its min y + half height) still holds its own block, that block is
removed (the first tick takes the block it came from); then, on the ground, it lands: its cell
gets the block if that cell can take one (air or fluid) and the block would not fall again,
otherwise the block is lost (Beta drops it as an item; Boxel has no items yet). One that has
fallen for more than MAX_FALL_TICKS without landing is lost the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import physics
from physics.aabb import AABB
from physics.floats import f32

from .player import blend
from .world.blocks import REPLACEABLE, block_id, block_name
from .world.falling import FallingStart, falls_into

GRAVITY = 0.04
"""[blocks/tick^2] Beta's `motionY -= 0.04` (a double)."""
DRAG = 0.98
"""Velocity kept per tick (Beta's `*= 0.98`, a double); terminal speed 1.96 blocks/tick."""
SIZE = f32(0.98)
"""[blocks] Edge of a falling block's box (Beta's `setSize(0.98F, 0.98F)`)."""
HALF = f32(SIZE / 2.0)
"""[blocks] Beta's float `width / 2.0F` and `yOffset = height / 2.0F`."""
MAX_FALL_TICKS = 100
"""[ticks] A falling block older than this that has not landed is lost (Beta's `fallTime > 100`)."""
SETTINGS = replace(physics.BETA, step_height=0.0)
"""Falling blocks never step up (Beta's entities have stepHeight 0)."""


@dataclass(frozen=True)
class FallingBlock:
    body: physics.Body
    block: int
    age_ticks: int = 0
    key: int = 0
    """Unique among this session's falling blocks (a renderer keys its model by it)."""
    previous: AABB | None = None
    """[blocks] Its box one tick earlier (views blend from it); None: where it is now (not moved yet)."""

    @classmethod
    def start(cls, start: FallingStart, key: int = 0) -> FallingBlock:
        """A falling block at rest at the centre of the block's cell (Beta's `x + 0.5F` etc.)."""
        x, y, z = (float(f32(c + 0.5)) for c in start.cell)
        box = AABB(x - HALF, y - HALF, z - HALF, x + HALF, y - HALF + SIZE, z + HALF)
        return cls(physics.Body(box), start.block, key=key)

    @property
    def cell(self) -> tuple[int, int, int]:
        """The cell of its position (Beta's posX, posY, posZ: the box's centre x, z and min y + HALF)."""
        box = self.body.box
        return (math.floor((box.min_x + box.max_x) / 2.0), math.floor(box.min_y + HALF),
                math.floor((box.min_z + box.max_z) / 2.0))


@dataclass(frozen=True, slots=True)
class FallingBlockView:
    """One falling block as drawn in a frame: blended between its last two ticks."""

    key: int
    block: int
    """Its block id (drawn with that block's textures)."""
    box: AABB
    """[blocks] Physics coordinates."""


class FallingBlocks:
    """The falling blocks of one session."""

    def __init__(self, world) -> None:
        self.world = world
        self.live: list[FallingBlock] = []
        self.landed = 0
        """Blocks that landed as blocks since the session started."""
        self.lost = 0
        """Blocks that could not land (their cell taken, or they fell too long)."""
        self.started = 0
        """Blocks that started to fall since the session started (the next one's key)."""

    @property
    def bodies(self) -> list[physics.Body]:
        return [falling.body for falling in self.live]

    def tick(self) -> None:
        """Start the world's new falling blocks, then move every live one one tick."""
        take = getattr(self.world, "take_falling_starts", None)
        if take is not None:
            for start in take():
                self.live.append(FallingBlock.start(start, key=self.started))
                self.started += 1
        self.live = [moved for falling in self.live if (moved := self._step(falling)) is not None]

    def _step(self, falling: FallingBlock) -> FallingBlock | None:
        world = self.world
        vx, vy, vz = falling.body.velocity
        vy -= GRAVITY
        body = physics.move(replace(falling.body, velocity=(vx, vy, vz)), vx, vy, vz, world, SETTINGS)
        vx, vy, vz = body.velocity
        body = replace(body, velocity=(vx * DRAG, vy * DRAG, vz * DRAG))
        falling = FallingBlock(body, falling.block, falling.age_ticks + 1, falling.key, falling.body.box)
        cell = falling.cell
        name = block_name(falling.block)
        if world.get_block(*cell) == name:
            world.set_block(*cell, "air")
        if body.on_ground:
            x, y, z = cell
            free = world.can_hold(x, y, z) and REPLACEABLE[block_id(world.get_block(x, y, z))]
            if free and not falls_into(block_id(world.get_block(x, y - 1, z))):
                world.set_block(*cell, name)
                self.landed += 1
            else:
                self.lost += 1
            return None
        if falling.age_ticks > MAX_FALL_TICKS:
            self.lost += 1
            return None
        return falling

    def views(self, alpha: float) -> list[FallingBlockView]:
        """Every live falling block `alpha` (0..1) of the way from its previous tick to its latest one."""
        views = []
        for falling in self.live:
            box, before = falling.body.box, falling.previous
            if before is not None:
                box = AABB._trusted(*(blend(p, c, alpha) for p, c in zip(before, box)))
            views.append(FallingBlockView(falling.key, falling.block, box))
        return views
