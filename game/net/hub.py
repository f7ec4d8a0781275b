"""The server's core, with no sockets: who is connected, what each may send, and what each is sent.

Owns: `ServerLimits` (every per-client limit, with its unit), `Hub`, which wraps one `Session` for
many remote players: a handshake joins (`admit`), each received message is checked against the
limits (`receive`: a broken limit is a disconnect reason, never an exception), input events are
applied for the connection's player at the tick they name (within a window ahead of and behind
the server's tick), `tick` runs one session tick and returns, for each client, that tick's
messages (the changes it can see, other bodies as Beta's short ids and fixed-point steps
(`BodyMove`), its ack and exact authoritative state (an `AckDelta` from the last one after the
first), paced columns, each as its seed's where never edited), and a player who leaves is saved at
once (`leave`). Every player digs by Beta's times (damage on when it joins), and a cell a client
stopped digging before it broke is sent back to it as the server holds it (`_refused_digs`).
What every client gets alike is made once a tick: each body's move (`_move_since_last_update`),
block edits, sounds, and each column's message until the column changes.
Pure: no asyncio, no clock; `game.net.server` drives it from the network. Does not own the rules
(`game.rules.session`), the wire format (`game.net.protocol`) or a column's forms (`game.net.column_wire`).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict, deque
from dataclasses import dataclass

from ..rules.column_keeper import KEEP_RADIUS_COLUMNS, ColumnKeeper
from ..rules.replay import GAME_CHANGES
from ..rules.tick_changes import session_bodies
from ..world.blocks import block_id
from ..world.coords import CHUNK_SIZE
from ..world.player_names import LOCAL_PLAYER
from .column_wire import column_data
from .protocol import (PROTOCOL_VERSION, Ack, AckDelta, BlockEdit, BodyMove, Chat, ColumnData,
                       ForgetColumn, Hello, Input, Message, PlayerState, Say, Sound, TickUpdate, Welcome, fixed_feet,
                       fixed_size, fixed_velocity)

BODY_UPDATE_TICKS = 2
"""[ticks] Other bodies are sent every second tick (10 Hz), as Beta's server sends players: a client
draws them between states anyway, and it halves their bytes (most of a busy client's) and the
server's work per client. A client's own state (`Ack`), blocks and sounds go every tick."""
BODY_IDS = 65536
"""Short body ids are u16: at most this many bodies sent at once (a world holds far fewer)."""
STEP_LIMIT = 128
"""[1/32 block] A body whose feet moved less than this on every axis since they were last sent is
sent as a step (3 signed bytes, Beta's relative move); farther, its feet in full."""
COLUMN_CACHE_COLUMNS = 1024
"""[columns] Column messages kept made (each for every client that needs it, until the column
changes): a few hundred bytes to ~3 KB each, ~1 MB at most."""


@dataclass(frozen=True)
class ServerLimits:
    """What one client may do, and how much a server does for it per tick. Frozen; checked."""

    max_players: int = 20
    """[players] Handshakes beyond this are refused."""
    connections_per_address: int = 4
    """[connections] Open connections from one IP address (a LAN shares one per machine)."""
    max_messages_per_tick: int = 40
    """[messages] A client sends about one event per key or look change: 40 in 50 ms is a flood."""
    max_ahead_ticks: int = 40
    """[ticks] An input may name a tick at most this far after the server's (2 s)."""
    max_behind_ticks: int = 40
    """[ticks] An input naming a tick this far before the server's is refused; a nearer late one
    is applied at the next tick."""
    chat_lines: int = 5
    """[lines] Chat lines a client may send per `chat_window_ticks`."""
    chat_window_ticks: int = 100
    """[ticks] (5 s)"""
    max_send_buffer_bytes: int = 4 << 20
    """[bytes] Unsent bytes queued for one client; a client that lets more pile up is not reading."""
    socket_send_buffer_bytes: int = 64 * 1024
    """[bytes] The kernel's send buffer per client (SO_SNDBUF, fixed rather than grown by the kernel up to
    megabytes), so a client that stops reading shows in `max_send_buffer_bytes` within seconds; at
    20 Hz it still carries over 1 MB/s at 50 ms round trip, far above a client's few KB/s."""
    frame_seconds: float = 10.0
    """[s] A frame once started must arrive whole within this (a half-frame left open is slowloris)."""
    handshake_seconds: float = 10.0
    """[s] From connecting to a whole `Hello`."""
    view_radius_columns: int = 3
    """[columns] Columns within this Chebyshev distance of the player's column are sent (7 x 7)."""
    columns_per_tick: int = 6
    """[columns] Encoded and sent per tick over all clients (~1 ms each), so a join never stalls the tick."""
    columns_installed_per_tick: int = 2
    """[columns] Columns the world's workers generated taken in per tick (lighting one costs ~5 ms)."""
    max_catch_up_ticks: int = 5
    """[ticks] A server behind its clock runs at most this many ticks at once, then drops the rest."""
    flying_allowed: bool = True
    """Players may toggle flying (F). Every world is creative today, so it is on by default; off,
    the session ignores the toggle (`Session.flying_allowed`) and a player who joins flying lands."""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.type == "bool":
                if not isinstance(value, bool):
                    raise TypeError(f"ServerLimits.{field.name} must be a bool, got {value!r}")
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"ServerLimits.{field.name} must be a positive number, got {value!r}")
            if field.type == "int" and not isinstance(value, int):
                raise TypeError(f"ServerLimits.{field.name} must be an int, got {value!r}")


class Refused(Exception):
    """A handshake the server refuses; the message is the reason the client is shown."""


@dataclass
class Client:
    """One connected player's server-side state."""

    name: str
    address: str
    pending: list = dataclasses.field(default_factory=list)
    """Input events not applied yet (applied for this player, whatever player they name)."""
    input_tick: int = -1
    """The tick of the latest input applied."""
    messages_this_tick: int = 0
    chat_ticks: deque = dataclasses.field(default_factory=deque)
    """The ticks of its recent chat lines."""
    sent_columns: set = dataclasses.field(default_factory=set)
    """The columns (cx, cz) it holds."""
    complete_around: tuple[int, int] | None = None
    """The column it held every column in range around at the last tick (None: not yet)."""
    pruned_around: tuple[int, int] | None = None
    """The column it stood in when the columns out of its range were last forgotten (None: not yet)."""
    bodies: dict = dataclasses.field(default_factory=dict)
    """The bodies it was last told of, by key (to send only changes)."""
    state_sent: PlayerState | None = None
    """Its player's state in the last `Ack` or `AckDelta` (the next is a delta from it)."""
    outbox: list = dataclasses.field(default_factory=list)
    """Messages to send before the next tick's (chat)."""
    digging: set = dataclasses.field(default_factory=set)
    """The cells its player's attack button dug (held on them) since the last tick's messages: one
    it stopped digging before Beta's time is resent to it as the server holds it (`_refused_digs`)."""


class Hub:
    """One session served to many clients (see the module docstring)."""

    def __init__(self, session, limits: ServerLimits = ServerLimits()) -> None:
        self.session = session
        self.limits = limits
        self.clients: dict[str, Client] = {}
        """Connected players by name, in join order."""
        self.elsewhere: dict[str, str] = {}
        """Players connected through another listener of this server (the Classic gateway), by name ->
        address: they count against `max_players` and `connections_per_address` too."""
        self.log: list[str] = []
        """What happened that an operator would want to read (the server prints and clears it)."""
        self.failed: dict[str, str] = {}
        """Clients whose input the session refused at the last tick, with the reason (to disconnect)."""
        self._body_ids: dict[str, int] = {}
        """The short id of every body sent to a client (`BodyMove`), by key."""
        self._next_body_id = 0
        self._fixed_feet: dict[str, tuple[int, int, int]] = {}
        """This tick's fixed-point feet [1/32 block] of each body sent, by key (made once for every client)."""
        self._feet_before: dict[str, tuple[int, int, int]] = {}
        """Every body's fixed-point feet at the last body update, by key: what every client that saw it
        then was sent (it appeared or stepped to there), so its next step is the same for them all."""
        self._moves: dict[str, BodyMove | None] = {}
        """This body update's move of each body for the clients that saw it at the last (None: moved
        less than 1/32 block), made at most once."""
        self._tick_moves: dict[tuple[str, str], BodyMove] = {}
        """This body update's appearing and going moves, by (key, change), made once for every client."""
        self.last_changes = None
        """The latest tick's `TickChanges` (None before the first tick)."""
        self._sounds_of: tuple[int, list] = (-1, [])
        """The latest tick's sounds on the wire, with their columns (`_tick_sounds`)."""
        self._blocks_of: tuple[int, list] = (-1, [])
        """The latest tick's block changes on the wire, with their columns (`_tick_blocks`)."""
        self._column_messages: OrderedDict[tuple[int, int], ColumnData] = OrderedDict()
        """Columns' messages as made (`column_message`), least recently sent first; a column's goes when it changes."""
        self.keeper = ColumnKeeper(session.world, self._save_for_unloading,
                                   radius=max(KEEP_RADIUS_COLUMNS, limits.view_radius_columns + 2))
        """Unloads the columns far from every player (a server runs for days)."""
        if LOCAL_PLAYER in session.players and len(session.players) == 1:
            session.leave(LOCAL_PLAYER)  # a server has no local player: only connections play
        session.flying_allowed = limits.flying_allowed

    # --- connecting ----------------------------------------------------------------------------

    def admit(self, hello: Hello, address: str) -> Welcome:
        """Join the player a good handshake names; Refused with the reason otherwise (nothing changes)."""
        if hello.version != PROTOCOL_VERSION:
            raise Refused(f"this server speaks protocol {PROTOCOL_VERSION}, the client {hello.version}")
        self.check_joinable(hello.name, address)
        try:
            player = self.session.join(hello.name)
        except ValueError as error:
            raise Refused(str(error)) from None
        if not self.limits.flying_allowed:
            player.flying = False  # saved flying where flying is allowed no more: it falls
        player.damage_enabled = True  # the server's rules: a saved peaceful player does not break at once
        self.clients[hello.name] = Client(hello.name, address)
        self.log.append(f"{hello.name} joined from {address}")
        return Welcome(PROTOCOL_VERSION, hello.name, self.session.world.seed, self.session.ticks_run,
                       self.session.day_time, self.limits.flying_allowed)

    def check_joinable(self, name: str, address: str) -> None:
        """Refused with the reason when a player `name` connecting from `address` may not join now: the
        name is playing, the server is full, or that address has its connections. Every connection
        counts, the Boxel clients' and those of `elsewhere` (another listener's, e.g. Classic)."""
        if name in self.clients or name in self.elsewhere or name in self.session.players:
            raise Refused(f"a player named {name} is already playing")
        if len(self.clients) + len(self.elsewhere) >= self.limits.max_players:
            raise Refused(f"the server is full ({self.limits.max_players} players)")
        addresses = [client.address for client in self.clients.values()] + list(self.elsewhere.values())
        if addresses.count(address) >= self.limits.connections_per_address:
            raise Refused(f"too many connections from {address}")

    def leave(self, name: str, reason: str) -> None:
        """Forget client `name` and save its player at once (the world's file holds it after)."""
        if self.clients.pop(name, None) is None:
            return
        self.log.append(f"{name} left: {reason}")
        try:
            self.session.leave(name)
            self.session.save()
        except Exception as error:  # a save the disk refuses: play goes on, the next save retries
            self.log.append(f"could not save {name}: {error}")

    # --- receiving -----------------------------------------------------------------------------

    def receive(self, name: str, message: Message) -> str | None:
        """Take one message from client `name`; the reason to disconnect it, or None."""
        client = self.clients[name]
        client.messages_this_tick += 1
        if client.messages_this_tick > self.limits.max_messages_per_tick:
            return f"too many messages (more than {self.limits.max_messages_per_tick} in a tick)"
        if isinstance(message, Input):
            return self._input(client, message.event)
        if isinstance(message, Say):
            return self._say(client, message.text)
        return f"a client may not send {type(message).__name__}"

    def _input(self, client: Client, event) -> str | None:
        now, limits = self.session.ticks_run, self.limits
        if event.tick > now + limits.max_ahead_ticks:
            return f"input for tick {event.tick} is more than {limits.max_ahead_ticks} ticks ahead of tick {now}"
        if event.tick < now - limits.max_behind_ticks:
            return f"input for tick {event.tick} is more than {limits.max_behind_ticks} ticks behind tick {now}"
        if isinstance(event, GAME_CHANGES):
            return None  # the time of day and peaceful are the server's to set, not a client's
        client.pending.append(event)  # applied for this client's player (`Session.apply(event, player=...)`)
        return None

    def _say(self, client: Client, text: str) -> str | None:
        now, limits = self.session.ticks_run, self.limits
        while client.chat_ticks and client.chat_ticks[0] <= now - limits.chat_window_ticks:
            client.chat_ticks.popleft()
        if len(client.chat_ticks) >= limits.chat_lines:
            return f"chat too fast (more than {limits.chat_lines} lines in {limits.chat_window_ticks} ticks)"
        client.chat_ticks.append(now)
        for other in self.clients.values():
            other.outbox.append(Chat(client.name, text))
        self.log.append(f"<{client.name}> {text}")
        return None

    # --- the tick ------------------------------------------------------------------------------

    def tick(self) -> dict[str, list[Message]]:
        """Apply each client's due inputs (join order), run one session tick, and return each
        client's messages for it. A client whose input the session refuses is in `failed`."""
        session = self.session
        self.failed = {}
        for client in self.clients.values():
            client.messages_this_tick = 0
            due = [event for event in client.pending if event.tick <= session.ticks_run]
            if not due:
                continue
            client.pending = [event for event in client.pending if event.tick > session.ticks_run]
            for event in sorted(due, key=lambda event: event.tick):  # stable: same-tick events keep order
                try:
                    session.apply(event, player=client.name)
                except Exception as error:  # nothing a client sends may raise out of the tick
                    self.failed[client.name] = f"input refused: {error}"
                    self.log.append(f"{client.name}'s {type(event).__name__} raised {error!r}")
                    break
                client.input_tick = max(client.input_tick, event.tick)
                _note_digging(client, session.players[client.name].mining)
        changes = session.tick()
        for change in changes.blocks:
            self._column_messages.pop(_column_of(change.cell), None)
        self.last_changes = changes  # what the Classic gateway (game.net.classic) mirrors after the tick
        session.world.poll(self.limits.columns_installed_per_tick)  # columns the workers made, installed a few a tick
        self.keeper.after_tick(session.ticks_run, [player.body.feet for player in session.players.values()])
        body_update = changes.tick % BODY_UPDATE_TICKS == 0
        placed = ({key: (_column_of(_box_feet(state[1])), state) for key, state in session_bodies(session).items()}
                  if body_update else {})  # each body's column and state
        budget = [self.limits.columns_per_tick]
        self._fixed_feet, self._moves, self._tick_moves = {}, {}, {}
        out = {name: self._messages_for(client, changes, placed, budget)
               for name, client in self.clients.items()}
        if body_update:
            self._forget_body_ids(placed)
            self._feet_before = {key: self._feet_of(key, state) for key, (_, state) in placed.items()}
        return out

    def _messages_for(self, client: Client, changes, placed: dict, budget: list[int]) -> list[Message]:
        session = self.session
        player = session.players[client.name]
        centre = _column_of(player.body.feet)
        radius = self.limits.view_radius_columns
        messages: list[Message] = [*client.outbox]
        client.outbox.clear()
        messages.extend(self._columns(client, centre, radius, budget))
        blocks = tuple(edit for column, edit in self._tick_blocks(changes) if column in client.sent_columns)
        _note_digging(client, player.mining)  # a dig the tick started (the button held on to the next block)
        if client.digging:
            blocks += self._refused_digs(client, player.mining, changes)
        moved = self._bodies_for(client, centre, radius, placed) if changes.tick % BODY_UPDATE_TICKS == 0 else ()
        sounds = tuple(sound for column, sound in self._tick_sounds(changes)
                       if abs(column[0] - centre[0]) <= radius and abs(column[1] - centre[1]) <= radius)
        messages.append(TickUpdate.of_parts(changes.tick, changes.day_time, blocks, moved, sounds))
        if changes.notices:
            messages.extend(Chat("", notice.text) for notice in changes.notices if notice.player in (None, client.name))
        state = player_state(player)
        messages.append(Ack(changes.tick, client.input_tick, state) if client.state_sent is None else
                        AckDelta.between(changes.tick, client.input_tick, client.state_sent, state))
        client.state_sent = state
        return messages

    def _refused_digs(self, client: Client, mining, changes) -> tuple[BlockEdit, ...]:
        """The cells `client` stopped digging this tick (released, turned away, out of reach) without
        the server breaking them: each as the server holds it, so a client that broke one early in
        its own copy (a hostile client's instant break) has it back. A dig held to Beta's time
        breaks (a block change) and is never resent."""
        changed = {change.cell for change in changes.blocks}
        still = tuple(map(int, mining.cell)) if mining.held and mining.cell is not None else None
        world = self.session.world
        refused = tuple(BlockEdit(*cell, block_id(world.get_block(*cell))) for cell in sorted(client.digging)
                        if cell != still and cell not in changed and _column_of(cell) in client.sent_columns)
        client.digging = set() if still is None else {still}
        return refused

    def _tick_blocks(self, changes) -> list[tuple[tuple[int, int], BlockEdit]]:
        """The tick's block changes as the wire carries them, with their columns: made once a tick for every client."""
        if self._blocks_of[0] != changes.tick:
            self._blocks_of = (changes.tick, [(_column_of(change.cell), BlockEdit(*change.cell, block_id(change.new)))
                                              for change in changes.blocks])
        return self._blocks_of[1]

    def _tick_sounds(self, changes) -> list[tuple[tuple[int, int], Sound]]:
        """The tick's sounds as the wire carries them, with their columns: made once a tick for every client."""
        if self._sounds_of[0] != changes.tick:
            self._sounds_of = (changes.tick, [(_column_of(sound.position),
                                               Sound(sound.name, sound.position, sound.volume, sound.pitch))
                                              for sound in changes.sounds])
        return self._sounds_of[1]

    def _bodies_for(self, client: Client, centre: tuple[int, int], radius: int, placed: dict) -> tuple[BodyMove, ...]:
        """The bodies in range of `client` (not its own player) that appeared, moved or went since
        it was last told, as Beta sends them: a short id, feet in 1/32 block, a small step as 3
        bytes (`BodyMove`); a move too small to show in 1/32 block is not sent. In `placed`'s order,
        then those gone in the order it saw them; each move made once and shared by every client."""
        own = f"player:{client.name}"
        west, east, north, south = centre[0] - radius, centre[0] + radius, centre[1] - radius, centre[1] + radius
        before = client.bodies
        seen, moved = {}, []
        for key, (column, state) in placed.items():
            if west <= column[0] <= east and north <= column[1] <= south and key != own:
                seen[key] = state
                move = self._move_since_last_update(key, state) if key in before else self._appeared(key, state)
                if move is not None:
                    moved.append(move)
        if before:
            moved.extend(self._gone(key) for key in before if key not in seen)
        client.bodies = seen
        return tuple(moved)

    def _feet_of(self, key: str, state) -> tuple[int, int, int]:
        """Body `key`'s feet this tick in 1/32 block (made once a tick)."""
        feet = self._fixed_feet.get(key)
        if feet is None:
            feet = self._fixed_feet[key] = fixed_feet(state[1])
        return feet

    def _move_since_last_update(self, key: str, state) -> BodyMove | None:
        """Body `key`'s move from its feet at the last body update (which every client that saw it
        then was sent) to now: a step of 3 signed bytes, its feet in full when farther, None when
        it moved less than 1/32 block. Made once for every client."""
        if key in self._moves:
            return self._moves[key]
        feet, last = self._feet_of(key, state), self._feet_before[key]
        dx, dy, dz = feet[0] - last[0], feet[1] - last[1], feet[2] - last[2]
        if dx == dy == dz == 0:
            move = None
        elif -STEP_LIMIT <= dx < STEP_LIMIT and -STEP_LIMIT <= dy < STEP_LIMIT and -STEP_LIMIT <= dz < STEP_LIMIT:
            move = BodyMove(self._body_ids[key], "stepped", at=(dx, dy, dz))
        else:
            move = BodyMove(self._body_ids[key], "moved", at=feet, velocity=fixed_velocity(state[2]))
        self._moves[key] = move
        return move

    def _appeared(self, key: str, state) -> BodyMove:
        move = self._tick_moves.get((key, "appeared"))
        if move is None:
            move = self._tick_moves[key, "appeared"] = BodyMove(
                self._body_id(key), "appeared", key, state[0], self._feet_of(key, state), fixed_size(state[1]),
                fixed_velocity(state[2]))
        return move

    def _gone(self, key: str) -> BodyMove:
        move = self._tick_moves.get((key, "gone"))
        if move is None:
            move = self._tick_moves[key, "gone"] = BodyMove(self._body_ids[key], "gone")
        return move

    def _body_id(self, key: str) -> int:
        """The short id of body `key` (made when it is first sent; kept while it exists)."""
        body_id = self._body_ids.get(key)
        if body_id is None:
            used = set(self._body_ids.values())
            body_id = self._next_body_id
            while body_id in used:
                body_id = (body_id + 1) % BODY_IDS
            self._next_body_id = (body_id + 1) % BODY_IDS
            self._body_ids[key] = body_id
        return body_id

    def _forget_body_ids(self, present) -> None:
        """Free the ids of bodies no longer in the game (every client was told they went this tick)."""
        for key in [key for key in self._body_ids if key not in present]:
            del self._body_ids[key]

    def _columns(self, client: Client, centre: tuple[int, int], radius: int, budget: list[int]) -> list[Message]:
        """The columns `client` lacks near `centre`, nearest first, as many as the tick's budget
        leaves; and a ForgetColumn for each it holds that is out of range (a margin of one)."""
        messages: list[Message] = []
        if client.complete_around == centre:
            return messages  # it holds every column in range already
        if client.pruned_around != centre:  # only a move to another column takes columns out of range
            for key in sorted(client.sent_columns):
                if not _near(key, centre, radius + 1):
                    client.sent_columns.discard(key)
                    messages.append(ForgetColumn(*key))
            client.pruned_around = centre
        if budget[0] <= 0:
            return messages  # the tick's columns are spent (on the clients that joined first)
        cx0, cz0 = centre
        wanted = sorted(((cx, cz) for cx in range(cx0 - radius, cx0 + radius + 1)
                         for cz in range(cz0 - radius, cz0 + radius + 1) if (cx, cz) not in client.sent_columns),
                        key=lambda key: (max(abs(key[0] - cx0), abs(key[1] - cz0)), key))
        world = self.session.world
        waiting = 0
        for key in wanted:
            if not world.is_loaded(*key):
                world.request(*key)  # generated by the world's workers; sent once `poll` installs it
                waiting += 1
            elif budget[0] > 0:
                budget[0] -= 1
                messages.append(self._column_message(key))
                client.sent_columns.add(key)
            else:
                waiting += 1
        if not waiting:
            client.complete_around = centre
        return messages

    def _column_message(self, key: tuple[int, int]) -> ColumnData:
        """Column `key`'s message, made once for every client that needs it until the column changes."""
        cache = self._column_messages
        message = cache.get(key)
        if message is None:
            message = cache[key] = column_message(self.session.world, *key)
            if len(cache) > COLUMN_CACHE_COLUMNS:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return message

    def _save_for_unloading(self) -> None:
        try:
            self.session.save()
        except Exception as error:  # the disk refused: the edited columns stay loaded, play goes on
            self.log.append(f"could not save: {error}")

    def save(self) -> None:
        """Save the world and every player (the stop signals' save)."""
        self.session.save()


def column_message(world, cx: int, cz: int) -> ColumnData:
    """Column (cx, cz) of `world` as it is now (loaded on the spot if it was not), in its smallest
    form (`game.net.column_wire.column_data`): as the seed's where the world never edited it
    (`GameWorld.is_as_generated`)."""
    return column_data(cx, cz, world.column(cx, cz), as_generated=world.is_as_generated(cx, cz))


def player_state(player) -> PlayerState:
    """`player`'s authoritative state as the wire carries it: its whole body, bit for bit."""
    return PlayerState.of_body(player.body, float(player.input.yaw), float(player.input.pitch),
                               bool(player.flying), bool(player.dead), int(player.vitals.health))


def _note_digging(client: Client, mining) -> None:
    """Remember the cell `client`'s player is digging now, if any (`Client.digging`)."""
    if mining.held and mining.cell is not None:
        client.digging.add(tuple(map(int, mining.cell)))


def _column_of(point) -> tuple[int, int]:
    return int(point[0] // CHUNK_SIZE), int(point[2] // CHUNK_SIZE)


def _box_feet(box) -> tuple[float, float, float]:
    return ((box[0] + box[3]) / 2, box[1], (box[2] + box[5]) / 2)


def _near(key: tuple[int, int], centre: tuple[int, int], radius: int) -> bool:
    return abs(key[0] - centre[0]) <= radius and abs(key[1] - centre[1]) <= radius
