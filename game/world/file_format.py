"""The world file format: its versions, the exact schema of each, the meta keys and the meta checksum.

Owns: FORMAT_VERSION, the SQL that creates each table (a file must hold exactly the tables its
version's Boxel created, with exactly that SQL, and nothing else), which meta keys each version
writes, and `meta_checksum`. Does not own: reading, checking or writing files (`storage.py`,
`file_checks.py`).

Versions:
1. `meta` and `columns`.
2. adds `entities` (mobs saved with their column).
3. adds the `meta_sha256` meta row (a checksum of every other meta row, so one changed byte of the
   seed or the spawn is found at open instead of opening as another world) and `damaged_columns`
   (the bytes of damaged rows, kept there before a save replaces them).
4. adds `block_updates` (the scheduled block updates still pending, by column) and the
   `world_ticks` meta row (the world's tick counter, so pending updates resume on time).
Versions 1 to 3 open as they are; their first save upgrades them to 4.
"""

from __future__ import annotations

import hashlib
import json

FORMAT_VERSION = 4
"""The world file format this code writes; it opens this version and older ones."""
ENTITIES_SINCE_VERSION = 2
"""The first format version with the `entities` table."""
CHECKSUM_SINCE_VERSION = 3
"""The first format version with the meta checksum and the `damaged_columns` table."""
BLOCK_UPDATES_SINCE_VERSION = 4
"""The first format version with the `block_updates` table and the `world_ticks` meta row."""
APPLICATION_ID = 0x426F7831
"""SQLite header application id of Boxel worlds ('Box1')."""

CREATE_META = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID"
CREATE_COLUMNS = ("CREATE TABLE columns (cx INTEGER NOT NULL, cz INTEGER NOT NULL, blocks BLOB NOT NULL,"
                  " PRIMARY KEY (cx, cz)) WITHOUT ROWID")
CREATE_ENTITIES = ("CREATE TABLE entities (cx INTEGER NOT NULL, cz INTEGER NOT NULL, data TEXT NOT NULL,"
                   " PRIMARY KEY (cx, cz)) WITHOUT ROWID")
CREATE_DAMAGED = ("CREATE TABLE damaged_columns (cx INTEGER NOT NULL, cz INTEGER NOT NULL, part TEXT NOT NULL,"
                  " data BLOB, PRIMARY KEY (cx, cz, part)) WITHOUT ROWID")
"""`part` is "blocks", "entities" or "block updates"; `data` the damaged value exactly as it was stored (any type)."""
CREATE_BLOCK_UPDATES = ("CREATE TABLE block_updates (cx INTEGER NOT NULL, cz INTEGER NOT NULL, data TEXT NOT NULL,"
                        " PRIMARY KEY (cx, cz)) WITHOUT ROWID")
"""`data`: a JSON list of [x, y, z, kind, delay ticks] for the updates pending in the column."""

TABLES_BY_VERSION = {
    1: {"meta": CREATE_META, "columns": CREATE_COLUMNS},
    2: {"meta": CREATE_META, "columns": CREATE_COLUMNS, "entities": CREATE_ENTITIES},
    3: {"meta": CREATE_META, "columns": CREATE_COLUMNS, "entities": CREATE_ENTITIES, "damaged_columns": CREATE_DAMAGED},
    4: {"meta": CREATE_META, "columns": CREATE_COLUMNS, "entities": CREATE_ENTITIES, "damaged_columns": CREATE_DAMAGED,
        "block_updates": CREATE_BLOCK_UPDATES},
}
"""Every schema object of a world file of each version: tables only (WITHOUT ROWID tables keep their
primary key in the table itself, so SQLite adds no index for it), by name, with their SQL as SQLite stores it."""

CHECKSUM_KEY = "meta_sha256"
VALUE_KEYS = ("format_version", "seed", "created_at", "spawn", "player_state")
"""The meta keys every version writes; from CHECKSUM_SINCE_VERSION CHECKSUM_KEY too, and from
BLOCK_UPDATES_SINCE_VERSION WORLD_TICKS_KEY."""
WORLD_TICKS_KEY = "world_ticks"


def meta_keys(version: int) -> set[str]:
    """The meta keys a file of format `version` holds, exactly."""
    return (set(VALUE_KEYS) | ({CHECKSUM_KEY} if version >= CHECKSUM_SINCE_VERSION else set())
            | ({WORLD_TICKS_KEY} if version >= BLOCK_UPDATES_SINCE_VERSION else set()))


def meta_checksum(rows: dict[str, str]) -> str:
    """The SHA-256 (hex) of every meta row but the checksum itself, by key: any changed byte of a key or
    a value changes it."""
    digest = hashlib.sha256()
    for key in sorted(rows):
        if key != CHECKSUM_KEY:
            digest.update(json.dumps([key, rows[key]]).encode("ascii") + b"\n")
    return digest.hexdigest()


def schema_rows(version: int) -> set[tuple[str, str, str, str]]:
    """The rows (type, name, tbl_name, sql) of `sqlite_master` in a file of format `version`."""
    return {("table", name, name, sql) for name, sql in TABLES_BY_VERSION[version].items()}
