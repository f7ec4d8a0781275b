"""Beds: sleeping through the night and waking at home, by Beta 1.7.3's rules.

Owns: whether a player may lie down in a bed (`lie_down`: Beta's `EntityPlayer.sleepInBedAt`
checks, and the notice for each refusal), the night passing (`Sleepers.tick`: each sleeper's timer;
once every player in the game has slept SLEEP_TICKS, the time of day jumps to the next morning
and everyone wakes with the bed as their spawn, Beta's `World.tick` with `isAllPlayersFullyAsleep`),
waking (`wake`: a movement key, morning, or the bed gone), and where a player with a bed respawns
(`respawn_feet`: beside the bed, Beta's `BlockBed.getNearestEmptyChunkCoordinates`).
Pure: no Ursina. Does not own: the bed blocks and placing them (`game.world.blocks`,
`game.rules.targeting`), the time of day (`World.day_time`) or whether it is day
(`game.world.day_cycle.is_daytime`).

What Boxel leaves out: Beta refuses sleep with monsters within 8 blocks; Boxel has no monsters yet
(its boxlings are not hostile), so that check waits for them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..world.blocks import SOLID, block_id
from ..world.coords import WORLD_HEIGHT
from ..world.day_cycle import is_daytime
from ..world.day_cycle import DAY_TICKS

Cell = tuple[int, int, int]

SLEEP_TICKS = 100
"""[ticks] Beta's `isPlayerFullyAsleep`: sleepTimer reaches 100 (5 s) before the night can pass."""
REACH_XZ_BLOCKS = 3.0
REACH_Y_BLOCKS = 2.0
"""[blocks] Beta's `sleepInBedAt`: farther than 3 across or 2 up or down from the bed is too far."""
NOTICE_NOT_NOW = "You can only sleep at night"
NOTICE_TOO_FAR = "You are too far away from the bed"
NOTICE_OCCUPIED = "This bed is occupied"
NOTICE_BED_MISSING = "Your home bed was missing or obstructed"
"""Beta's messages (tile.bed.noSleep, tile.bed.occupied, tile.bed.notValid)."""
FACINGS = ("north", "south", "east", "west")
_TOWARDS_HEAD = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}
"""A bed named bed_<part>_<facing> runs from its foot towards its head along <facing>."""


def bed_part(block: str) -> tuple[str, str] | None:
    """("foot" or "head", facing) of a bed block, None for any other block."""
    parts = block.split("_")
    if len(parts) == 3 and parts[0] == "bed" and parts[1] in ("foot", "head") and parts[2] in FACINGS:
        return parts[1], parts[2]
    return None


def foot_of(world, cell: Cell) -> Cell | None:
    """The foot cell of the bed at `cell` (either half), None when there is no whole bed there."""
    part = bed_part(world.get_block(*cell))
    if part is None:
        return None
    kind, facing = part
    dx, dz = _TOWARDS_HEAD[facing]
    x, y, z = cell
    foot = cell if kind == "foot" else (x - dx, y, z - dz)
    head = (foot[0] + dx, y, foot[2] + dz)
    if world.get_block(*foot) != f"bed_foot_{facing}" or world.get_block(*head) != f"bed_head_{facing}":
        return None
    return foot


def lie_down(world, feet: Sequence[float], cell: Cell, day_time: int, occupied: bool) -> str | None:
    """Why the player with feet at `feet` may not sleep in the bed at `cell` (a notice), None when it
    may: only at night (Beta's `isDaytime` false), within reach, and not in a bed someone sleeps in."""
    if occupied:
        return NOTICE_OCCUPIED
    if is_daytime(day_time):
        return NOTICE_NOT_NOW
    x, y, z = cell
    if (abs(feet[0] - x) > REACH_XZ_BLOCKS or abs(feet[1] - y) > REACH_Y_BLOCKS
            or abs(feet[2] - z) > REACH_XZ_BLOCKS):
        return NOTICE_TOO_FAR
    return None


def next_morning(world_ticks: int) -> int:
    """[ticks] The time of day after a night slept through: Beta sets the world's time to the next
    whole day (time + 24,000, less its remainder), which is sunrise."""
    return (world_ticks + DAY_TICKS) - (world_ticks + DAY_TICKS) % DAY_TICKS


def respawn_feet(world, foot: Cell) -> tuple[float, float, float] | None:
    """[blocks] Feet position beside the bed whose foot is `foot` (Beta's `getNearestEmptyChunkCoordinates`:
    a cell within one block of either half with a solid block under it and room for the player),
    None when the bed is gone or every place around it is blocked."""
    if foot_of(world, foot) != foot:
        return None
    x, y, z = foot
    for dx in (-1, 0, 1):
        for dz in (-1, 0, 1):
            if _room_for_player(world, x + dx, y, z + dz):
                return (x + dx + 0.5, float(y), z + dz + 0.5)
    return None


def _room_for_player(world, x: int, y: int, z: int) -> bool:
    if not 1 <= y < WORLD_HEIGHT - 1:
        return False
    return (bool(SOLID[block_id(world.get_block(x, y - 1, z))]) and not SOLID[block_id(world.get_block(x, y, z))]
            and not SOLID[block_id(world.get_block(x, y + 1, z))] and bed_part(world.get_block(x, y, z)) is None)


def all_asleep(sleeping_ticks: Sequence[int]) -> bool:
    """Every player has slept SLEEP_TICKS (Beta's `isAllPlayersFullyAsleep`); False with no players."""
    return bool(sleeping_ticks) and all(ticks >= SLEEP_TICKS for ticks in sleeping_ticks)


def bed_feet(foot: Cell) -> tuple[float, float, float]:
    """[blocks] Where a sleeper lies: the middle of the bed's foot cell, on its top (9/16 up)."""
    x, y, z = foot
    return (x + 0.5, y + 0.5625, z + 0.5)
