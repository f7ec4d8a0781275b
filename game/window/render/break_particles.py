"""The bits a broken block flies apart into: Beta's `EntityDiggingFX`, a few small quads.

Owns: the particles' motion (`ParticleCloud`, numpy: Beta's digging particle spawned on a grid
in the broken cell, pushed outwards from its centre, falling by PARTICLE_GRAVITY a tick with
drag PARTICLE_DRAG, resting on nothing (they fall through blocks), removed after their lifetime),
and `BreakParticles`, which draws every live particle as one camera-facing quad textured with a
small part of its block's atlas tile, all in one mesh rebuilt each frame.
Does not own: when blocks break (`Session.take_broken_blocks`), the atlas (`game.world.atlas`,
loaded by `game.window.render.chunk_renderer`) or the physics -> Ursina mapping (`game.window.render.space`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from panda3d.core import TransparencyAttrib
from ursina import Entity, Mesh, Texture, camera

from ...world import atlas, blocks

from . import space

GRID = 3
"""Particles per edge of the broken cell: 3 x 3 x 3 = 27 (Beta spawns 4 x 4 x 4 = 64)."""
PARTICLE_GRAVITY = 0.04
"""[blocks/tick^2] Beta's EntityDiggingFX: `particleGravity` 1.0 x 0.04 a tick."""
PARTICLE_DRAG = 0.98
"""Beta's EntityFX: velocity x 0.98 every tick."""
GROUND_DRAG = 0.7
"""Beta's EntityFX: horizontal velocity x 0.7 on the ground (a particle below its spawn's floor here)."""
SPEED = 0.1
"""[blocks/tick] Beta's initial push: the offset from the cell's centre, scaled to about this."""
MAX_AGE_TICKS = 20
"""[ticks] Beta's particle lives 4 / (random x 0.9 + 0.1) ticks, mostly under a second: up to 1 s here."""
MIN_AGE_TICKS = 6
"""[ticks] The shortest life (Beta's 4 / 1.0, and a little more to be seen at 60 fps)."""
SIZE = 0.15
"""[blocks] A particle's edge: Beta's digging particle is 0.1 to 0.2 blocks across (0.2 x its scale, 0.5 to 1)."""
TEXELS = 4
"""[atlas pixels] The edge of the piece of the block's tile a particle shows (Beta: 4 of 16)."""
MAX_PARTICLES = 512
"""Cap on live particles: at 27 a block, 19 blocks broken within a second (oldest go first)."""


class ParticleCloud:
    """Every live particle's position, velocity, age, life, tile and texel corner (numpy rows)."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = np.random.default_rng(seed)
        self.position = np.zeros((0, 3))
        self.previous = np.zeros((0, 3))
        self.velocity = np.zeros((0, 3))
        self.floor = np.zeros(0)
        self.age = np.zeros(0, dtype=np.int32)
        self.life = np.zeros(0, dtype=np.int32)
        self.uv = np.zeros((0, 4), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.age)

    def burst(self, cell: Sequence[int], block: str) -> None:
        """GRID^3 particles in `cell`, showing pieces of `block`'s bottom tile (Beta's side 0: dirt for grass)."""
        offsets = (np.stack(np.meshgrid(*(np.arange(GRID),) * 3, indexing="ij"), -1).reshape(-1, 3) + 0.5) / GRID
        position = np.asarray(cell, dtype=np.float64) + offsets
        push = (offsets - 0.5) * (2.0 * SPEED) + self._rng.uniform(-0.02, 0.02, offsets.shape)
        push[:, 1] += SPEED * 0.5  # Beta's particles start with a little upward motion
        tile = int(blocks.FACE_TILES[blocks.block_id(block), blocks.BOTTOM])
        u0, v0, u1, v1 = atlas.tile_uv_rect(tile)
        piece = TEXELS / atlas.TILE_PIXELS
        corner = self._rng.integers(0, atlas.TILE_PIXELS // TEXELS, (len(offsets), 2)) * piece
        uv = np.column_stack([u0 + corner[:, 0] * (u1 - u0), v0 + corner[:, 1] * (v1 - v0)])
        uv = np.column_stack([uv, uv + piece * np.array([u1 - u0, v1 - v0])]).astype(np.float32)
        life = self._rng.integers(MIN_AGE_TICKS, MAX_AGE_TICKS + 1, len(offsets))
        self._add(position, push, np.full(len(offsets), float(cell[1])), life, uv)

    def _add(self, position, velocity, floor, life, uv) -> None:
        self.position = np.concatenate([self.position, position])[-MAX_PARTICLES:]
        self.previous = np.concatenate([self.previous, position])[-MAX_PARTICLES:]
        self.velocity = np.concatenate([self.velocity, velocity])[-MAX_PARTICLES:]
        self.floor = np.concatenate([self.floor, floor])[-MAX_PARTICLES:]
        self.age = np.concatenate([self.age, np.zeros(len(life), dtype=np.int32)])[-MAX_PARTICLES:]
        self.life = np.concatenate([self.life, life.astype(np.int32)])[-MAX_PARTICLES:]
        self.uv = np.concatenate([self.uv, uv])[-MAX_PARTICLES:]

    def tick(self) -> None:
        """One 20 Hz tick: move, fall, drag, age; particles past their life are removed."""
        self.previous = self.position.copy()
        self.velocity[:, 1] -= PARTICLE_GRAVITY
        self.position = self.position + self.velocity
        landed = self.position[:, 1] < self.floor  # the floor the broken block stood on
        self.position[landed, 1] = self.floor[landed]
        self.velocity[landed, 1] = 0.0
        self.velocity *= PARTICLE_DRAG
        self.velocity[landed, 0] *= GROUND_DRAG
        self.velocity[landed, 2] *= GROUND_DRAG
        self.age += 1
        alive = self.age < self.life
        if not alive.all():
            for name in ("position", "previous", "velocity", "floor", "age", "life", "uv"):
                setattr(self, name, getattr(self, name)[alive])

    def at(self, alpha: float) -> np.ndarray:
        """(N, 3) physics positions between the last two ticks."""
        return self.previous + (self.position - self.previous) * alpha


class BreakParticles(Entity):
    """Every live break particle, drawn as one mesh of camera-facing quads."""

    def __init__(self, texture: Texture, seed: int = 0, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cloud = ParticleCloud(seed)
        self._quads = Entity(parent=self, texture=texture, unlit=True, double_sided=True, enabled=False)
        self._quads.set_transparency(TransparencyAttrib.M_none)

    def burst(self, cell: Sequence[int], block: str) -> None:
        self.cloud.burst(cell, block)

    def tick(self) -> None:
        self.cloud.tick()

    def show(self, alpha: float) -> None:
        """Place the quads between the last two ticks, facing the camera."""
        count = len(self.cloud)
        if count == 0:
            self._quads.enabled = False
            return
        centres = space.positions(self.cloud.at(alpha)).reshape(-1, 3)
        right = np.array(camera.right, dtype=np.float32) * (SIZE / 2)
        up = np.array(camera.up, dtype=np.float32) * (SIZE / 2)
        corners = np.stack([centres - right - up, centres + right - up, centres + right + up, centres - right + up], 1)
        uv = self.cloud.uv
        uvs = np.stack([uv[:, [0, 1]], uv[:, [2, 1]], uv[:, [2, 3]], uv[:, [0, 3]]], 1)
        base = (np.arange(count, dtype=np.uint32) * 4)[:, None]
        triangles = (base + np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)).ravel()
        self._quads.model = Mesh(vertices=corners.reshape(-1, 3).tolist(), uvs=uvs.reshape(-1, 2).tolist(),
                                 triangles=triangles.tolist(), static=False)
        self._quads.enabled = True
