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
5. adds `players` (each player's saved state by name, as Beta's multiplayer keeps one file per
   player) and drops the `player_state` meta row: the one player of a version 1 to 4 file is the
   local player (`player_names.LOCAL_PLAYER`), and the upgrade moves its state into `players`.
6. adds the `game_mode` meta row ("survival" or "creative": `GAME_MODES`). A file of an older
   version was made when every world was creative: it opens as creative, and the upgrade writes that.
Versions 1 to 5 open as they are; their first save upgrades them to 6.

The world's identity (not a version of its own): SQLite's header field `user_version` (bytes
WORLD_ID_OFFSET.. of the file) holds a random nonzero id chosen when the world is made (or by the
first save of a world made before ids existed), and every save writes it again, so every
transaction in the write-ahead log carries the header page with the id of the world that wrote it.
A log beside a world whose header pages carry another id belongs to another world
(`file_checks.check_log`). 0 means no id yet.

The range of each meta value (what a save writes and what an open accepts are the same rule,
`file_checks.check_meta_value`): MAX_WORLD_TICKS, MAX_CREATED_AT_S, SPAWN_LIMIT, MAX_META_TEXT_BYTES,
MAX_JSON_DEPTH, MAX_JSON_INT; of the players table: MAX_SAVED_PLAYERS, MAX_PLAYERS_TEXT_BYTES (and
each state as a meta value: MAX_META_TEXT_BYTES, `player_names.check_player_name` for each name).
"""

from __future__ import annotations

import hashlib
import json

from .coords import WORLD_BORDER, WORLD_HEIGHT

FORMAT_VERSION = 6
"""The world file format this code writes; it opens this version and older ones."""
ENTITIES_SINCE_VERSION = 2
"""The first format version with the `entities` table."""
CHECKSUM_SINCE_VERSION = 3
"""The first format version with the meta checksum and the `damaged_columns` table."""
BLOCK_UPDATES_SINCE_VERSION = 4
"""The first format version with the `block_updates` table and the `world_ticks` meta row."""
PLAYERS_SINCE_VERSION = 5
"""The first format version with the `players` table (and without the `player_state` meta row)."""
GAME_MODE_SINCE_VERSION = 6
"""The first format version with the `game_mode` meta row."""
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
CREATE_PLAYERS = "CREATE TABLE players (name TEXT PRIMARY KEY, state TEXT NOT NULL) WITHOUT ROWID"
"""`name`: a player name (`player_names.check_player_name`); `state`: the JSON object the game saved for it."""

TABLES_BY_VERSION = {
    1: {"meta": CREATE_META, "columns": CREATE_COLUMNS},
    2: {"meta": CREATE_META, "columns": CREATE_COLUMNS, "entities": CREATE_ENTITIES},
    3: {"meta": CREATE_META, "columns": CREATE_COLUMNS, "entities": CREATE_ENTITIES, "damaged_columns": CREATE_DAMAGED},
    4: {"meta": CREATE_META, "columns": CREATE_COLUMNS, "entities": CREATE_ENTITIES, "damaged_columns": CREATE_DAMAGED,
        "block_updates": CREATE_BLOCK_UPDATES},
    5: {"meta": CREATE_META, "columns": CREATE_COLUMNS, "entities": CREATE_ENTITIES, "damaged_columns": CREATE_DAMAGED,
        "block_updates": CREATE_BLOCK_UPDATES, "players": CREATE_PLAYERS},
}
TABLES_BY_VERSION[6] = TABLES_BY_VERSION[5]  # version 6 adds a meta row, no table
"""Every schema object of a world file of each version: tables only (WITHOUT ROWID tables keep their
primary key in the table itself, so SQLite adds no index for it), by name, with their SQL as SQLite stores it."""

CHECKSUM_KEY = "meta_sha256"
VALUE_KEYS = ("format_version", "seed", "created_at", "spawn", "player_state")
"""The meta keys every version writes (PLAYER_STATE_KEY only before PLAYERS_SINCE_VERSION); from
CHECKSUM_SINCE_VERSION CHECKSUM_KEY too, from BLOCK_UPDATES_SINCE_VERSION WORLD_TICKS_KEY, and from
GAME_MODE_SINCE_VERSION GAME_MODE_KEY."""
PLAYER_STATE_KEY = "player_state"
"""The meta row of the one player of a version 1 to 4 file (the local player's state)."""
WORLD_TICKS_KEY = "world_ticks"
GAME_MODE_KEY = "game_mode"
SURVIVAL = "survival"
"""Beta's survival: items to gather, tools, crafting, health only by eating (`game.rules.survival`)."""
CREATIVE = "creative"
"""The creative game: every block at hand, flying, blocks broken at once in peaceful."""
GAME_MODES = (SURVIVAL, CREATIVE)
"""What a world's `game_mode` meta row holds. A world made before game modes is CREATIVE."""

WORLD_ID_OFFSET = 60
"""[bytes] Where SQLite's header keeps `user_version`, Boxel's world id (4 bytes, big-endian)."""
WORLD_ID_BYTES = 4
MAX_WORLD_ID = 2 ** 31 - 1
"""Largest world id: ids are 1..MAX_WORLD_ID, positive in SQLite's signed 32-bit `user_version`."""

MAX_WORLD_TICKS = 2 ** 53
"""[ticks] The world's tick counter is 0..MAX_WORLD_TICKS - 1: above any play (14 billion years at
20 Hz), and it keeps the counter an exact JSON number."""
LAST_WORLD_TICK = MAX_WORLD_TICKS - 1
"""[ticks] The counter's last value: the world's clock stops there, so no save ever holds more."""
MAX_CREATED_AT_S = 253_402_300_799
"""[s] Latest creation time, 9999-12-31 23:59:59 UTC (Unix time): any clock's reading; more is damage."""
SPAWN_LIMIT = WORLD_BORDER - 1
"""[blocks] A spawn's x and z lie within +-SPAWN_LIMIT: one block inside the world border
(`coords.WORLD_BORDER`), so the player's box (0.6 wide) at the spawn is inside the world."""
SPAWN_HEIGHT = WORLD_HEIGHT
"""[blocks] A spawn's y lies in 0..SPAWN_HEIGHT (the build height: the spawn is on the surface)."""
MAX_META_TEXT_BYTES = 1 << 20
"""[bytes] Longest JSON text of one meta value. The longest Boxel writes is the player state, about
1 KB, so this is far beyond play; a longer value is damage, refused before it is read into memory."""
MAX_META_KEY_BYTES = 64
"""[bytes] Longest meta key read (Boxel's longest is 14 bytes); a longer key is damage."""
MAX_JSON_DEPTH = 32
"""[levels] Deepest nesting of lists and objects in a saved JSON value (a player state is 3 deep,
a mob 2): deep enough for any state, shallow enough that no reader of it can run out of stack."""
MAX_SAVED_PLAYERS = 100_000
"""Most rows the players table may hold: every player a server ever had (Beta's servers keep a file
for each); more is damage, refused at open before any state is read."""
MAX_PLAYERS_TEXT_BYTES = 256 * 1024 * 1024
"""[bytes] Most JSON text all saved player states may take together (a state takes about 1 KB, so
far beyond MAX_SAVED_PLAYERS real ones): more is damage, refused at open before it is read into memory."""
MAX_JSON_INT = 2 ** 64 - 1
"""Largest magnitude of an int inside a saved JSON value (player state, entities): any 64-bit
counter, id or seed, signed or unsigned (a mob keeps a 64-bit seed), and far below where converting
it to a float overflows."""


def meta_keys(version: int) -> set[str]:
    """The meta keys a file of format `version` holds, exactly."""
    return ((set(VALUE_KEYS) - ({PLAYER_STATE_KEY} if version >= PLAYERS_SINCE_VERSION else set()))
            | ({CHECKSUM_KEY} if version >= CHECKSUM_SINCE_VERSION else set())
            | ({WORLD_TICKS_KEY} if version >= BLOCK_UPDATES_SINCE_VERSION else set())
            | ({GAME_MODE_KEY} if version >= GAME_MODE_SINCE_VERSION else set()))


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
