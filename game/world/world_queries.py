"""The world's queries for bodies and the look ray: boxes, slipperiness, materials and currents.

Owns: `physics.CollisionWorld`'s queries over the loaded world (`collision_boxes`, `slipperiness`,
`material`, `flow`, `materials_in`), the look ray's `selection_boxes`, `fluid_level`, and the
world border as solid walls (`border_walls`).
Does not own: the blocks (read through the World's `id_at` and `_ids_in_box`, which keep the edge
rule and load or generate what they touch), the cache of placed shapes (`collision.py`; the
World holds one for collision and one for selection), or the rules of fluids (`fluids.py`).

`WorldQueries` is a part of `World` (a mixin behind the `World` façade): it keeps no state of its
own and reads the World's `_placed_shapes` and `_selection_shapes`, `id_at`, `_ids_in_box` and
`_open_file` (a closed world refuses every query with WorldClosedError).
"""

from __future__ import annotations

import numpy as np

from physics import AABB
from physics.materials import Material

from . import fluids
from .blocks import FLUID_LEVEL, MATERIAL, SLIPPERINESS
from .collision import SMALL_QUERY_CELLS, PlacedShapeCache, cell_range, placed_box_array
from .coords import WORLD_BORDER, block_coordinate

MATERIALS_BY_VALUE = list(Material)
"""`physics.Material` by its int value (`MATERIALS_BY_VALUE[MATERIAL[id]]` is a block's material)."""
_MATERIAL_OF_ID = [MATERIALS_BY_VALUE[m] for m in MATERIAL.tolist()]
"""`MATERIALS_BY_VALUE[MATERIAL[id]]` by id, as a list: `material` is asked cell by cell (a mob's look
for fluids ahead), and a list item is read several times faster than a numpy array's."""


class WorldQueries:
    """What physics and the look ray ask of the World (see the module docstring for what it reads)."""

    _placed_shapes: PlacedShapeCache
    _selection_shapes: PlacedShapeCache

    def collision_boxes(self, region: AABB) -> list[AABB]:
        """Every solid box whose interior overlaps `region` (physics.CollisionWorld).

        Edge rule: below y = 0 every cell is a full solid cube, above the top it is air; columns that
        are not loaded are generated first, so results never depend on loading timing. Fences are
        found from the cell below (1.5 tall). Beyond the world border everything is solid: the part
        of `region` outside it comes back as one wall box per side, so bodies stop at the border.
        """
        return self._boxes_in(region, self._placed_shapes)

    def selection_boxes(self, region: AABB) -> list[AABB]:
        """The boxes the look ray hits whose interior overlaps `region`: the collision boxes, and
        the selection boxes of blocks bodies pass through but a player aims at (torches, flowers,
        tall grass, cobwebs: `blocks.SELECTION_SHAPES`); the edge rule as `collision_boxes`."""
        return self._boxes_in(region, self._selection_shapes)

    def _boxes_in(self, region: AABB, shapes: PlacedShapeCache) -> list[AABB]:
        self._open_file()
        x0, y0, z0, x1, y1, z1 = cell_range(region)
        if x1 <= x0 or y1 <= y0 or z1 <= z0:
            return []
        rx0, ry0, rz0, rx1, ry1, rz1 = region
        inside = -WORLD_BORDER <= rx0 and -WORLD_BORDER <= ry0 and -WORLD_BORDER <= rz0 and \
            rx1 <= WORLD_BORDER and ry1 <= WORLD_BORDER and rz1 <= WORLD_BORDER
        walls = [] if inside else border_walls(region)  # (`border_walls` finds none inside: one test here)
        if walls:
            x0, x1 = max(x0, -WORLD_BORDER), min(x1, WORLD_BORDER)
            y0, y1 = max(y0, -WORLD_BORDER), min(y1, WORLD_BORDER)
            z0, z1 = max(z0, -WORLD_BORDER), min(z1, WORLD_BORDER)
            if x1 <= x0 or y1 <= y0 or z1 <= z0:
                return walls
        if (x1 - x0) * (y1 - y0) * (z1 - z0) <= SMALL_QUERY_CELLS:
            return walls + shapes.boxes_in_cells(self.id_at, x0, y0, z0, x1, y1, z1, region)
        return walls + shapes.boxes_in(self._ids_in_box(x0, y0, z0, x1, y1, z1), x0, y0, z0, region)

    def collision_box_array(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        """`collision_boxes` of the whole cells [x0, x1) x [y0, y1) x [z0, z1) (ints) as one float64
        (k, 6) array of corners: the same boxes, to the bit, in no particular order, placed on
        arrays (physics' optional many-boxes query: a crowd's world cache asks for whole tiles).
        Near the world border, the boxes `collision_boxes` gives, walls included."""
        region = AABB(float(x0), float(y0), float(z0), float(x1), float(y1), float(z1))
        inside = (-WORLD_BORDER <= x0 and -WORLD_BORDER <= y0 and -WORLD_BORDER <= z0
                  and x1 <= WORLD_BORDER and y1 <= WORLD_BORDER and z1 <= WORLD_BORDER)
        if not inside or x1 <= x0 or y1 <= y0 or z1 <= z0:
            return np.array(self.collision_boxes(region), dtype=np.float64).reshape(-1, 6)
        self._open_file()
        cx0, cy0, cz0, cx1, cy1, cz1 = cell_range(region)
        return placed_box_array(self._ids_in_box(cx0, cy0, cz0, cx1, cy1, cz1), cx0, cy0, cz0, region)

    def slipperiness(self, x: int, y: int, z: int) -> float:
        """Slipperiness of block (x, y, z) (0.6 for ordinary blocks and air, 0.98 for ice)."""
        x, y, z = block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")
        return float(SLIPPERINESS[self.id_at(x, y, z)])

    def material(self, x: int, y: int, z: int) -> Material:
        """What block (x, y, z) is made of, as physics sees it (physics.CollisionWorld's optional query)."""
        return _MATERIAL_OF_ID[self.id_at(int(x), int(y), int(z))]

    def flow(self, x: int, y: int, z: int) -> tuple[float, float, float]:
        """The current of the fluid at (x, y, z) (Beta's `getFlowVector`), zero elsewhere."""
        return fluids.flow_vector(self, int(x), int(y), int(z))

    def materials_in(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> dict:
        """Every cell of the inclusive cuboid that is not made of air, with its material, in x, then
        y, then z order (physics' many-cells query: one read of the blocks, vectorised)."""
        self._open_file()
        if x1 < x0 or y1 < y0 or z1 < z0:
            return {}
        ids = self._ids_in_box(x0, y0, z0, x1 + 1, y1 + 1, z1 + 1)
        materials = MATERIAL[ids]
        found = np.nonzero(materials)
        if not found[0].size:
            return {}
        values = materials[found].tolist()
        return {(x0 + i, y0 + j, z0 + k): MATERIALS_BY_VALUE[m]
                for i, j, k, m in zip(found[0].tolist(), found[1].tolist(), found[2].tolist(), values)}

    def material_array(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        """The `Material` codes (int8) of every cell of the inclusive cuboid, indexed [x - x0, y - y0,
        z - z0]: `materials_in`'s answer as one array, AIR included (physics' optional bulk query)."""
        self._open_file()
        if x1 < x0 or y1 < y0 or z1 < z0:
            return np.zeros((max(0, x1 - x0 + 1), max(0, y1 - y0 + 1), max(0, z1 - z0 + 1)), dtype=np.int8)
        return MATERIAL[self._ids_in_box(x0, y0, z0, x1 + 1, y1 + 1, z1 + 1)].astype(np.int8, copy=False)

    def fluid_level(self, x: int, y: int, z: int) -> int:
        """Beta's metadata of the water or lava at (x, y, z) (0 a source), -1 for any other block."""
        return int(FLUID_LEVEL[self.id_at(int(x), int(y), int(z))])


def border_walls(region: AABB) -> list[AABB]:
    """The parts of `region` beyond the world border on each side, as solid boxes (empty inside it)."""
    walls = []
    lo, hi = float(-WORLD_BORDER), float(WORLD_BORDER)
    for axis in range(3):
        if region[axis] < lo:
            wall = list(region)
            wall[axis + 3] = min(region[axis + 3], lo)
            walls.append(AABB._trusted(*wall))
        if region[axis + 3] > hi:
            wall = list(region)
            wall[axis] = max(region[axis], hi)
            walls.append(AABB._trusted(*wall))
    return walls
