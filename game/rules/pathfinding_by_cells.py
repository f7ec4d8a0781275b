"""The readable twin of `game.rules.pathfinding.find_path`: Beta 1.7.3's `PathFinder`, `Path` (its
open heap) and `PathPoint`, written as Beta's classes are, each cell read by name with `get_block`.

Owns: `find_path_by_cells` (no budget), the reference the fast path must equal exactly (tests) and the
bench's reference. Does not own: the rules themselves (`pathfinding`: `cell_kind`, `path_query`, the
constants), which both use.
"""

from __future__ import annotations

import math

import numpy as np

from physics import AABB
from .pathfinding import BLOCKED, CLEAR, FALL_LIMIT, LAVA, STEP_UP, Cell, Path, cell_kind, path_query

class _Point:
    """Beta's `PathPoint`."""

    def __init__(self, x: int, y: int, z: int) -> None:
        self.x, self.y, self.z = x, y, z
        self.heap_index = -1           # Beta's `index` in `Path`; -1 when not queued
        self.total = np.float32(0.0)   # totalPathDistance
        self.to_target = np.float32(0.0)  # distanceToNext
        self.rank = np.float32(0.0)    # distanceToTarget (the heap's key)
        self.previous: _Point | None = None
        self.closed = False            # isFirst

    def distance_to(self, other: _Point) -> np.float32:
        dx = np.float32(other.x - self.x)
        dy = np.float32(other.y - self.y)
        dz = np.float32(other.z - self.z)
        return np.float32(math.sqrt(float(dx * dx + dy * dy + dz * dz)))

    def queued(self) -> bool:
        return self.heap_index >= 0


class _OpenHeap:
    """Beta's `Path`: a binary heap of points by `rank`, ties left where they fall."""

    def __init__(self) -> None:
        self.points: list[_Point] = []

    def add(self, point: _Point) -> None:
        self.points.append(point)
        point.heap_index = len(self.points) - 1
        self._sort_back(point.heap_index)

    def dequeue(self) -> _Point:
        first = self.points[0]
        last = self.points.pop()
        if self.points:
            self.points[0] = last
            self._sort_forward(0)
        first.heap_index = -1
        return first

    def change_rank(self, point: _Point, rank: np.float32) -> None:
        before = point.rank
        point.rank = rank
        if rank < before:
            self._sort_back(point.heap_index)
        else:
            self._sort_forward(point.heap_index)

    def _put(self, point: _Point, index: int) -> None:
        self.points[index] = point
        point.heap_index = index

    def _sort_back(self, index: int) -> None:
        point = self.points[index]
        while index > 0:
            parent = self.points[(index - 1) >> 1]
            if point.rank >= parent.rank:
                break
            self._put(parent, index)
            index = (index - 1) >> 1
        self._put(point, index)

    def _sort_forward(self, index: int) -> None:
        point = self.points[index]
        while True:
            left, right = 2 * index + 1, 2 * index + 2
            if left >= len(self.points):
                break
            left_point = self.points[left]
            right_point = self.points[right] if right < len(self.points) else None
            right_rank = right_point.rank if right_point is not None else np.float32(np.inf)
            if left_point.rank < right_rank:
                if left_point.rank >= point.rank:
                    break
                self._put(left_point, index)
                index = left
            else:
                if right_rank >= point.rank:
                    break
                self._put(right_point, index)
                index = right
        self._put(point, index)


class _PathFinder:
    """Beta's `PathFinder`, reading the world one block name at a time."""

    def __init__(self, world, size: Cell) -> None:
        self.world = world
        self.size = size
        self.points: dict[Cell, _Point] = {}

    def open_point(self, x: int, y: int, z: int) -> _Point:
        point = self.points.get((x, y, z))
        if point is None:
            point = self.points[(x, y, z)] = _Point(x, y, z)
        return point

    def vertical_offset(self, x: int, y: int, z: int) -> int:
        """Beta's `getVerticalOffset`: the first body cell that is not clear decides."""
        sx, sy, sz = self.size
        for bx in range(x, x + sx):
            for by in range(y, y + sy):
                for bz in range(z, z + sz):
                    kind = cell_kind(self.world.get_block(bx, by, bz))
                    if kind != CLEAR:
                        return kind
        return CLEAR

    def safe_point(self, x: int, y: int, z: int, step: int) -> _Point | None:
        """Beta's `getSafePoint`."""
        point = None
        if self.vertical_offset(x, y, z) == CLEAR:
            point = self.open_point(x, y, z)
        if point is None and step > 0 and self.vertical_offset(x, y + step, z) == CLEAR:
            point = self.open_point(x, y + step, z)
            y += step
        if point is not None:
            fallen = 0
            below = BLOCKED
            while y > 0:
                below = self.vertical_offset(x, y - 1, z)
                if below != CLEAR:
                    break
                fallen += 1
                if fallen >= FALL_LIMIT:
                    return None
                y -= 1
                if y > 0:
                    point = self.open_point(x, y, z)
            if below == LAVA:
                return None
        return point

    def options(self, current: _Point, target: _Point, max_distance: np.float32) -> list[_Point]:
        """Beta's `findPathOptions`."""
        step = STEP_UP if self.vertical_offset(current.x, current.y + 1, current.z) == CLEAR else 0
        x, y, z = current.x, current.y, current.z
        found = [self.safe_point(x, y, z + 1, step), self.safe_point(x - 1, y, z, step),
                 self.safe_point(x + 1, y, z, step), self.safe_point(x, y, z - 1, step)]
        return [p for p in found if p is not None and not p.closed and p.distance_to(target) < max_distance]

    def search(self, start: _Point, target: _Point, max_distance: np.float32) -> _Point | None:
        """Beta's `addToPath`: the end point of the path (the target, or the closest point), or None."""
        start.total = np.float32(0.0)
        start.to_target = start.distance_to(target)
        start.rank = start.to_target
        heap = _OpenHeap()
        heap.add(start)
        closest = start
        while heap.points:
            current = heap.dequeue()
            if current is target:
                return target
            if current.distance_to(target) < closest.distance_to(target):
                closest = current
            current.closed = True
            for option in self.options(current, target, max_distance):
                total = np.float32(current.total + current.distance_to(option))
                if not option.queued() or total < option.total:
                    option.previous = current
                    option.total = total
                    option.to_target = option.distance_to(target)
                    if option.queued():
                        heap.change_rank(option, np.float32(option.total + option.to_target))
                    else:
                        option.rank = np.float32(option.total + option.to_target)
                        heap.add(option)
        return None if closest is start else closest


def find_path_by_cells(world, box: AABB, target, max_distance: float) -> Path | None:
    """`find_path`'s readable twin (no budget): Beta's classes as written, each cell read by name."""
    query = path_query(box, target, max_distance)
    finder = _PathFinder(world, query.size)
    start = finder.open_point(*query.start)
    goal = finder.open_point(*query.goal)
    end = finder.search(start, goal, np.float32(query.max_distance))
    if end is None:
        return None
    chain = [end]
    while chain[-1].previous is not None:
        chain.append(chain[-1].previous)
    return Path(tuple((p.x, p.y, p.z) for p in reversed(chain)))
