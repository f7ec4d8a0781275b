"""Broad phase: which boxes might meet, found without testing every pair.

Owns: `CellGrid`, a uniform grid of square x/z cells that answers "which bodies meet this region"
while bodies move one at a time (the crowd's one-by-one path); `near_pairs`, every pair of boxes
within a reach of each other, for whole arrays of boxes at once (numpy, the vectorised path's
push candidates); and `WorldCache`, the block boxes around many bodies, gathered from a
`CollisionWorld` tile by tile and kept by block cell.
Does not own: what happens to the pairs (`push.py`, `crowd.py`) or the clip rule (`clip.py`).

Every answer is exact: the same pairs a brute-force scan of all pairs gives (tests compare them
on random boxes); the grid and the strips only decide which pairs are worth testing. `CellGrid`
files a box under every cell its x/z extent overlaps, so two boxes that share an interior point
share the cell of that point.

Why strips for whole arrays. Measured (CPU time, median of 15, 5 at 40,000, the middle of three
runs; shared 2-core machine) for random crowds of 0.6 x 1.8 bodies, 0.25 per block^2, pairs
within the 0.2-block push reach:
    bodies                                     1,000     10,000     40,000
    strip sweep (`near_pairs`)                 0.26 ms    2.1 ms     9.7 ms
    grid of 2-block cells, in numpy            0.91 ms   11.4 ms    28.5 ms
    sweep and prune on x                       4.0 ms    80 ms     509 ms
The first two grow linearly: a strip as deep as a body plus the reach holds a band of the crowd,
and its x window a few bodies, whatever the crowd's size. A grid files each box under up to four
cells, then has to drop the pairs found in more than one; the strips file each box once, find
each pair once, and need three binary searches instead of a cell table. Sweep and prune on x
alone tests every box in the x window across the whole crowd in z (26, 81 and 161 candidates per
body here: n^1.5 in all).

Why wide boxes leave the strips. The strips are as deep, and the windows as wide, as the largest
box: one body moving 1,000 blocks diagonally in a tick (its reach spans its whole move) made
every body of the crowd a candidate of every other (2,003,001 candidates for 2,002 boxes, where
the strips of the others test 770). Boxes far wider than the rest (`WIDE_BOX_BLOCKS`,
`WIDE_BOX_FACTOR`) are paired with the others by a band along their shorter side instead, and
among themselves by the same rule: the work is what their swept area holds, never the square
of the crowd.
"""

from __future__ import annotations

import itertools
import math
import weakref
from collections.abc import Sequence

import numpy as np

from .aabb import AABB
from .crowd_settings import DEFAULT_TUNING, CrowdSettings
from .materials import Material, has_materials, materials_in
from .shapes import MAX_SHAPE_TOP
from .world import CollisionWorld, slipperiness_at

GRID_CELL_SIZE = 2.0
"""[blocks] Side of a `CellGrid` cell (x and z). A power of two, so `x / GRID_CELL_SIZE` is exact and a
box is filed under exactly the cells it overlaps. Chosen for 0.6 to 1 block bodies with a
0.2-block push reach (a body spans one or two cells a side), by timing a numpy grid of such cells
on whole arrays of boxes (the module docstring's table), not `CellGrid`'s one-at-a-time moves."""


WORLD_TILE_SIZE = 8
"""[blocks] `WorldCache` asks the world for whole tiles of this many blocks cubed (aligned), one
query per tile, instead of once per body: neighbours share a query, and the cells a wandering
body reaches next are mostly known already. Measured gathering for 1,000 bodies on the
benchmark terrain (BlockGrid): asking only the cells needed within each 4 x 4 column tile made
the cache ask again in nearly every tick (a few new cells, but each query updates its whole
table: about 1 ms a tick); whole tiles stop the asking once the crowd's ground is known.
Eight rather than four: a query's cost is mostly its numpy calls, not its cells (a tile of
ground from a game's world, `python -m bench world`: ~0.8 ms for 8 cubed, 0.4-0.7 ms for 4
cubed), and a game's walking crowds and mob brains kept reaching new 4-block tiles, about two
a tick with 100 players; with 8 the 100-player session tick took 0.97x the time (median of
ten runs in turns) and the crowd rows did not slow."""


class CellGrid:
    """Boxes by integer key in a uniform x/z grid; answers which boxes meet a region as boxes move.

    Used by the crowd's one-by-one path: `move` a body's box after its step, then `query` its
    push region. All operations cost O(cells the box spans + boxes in those cells).
    """

    def __init__(self, cell_size: float = GRID_CELL_SIZE) -> None:
        self._cell_size = cell_size
        self._cells: dict[tuple[int, int], set[int]] = {}
        self._boxes: dict[int, AABB] = {}
        self._spans: dict[int, tuple[int, int, int, int]] = {}

    def _span(self, box: AABB) -> tuple[int, int, int, int]:
        c = self._cell_size
        return math.floor(box[0] / c), math.floor(box[2] / c), math.floor(box[3] / c), math.floor(box[5] / c)

    def insert(self, key: int, box: AABB) -> None:
        """File `box` under `key` (which must not be in the grid yet)."""
        if key in self._boxes:
            raise KeyError(f"key {key!r} is already in the grid")
        span = self._span(box)
        cells = self._cells
        for cell in itertools.product(range(span[0], span[2] + 1), range(span[1], span[3] + 1)):
            cells.setdefault(cell, set()).add(key)
        self._boxes[key] = box
        self._spans[key] = span

    def remove(self, key: int) -> None:
        """Forget `key`."""
        span = self._spans.pop(key)
        del self._boxes[key]
        cells = self._cells
        for cell in itertools.product(range(span[0], span[2] + 1), range(span[1], span[3] + 1)):
            members = cells[cell]
            members.discard(key)
            if not members:
                del cells[cell]

    def move(self, key: int, box: AABB) -> None:
        """Replace the box of `key` (refiling it only when it changed cells)."""
        if self._span(box) == self._spans[key]:
            self._boxes[key] = box
        else:
            self.remove(key)
            self.insert(key, box)

    def query(self, region: AABB) -> list[int]:
        """Keys of every box that strictly intersects `region`, in ascending order."""
        x0, z0, x1, z1 = self._span(region)
        cells = self._cells
        found: set[int] = set()
        for cell in itertools.product(range(x0, x1 + 1), range(z0, z1 + 1)):
            members = cells.get(cell)
            if members:
                found.update(members)
        boxes = self._boxes
        return sorted(k for k in found if region.intersects(boxes[k]))

_RADIX_KEYS = 1 << 16


def _points_in(lo: Sequence[np.ndarray], hi: Sequence[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Every integer point of each inclusive box lo..hi (one int array per axis, for n boxes;
    hi >= lo - 1 on every axis), the last axis counting fastest: which box each point belongs
    to, and the points' coordinates, one array per axis (`_points_in_by_axis`, which a test
    compares with this). For three axes, each point's place within its box is split into
    coordinates by two `divmod`s: a crowd tick asks for a few hundred points at a time, where
    the calls cost more than numpy's slow integer division (0.75x the time of building them
    axis by axis, 150 boxes of 2 x 3 x 2)."""
    if len(lo) != 3:
        return _points_in_by_axis(lo, hi)
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    depth = z1 - z0 + 1
    plane = (y1 - y0 + 1) * depth  # points per x
    count = (x1 - x0 + 1) * plane
    ends = count.cumsum()
    owner = np.arange(len(count)).repeat(count)
    place = np.arange(int(ends[-1]) if ends.size else 0) - (ends - count).repeat(count)
    dx, rest = np.divmod(place, plane.take(owner))
    dy, dz = np.divmod(rest, depth.take(owner))
    return owner, [x0.take(owner) + dx, y0.take(owner) + dy, z0.take(owner) + dz]


def _points_in_by_axis(lo: Sequence[np.ndarray], hi: Sequence[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """`_points_in` for any number of axes, built axis by axis with repeats (its readable twin)."""
    owner = np.arange(len(lo[0]))
    coordinates: list[np.ndarray] = []
    for low, high in zip(lo, hi):
        extent = (high - low + 1).take(owner)
        parent = np.arange(owner.size).repeat(extent)
        offset = np.arange(parent.size) - (extent.cumsum() - extent).repeat(extent)
        owner = owner.take(parent)
        coordinates = [c.take(parent) for c in coordinates]
        coordinates.append(low.take(owner) + offset)
    return owner, coordinates


def _stable_order(major: np.ndarray, minor: np.ndarray, size: int) -> np.ndarray:
    """The order that sorts pairs by `major`, then `minor` (ints in 0..size-1), ties kept."""
    if size <= _RADIX_KEYS:  # two 16-bit radix sorts beat one comparison sort of int64 keys
        order = minor.astype(np.uint16).argsort(kind="stable")
        return order.take(major.take(order).astype(np.uint16).argsort(kind="stable"))
    return (major * size + minor).argsort(kind="stable")


STRIP_SLACK = 1e-6
"""[1] Relative and absolute widening of `near_pairs`'s strips and x windows beyond the widest box
plus the reach. Strip numbers are computed in floats, which may round a box into the
neighbouring strip (an error of ~1e-16 relative, ~4e-9 strips at coordinates up to KEYED_XZ), so
the strips are this much deeper: rounding can only add candidates, never drop one. (The sort
keys' own rounding grows with their size, and `near_pairs` widens its windows by that as well.)
The exact test decides."""


WIDE_BOX_BLOCKS = 8.0
"""[blocks] `near_pairs` takes a box whose x or z extent exceeds this (and WIDE_BOX_FACTOR times
the median extent) out of the strips: one such box (a fast body's swept reach, 1,000 blocks
across) would make every strip and window as large as itself, and every body in it a candidate
of every other, n^2 pairs. A 0.6-block body's reach in a crowd tick (its box, the push margin
and a tick's move at sprint-jump speed) spans about 2 blocks; 8 leaves room for large mobs."""

WIDE_BOX_FACTOR = 4.0
"""[1] ... and a box counts as wide only beyond this many times the median extent, so a crowd of
large bodies (all wider than WIDE_BOX_BLOCKS) keeps its strips: at most half the boxes are ever
wide, and those are paired among themselves the same way (a strictly smaller set)."""


def near_pairs(boxes: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j), i != j, of boxes ((n, 6) AABB corners) that come within `reach` of each
    other sideways: the gap between them is less than `reach` on x and on z (a negative gap is
    an overlap), and they overlap strictly on y. Two int arrays, sorted by i, then j; each pair
    comes both ways. `reach` > 0: for the crowd, boxes i and j meet each other's push region.

    A sweep in strips (`_strip_pairs`), after taking the wide boxes out (`_wide_boxes`): those
    are paired with the others by bands (`_band_pairs`) and among themselves by this same rule.
    Each pair is found once and tested once (the test is symmetric in i and j, to the bit). The
    work grows with the boxes near each box, so linearly in n for a crowd of even density
    (measured: module docstring), and for a wide box with the boxes in its band."""
    n = len(boxes)
    if n < 2:
        none = np.empty(0, dtype=np.int64)
        return none, none
    c = np.ascontiguousarray(boxes.T, dtype=np.float64)  # corner by corner: c[0] is every min x
    i, j = _pairs(c, reach)
    first, second = np.concatenate((i, j)), np.concatenate((j, i))
    ordered = _stable_order(first, second, n)
    return first.take(ordered), second.take(ordered)


def _pairs(c: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """`near_pairs` of boxes `c` ((6, n) corners), each pair once, in no particular order."""
    width, depth = c[3] - c[0], c[5] - c[2]
    widest, deepest = float(width.max()), float(depth.max())
    wide = None if not max(widest, deepest) > WIDE_BOX_BLOCKS else _wide_boxes(np.maximum(width, depth))
    if wide is None:  # every ordinary crowd
        return _strip_pairs(c, reach, widest, deepest)
    big, small = wide.nonzero()[0], (~wide).nonzero()[0]
    c_big, c_small = c.take(big, axis=1), c.take(small, axis=1)
    found = [_strip_pairs(c_small, reach), _pairs(c_big, reach), _band_pairs(c_big, c_small, reach)]
    owners = [(small, small), (big, big), (big, small)]
    return (np.concatenate([a.take(i) for (i, _), (a, _) in zip(found, owners)]),
            np.concatenate([b.take(j) for (_, j), (_, b) in zip(found, owners)]))


def _wide_boxes(span: np.ndarray) -> np.ndarray | None:
    """Which boxes, of larger extents (x or z) `span`, are wide (WIDE_BOX_BLOCKS,
    WIDE_BOX_FACTOR), or None for none."""
    wide = span > max(WIDE_BOX_BLOCKS, WIDE_BOX_FACTOR * float(np.median(span)))
    return wide if np.count_nonzero(wide) else None


def _near(c: np.ndarray, i: np.ndarray, d: np.ndarray, j: np.ndarray, reach: float) -> np.ndarray:
    """Which pairs (box i of corners `c`, box j of corners `d`) are near (`near_pairs`'s rule),
    tested symmetrically, to the bit. Corner by corner: gathering whole rows would make arrays
    big enough to be mapped afresh from the system on every call, and those page faults cost
    more than the test."""
    near = np.maximum(d[0].take(j) - c[3].take(i), c[0].take(i) - d[3].take(j)) < reach
    near &= np.maximum(d[2].take(j) - c[5].take(i), c[2].take(i) - d[5].take(j)) < reach
    near &= c[4].take(i) > d[1].take(j)
    near &= d[4].take(j) > c[1].take(i)
    return near


def _strip_pairs(c: np.ndarray, reach: float, widest: float | None = None,
                 deepest: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`near_pairs` of boxes `c` ((6, n) corners), each pair once, by a sweep in strips: z is cut
    into strips as deep as the deepest box plus the reach, and the boxes are sorted by strip,
    then by their low x corner. Boxes in strips two or more apart cannot be near, so each box
    only looks, with binary searches, at the boxes after it in its own strip whose low x lies
    within the widest box plus the reach, and at those of the next strip within that distance
    either side. One very large box widens every strip and window (see `_pairs`). `widest` and
    `deepest`: the largest x and z extents, when known."""
    n = c.shape[1]
    if n < 2:
        none = np.empty(0, dtype=np.int64)
        return none, none
    widest = float((c[3] - c[0]).max()) if widest is None else widest
    deepest = float((c[5] - c[2]).max()) if deepest is None else deepest
    window = (widest + reach + STRIP_SLACK) * (1.0 + STRIP_SLACK)
    depth = (deepest + reach + STRIP_SLACK) * (1.0 + STRIP_SLACK)
    x0, z0 = float(c[0].min()), float(c[2].min())
    stride = float(c[0].max()) - x0 + 4.0 * window  # strip k's keys lie in [k * stride, k * stride + x range]
    key = np.floor((c[2] - z0) / depth) * stride + (c[0] - x0)
    order = key.argsort()
    key = key.take(order)
    # Each key, and each key plus a window, is rounded a few times, by up to half a unit in the
    # last place of the largest key each time (~1e-4 blocks for a crowd spread over 1e6 blocks
    # of z): the windows are widened by four such units, which covers them.
    window += 8.0 * np.finfo(np.float64).eps * (float(key[-1]) + stride + window)
    # Candidates of the box at sorted place p: places p+1 .. ahead-1 (same strip), then
    # beside .. beside_end-1 (next strip).
    ahead, beside, beside_end = key.searchsorted(np.concatenate(
        (key + window, key + (stride - window), key + (stride + window)))).reshape(3, n)
    place = np.arange(n)
    same = ahead - (place + 1)
    count = same + (beside_end - beside)
    owner = place.repeat(count)
    k = np.arange(owner.size) - (count.cumsum() - count).repeat(count)
    in_strip = same.take(owner)
    other = np.where(k < in_strip, owner + 1 + k, beside.take(owner) + (k - in_strip))
    i, j = order.take(owner), order.take(other)
    hit = _near(c, i, c, j, reach).nonzero()[0]
    return i.take(hit), j.take(hit)


def _band_pairs(wide: np.ndarray, other: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """The near pairs (wide box, other box) of corners `wide` ((6, w)) and `other` ((6, m)): each
    wide box tests the others whose low corner lies in its band along its shorter side (x or
    z), the box's extent widened by the reach and the others' largest extent; a binary search
    over the others sorted by that corner finds them. So a box moving far along z alone costs
    the boxes near its thin band in x, not every box in the crowd."""
    w, m = wide.shape[1], other.shape[1]
    if not (w and m):
        none = np.empty(0, dtype=np.int64)
        return none, none
    along_x = (wide[3] - wide[0]) <= (wide[5] - wide[2])  # x is the shorter side: band in x
    firsts, lasts, orders = [], [], []
    for low, high, mine in ((0, 3, along_x), (2, 5, ~along_x)):
        order = other[low].argsort()
        corner = other[low].take(order)
        deepest = float((other[high] - other[low]).max())
        # Rounding can only widen the band: the exact test decides.
        scale = float(np.abs(corner).max()) + float(np.abs(wide[[low, high]]).max()) + deepest + reach
        slack = STRIP_SLACK * (1.0 + deepest + reach) + 8.0 * np.finfo(np.float64).eps * scale
        first = corner.searchsorted(wide[low] - (deepest + reach + slack))
        last = corner.searchsorted(wide[high] + (reach + slack), side="right")
        firsts.append(np.where(mine, first, 0))
        lasts.append(np.where(mine, last, 0))
        orders.append(order)
    count = (lasts[0] - firsts[0]) + (lasts[1] - firsts[1])
    owner = np.arange(w).repeat(count)
    start = np.where(along_x, firsts[0], firsts[1])
    place = start.take(owner) + (np.arange(owner.size) - (count.cumsum() - count).repeat(count))
    j = np.where(along_x.take(owner), orders[0].take(place), orders[1].take(place))
    hit = _near(wide, owner, other, j, reach).nonzero()[0]
    return owner.take(hit), j.take(hit)


# --- bodies against the world ----------------------------------------------------------------

KEYED_XZ = 1 << 25
"""[blocks] Cells with -KEYED_XZ <= x, z < KEYED_XZ have a key (Boxel's world ends at 30,000,000)."""
KEYED_Y = 1 << 10
"""[blocks] Cells with -KEYED_Y <= y < KEYED_Y have a key (the game world is 256 high); bodies
that need other cells step one by one."""


def cell_keys(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """One int64 key per block cell, distinct for every keyed cell (26 + 26 + 11 bits)."""
    return ((x + KEYED_XZ) << 37) | ((z + KEYED_XZ) << 11) | (y + KEYED_Y)


def keyed(windows: np.ndarray) -> np.ndarray:
    """Which inclusive cell ranges ((n, 6) ints, see `windows_of`) lie wholly among keyed cells."""
    return _within_keys(windows[:, :3], windows[:, 3:])


def keyed_cells(cells: np.ndarray) -> np.ndarray:
    """Which block cells ((n, 3) ints) have a key."""
    return _within_keys(cells, cells)


_KEYS_LOW = np.array([-KEYED_XZ, -KEYED_Y, -KEYED_XZ])
_KEYS_END = -_KEYS_LOW


def _within_keys(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Which rows of lows ((n, 3): x, y, z) and highs ((n, 3)) lie among keyed cells. The usual
    answer, all of them, comes from reductions over whole arrays and the y columns (numpy's
    reductions along the first axis of an (n, 3) array cost 5 to 10 times more)."""
    if (len(low) and -KEYED_XZ <= low.min() and high.max() < KEYED_XZ
            and -KEYED_Y <= low[:, 1].min() and high[:, 1].max() < KEYED_Y):
        return np.ones(len(low), dtype=bool)
    return ((low >= _KEYS_LOW) & (high < _KEYS_END)).all(axis=1)


def windows_of(regions: np.ndarray) -> np.ndarray:
    """The block cells each region touches: (n, 6) int64 inclusive ranges [x0, y0, z0, x1, y1, z1].
    A cell i touches (lo, hi) when i <= hi and i + 1 >= lo. Touching, not only overlapping: a
    region stretched by a move too short to change its face in floats (1.0 - 1e-270 is 1.0)
    still has to see the box ending exactly on that face, which stops the move."""
    lo = np.ceil(regions[:, :3]) - 1.0
    hi = np.maximum(np.floor(regions[:, 3:]), lo)
    return np.concatenate((lo, hi), axis=1).astype(np.int64)


def _find(table: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each key is, or would go, in the sorted `table`, and whether it is there."""
    at = table.searchsorted(keys)
    if not table.size:
        return at, np.zeros(keys.size, dtype=bool)
    return at, table[np.minimum(at, table.size - 1)] == keys


PATCHED_COLUMNS_MOST = 32
"""[tile columns] A tick's edits that reach more tile columns than this (an explosion, a flood) make
a `WorldCache` forget the tiles holding them and ask about each again whole, one query per tile;
fewer are read again column by column (`_patch_column`: a query of WORLD_TILE_SIZE cells instead of
WORLD_TILE_SIZE cubed). With 100 players digging about one block a tick, a re-asked tile cost
about as much as a new one (0.5-0.8 ms a query of a 4-block tile with its materials, on this
machine)."""
PATCHED_BOXES_KEPT = 4096
"""[boxes] Boxes filed by `_patch_column` since the cache was last packed: each patch leaves the
column's old entries behind, unreferenced; past this many the next `new_tick` packs the table
(`_keep` of every tile), so a long game's edits do not grow it without end."""
FORGET_AROUND_CELLS = 1024
"""[cells] A world tick that changed more cells than this (a flood) makes a `WorldCache` forget
every tile instead of those around each cell: past a few hundred cells the tiles around them are
most of what a crowd stands in, and finding them costs more than asking the world again."""


class WorldCache:
    """What a crowd reads from a `CollisionWorld` (block boxes, slipperiness), for many bodies at
    once, remembered by block cell.

    Asks the world for boxes once per WORLD_TILE_SIZE tile (whole tiles of whole cells), and
    remembers every tile it has asked about: within one crowd tick the world cannot change, so
    no tile is asked for twice in a tick; across ticks the tiles are kept while the world's
    optional `revision` attribute (an int the world changes whenever a block changes) keeps its
    value. When it moves on, a world with `cells_changed_since` names the cells changed, and
    only the tile columns holding them are read again (`_patch_column`; past
    PATCHED_COLUMNS_MOST columns, their tiles are forgotten: `_forget_around`); any other world's
    tiles are all forgotten. A world without `revision` is asked afresh every tick. Remembered tiles are pruned to
    the ones in use when their cells exceed `tuning.cache_cells_per_cell_used` (a
    `CrowdSettings`) times those in use, plus `tuning.cache_cells_always` (`prune`, once per
    tick). `generation` changes whenever tiles are forgotten, so callers may keep the box columns
    `slots` gave them while it does not. Only keyed cells (see `keyed`) can be asked for.

    Several crowds of one world may share a cache (`Crowd(world, world_cache=...)`: a game's mobs
    and players, whose bodies meet the same ground): a tile is then asked for once, and a block
    changed is asked about again once, not once per crowd. Each crowd starts its own ticks
    (`new_tick`) and keeps what it copied out with its own count of forgets (`forgotten_since`),
    and `prune` keeps the tiles in use by any of them (each names itself as its `user`).

    The table: the known tiles' keys, sorted, each with a row of `_start` and `_count`, which say
    for each cell of the tile where its box columns start in `_filed` and how many there are,
    and a row of `_slip`, the slipperiness of the tile's blocks asked about so far (NaN for the
    others: a tick meets a few new blocks underfoot, and filling in a NaN inserts nothing).
    Asking appends (rows, filed columns, boxes) and only inserts into the short list of tile
    keys, so a tick that meets a few new tiles costs little however much is known. A world with the
    optional `collision_box_array` and `material_array` queries fills a tile from two arrays, with no
    Python object per box.

    A reader between crowd ticks (a game's mob brains looking under and ahead of them) calls
    `sync` first, asks `highest_tops` and `materials_at`, and says which cells it read (`use`), so
    that `prune` keeps them for it too.
    """

    def __init__(self, world: CollisionWorld, tuning: CrowdSettings = DEFAULT_TUNING) -> None:
        self._world = world
        self._tuning = tuning
        self.generation = 0
        self._in_use: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        """The cell ranges each user (a crowd sharing the cache) last said `prune` it would ask
        for, by user (weakly: a crowd thrown away stops counting)."""
        self._forget(None)

    @property
    def world(self) -> CollisionWorld:
        """The world whose boxes the cache holds."""
        return self._world

    def _forget(self, revision) -> None:
        self._revision = revision
        # Changes whenever box columns handed out by `slots` stop being valid (tiles forgotten or renumbered).
        self.generation += 1
        self._forgotten: list[np.ndarray] = []
        """The cell ranges ((k, 6) inclusive) of the tiles `_forget_around` forgot in this generation,
        in order: what a caller that copied boxes out of them must gather again (`forgotten_since`)."""
        self._tile_keys = np.empty(0, dtype=np.int64)  # sorted
        self._tile_rows = np.empty(0, dtype=np.int64)  # each sorted key's row in _start, _count and _slip
        self._start = np.empty((0, _TILE_CELLS), dtype=np.int64)
        self._count = np.empty((0, _TILE_CELLS), dtype=np.int64)
        self._tile_count = 0
        self._filed = np.empty(0, dtype=np.int64)  # box columns, cell after cell
        self._filed_count = 0
        self._boxes = np.full((6, 1), np.nan)  # corners by column; column 0 pads, a box that meets nothing
        self._box_count = 1
        self._slip = np.empty((0, _TILE_CELLS))  # by tile row and cell, like `_start`; NaN: not asked yet
        self._material = np.empty((0, _TILE_CELLS), dtype=np.int8)  # `Material` codes, by tile row and cell
        self._special = np.empty(0, dtype=bool)  # by tile row: a cell of the tile is neither AIR nor SOLID
        self._prune_check = True
        self._patched_boxes = 0  # boxes filed by `_patch_column` since the last packing

    def new_tick(self) -> None:
        """Start a crowd tick: keep the remembered tiles the world says it has not changed (`sync`),
        and let the tick's first `prune` look at the cache's size."""
        self.sync()
        self._prune_check = True

    def sync(self) -> None:
        """Bring the remembered tiles up to the world as it is now: keep those the world says it has
        not changed, read again or forget the others. `new_tick` does it for a crowd; a reader
        between crowd ticks (a game's mob brains) calls it before its first question."""
        revision = getattr(self._world, "revision", None)
        if revision is None or revision != self._revision:
            changed = self._changed_cells(revision)
            if changed is None:
                self._forget(revision)
            else:
                self._forget_around(changed)
                self._revision = revision
        if self._patched_boxes > PATCHED_BOXES_KEPT:
            self._keep(np.ones(self._tile_keys.size, dtype=bool))

    def _changed_cells(self, revision) -> np.ndarray | None:
        """The cells ((n, 3) ints) the world changed since the tiles were asked about, or None
        when it cannot say (or there are too many to forget one by one)."""
        since = getattr(self._world, "cells_changed_since", None)
        if revision is None or self._revision is None or since is None:
            return None
        cells = since(self._revision)
        if cells is None or len(cells) > FORGET_AROUND_CELLS:
            return None
        return np.asarray(cells, dtype=np.int64).reshape(-1, 3)

    def _forget_around(self, cells: np.ndarray) -> None:
        """Bring the known tiles up to date after `cells` changed: each changed cell's old and new
        boxes were filed under it and under cells a shape there reaches up into (a box is filed
        under the cells of a tile it overlaps: its own, and up to `shapes.MAX_SHAPE_TOP` high, a
        fence's top half in the cell above), with its slipperiness and its material. The tile
        columns (one x, z within one tile) holding those cells are read again (`_patch_column`),
        or, past PATCHED_COLUMNS_MOST of them, their tiles are forgotten: their rows stay in the
        arrays unreferenced until the next `_keep` packs them away. Either way `generation` stays
        (the other columns' boxes are still good), and `forgotten_since` lists what changed."""
        if not len(cells) or not self._tile_keys.size:
            return
        b = _TILE_BITS
        cells = cells[keyed_cells(cells)]
        reach = math.ceil(MAX_SHAPE_TOP) - 1  # cells above a changed cell that its boxes may reach into
        reached = np.concatenate([cells + (0, dy, 0) for dy in range(reach + 1)])
        tiles = reached >> b
        keys = cell_keys(tiles[:, 0], tiles[:, 1], tiles[:, 2])
        at, known = _find(self._tile_keys, keys)
        if not known.any():
            return
        # One piece per known tile column: (sorted-key index, x, the tile's lowest y, z).
        picked = known.nonzero()[0]
        pieces = sorted(set(zip(at.take(picked).tolist(), reached[picked, 0].tolist(),
                                (tiles[picked, 1] << b).tolist(), reached[picked, 2].tolist())))
        if len(pieces) > PATCHED_COLUMNS_MOST:
            gone = np.zeros(self._tile_keys.size, dtype=bool)
            gone[[piece[0] for piece in pieces]] = True
            lo = _tile_corner(self._tile_keys[gone])
            self._forgotten.append(np.concatenate((lo, lo + (WORLD_TILE_SIZE - 1)), axis=1))
            self._tile_keys = self._tile_keys[~gone]
            self._tile_rows = self._tile_rows[~gone]
            return
        rows = self._tile_rows
        for index, x, y0, z in pieces:
            self._patch_column(rows.item(index), x, y0, z)
        top = WORLD_TILE_SIZE - 1
        self._forgotten.append(np.array([(x, y0, z, x, y0 + top, z) for _, x, y0, z in pieces], dtype=np.int64))

    def _patch_column(self, row: int, x: int, y0: int, z: int) -> None:
        """Read the tile column x, y0..y0 + WORLD_TILE_SIZE - 1, z (of the tile in `row`) from the
        world again: its boxes filed by `_ask`'s rule (under every cell of the column a box
        overlaps), as one new run of `_filed` (`slots` reads a column's cells as one run), its
        materials, and its slipperiness unknown again. The same boxes per cell as asking about the
        whole tile afresh, perhaps in another order (clips take the nearest box whatever the order)."""
        t = WORLD_TILE_SIZE
        found = list(self._world.collision_boxes(AABB._trusted(float(x), float(y0), float(z),
                                                               x + 1.0, float(y0 + t), z + 1.0)))
        floor, ceil = math.floor, math.ceil
        per_cell: list[list[int]] = [[] for _ in range(t)]
        for k, (bx0, by0, bz0, bx1, by1, bz1) in enumerate(found):
            fx, fz = floor(bx0), floor(bz0)
            if not (fx <= x <= max(ceil(bx1) - 1, fx) and fz <= z <= max(ceil(bz1) - 1, fz)):
                continue  # (a world may return boxes outside the region)
            fy = floor(by0)
            for y in range(max(fy, y0), min(max(ceil(by1) - 1, fy), y0 + t - 1) + 1):
                per_cell[y - y0].append(self._box_count + k)
        if found:
            boxes = np.fromiter(itertools.chain.from_iterable(found), float, count=6 * len(found))
            self._boxes = appended(self._boxes, self._box_count, boxes.reshape(-1, 6).T, axis=1)
            self._box_count += len(found)
        count = [len(filed) for filed in per_cell]
        filed = np.fromiter(itertools.chain.from_iterable(per_cell), np.int64, count=sum(count))
        m = t - 1
        first = (((x & m) << _TILE_BITS) | (z & m)) << _TILE_BITS  # the column's lowest cell in the tile
        column = slice(first, first + t)
        self._count[row, column] = count
        self._start[row, column] = self._filed_count + np.cumsum(count) - count
        self._filed = appended(self._filed, self._filed_count, filed)
        self._filed_count += filed.size
        self._patched_boxes += filed.size
        self._slip[row, column] = np.nan
        if has_materials(self._world):
            codes = np.zeros(t, dtype=np.int8)
            for (_, y, _), material in materials_in(self._world, x, y0, z, x, y0 + m, z).items():
                codes[y - y0] = material
        else:
            codes = np.where(np.array(count) > 0, Material.SOLID, Material.AIR).astype(np.int8)
        self._material[row, column] = codes
        self._special[row] = bool((self._material[row] > Material.SOLID).any())

    def forgotten_since(self, seen: int) -> tuple[np.ndarray, int]:
        """The cell ranges ((k, 6) inclusive) of the tiles forgotten one by one in this generation
        after the first `seen` forgets, and how many forgets there have been: box columns from
        `slots` stay valid through these forgets (only `generation` says otherwise), but boxes and
        slipperiness a caller copied out of these tiles may be stale."""
        fresh = self._forgotten[seen:]
        windows = np.concatenate(fresh) if fresh else np.empty((0, 6), dtype=np.int64)
        return windows, len(self._forgotten)

    def around(self, regions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Block boxes around each region ((n, 6) AABB corners), padded: a (6, n, K) array of box
        corners (coordinate, body, slot) with unused slots NaN (a NaN box meets nothing, so clips
        ignore it), and how many slots each body uses; used slots come first.

        Body b's slots hold every box the world returns for regions[b], plus possibly others (the
        boxes of the whole cells around it; a box spanning two of them appears twice). Clips give
        the same result with such extras.
        """
        windows = windows_of(regions)
        self.prune(windows)
        columns, used = self.slots(windows)
        n = len(used)
        index = np.zeros((n, max(int(used.max()) if n else 0, 1)), dtype=np.int64)  # column 0: the NaN box
        slot = np.arange(columns.size) - (used.cumsum() - used).repeat(used)
        index[np.arange(n).repeat(used), slot] = columns
        return self.boxes(index), used

    def slots(self, windows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`around` for cell ranges ((n, 6) inclusive ints, see `windows_of`), as box columns (see
        `boxes` and `corners`): one flat int array, range after range, and how many columns each
        range has. The columns stay valid while `generation` keeps its value."""
        # Column by column: within a tile, a column's cells are numbered one after another (see
        # `_tile_of`), and their boxes are filed one after another, so each piece of a column
        # within one tile is one run of `_filed`.
        n, b = len(windows), _TILE_BITS
        y0, y1 = windows[:, 1], windows[:, 4]
        body, (cx, cz, ty) = _points_in((windows[:, 0], windows[:, 2], y0 >> b), (windows[:, 3], windows[:, 5], y1 >> b))
        low = np.maximum(y0.take(body), ty << b)
        high = np.minimum(y1.take(body), ((ty + 1) << b) - 1)
        tiles, local = _tile_of(cx, low, cz)
        cell = self._tile_row(tiles) * _TILE_CELLS + local
        start, count = self._start.reshape(-1), self._count.reshape(-1)
        first = start.take(cell)
        last = cell + (high - low)
        found = start.take(last) + count.take(last) - first
        entry = np.arange(tiles.size).repeat(found)
        pos = (first - (found.cumsum() - found)).repeat(found) + np.arange(entry.size)
        # Columns come range after range, so the boxes do too.
        return self._filed.take(pos), np.bincount(body.take(entry), minlength=n)

    def _tile_row(self, tiles: np.ndarray) -> np.ndarray:
        """The rows of `_start`, `_count` and `_slip` for tiles (keys), asking the world about unknown ones."""
        at, known = _find(self._tile_keys, tiles)
        if np.count_nonzero(known) < known.size:
            self._ask(np.unique(tiles[~known]))
            at = self._tile_keys.searchsorted(tiles)
        return self._tile_rows.take(at)

    def highest_tops(self, boxes: np.ndarray) -> np.ndarray:
        """For each box ((n, 6) AABB corners), the highest top (max y) of the world's block boxes that
        strictly intersect it (`AABB.intersects`), or -inf where none does: what
        `max(b.max_y for b in world.collision_boxes(box) if b.intersects(box))` gives box by box
        (`highest_tops_readable`, which a test compares with this), for many boxes in a few numpy
        calls. Every cell the boxes touch must be keyed (`keyed(windows_of(boxes))`; ValueError
        otherwise). Asks the
        world about the tiles it does not know yet; call `sync` first if the world may have changed."""
        n = len(boxes)
        windows = windows_of(boxes)
        if not keyed(windows).all():
            raise ValueError("highest_tops asks only about keyed cells (see `keyed`)")
        columns, count = self.slots(windows)
        owner = np.arange(n).repeat(count)
        x0, y0, z0, x1, y1, z1 = self.corners(columns)
        asked = [boxes[:, k].take(owner) for k in range(6)]
        meets = ((x1 > asked[0]) & (x0 < asked[3]) & (y1 > asked[1]) & (y0 < asked[4])
                 & (z1 > asked[2]) & (z0 < asked[5]))
        tops = np.full(n, -np.inf)
        np.maximum.at(tops, owner.compress(meets), y1.compress(meets))
        return tops

    def materials_at(self, cells: np.ndarray) -> np.ndarray:
        """The `Material` codes (int8) of block cells ((k, 3) keyed ints; ValueError otherwise): the world's `material`
        cell by cell, or AIR and SOLID by its boxes for a world that does not say (`materials_in`'s
        rule). Asks the world about the tiles it does not know yet; call `sync` first if the world
        may have changed."""
        if not keyed_cells(cells).all():
            raise ValueError("materials_at asks only about keyed cells (see `keyed_cells`)")
        tiles, local = _tile_of(cells[:, 0], cells[:, 1], cells[:, 2])
        at = self._tile_row(tiles) * _TILE_CELLS + local  # (may ask the world, growing the arrays)
        return self._material.reshape(-1).take(at)

    def boxes(self, index: np.ndarray) -> np.ndarray:
        """The corners of box columns `index` (from `slots`): a (6,) + index.shape array."""
        return np.take(self._boxes, index, axis=1)

    def corners(self, columns: np.ndarray) -> tuple[np.ndarray, ...]:
        """The corners of box columns `columns` (a flat int array) as six arrays, min x first.
        (Six arrays, not one (6, k) array: for a crowd's thousands of boxes one array is big
        enough to be mapped afresh from the system, page faults and all, on every call.)"""
        return tuple(row.take(columns) for row in self._boxes)

    def slipperiness(self, cells: np.ndarray) -> np.ndarray:
        """The world's slipperiness of blocks `cells` ((k, 3) keyed ints), asked once per block."""
        tiles, local = _tile_of(cells[:, 0], cells[:, 1], cells[:, 2])
        cell = self._tile_row(tiles) * _TILE_CELLS + local
        known = self._slip.reshape(-1)  # a view: filling it in fills `_slip`
        values = known.take(cell)
        unknown = np.isnan(values).nonzero()[0]
        if unknown.size:  # ask once per new block, however many bodies stand on it (a few a tick)
            asked: dict[int, float] = {}
            for at, (x, y, z) in zip(cell.take(unknown).tolist(), cells.take(unknown, axis=0).tolist()):
                if at not in asked:
                    asked[at] = slipperiness_at(self._world, x, y, z)
            known[list(asked)] = list(asked.values())
            values = known.take(cell)
        return values

    def _ask(self, tiles: np.ndarray) -> None:
        """Ask the world for the boxes of `tiles` (sorted unique keys of unknown tiles), one query
        per tile, and file them under every cell of the tile they overlap."""
        t = WORLD_TILE_SIZE
        m = tiles.size
        lo = _tile_corner(tiles)
        hi = lo + (t - 1)
        per_tile = np.empty(m, dtype=np.int64)
        boxes = _boxes_of_tiles(self._world, np.concatenate((lo, hi + 1), axis=1).tolist(), per_tile)
        cell = filed_box = np.empty(0, dtype=np.int64)  # cell: tile number * _TILE_CELLS + cell in the tile
        total = len(boxes)
        if total:
            tile = np.arange(m).repeat(per_tile)
            first = np.floor(boxes[:, :3])
            b_lo = np.maximum(first.astype(np.int64), lo[tile])
            b_hi = np.minimum(np.maximum(np.ceil(boxes[:, 3:]) - 1.0, first).astype(np.int64), hi[tile])
            inside = (b_lo <= b_hi).all(axis=1).nonzero()[0]  # a world may return boxes outside the region
            owner, (fx, fy, fz) = _points_in(b_lo[inside].T, b_hi[inside].T)
            cell = tile[inside][owner] * _TILE_CELLS + _tile_of(fx, fy, fz)[1]
            order = np.argsort(cell, kind="stable")
            cell, filed_box = cell[order], (self._box_count + inside[owner])[order]
            self._boxes = appended(self._boxes, self._box_count, boxes.T, axis=1)
            self._box_count += total
        count = np.bincount(cell, minlength=m * _TILE_CELLS).reshape(m, _TILE_CELLS)
        start = (self._filed_count + count.cumsum() - count.reshape(-1)).reshape(m, _TILE_CELLS)
        self._filed = appended(self._filed, self._filed_count, filed_box)
        self._filed_count += filed_box.size
        self._start = appended(self._start, self._tile_count, start)
        self._count = appended(self._count, self._tile_count, count)
        self._slip = appended(self._slip, self._tile_count, np.full((m, _TILE_CELLS), np.nan))
        material = self._materials_of(lo, count)
        self._material = appended(self._material, self._tile_count, material)
        self._special = appended(self._special, self._tile_count, (material > Material.SOLID).any(axis=1))
        at = self._tile_keys.searchsorted(tiles)
        self._tile_keys = np.insert(self._tile_keys, at, tiles)
        self._tile_rows = np.insert(self._tile_rows, at, self._tile_count + np.arange(m))
        self._tile_count += m

    def _materials_of(self, lo: np.ndarray, count: np.ndarray) -> np.ndarray:
        """The `Material` codes of the cells of the tiles whose lowest cells are `lo`, by tile and
        cell: the world's answers, or, for a world that does not say, SOLID where a box was filed
        (`materials.solid_cells`' rule: a box filling part of the cell)."""
        if not has_materials(self._world):
            return np.where(count > 0, Material.SOLID, Material.AIR).astype(np.int8)
        t = WORLD_TILE_SIZE
        bulk = getattr(self._world, "material_array", None)
        if bulk is not None:  # [x, y, z] arrays; a tile numbers its cells x, then z, then y (`_tile_of`)
            tiles = [np.asarray(bulk(x0, y0, z0, x0 + t - 1, y0 + t - 1, z0 + t - 1)) for x0, y0, z0 in lo.tolist()]
            for codes in tiles:
                if codes.shape != (t, t, t) or codes.dtype.kind not in "iu":
                    raise ValueError(f"the world's material_array must give {(t, t, t)} integer codes for a "
                                     f"tile, got {codes.dtype} of shape {codes.shape}")
            return np.stack([codes.transpose(0, 2, 1).reshape(-1) for codes in tiles]).astype(np.int8, copy=False)
        codes = np.zeros((len(lo), _TILE_CELLS), dtype=np.int8)
        for k, (x0, y0, z0) in enumerate(lo.tolist()):
            found = materials_in(self._world, x0, y0, z0, x0 + t - 1, y0 + t - 1, z0 + t - 1)
            if found:
                cells = np.array(list(found), dtype=np.int64).reshape(-1, 3)
                local = _tile_of(cells[:, 0], cells[:, 1], cells[:, 2])[1]
                codes[k, local] = list(found.values())
        return codes

    def special_near(self, windows: np.ndarray) -> np.ndarray:
        """Which cell ranges ((n, 6), see `windows_of`) lie in a tile holding a cell that is
        neither AIR nor SOLID (water, a ladder...): bodies there need `physics.step`."""
        b = _TILE_BITS
        owner, (tx, ty, tz) = _points_in((windows[:, 0] >> b, windows[:, 1] >> b, windows[:, 2] >> b),
                                         (windows[:, 3] >> b, windows[:, 4] >> b, windows[:, 5] >> b))
        rows = self._tile_row(cell_keys(tx, ty, tz))  # (may ask the world, growing the arrays)
        special = self._special.take(rows)
        return np.bincount(owner.compress(special), minlength=len(windows)) > 0

    def solid_in(self, windows: np.ndarray) -> np.ndarray:
        """Which cell ranges ((n, 6)) hold a SOLID cell."""
        owner, (cx, cy, cz) = _points_in(windows[:, :3].T, windows[:, 3:].T)
        tiles, local = _tile_of(cx, cy, cz)
        cells = self._tile_row(tiles) * _TILE_CELLS + local  # (may ask the world, growing the arrays)
        codes = self._material.reshape(-1).take(cells)
        return np.bincount(owner.compress(codes == Material.SOLID), minlength=len(windows)) > 0

    def use(self, windows_in_use: np.ndarray, user: object) -> None:
        """Say that `user` (any weakly referable object: a reader between crowd ticks, such as a
        game's mob brains) asks for the cell ranges `windows_in_use` ((n, 6), see `windows_of`), so
        that `prune` keeps their tiles as it keeps those of the crowds' ticks."""
        self._in_use[user] = windows_in_use

    def prune(self, windows_in_use: np.ndarray, user: object = None) -> None:
        """Once per tick (the first call after `new_tick`): forget the tiles outside the cell
        ranges `windows_in_use` ((n, 6), see `windows_of`: every range the tick will ask for)
        when they hold many more cells than those in use. The ranges may overlap, so this prunes
        later than the limit says, never earlier. `user`: the crowd asking, when crowds share
        the cache (any weakly referable object); the ranges the other users gave their last
        `prune` are in use as well."""
        if not self._prune_check:
            return
        self._prune_check = False
        if user is not None:
            in_use = self._in_use
            in_use[user] = windows_in_use
            if len(in_use) > 1:
                windows_in_use = np.concatenate(list(in_use.values()))
        per_cell_used, always = self._tuning.cache_cells_per_cell_used, self._tuning.cache_cells_always
        if self._tile_count <= per_cell_used * len(windows_in_use) + always // _TILE_CELLS:
            return  # within the limit whatever the ranges: each uses at least one tile
        lo, hi = windows_in_use[:, :3] >> _TILE_BITS, windows_in_use[:, 3:] >> _TILE_BITS
        cells_in_use = _TILE_CELLS * int((hi - lo + 1).prod(axis=1).sum())
        limit = per_cell_used * cells_in_use + always
        if self._tile_count * _TILE_CELLS <= limit:
            return
        _, (tx, ty, tz) = _points_in(lo.T, hi.T)
        self._keep(np.isin(self._tile_keys, cell_keys(tx, ty, tz)))

    def _keep(self, keep: np.ndarray) -> None:
        """Forget the tiles not in `keep` (a mask over the sorted tile keys), packing the rest (a new
        generation: the forgets listed for the last one are of no use to anyone any more)."""
        self.generation += 1
        self._forgotten = []
        self._patched_boxes = 0
        rows = self._tile_rows[keep]
        count = self._count[rows].reshape(-1)
        first = count.cumsum() - count
        pos = np.repeat(self._start[rows].reshape(-1) - first, count) + np.arange(int(count.sum()))
        columns, filed = np.unique(self._filed[pos], return_inverse=True)
        self._tile_keys = self._tile_keys[keep]
        self._tile_count = self._tile_keys.size
        self._tile_rows = np.arange(self._tile_count)
        self._count = count.reshape(-1, _TILE_CELLS)
        self._start = first.reshape(-1, _TILE_CELLS)
        self._slip = self._slip[rows]
        self._material = self._material[rows]
        self._special = self._special[rows]
        self._filed = filed.reshape(-1) + 1
        self._filed_count = self._filed.size
        self._boxes = np.concatenate((np.full((6, 1), np.nan), self._boxes[:, columns]), axis=1)
        self._box_count = self._boxes.shape[1]


_TILE_CELLS = WORLD_TILE_SIZE ** 3
_TILE_BITS = WORLD_TILE_SIZE.bit_length() - 1
assert WORLD_TILE_SIZE == 1 << _TILE_BITS, "WORLD_TILE_SIZE must be a power of two"


def _boxes_of_tiles(world: CollisionWorld, tiles: list[list[int]], per_tile: np.ndarray) -> np.ndarray:
    """The world's boxes of each tile ((x0, y0, z0, x1, y1, z1) whole cells [x0, x1) ...), one query
    a tile, as one (k, 6) array, tile after tile, with how many each tile has put in `per_tile`:
    the world's optional `collision_box_array` where it has one (the same boxes, on arrays, as the
    `CollisionWorld` rules say), else `collision_boxes`."""
    bulk = getattr(world, "collision_box_array", None)
    if bulk is not None:
        found_arrays = [np.asarray(bulk(*tile), dtype=np.float64) for tile in tiles]
        for found in found_arrays:
            if found.ndim != 2 or found.shape[1] != 6:
                raise ValueError(f"the world's collision_box_array must give (k, 6) box corners, got shape {found.shape}")
        per_tile[:] = [len(found) for found in found_arrays]
        return np.concatenate(found_arrays).reshape(-1, 6) if found_arrays else np.empty((0, 6))
    found: list[AABB] = []
    make = AABB._trusted
    for k, (x0, y0, z0, x1, y1, z1) in enumerate(tiles):
        before = len(found)
        found.extend(world.collision_boxes(make(float(x0), float(y0), float(z0), float(x1), float(y1), float(z1))))
        per_tile[k] = len(found) - before
    return np.fromiter(itertools.chain.from_iterable(found), float, count=6 * len(found)).reshape(-1, 6)


def highest_tops_readable(world: CollisionWorld, boxes: np.ndarray) -> np.ndarray:
    """`WorldCache.highest_tops` asked of the world box by box (its readable twin)."""
    tops = []
    for corners in boxes.tolist():
        box = AABB(*corners)
        tops.append(max((b.max_y for b in world.collision_boxes(box) if b.intersects(box)), default=-math.inf))
    return np.array(tops, dtype=np.float64).reshape(-1)


def _tile_of(cx: np.ndarray, cy: np.ndarray, cz: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For block cells: the key of their tile (`cell_keys` of tile coordinates) and their number
    within the tile (0 to _TILE_CELLS - 1), y counting fastest, so a column of cells within a
    tile has consecutive numbers. (Shifts and masks: the tile size is a power of two, and numpy
    divides integers slowly.)"""
    b, m = _TILE_BITS, WORLD_TILE_SIZE - 1
    return cell_keys(cx >> b, cy >> b, cz >> b), ((((cx & m) << b) | (cz & m)) << b) | (cy & m)


def cells_of_keys(keys: np.ndarray) -> np.ndarray:
    """The block cells ((n, 3) ints: x, y, z) of `cell_keys` keys."""
    x = (keys >> 37) - KEYED_XZ
    z = ((keys >> 11) & ((1 << 26) - 1)) - KEYED_XZ
    y = (keys & ((1 << 11) - 1)) - KEYED_Y
    return np.stack((x, y, z), axis=1)


def _tile_corner(tiles: np.ndarray) -> np.ndarray:
    """The lowest cell of each tile (keys from `_tile_of`): (m, 3) ints."""
    return cells_of_keys(tiles) * WORLD_TILE_SIZE


def appended(array: np.ndarray, size: int, values: np.ndarray, axis: int = 0) -> np.ndarray:
    """`array` (whose first `size` entries along `axis` are in use) with `values` written after
    them, grown (doubling) when full: the same array or a larger copy."""
    need = size + values.shape[axis]
    if need > array.shape[axis]:
        shape = list(array.shape)
        shape[axis] = max(need, 2 * array.shape[axis])
        grown = np.empty(shape, dtype=array.dtype)
        index = [slice(None)] * array.ndim
        index[axis] = slice(0, size)
        grown[tuple(index)] = array[tuple(index)]
        array = grown
    index = [slice(None)] * array.ndim
    index[axis] = slice(size, need)
    array[tuple(index)] = values
    return array
