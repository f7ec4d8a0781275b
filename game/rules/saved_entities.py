"""Entities in flight saved with their columns: who owns which entry of a column's entity list, and
a body's whole state as JSON values.

Owns: the kinds of entity in flight that share a column's entity list with the mobs
(`FALLING_BLOCK`, `PROJECTILE`); which entries a kind owns (an entry of a kind in flight carries
it as its "kind"; every other entry, old saves' included, belongs to the mobs: `is_mob_entry`);
replacing one kind's entries of a column while keeping every other kind's (`replace_own`);
finding every stored entry of one kind in every column that holds entities (`stored_entries`);
`body_state` / `body_from_state`, a `physics.Body` in full (`saved_values.body_fields` and its
fall distance, medium flags, fall damage and touched materials), so a reloaded body steps on
exactly as the saved one would have; and `whole_number`, the checked int field of a saved entity.
Does not own: what a kind saves beyond its body (`game.rules.falling_blocks`, `game.rules.projectiles`,
`game.rules.mobs`), or the world file (`World.column_entities`, `World.set_column_entities`).

Each kind writes only its own entries of a column and restores only its own, so mobs, falling
blocks and projectiles saved in one column never overwrite or misread each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import physics
from physics.materials import Material

from .saved_values import body_fields, body_from_fields, flag, numbers, preview

FALLING_BLOCK = "falling_block"
"""The "kind" of a saved falling block (`game.rules.falling_blocks`)."""
PROJECTILE = "projectile"
"""The "kind" of a saved projectile (`game.rules.projectiles`)."""
BLOCK_ENTITY = "block_entity"
"""The "kind" of a saved furnace or chest (`game.rules.block_entities`): not in flight, but its
entries share the list as the kinds in flight do, so it is listed with them."""
DROPPED_ITEM = "dropped_item"
"""The "kind" of a saved dropped item (`game.rules.dropped_items`)."""
ARROW = "arrow"
"""The "kind" of a saved arrow (`game.rules.arrows`)."""
IN_FLIGHT_KINDS = frozenset({FALLING_BLOCK, PROJECTILE, BLOCK_ENTITY, DROPPED_ITEM, ARROW})
"""Kinds of entity in flight (and block entities); an entry of any other kind, or of none, is a mob's."""
MAX_FALL_DAMAGE = 1_000_000
"""[half hearts] Largest saved fall damage: far above any fall inside a 256-block world (~250)."""
MAX_FALL_DISTANCE = 1e9
"""[blocks] Largest saved fall distance: far beyond any fall a body can make before it is removed."""
MAX_WHOLE_NUMBER = 2 ** 53
"""Largest saved count or key: every int below it is exact as a JSON number in any reader."""
MEDIUM_FLAGS = ("in_water", "in_lava", "in_web")


def kind_of(entry: object) -> object:
    """The "kind" of a saved entry (None when it is not an object or has none)."""
    return entry.get("kind") if isinstance(entry, dict) else None


def owned_by(kind: str) -> Callable[[object], bool]:
    """Whether an entry belongs to `kind` (one of IN_FLIGHT_KINDS)."""
    if kind not in IN_FLIGHT_KINDS:
        raise ValueError(f"not a kind of entity in flight: {kind!r}")
    return lambda entry: kind_of(entry) == kind


def is_mob_entry(entry: object) -> bool:
    """Whether a saved entry belongs to the mobs: every entry not of a kind in flight (old saves'
    entries, which have a mob's kind or none, are mobs' as they always were)."""
    kind = kind_of(entry)
    return not (isinstance(kind, str) and kind in IN_FLIGHT_KINDS)


def replace_own(world, column: tuple[int, int], owns: Callable[[object], bool], entries: list[dict]) -> None:
    """Make `entries` the entries `owns` claims in `column`'s entity list, keeping every other
    entry as it is (first, in its order). ValueError from the world when the list cannot be saved."""
    others = [entry for entry in world.column_entities(*column) if not owns(entry)]
    world.set_column_entities(*column, others + list(entries))


def stored_entries(world, owns: Callable[[object], bool]) -> list[tuple[tuple[int, int], dict]]:
    """Every entry `owns` claims in every column of `world` (a `game.rules.game_world.GameWorld`) that
    holds entities, by column (cx, then cz), each list in its order."""
    return [(key, entry) for key in sorted(world.entity_columns()) for entry in world.column_entities(*key)
            if owns(entry)]


def save_by_column(world, owns: Callable[[object], bool], by_column: dict[tuple[int, int], list[dict]],
                   stored: Iterable[tuple[int, int]], unreadable: dict[tuple[int, int], list[dict]]) -> None:
    """Write one kind's entries: `by_column` (its live entities' states by column), the entries it
    could not read (`unreadable`, kept as they were), and empty lists for the `stored` columns its
    entities left (the world's `set_column_entities`; the lab's arena keeps them for its run)."""
    for key in sorted(by_column.keys() | set(stored) | unreadable.keys()):
        replace_own(world, key, owns, unreadable.get(key, []) + by_column.get(key, []))


def body_state(body: physics.Body) -> dict:
    """The whole body as JSON values: `saved_values.body_fields` and what a move reads and writes
    besides (fall distance, medium flags, fall damage, touched materials by name)."""
    return {
        **body_fields(body),
        "fall_distance": body.fall_distance,
        **{name: getattr(body, name) for name in MEDIUM_FLAGS},
        "fall_damage": body.fall_damage,
        "touching": sorted(material.name for material in body.touching),
    }


def body_from_state(state: dict, owner: str, error: type[Exception]) -> physics.Body:
    """The body saved by `body_state`; `error` naming `owner` and the field when it cannot be used."""
    body = body_from_fields(state, owner, error)
    (fall_distance,) = numbers(state, "fall_distance", None, owner, error)
    if not 0.0 <= fall_distance <= MAX_FALL_DISTANCE:
        raise error(f"{owner}'s 'fall_distance' must be in [0, {MAX_FALL_DISTANCE:g}], got {fall_distance!r}")
    medium = [flag(state, name, owner, error) for name in MEDIUM_FLAGS]
    damage = whole_number(state, "fall_damage", MAX_FALL_DAMAGE, owner, error)
    touching = state.get("touching")
    names = Material.__members__
    if (not isinstance(touching, list) or len(touching) > len(names)
            or not all(isinstance(name, str) and name in names and name != "AIR" for name in touching)):
        raise error(f"{owner}'s 'touching' must be a list of material names (not AIR), got {preview(touching)}")
    return physics.Body(body.box, body.velocity, body.on_ground, body.collided_horizontally,
                        body.collided_vertically, body.camera_lag, fall_distance, *medium, damage,
                        frozenset(Material[name] for name in touching))


def whole_number(state: dict, name: str, largest: int, owner: str, error: type[Exception]) -> int:
    """The int saved under `name`, 0..`largest`; `error` naming the field otherwise."""
    value = state.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= largest:
        raise error(f"{owner}'s {name!r} must be a whole number in 0..{largest}, got {preview(value)}")
    return value


def finite_box(state: dict, name: str, owner: str, error: type[Exception]) -> physics.AABB:
    """The 6 finite numbers saved under `name` as a box (min <= max on each axis)."""
    values = numbers(state, name, 6, owner, error)
    try:
        return physics.AABB(*values)
    except (TypeError, ValueError) as problem:
        raise error(f"{owner}'s {name!r} is not a box: {problem}") from None


def read_entity(read: Callable[[object], object], state: object, what: str, error: type[Exception]):
    """`read(state)`, with what no check can catch (a value nested too deep, a number too long for
    a float) turned into `error` too, so any saved value gives a result or `error`, nothing else."""
    try:
        return read(state)
    except RecursionError:
        raise error(f"{what} is nested too deeply") from None
    except OverflowError:
        raise error(f"{what} holds a number too large") from None

