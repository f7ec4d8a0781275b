"""Which loaded columns a world keeps when no window streams them: headless runs, and a server.

Owns: `ColumnKeeper`, the rule that bounds a window-less world's memory: every KEEP_INTERVAL_TICKS
ticks, the loaded columns farther than KEEP_RADIUS_COLUMNS (on x or z) from every player are
unloaded, after a save when any of them holds unsaved edits. Nothing is lost and no result changes:
an unloaded column reloads, when something reads it again, from the file it was saved to (or from
the seed, if it was never edited), exactly as it was; the world skips a column whose edits are still
unsaved (a save that failed), so it stays loaded until a save succeeds.
Does not own: saving (the caller's `save`, the session's: columns, mobs and player together, as the
window's streamer saves before it unloads), loading (`World` loads any column a read touches), the
window's streaming (`game.window.streaming`, which unloads beyond the view distance + UNLOAD_MARGIN + 1:
at the smallest view distance, 2, that is this radius), or entities: live mobs never stand in a
column this rule unloads (`game.rules.mobs`: they live within RESTORE_RADIUS_COLUMNS of the player), and
stored ones stay in the world's entity lists, which do not depend on a column being loaded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from .mobs import RESTORE_RADIUS_COLUMNS
from .session import AUTOSAVE_TICKS
from ..world.coords import CHUNK_SIZE

KEEP_RADIUS_COLUMNS = RESTORE_RADIUS_COLUMNS + 1
"""[columns] Columns this far from a player (on x or z) stay loaded: every column a live mob can stand
in (RESTORE_RADIUS_COLUMNS) and one more, so a mob at the edge reads its neighbour's blocks without
loading it again; the window keeps as many at its smallest view distance. (11 x 11 = 121 a player.)"""
KEEP_INTERVAL_TICKS = 20
"""[ticks] How often the far columns are unloaded (once a second): a sprinting flight crosses about
one column a second, so at most a row or two of columns is loaded beyond the radius between checks,
and a check costs one pass over the loaded columns."""

SAVE_RETRY_TICKS = AUTOSAVE_TICKS
"""[ticks] After a save that left far columns unsaved (the disk refused it), wait this long before
trying again: the autosave's interval, so a full disk is told once a minute, not every second."""


class ColumnKeeper:
    """Unloads the columns far from every player of `world`; call `after_tick` after every tick.

    `world`: a `game.rules.game_world.GameWorld` (its `columns_far_from`, `is_edited` and `unload_columns`;
    the lab's arena, held whole, finds no column far). `save`: writes the game (the session's
    save), called before unloading columns with unsaved edits; if it raises, the error goes to the
    caller; if it returns with those columns still unsaved (a save that failed and was told), they
    stay loaded and the next try waits SAVE_RETRY_TICKS.
    """

    def __init__(self, world, save: Callable[[], None], *, radius: int = KEEP_RADIUS_COLUMNS,
                 interval: int = KEEP_INTERVAL_TICKS) -> None:
        for name, value, least in (("radius", radius, 0), ("interval", interval, 1)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"the keeper's {name} must be an int, got {value!r}")
            if value < least:
                raise ValueError(f"the keeper's {name} must be >= {least}, got {value}")
        if not callable(save):
            raise TypeError(f"save must be callable, got {save!r}")
        self.world = world
        self.save = save
        self.radius = radius
        self.interval = interval
        self.unloaded = 0
        """Columns unloaded so far."""
        self._retry_at: int | None = None

    def after_tick(self, tick: int, players: Iterable) -> int:
        """After tick number `tick` (the session's `ticks_run`): on every `interval`-th, unload the
        columns farther than `radius` from all of `players` (their feet, (x, y, z) blocks; with no
        player, every column is far). Returns how many were unloaded."""
        if tick % self.interval:
            return 0
        centres = [_column_under(feet) for feet in players]
        far = self.world.columns_far_from(centres, self.radius)
        if not far:
            return 0
        if self._edited(far) and (self._retry_at is None or tick >= self._retry_at):
            self.save()
            self._retry_at = tick + SAVE_RETRY_TICKS if self._edited(far) else None
        count = self.world.unload_columns(far)
        self.unloaded += count
        return count

    def _edited(self, keys) -> bool:
        return any(self.world.is_edited(*key) for key in keys)


def _column_under(feet) -> tuple[int, int]:
    """The column (cx, cz) holding the point `feet` (x, y, z); ValueError unless finite."""
    x, _, z = feet
    if not (math.isfinite(x) and math.isfinite(z)):
        raise ValueError(f"a player's feet must be finite, got {feet!r}")
    return math.floor(x) // CHUNK_SIZE, math.floor(z) // CHUNK_SIZE
