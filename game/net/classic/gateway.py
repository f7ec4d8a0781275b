"""Classic clients on the Boxel server: a second asyncio listener whose players are the Session's.

Owns: `ClassicGateway` (listening for Classic clients beside the Boxel listener; each
connection's life: the identification, CPE negotiation (ExtInfo/ExtEntry, then CustomBlocks'
support level), the player joining the Session, the level sent once the window is whole
(encoded on a worker thread, then paced at LEVEL_CHUNKS_PER_TICK), its packets (positions held
to `movement.check_move`, block edits held to the Session's rules, chat), and its disconnect,
which always carries the reason in a DisconnectPlayer packet) and `ClassicHub`, which wraps the
server's `Hub` so the same 20 Hz tick runs the gateway's steps before (the Classic players'
edits and bodies) and after it (the tick's block changes into the window and to every Classic
client, the other players as entities and in the player list).
A Classic player is a real Session player: it joins, is saved when it leaves, Boxel clients see
it as they see any player. Its body is where its last accepted position put it (flying, so the
tick does not move it: a Classic client moves itself and the server checks it).
Does not own: the wire (`packets`), the block table (`blocks`), the map (`level`), the move checks
(`movement`), the Boxel clients (`game.net.server`, `game.net.hub`).
"""

from __future__ import annotations

import asyncio
import socket
from collections import deque
from dataclasses import dataclass, field, replace

import physics

from ...rules.hotbar import holdable
from ...rules.reach import DIG_REACH_BLOCKS, PLACE_REACH_BLOCKS, within_reach
from ...rules.sounds import BREAK, PLACE
from ...rules.targeting import place_block
from ...world.blocks import BREAKABLE, HARDNESS, REPLACEABLE, block_id
from ..hub import Refused
from ..protocol import Chat, Say
from ..server import STOPPING
from .blocks import CUSTOM_BLOCKS_LEVEL, BlockMap, Capabilities
from .level import DEFAULT_SIZE, MapWindow, WindowBlocks, encode_level, level_chunks
from .movement import angle_byte, check_move, feet_of_fixed, fixed_of_feet
from .packets import (CPE_MAGIC, PROTOCOL_VERSION, SELF_ID, ClassicProtocolError, CustomBlockSupportLevel,
                      DespawnPlayer, DisconnectPlayer, ExtAddEntity2, ExtAddPlayerName, ExtEntry, ExtInfo,
                      ExtRemovePlayerName, HoldThis, LevelFinalize, LevelInitialize, Message, PacketReader,
                      PlayerIdentification, PositionOrientation, ServerIdentification, SetBlock, SetBlockClient,
                      SpawnPlayer, TwoWayPing, encode_for)

SERVER_EXTENSIONS = {"CustomBlocks": 1, "HeldBlock": 1, "ExtPlayerList": 2, "TwoWayPing": 1,
                     "ExtEntityPositions": 1, "BlockDefinitions": 1}
"""The CPE extensions Boxel offers, with their versions; a client gets those it lists with the same version."""
APP_NAME = "Boxel"
MOTD = "A Boxel world (Minecraft Beta rules)"
LEVEL_CHUNKS_PER_TICK = 32
"""[packets] Level chunks sent a client per tick: 32 KB a tick, 640 KB/s, a default map in about a second."""
WINDOW_COLUMNS_PER_TICK = 32
"""[columns] Loaded columns copied into the window per tick (~40 us each) while it is not whole."""
WINDOW_INSTALLS_PER_TICK = 4
"""[columns] Columns the world's workers made, installed per tick for the window while it is not
whole (beside the hub's own), so the first Classic join waits a few seconds, not tens."""
MAX_PACKETS_PER_TICK = 40
"""[packets] A client sends one position a tick and a few edits: 40 in 50 ms is a flood."""
NEGOTIATION_SECONDS = 10.0
"""[s] From connecting to a whole identification and CPE negotiation."""
ECHO_WAIT_TICKS = 40
"""[ticks] A client without TwoWayPing: after a teleport, positions are ignored this long (2 s)."""
ENTITY_TICKS = 2
"""[ticks] Other players are sent every second tick (10 Hz), as to Boxel clients."""
MAX_ENTITIES = 127
"""Entity ids 0..126 (the byte's 127 others are negative; -1 is the client itself)."""
READ_BYTES = 4096


class Disconnect(Exception):
    """A Classic client is cut; the message is the reason it is sent."""


@dataclass(eq=False)
class ClassicClient:
    """One Classic connection's state."""

    writer: asyncio.StreamWriter
    address: str
    name: str = ""
    extensions: frozenset = frozenset()
    blocks: BlockMap = BlockMap()
    extended: bool = False
    """ExtEntityPositions: coordinates are ints."""
    joined: bool = False
    playing: bool = False
    """The level is sent: block changes go out at once (before: queued in `pending`)."""
    body: physics.Body | None = None
    """Where its last accepted position put its player."""
    chunks: deque | None = None
    """The level's packets still to send (None: not encoded yet)."""
    pending: list | None = None
    """Block changes since its level's snapshot, sent after the level."""
    edits: list = field(default_factory=list)
    """Its SetBlock packets waiting for the next tick."""
    echo_wanted: int | None = None
    """The TwoWayPing data it must echo before its positions count again."""
    ignore_until_tick: int = -1
    """Without TwoWayPing: positions are ignored until this tick."""
    next_ping: int = 0
    packets_this_tick: int = 0
    chat_ticks: deque = field(default_factory=deque)
    """The ticks of its recent chat lines."""
    entities: dict = field(default_factory=dict)
    """Other players it was told of: name -> (entity id, last fixed position and angles)."""
    corrections: int = 0
    """Times it was teleported back (moved wrongly or too quickly)."""
    closed: bool = False
    reason: str = ""

    def send(self, *packets) -> None:
        if not self.closed:
            self.writer.write(b"".join(encode_for(packet, self.extended) for packet in packets))

    def has(self, extension: str) -> bool:
        return extension in self.extensions


class ClassicHub:
    """The server's `Hub` with the gateway's steps around its tick (what `game.net.server.Server` drives);
    everything else is the hub's."""

    def __init__(self, hub, gateway: ClassicGateway) -> None:
        self._hub = hub
        self._gateway = gateway

    def __getattr__(self, name):
        return getattr(self._hub, name)

    def tick(self):
        self._gateway.before_tick()
        out = self._hub.tick()
        self._gateway.after_tick(self._hub.last_changes)
        return out

    def receive(self, name: str, message):
        reason = self._hub.receive(name, message)
        if reason is None and isinstance(message, Say):
            self._gateway.tell_classic(name, message.text)
        return reason

    def save(self) -> None:
        self._gateway.restore_players()
        self._hub.save()


class ClassicGateway:
    """Classic clients as players of `hub`'s Session (see the module docstring)."""

    def __init__(self, hub, host: str = "127.0.0.1", port: int = 25566, size=DEFAULT_SIZE, *, log=None) -> None:
        self.hub = ClassicHub(hub, self)
        """What the Boxel `Server` must tick instead of the hub itself."""
        self._inner = hub
        self.session = hub.session
        self.host, self.port = host, port
        self.window = MapWindow.around(self.session.world.spawn, size)
        self.blocks = WindowBlocks(self.window)
        self.clients: dict[str, ClassicClient] = {}
        """Joined Classic players by name."""
        self._connections: set[ClassicClient] = set()
        self._server = None
        self._entity_ids: dict[str, int] = {}
        """Each player's entity id, the same for every Classic client (so its moves are encoded once a tick)."""
        self._visible_at: tuple[int, dict] = (-1, {})
        self.log = log or (lambda line: hub.log.append(f"classic: {line}"))

    # --- listening ---------------------------------------------------------------------------

    async def start(self) -> tuple[str, int]:
        """Listen; the (host, port) bound (a free port for port 0)."""
        self._server = await asyncio.start_server(self._handle, self.host, self.port)
        host, port = self._server.sockets[0].getsockname()[:2]
        self.port = port
        return host, port

    async def stop(self) -> None:
        """Stop listening and cut every Classic client (its player leaves, saved)."""
        if self._server is not None:
            self._server.close()
        for client in list(self._connections):
            self._close(client, STOPPING)
        for name in list(self.clients):
            self._leave(self.clients[name], STOPPING)

    # --- one connection ----------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self._inner.limits.socket_send_buffer_bytes)
        peer = writer.get_extra_info("peername")
        client = ClassicClient(writer, str(peer[0]) if peer else "?")
        self._connections.add(client)
        packets = PacketReader()
        reason = "connection closed"
        try:
            await asyncio.wait_for(self._negotiate(reader, client, packets), NEGOTIATION_SECONDS)
            while not client.closed:
                for packet in packets.packets():  # first those that came with the negotiation's
                    self._on_packet(client, packet)
                    if client.closed:
                        break
                if client.closed:
                    break
                data = await reader.read(READ_BYTES)
                if not data:
                    break
                packets.feed(data)
            reason = client.reason or "disconnected"
        except Disconnect as cut:
            reason = str(cut)
        except ClassicProtocolError as error:
            reason = f"bad packet: {error}"
        except asyncio.TimeoutError:
            reason = f"no identification within {NEGOTIATION_SECONDS:g} s"
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            reason = "connection closed"
        except asyncio.CancelledError:
            reason = STOPPING
            raise
        except Exception as error:  # nothing a client sends may raise out of the loop
            reason = f"server error ({type(error).__name__})"
            self.log(f"error serving {client.name or client.address}: {error!r}")
        finally:
            self._connections.discard(client)
            self._close(client, reason)
            self._leave(client, reason)

    async def _next(self, reader, packets: PacketReader, client: ClassicClient):
        while True:
            for packet in packets.packets():
                return packet
            data = await reader.read(READ_BYTES)
            if not data:
                raise Disconnect("connection closed")
            packets.feed(data)

    async def _negotiate(self, reader, client: ClassicClient, packets: PacketReader) -> None:
        """Identification, CPE, joining the Session; the level follows when the window is whole."""
        ident = await self._next(reader, packets, client)
        if not isinstance(ident, PlayerIdentification):
            raise Disconnect("the first packet must be the player identification")
        if ident.version != PROTOCOL_VERSION:
            raise Disconnect(f"this server speaks Classic protocol {PROTOCOL_VERSION}, the client {ident.version}")
        self._check_joinable(ident.name, client.address)
        if ident.magic == CPE_MAGIC:
            client.send(ExtInfo(APP_NAME, len(SERVER_EXTENSIONS)),
                        *(ExtEntry(name, version) for name, version in SERVER_EXTENSIONS.items()))
            info = await self._next(reader, packets, client)
            if not isinstance(info, ExtInfo) or not 0 <= info.count <= 256:
                raise Disconnect("a CPE client answers ExtInfo with its ExtInfo")
            theirs = {}
            for _ in range(info.count):
                entry = await self._next(reader, packets, client)
                if not isinstance(entry, ExtEntry):
                    raise Disconnect("ExtInfo promised more ExtEntry packets")
                theirs[entry.name] = entry.version
            client.extensions = frozenset(name for name, version in SERVER_EXTENSIONS.items()
                                          if theirs.get(name) == version)
            client.extended = client.has("ExtEntityPositions")
            packets.extended = client.extended
            if client.has("CustomBlocks"):
                client.send(CustomBlockSupportLevel(CUSTOM_BLOCKS_LEVEL))
                level = await self._next(reader, packets, client)
                if not isinstance(level, CustomBlockSupportLevel):
                    raise Disconnect("CustomBlocks: expected the client's support level")
                if level.level < CUSTOM_BLOCKS_LEVEL:
                    client.extensions -= {"CustomBlocks"}
        client.blocks = BlockMap(Capabilities(custom_blocks=client.has("CustomBlocks"),
                                              block_definitions=client.has("BlockDefinitions")))
        self._check_joinable(ident.name, client.address)  # again: another may have taken the name meanwhile
        client.send(ServerIdentification(PROTOCOL_VERSION, APP_NAME, MOTD, 0))
        self._join(client, ident.name)

    def _check_joinable(self, name: str, address: str) -> None:
        """The hub's own join checks, counting every connection of both listeners (`Hub.check_joinable`)."""
        try:
            self._inner.check_joinable(name, address)
        except Refused as refusal:
            raise Disconnect(str(refusal)) from None

    def _join(self, client: ClassicClient, name: str) -> None:
        try:
            player = self.session.join(name)
        except ValueError as error:
            raise Disconnect(str(error)) from None
        client.name, client.joined = name, True
        self.clients[name] = client
        self._inner.elsewhere[name] = client.address
        x, y, z = (int(v) for v in player.body.feet)
        if not self.window.contains(x, max(y, self.window.y0), z) or y >= self.window.y0 + self.window.height:
            player.body = player.spawn()  # saved beyond this map: a Classic player starts at the spawn
        client.body = replace(player.body, velocity=(0.0, 0.0, 0.0))
        self._hold(player)
        self.log(f"{name} joined from {client.address} (Classic{', CPE ' + ' '.join(sorted(client.extensions)) if client.extensions else ''})")

    def _hold(self, player) -> None:
        """A Classic player's body is the server's to place: flying (the tick does not move it), no damage (Classic has none)."""
        player.flying = True
        player.damage_enabled = False

    def restore_players(self) -> None:
        """Every Classic player as the world saves a player: walking, with damage (the stop's save)."""
        for name in self.clients:
            player = self.session.players.get(name)
            if player is not None:
                player.flying, player.damage_enabled = False, True

    def _leave(self, client: ClassicClient, reason: str) -> None:
        if not client.joined or self.clients.get(client.name) is not client:
            return
        client.joined = False
        del self.clients[client.name]
        self._inner.elsewhere.pop(client.name, None)
        self.log(f"{client.name} left: {reason}")
        player = self.session.players.get(client.name)
        try:
            if player is not None:
                player.flying, player.damage_enabled = False, True
                self.session.leave(client.name)
                self.session.save()
        except Exception as error:  # a save the disk refuses: play goes on
            self.log(f"could not save {client.name}: {error}")

    def _close(self, client: ClassicClient, reason: str) -> None:
        """Send `reason` in a DisconnectPlayer packet (best effort) and close."""
        if client.closed:
            return
        text = "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in reason)[:64]
        try:
            client.writer.write(encode_for(DisconnectPlayer(text), client.extended))
        except Exception:
            pass
        client.closed, client.reason = True, reason
        transport = client.writer.transport
        try:
            if transport.get_write_buffer_size() > 64 * 1024:
                transport.abort()
            else:
                transport.write_eof()
                asyncio.get_running_loop().call_later(2.0, transport.close)
        except Exception:
            transport.abort()

    def _cut(self, client: ClassicClient, reason: str) -> None:
        self._close(client, reason)
        self._leave(client, reason)

    # --- packets -----------------------------------------------------------------------------

    def _on_packet(self, client: ClassicClient, packet) -> None:
        client.packets_this_tick += 1
        if client.packets_this_tick > MAX_PACKETS_PER_TICK:
            return self._cut(client, f"too many packets (more than {MAX_PACKETS_PER_TICK} in a tick)")
        if isinstance(packet, PositionOrientation):
            return self._position(client, packet)
        if isinstance(packet, SetBlockClient):
            if packet.mode not in (0, 1):
                return self._cut(client, f"set block mode must be 0 or 1, got {packet.mode}")
            client.edits.append(packet)
            return None
        if isinstance(packet, Message):
            return self._chat(client, packet.text)
        if isinstance(packet, TwoWayPing) and client.has("TwoWayPing"):
            if packet.direction == 0:
                client.send(TwoWayPing(0, packet.data))
            elif packet.data == client.echo_wanted:
                client.echo_wanted = None
            return None
        return self._cut(client, f"a client may not send {type(packet).__name__} now")

    def _position(self, client: ClassicClient, packet: PositionOrientation) -> None:
        if not client.playing or client.echo_wanted is not None or self.session.ticks_run < client.ignore_until_tick:
            return
        player = self.session.players.get(client.name)
        if player is None:
            return
        feet = self.window.to_world(*feet_of_fixed(packet.x, packet.y, packet.z))
        verdict = check_move(client.body, feet, self.session.world)
        if verdict.accepted:
            client.body = replace(verdict.body, velocity=(0.0, 0.0, 0.0), fall_distance=0.0, fall_damage=0)
            player.input.look_at(_boxel_yaw(packet.yaw), _boxel_pitch(packet.pitch))
            return
        client.corrections += 1
        self.log(f"{client.name} teleported back: {verdict.reason}")
        self._teleport_back(client)

    def _teleport_back(self, client: ClassicClient) -> None:
        x, y, z = fixed_of_feet(*self.window.to_map(*client.body.feet))
        player = self.session.players[client.name]
        client.send(PositionOrientation(SELF_ID, x, y, z, angle_byte(player.input.yaw + 180), 0))
        if client.has("TwoWayPing"):
            client.next_ping = (client.next_ping + 1) % 65536
            client.echo_wanted = client.next_ping
            client.send(TwoWayPing(1, client.next_ping))
        else:
            client.ignore_until_tick = self.session.ticks_run + ECHO_WAIT_TICKS

    def _chat(self, client: ClassicClient, text: str) -> None:
        now = self.session.ticks_run
        lines, window = self._inner.limits.chat_lines, self._inner.limits.chat_window_ticks
        while client.chat_ticks and client.chat_ticks[0] <= now - window:
            client.chat_ticks.popleft()
        if len(client.chat_ticks) >= lines:
            return self._cut(client, f"chat too fast (more than {lines} lines in {window} ticks)")
        if not text.strip():
            return None
        client.chat_ticks.append(now)
        for boxel in self._inner.clients.values():
            boxel.outbox.append(Chat(client.name, text))
        self.tell_classic(client.name, text)
        self._inner.log.append(f"<{client.name}> {text}")
        return None

    def tell_classic(self, sender: str, text: str) -> None:
        """A chat line from `sender` to every Classic client (in 64-character lines, ASCII)."""
        line = "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in f"<{sender}> {text}")
        for client in self.clients.values():
            for start in range(0, len(line), 64):
                client.send(Message(0, line[start:start + 64]))

    # --- the tick ----------------------------------------------------------------------------

    def before_tick(self) -> None:
        """Before the hub's tick: fill the window while it is not whole, apply each Classic
        player's edits by the Session's rules, and put each Classic player's body where its
        client last was (accepted)."""
        world = self.session.world
        if not self.blocks.complete:
            world.poll(WINDOW_INSTALLS_PER_TICK)
            self.blocks.fill(world, WINDOW_COLUMNS_PER_TICK)
        for client in list(self.clients.values()):
            client.packets_this_tick = 0
            player = self.session.players.get(client.name)
            if player is None:
                continue
            edits, client.edits = client.edits, []
            for edit in edits:
                self._edit(client, player, edit)
            player.body = client.body
            self._hold(player)

    def _edit(self, client: ClassicClient, player, edit: SetBlockClient) -> None:
        """A Classic client's SetBlock, by the Session's rules; refused, the client is told the real block."""
        cell = tuple(int(v) for v in self.window.to_world(edit.x, edit.y, edit.z))
        world = self.session.world
        if not self.window.contains(*cell) or not self._allowed(player, cell, edit, world):
            if self.window.contains(*cell) and client.playing:
                client.send(SetBlock(edit.x, edit.y, edit.z, client.blocks.client_id(block_id(world.get_block(*cell)))))
            return

    def _allowed(self, player, cell, edit: SetBlockClient, world) -> bool:
        """Apply `edit` if the rules allow it (reach, placement, what breaks, the game mode); whether it was applied."""
        session = self.session
        if edit.mode == 0:
            name = world.get_block(*cell)
            breaks_at_once = self._inner.limits.flying_allowed or HARDNESS[block_id(name)] == 0.0
            if (name == "air" or not BREAKABLE[block_id(name)] or not breaks_at_once
                    or not within_reach(player.eye, cell, DIG_REACH_BLOCKS)):
                return False
            world.set_block(*cell, "air")
            session.sounds.extend(session.sound_rules.block_edited(BREAK, name, cell))
        else:
            name = self._client_block(player, edit)
            if name is None or not holdable(name) or not within_reach(player.eye, cell, PLACE_REACH_BLOCKS):
                return False
            if not any(_solid_neighbour(world, cell, face) for face in _FACES):
                return False  # Beta places only against a block
            bodies = [other.body for key, other in session.players.items() if key != player.name]
            bodies += [client_body(self.clients, player.name)] + list(session.mobs.bodies)
            if place_block(world, cell, name, bodies) is None:
                return False
            session.sounds.extend(session.sound_rules.block_edited(PLACE, name, cell))
        session.edited_cells.add(cell)
        player.mining.swing()
        return True

    def _client_block(self, player, edit: SetBlockClient) -> str | None:
        client = self.clients.get(player.name)
        return None if client is None else client.blocks.boxel_block(edit.block)

    def after_tick(self, changes) -> None:
        """After the hub's tick: the tick's block changes into the window and out to every Classic
        client, the level's next chunks, the other players as entities."""
        if changes is not None:
            for change in changes.blocks:
                if not self.blocks.apply(change.cell, block_id(change.new)):
                    continue
                x, y, z = (int(v) for v in self.window.to_map(*change.cell))
                for client in self.clients.values():
                    packet = SetBlock(x, y, z, client.blocks.client_id(block_id(change.new)))
                    if client.playing:
                        client.send(packet)
                    elif client.pending is not None:
                        client.pending.append(packet)
        limit = self._inner.limits.max_send_buffer_bytes
        for client in list(self.clients.values()):
            if not client.playing:
                self._send_level(client)
            elif self.session.ticks_run % ENTITY_TICKS == 0:
                self._send_entities(client)
            if not client.closed and client.writer.transport.get_write_buffer_size() > limit:
                self._cut(client, f"not reading (more than {limit} bytes waiting to be sent)")

    def _send_level(self, client: ClassicClient) -> None:
        if client.chunks is None:
            if client.pending is None and self.blocks.complete:
                client.pending = []
                snapshot = self.blocks.ids.copy()
                loop = asyncio.get_running_loop()
                future = loop.run_in_executor(None, encode_level, snapshot, client.blocks.lookup)
                future.add_done_callback(lambda done: self._encoded(client, done))
            return
        for _ in range(LEVEL_CHUNKS_PER_TICK):
            if not client.chunks:
                break
            client.send(client.chunks.popleft())
        if not client.chunks:
            self._finish_level(client)

    def _encoded(self, client: ClassicClient, done) -> None:
        if client.closed:
            return
        try:
            gzipped = done.result()
        except Exception as error:
            return self._cut(client, f"server error encoding the level ({type(error).__name__})")
        client.send(*client.blocks.definitions(), LevelInitialize())
        client.chunks = deque(level_chunks(gzipped))

    def _finish_level(self, client: ClassicClient) -> None:
        w = self.window
        player = self.session.players[client.name]
        x, y, z = fixed_of_feet(*w.to_map(*client.body.feet))
        client.send(LevelFinalize(w.width, w.height, w.depth),
                    SpawnPlayer(-1, client.name, x, y, z, angle_byte(player.input.yaw + 180), 0),
                    *client.pending)
        if client.has("HeldBlock"):
            client.send(HoldThis(client.blocks.client_id(block_id("stone")), 0))
        if client.has("ExtPlayerList"):
            client.send(ExtAddPlayerName(SELF_ID, client.name, client.name, "Boxel", 0))  # itself in its list
        client.pending, client.playing = None, True
        self._send_entities(client)

    def _visible(self) -> dict[str, tuple]:
        """Every player inside the window with its entity id and fixed position and angles, made once a
        tick for every client: name -> (entity id, fixed, the teleport packet's bytes by `extended`)."""
        tick = self.session.ticks_run
        if self._visible_at[0] == tick:
            return self._visible_at[1]
        window, visible = self.window, {}
        for name, player in self.session.players.items():
            x, y, z = (int(v) for v in player.body.feet)
            if not window.contains(x, min(max(y, window.y0), window.y0 + window.height - 1), z):
                continue
            entity = self._entity_ids.get(name)
            if entity is None:
                used = set(self._entity_ids.values())
                entity = next((i for i in range(MAX_ENTITIES) if i not in used), None)
                if entity is None:
                    continue  # more players in the window than Classic has ids: the rest are not shown
                self._entity_ids[name] = entity
            fixed = (*fixed_of_feet(*window.to_map(*player.body.feet)),
                     angle_byte(player.input.yaw + 180), angle_byte(player.input.pitch))
            visible[name] = (entity, fixed, {})
        for name in [name for name in self._entity_ids if name not in self.session.players]:
            del self._entity_ids[name]  # left the game: every client is told this tick
        self._visible_at = (tick, visible)
        return visible

    def _send_entities(self, client: ClassicClient) -> None:
        """Spawn, move and despawn the other players for `client` (shared ids 0..126); the player list with ExtPlayerList."""
        visible = self._visible()
        out = []
        for name in [name for name in client.entities if name not in visible]:
            entity, _ = client.entities.pop(name)
            out.append(encode_for(DespawnPlayer(entity), client.extended))
            if client.has("ExtPlayerList"):
                out.append(encode_for(ExtRemovePlayerName(entity), client.extended))
        for name, (entity, fixed, moves) in visible.items():
            if name == client.name:
                continue
            known = client.entities.get(name)
            if known is None or known[0] != entity:
                client.entities[name] = (entity, fixed)
                packets = ((ExtAddPlayerName(entity, name, name, "Boxel", 0), ExtAddEntity2(entity, name, name, *fixed))
                           if client.has("ExtPlayerList") else (SpawnPlayer(entity, name, *fixed),))
                out.extend(encode_for(packet, client.extended) for packet in packets)
            elif known[1] != fixed:
                client.entities[name] = (entity, fixed)
                move = moves.get(client.extended)
                if move is None:
                    move = moves[client.extended] = encode_for(PositionOrientation(entity, *fixed), client.extended)
                out.append(move)
        if out and not client.closed:
            client.writer.write(b"".join(out))

    def report(self) -> dict:
        """What the tests read: each Classic player's corrections."""
        return {name: {"corrections": client.corrections} for name, client in self.clients.items()}


def client_body(clients, name):
    """The body a Classic player's client is at (its accepted position), which a block may not be placed in."""
    return clients[name].body


_FACES = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def _solid_neighbour(world, cell, face) -> bool:
    x, y, z = cell[0] + face[0], cell[1] + face[1], cell[2] + face[2]
    return world.can_hold(x, y, z) and not REPLACEABLE[block_id(world.get_block(x, y, z))]


def _boxel_yaw(angle: int) -> float:
    """Classic's yaw byte (0: facing -z, north) as Boxel's Minecraft yaw [degrees] (0: facing +z)."""
    return (angle * 360 / 256 + 180) % 360


def _boxel_pitch(angle: int) -> float:
    """Classic's pitch byte (256ths of a turn, 0 level, up to 64 down, down from 192 up) as degrees, -90..90."""
    degrees = angle * 360 / 256
    return max(-90.0, min(90.0, degrees - 360 if degrees > 180 else degrees))
