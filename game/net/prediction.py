"""A network client's prediction of its own player, and its reconciliation with the server.

Owns: `PredictedWorld`, the blocks the client holds as physics sees them (the columns and block
changes the server sent, read through the World's own collision, material and current queries, so
`physics.step` meets exactly the boxes the server's meets), `apply_input`, the movement half of
`Session.apply` (`Player.take_input`: the rules by which an input event changes a player's keys, look,
flying and inventory screen), and `Prediction`: the client's own `Player` stepped by the same rules and physics
as the server's, one tick per call, with each input applied at the tick it is stamped with; it keeps
the inputs and the predicted states the server has not acknowledged yet, and for each `Ack`
compares the server's state for that tick with its own, bit for bit: equal, nothing happens;
different, a *correction*: the server's state is taken and the inputs after it replayed.
Pure: no sockets, no asyncio, no clock (`game.net.client` drives it); never imports Ursina.
Does not own: the rules themselves (`game.rules`), physics, the wire (`game.net.protocol`).

Not predicted (the server's word is taken as it comes, and a difference is a correction): health
and death, the player's own clicks (a block it places or breaks shows when the server says so),
pushes by other players and mobs, and blocks the world changes by itself (flowing water).
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterable

import numpy as np

from ..rules.player import Player
from ..rules.replay import Event, PutInSlot, Release, SetDayTime, SetPeaceful
from ..world.blocks import AIR, SELECTABLE, SELECTION_SHAPES
from ..world.collision import PlacedShapeCache
from ..world.column import Column
from ..world.column_store import ColumnStore
from ..world.coords import ABOVE_WORLD, BELOW_WORLD, CHUNK_SIZE, LOCAL_MASK, SECTION_SHIFT, WORLD_HEIGHT
from ..world.terrain import Terrain
from ..world.world_queries import WorldQueries
from .protocol import Ack, PlayerState, Welcome

MAX_PREDICTED_TICKS = 200
"""[ticks] Predicted states kept unacknowledged at most (10 s): a server silent for longer is lost
anyway, and the oldest are dropped so memory stays bounded."""
KEPT_CORRECTED_TICKS = 100
"""[ticks] How many of the latest corrections' ticks are kept (for reports and tests)."""
_NOT_PREDICTED = (SetDayTime, SetPeaceful, PutInSlot, Release)
"""Events that do not move the player: the server's settings (ignored from clients), the hotbar
screen, the attack button's release (digging is the server's)."""


class PredictedWorld(ColumnStore, WorldQueries):
    """The blocks a client holds, as physics and the look ray ask for them (`physics.CollisionWorld`
    and the World's queries: the same code over the same ids as the server's World). A column the
    server has not sent is the seed's terrain (as the server's is until it is edited)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._columns: dict[tuple[int, int], Column] = {}
        self._generated: dict[tuple[int, int], Column] = {}
        self._terrain = Terrain(seed)
        self._placed_shapes = PlacedShapeCache()
        self._selection_shapes = PlacedShapeCache(shapes=SELECTION_SHAPES, has_shape=SELECTABLE)

    def _open_file(self) -> None:
        return None  # nothing to be closed: the queries always answer

    def _column_at(self, cx: int, cz: int) -> Column:
        column = self._columns.get((cx, cz))
        if column is None:
            column = self._generated.get((cx, cz))
            if column is None:
                column = self._generated[cx, cz] = Column.from_ids(self._terrain.column(cx, cz))
        return column

    def id_at(self, x: int, y: int, z: int) -> int:
        """The block id at (x, y, z) (ints; the edge rule outside the build height)."""
        if y < 0:
            return BELOW_WORLD
        if y >= WORLD_HEIGHT:
            return ABOVE_WORLD
        section = self._column_at(x >> SECTION_SHIFT, z >> SECTION_SHIFT).sections[y >> SECTION_SHIFT]
        return AIR if section is None else section.item(x & LOCAL_MASK, y & LOCAL_MASK, z & LOCAL_MASK)

    def set_column(self, cx: int, cz: int, ids: np.ndarray) -> None:
        """Hold column (cx, cz) as the server sent it: (16, 256, 16) ids [x, y, z]."""
        self._columns[cx, cz] = Column.from_ids(ids)
        self._generated.pop((cx, cz), None)

    def forget_column(self, cx: int, cz: int) -> None:
        self._columns.pop((cx, cz), None)

    def set_id(self, x: int, y: int, z: int, block: int) -> None:
        """Cell (x, y, z) holds `block` now (a `TickUpdate`'s edit; ignored outside the held columns)."""
        column = self._columns.get((x // CHUNK_SIZE, z // CHUNK_SIZE))
        if column is not None and 0 <= y < WORLD_HEIGHT:
            column.set(x % CHUNK_SIZE, y, z % CHUNK_SIZE, block)


def apply_input(player: Player, event: Event, *, flying_allowed: bool = True) -> None:
    """What `Session.apply` does to `player`'s own state for `event` (`Player.take_input`: keys held,
    look, flying, sprinting, the inventory screen, the rules while dead). The rest (clicks, the
    hotbar, the game's settings) moves nobody and is left to the server."""
    if not isinstance(event, _NOT_PREDICTED):
        player.take_input(event, flying_allowed)


@dataclasses.dataclass(frozen=True, slots=True)
class Predicted:
    """The predicted player after one tick: its state as an `Ack` would carry it, and what only the
    client's own inputs decide (not on the wire, so kept here to replay from)."""

    state: PlayerState
    held: frozenset
    sprinting: bool
    last_forward_press: int | None
    inventory_open: bool

    def movement(self) -> bytes:
        return movement_bytes(self.state)


def movement_bytes(state: PlayerState) -> bytes:
    """What prediction compares, bit for bit: the state's wire bytes with health and death left out
    (the server's alone: the client does not predict damage)."""
    return dataclasses.replace(state, dead=False, health=0).wire()


class Prediction:
    """The client's own player, predicted (see the module docstring).

    `start(ack)` takes the first `Ack`'s state; then `step(events)` predicts the next tick with the
    events stamped for it (`next_tick`), and `acknowledge(ack)` reconciles, returning whether it
    corrected. `corrections` counts them."""

    def __init__(self, welcome: Welcome) -> None:
        if not isinstance(welcome, Welcome):
            raise TypeError(f"a prediction starts from the server's Welcome, got {welcome!r}")
        self.world = PredictedWorld(welcome.seed)
        self.flying_allowed = welcome.flying_allowed
        self.name = welcome.name
        self.player: Player | None = None
        """The predicted player (None until the first `Ack`)."""
        self.next_tick = welcome.tick
        """The tick `step` predicts next."""
        self.corrections = 0
        """Acks whose state differed from the prediction for their tick."""
        self.corrected_ticks: deque[int] = deque(maxlen=KEPT_CORRECTED_TICKS)
        """The ticks of the latest corrections, oldest first."""
        self.acknowledged = -1
        """The latest tick the server's state was taken or confirmed for."""
        self._predicted: dict[int, Predicted] = {}
        """Predicted after each tick not yet acknowledged, by tick."""
        self._inputs: dict[int, list[Event]] = {}
        """The events applied at each tick not yet acknowledged, by tick."""

    @property
    def started(self) -> bool:
        return self.player is not None

    @property
    def state(self) -> PlayerState | None:
        """The predicted state after tick `next_tick - 1` (None before `start`)."""
        if self.player is None:
            return None
        return self._snapshot().state

    def start(self, ack: Ack) -> None:
        """Take the server's state after tick `ack.tick` as the start (the player as it joined)."""
        self.player = Player(self.world, ack.state.body(), ack.state.yaw, ack.state.pitch, ack.state.flying,
                             name=self.name, spawn=self._spawn)
        self.player.ticks_run = ack.tick + 1
        self._set_health(ack.state.health)
        self.next_tick = ack.tick + 1
        self.acknowledged = ack.tick

    def step(self, events: Iterable[Event] = ()) -> PlayerState:
        """Predict tick `next_tick`: apply `events` (each stamped with that tick), step; the state after."""
        if self.player is None:
            raise RuntimeError("a prediction steps only after its first Ack (start)")
        tick = self.next_tick
        events = list(events)
        for event in events:
            if event.tick != tick:
                raise ValueError(f"an event for tick {event.tick} given to predict tick {tick}")
        self._inputs[tick] = events
        self._run(tick, events)
        self._predicted[tick] = self._snapshot()
        self.next_tick = tick + 1
        for old in [t for t in self._predicted if t < tick - MAX_PREDICTED_TICKS]:
            del self._predicted[old]
            self._inputs.pop(old, None)
        return self._predicted[tick].state

    def acknowledge(self, ack: Ack) -> bool:
        """Reconcile with the server's state after tick `ack.tick`; True when it was a correction
        (the prediction for that tick differed: the server's state is taken and the ticks after it
        predicted again with their inputs)."""
        if self.player is None:
            self.start(ack)
            return False
        tick = ack.tick
        if tick <= self.acknowledged:
            return False  # an older ack than one already taken (never on one TCP stream)
        self._set_health(ack.state.health)
        predicted = self._predicted.get(tick)
        corrected = predicted is None or predicted.movement() != movement_bytes(ack.state)
        if tick >= self.next_tick:  # the server ran ahead of the prediction: take its state, not a miss
            corrected = False
            self._take(ack, None)
            self.next_tick = tick + 1
        elif corrected:
            self.corrections += 1
            self.corrected_ticks.append(tick)
            self._take(ack, predicted)
            for later in range(tick + 1, self.next_tick):
                self._run(later, self._inputs.get(later, ()))
                self._predicted[later] = self._snapshot()
        self.acknowledged = tick
        for old in [t for t in self._predicted if t <= tick]:
            del self._predicted[old]
        for old in [t for t in self._inputs if t <= tick]:
            del self._inputs[old]
        return corrected

    # --- inside ---------------------------------------------------------------------------------

    def _run(self, tick: int, events: Iterable[Event]) -> None:
        player = self.player
        for event in events:
            apply_input(player, event, flying_allowed=self.flying_allowed)
        player.tick()

    def _take(self, ack: Ack, predicted: Predicted | None) -> None:
        """Put the server's state after `ack.tick` into the player, with the client's own input state
        for that tick (kept in `predicted`; as it is now when there is none)."""
        player, state = self.player, ack.state
        player.body = player.previous = state.body()
        player.input.yaw, player.input.pitch = state.yaw, state.pitch  # the server's bits, as they are
        player.flying = state.flying
        player.ticks_run = ack.tick + 1
        if predicted is not None:
            player.input.held.clear()
            player.input.held.update(predicted.held)
            player.sprinting = predicted.sprinting
            player._last_forward_press = predicted.last_forward_press
            player.inventory_open = predicted.inventory_open

    def _snapshot(self) -> Predicted:
        player = self.player
        state = PlayerState.of_body(player.body, float(player.input.yaw), float(player.input.pitch),
                                    bool(player.flying), bool(player.dead), int(player.vitals.health))
        return Predicted(state, frozenset(player.input.held), player.sprinting, player._last_forward_press,
                         player._inventory_open)

    def _set_health(self, health: int) -> None:
        self.player.vitals = dataclasses.replace(self.player.vitals, health=health)

    def _spawn(self):
        """Below the world the server puts the player at its spawn, which the client does not know:
        it stays where it fell until the server's state (a correction) brings it there."""
        return self.player.body
