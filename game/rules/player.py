"""The player: one `physics.Body` moved 20 times a second by `physics.step`, and what the view sees.

Owns: the player's body and the one before it (for drawing between ticks), its look angles and
held keys (`controls.InputState`), sprinting (Ctrl, or W pressed twice quickly) and flying (F
toggles it), respawning after a fall below FALL_RESPAWN_Y, the spawn point on the surface, the
eye height (EYE_HEIGHT, the one place it is defined), the interpolated view, the player's
vitals and damage toggle (`health.Vitals`, applied each tick by `suffer`), being dead (only key
releases and RESPAWN_KEY are heard; `respawn`) and the saved player state (`to_state` /
`saved_player`), and what is one player's own among many: its name (`LOCAL_PLAYER`, checked
by `check_player_name`, both from `game.world.player_names`), hotbar, digging, view motion (a crowd's
kept as rows: `view_rows`, `set_view_rows`), HUD and
overlay toggles (`Toggles`), inventory screen and screenshot requests.
Pure: no Ursina. Does not own: physics, the key bindings (`game.rules.controls`), when ticks run or
the other input rules (`game.rules.session`: building, the hotbar, mobs, projectiles), the health
rules themselves (`game.rules.health`).

The body is the only truth about where the player is: it changes only in `tick`, through
`physics.step`, and is saved as its box's 6 floats (never rebuilt from a position, which drifts).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import physics
from physics import AABB
from physics.materials import Material

from . import beds, health
from .controls import DEFAULT_BINDINGS, RESPAWN_KEY, InputState, KeyBindings
from .health import Vitals
from .hotbar import Hotbar, HotbarStateError
from .player_inventory import PlayerInventory, PlayerInventoryStateError
from .mining import Mining
from .replay import MAX_PITCH, Click, Event, KeyDown, KeyUp, wrap_yaw
from .saved_values import body_fields, body_from_fields, flag, numbers, preview
from .view_bobbing import ViewMotion
from ..world.blocks import SHAPES, SOLID
from ..world.coords import CHUNK_SIZE, LOCAL_MASK, SECTION_SHIFT, WORLD_BORDER, WORLD_HEIGHT
from ..world.player_names import LOCAL_PLAYER, check_player_name

EYE_HEIGHT = 1.62
"""[blocks] Eye above the feet (Beta's yOffset 1.62F; its float rounding, 5e-9, cannot be seen)."""
FALL_RESPAWN_Y = -64.0
"""[blocks] Feet below this put the player back at the spawn (Minecraft's void depth)."""
DOUBLE_TAP_TICKS = 7
"""[ticks] Pressing forward again within this many ticks of the last press starts sprinting
(Minecraft's sprint-toggle window, 0.35 s)."""
PLAYER_STATE_VERSION = 1
"""Written into the saved player state, so a later format can tell old states apart. (The vitals
came later within version 1: a state without them loads with full health.)"""


class PlayerStateError(ValueError):
    """A saved player state that this game cannot read; the message names the field."""


@dataclass(frozen=True, slots=True)
class View:
    """Where the camera is for one frame, blended between the last two ticks."""

    eye: tuple[float, float, float]
    """[blocks] Eye position (physics coordinates)."""
    box: AABB
    """The player's box as drawn this frame [blocks]."""
    camera_lag: float
    """[blocks] The blended camera lag (already subtracted from the eye)."""


@dataclass(frozen=True, slots=True)
class Toggles:
    """What one player's HUD and overlay keys have switched on (the window shows the local
    player's; reports list them)."""

    hud_visible: bool = True
    """F1 hides the crosshair and hotbar."""
    overlay_panel: bool = False
    """F3's text panel."""
    overlay_boxes: bool = False
    """F3's (or B's) boxes in the world."""
    third_person: bool = False
    """F5: the camera behind the player (Beta's thirdPersonView), showing the player's own model."""

    @property
    def overlay(self) -> bool:
        """Anything of the F3 overlay is shown."""
        return self.overlay_panel or self.overlay_boxes


@dataclass(frozen=True, slots=True)
class SavedPlayer:
    """A player state read back from the world file."""

    body: physics.Body
    yaw: float
    """[degrees] Minecraft yaw."""
    pitch: float
    """[degrees] Positive looks down."""
    flying: bool
    hotbar: Hotbar
    vitals: Vitals = Vitals()
    damage_enabled: bool = True
    """False: peaceful (nothing hurts the player)."""
    inventory: PlayerInventory | None = None
    """The survival inventory (None: a creative player's, which has only the hotbar)."""
    bed: tuple[int, int, int] | None = None
    """The foot of the bed that is this player's spawn (None: the world's spawn)."""


def blend(previous: float, current: float, alpha: float) -> float:
    return previous + (current - previous) * alpha


def surface_feet(world, x: float, z: float) -> tuple[float, float, float]:
    """[blocks] Feet position on the highest solid block at (x, z): its shape's top (a slab's is
    half a block up, a fence's 1.5); y = 0 (the bedrock floor under the world) if the column is empty."""
    bx, bz = math.floor(x), math.floor(z)
    ids = world.column(bx >> SECTION_SHIFT, bz >> SECTION_SHIFT)[bx & LOCAL_MASK, :, bz & LOCAL_MASK]
    for y in range(WORLD_HEIGHT - 1, -1, -1):
        block = int(ids[y])
        if SOLID[block]:
            return (x, y + max(box[4] for box in SHAPES[block]), z)
    return (x, 0.0, z)


ACTION = "action"
"""`Player.take_input`: a click or a key press the session goes on to act on."""
SCREEN_KEY = "screen key"
"""`Player.take_input`: a key pressed while the inventory screen is open (other than the inventory key)."""


def spawn_body(world) -> physics.Body:
    """A player at rest on the surface at the world's spawn column."""
    x, _, z = world.spawn
    return physics.Body.at_feet(*surface_feet(world, x, z))


def section_of(feet: Sequence[float]) -> tuple[int, int, int]:
    """The section (cx, sy, cz) holding a feet position."""
    x, y, z = (math.floor(v) for v in feet)
    return (x >> SECTION_SHIFT, y // CHUNK_SIZE, z >> SECTION_SHIFT)


class Player:
    """One player's simulation state; `tick` advances its body by one 20 Hz tick.

    Besides the body it owns what is this player's alone in a game of many: its `name`, `hotbar`,
    digging (`mining`), drawing state (`view_motion`), HUD and overlay `toggles`, whether its
    inventory screen is open, and its screenshot requests. The session's rules change them."""

    def __init__(self, world, body: physics.Body, yaw: float = 0.0, pitch: float = 0.0, flying: bool = False,
                 settings: physics.MovementSettings = physics.BETA, *,
                 spawn: Callable[[], physics.Body] | None = None,
                 bindings: KeyBindings = DEFAULT_BINDINGS, vitals: Vitals = Vitals(),
                 damage_enabled: bool = True, name: str = LOCAL_PLAYER, hotbar: Hotbar | None = None,
                 inventory: PlayerInventory | None = None, bed: tuple[int, int, int] | None = None) -> None:
        self.name = check_player_name(name)
        """Who this is (`game.world.player_names`): the key of `Session.players` and of the saved state."""
        if hotbar is not None and not isinstance(hotbar, Hotbar):
            raise TypeError(f"hotbar must be game.rules.hotbar.Hotbar, got {hotbar!r}")
        self.hotbar = hotbar if hotbar is not None else Hotbar()
        if inventory is not None and not isinstance(inventory, PlayerInventory):
            raise TypeError(f"inventory must be game.rules.player_inventory.PlayerInventory, got {inventory!r}")
        self.inventory = inventory
        """The survival inventory, 36 slots (`game.rules.player_inventory`); None in a creative game,
        where the hotbar holds blocks without counts. The session gives a survival player one."""
        self.bed = bed
        """The foot cell of the bed this player last slept in (`game.rules.beds`): where it respawns
        while that bed stands; None: the world's spawn."""
        self.screen = None
        """The survival screen open (`game.rules.containers.Screen`: the inventory with its 2x2 grid,
        a crafting table, a chest, a furnace), None when none is; open while `inventory_open`."""
        self.screen_cell: tuple[int, int, int] | None = None
        """The block whose screen is open (a crafting table, chest or furnace), None for the inventory's own."""
        self.sleeping_ticks = 0
        """Ticks asleep (Beta's sleepTimer, 1..`beds.SLEEP_TICKS`); 0: awake."""
        self.sleeping_at: tuple[int, int, int] | None = None
        """The foot cell of the bed this player sleeps in; None while awake."""
        self.bed_missing = False
        """The last respawn found its bed gone or blocked (the session tells the player, then clears it)."""
        self.mining = Mining()
        """The attack button, the block being dug (Beta's break times) and the arm swing (`game.rules.mining`)."""
        self._view_rows = None
        """The rows (`game.rules.view_motion_rows.MotionRows`) that hold this player's view motion at
        row `_view_row`, while `_view_motion` is None (`view_motion` makes it from them when read)."""
        self._view_row = 0
        self.view_motion = ViewMotion()
        self.toggles = Toggles()
        self._inventory_open = False
        self.screenshot_requests = 0
        """F2 presses not yet taken by a window (`Session.take_screenshot_requests`); a headless run ignores them."""
        self.world = world
        """What the body collides with (a `physics.CollisionWorld`)."""
        self.spawn = spawn if spawn is not None else lambda: spawn_body(world)
        """A new body at the spawn (a fall below FALL_RESPAWN_Y puts the player there); by default
        at rest on the surface at the world's spawn column (`world.column` and `world.spawn`)."""
        self.body = body
        self.previous = body
        """The body one tick earlier (the view blends from it to `body`)."""
        self.input = InputState(yaw, pitch, bindings)
        self.flying = bool(flying)
        self.sprinting = False
        self.settings = settings
        self._intent: tuple | None = None
        """The last intent made (`intent`), with the keys' intent and the toggles it was made from."""
        self.sink = physics.RecordingSink(keep=1)
        """The last tick's move report (the F3 overlay draws it): in a session, made only while the
        overlay is shown (`toggles.overlay`; empty otherwise, see `game.rules.player_steps`)."""
        self.ticks_run = 0
        """Ticks simulated so far; also the number of the next tick."""
        self.respawns = 0
        """Times the player was put back at the spawn (after a fall into the void or a death)."""
        if not isinstance(vitals, Vitals):
            raise TypeError(f"vitals must be game.rules.health.Vitals, got {vitals!r}")
        self.vitals = vitals
        """Health, air, fire and hurt time after the latest tick (`suffer` changes them)."""
        self.damage_enabled = bool(damage_enabled)
        """False: peaceful, nothing hurts the player (the pause menu switches it; saved with the player)."""
        self.damage_taken = 0
        """[half hearts] Health lost in the latest tick (the window flashes red when it is not 0)."""
        self._exposure = health.ExposureReader()
        """Reads what the body met for `suffer` (`health.exposure_of`, keeping the blocks it read)."""
        self._last_forward_press: int | None = None

    @classmethod
    def spawned(cls, world, saved: SavedPlayer | None = None, *,
                bindings: KeyBindings = DEFAULT_BINDINGS, name: str = LOCAL_PLAYER) -> Player:
        """A player named `name` from a saved state (with its hotbar), or at rest on the surface at
        the world's spawn with the default hotbar."""
        if saved is None:
            return cls(world, spawn_body(world), bindings=bindings, name=name)
        return cls(world, saved.body, saved.yaw, saved.pitch, saved.flying, bindings=bindings,
                   vitals=saved.vitals, damage_enabled=saved.damage_enabled, name=name, hotbar=saved.hotbar,
                   inventory=saved.inventory, bed=saved.bed)

    @property
    def dead(self) -> bool:
        """Health is 0: the player hears only key releases and RESPAWN_KEY until `respawn`."""
        return self.vitals.health <= 0  # `Vitals.dead` (asked of every player several times a tick)

    @property
    def sneak_held(self) -> bool:
        """The sneak key is held now: `input.intent().sneak` (`controls.intent_from_keys`'), read from
        the held keys without making the intent (the tick asks it of every player)."""
        return not self.input.bindings.sneak.isdisjoint(self.input.held)

    @property
    def view_motion(self) -> ViewMotion:
        """Beta's per-tick drawing state of this player: view bobbing, the held block's equip dip, the
        limbs' walk cycle (`game.rules.view_bobbing`); the window blends it between ticks. A crowd's
        are kept as rows (`view_rows`), and made into this value only when read."""
        motion = self._view_motion
        if motion is None:
            motion = self._view_motion = self._view_rows.motion(self._view_row)
        return motion

    @view_motion.setter
    def view_motion(self, motion: ViewMotion) -> None:
        self._view_motion = motion
        self._view_rows = None

    @staticmethod
    def view_rows(players: Sequence[Player]):
        """The rows (`game.rules.view_motion_rows.MotionRows`) holding the view motions of `players`,
        one row each in their order, as `set_view_rows` left them; None when they are not all there
        (another list of players, or a motion set since)."""
        rows = players[0]._view_rows if players else None
        if rows is None or len(rows) != len(players):
            return None
        for row, player in enumerate(players):
            if player._view_rows is not rows or player._view_row != row:
                return None
        return rows

    @staticmethod
    def set_view_rows(players: Sequence[Player], rows) -> None:
        """Each of `players`' view motion is now its row of `rows` (in their order), made when read."""
        for row, player in enumerate(players):
            player._view_motion = None
            player._view_rows = rows
            player._view_row = row

    @property
    def inventory_open(self) -> bool:
        """This player's creative inventory is open (a dead player's is closed)."""
        return self._inventory_open and not self.dead

    @inventory_open.setter
    def inventory_open(self, is_open: bool) -> None:
        if not isinstance(is_open, bool):
            raise TypeError(f"inventory_open is true or false, got {is_open!r}")
        self._inventory_open = is_open

    # --- a tick -------------------------------------------------------------------------------

    def take_input(self, event: Event, flying_allowed: bool = True) -> str | None:
        """The rules an input event (a key, a look, a click) follows for this player's own state, the
        same for the session and a network client's prediction (`game.net.prediction`):
        - dead: the inventory screen closes, and only a key release and RESPAWN_KEY are heard (`apply`);
        - the inventory screen open: the inventory key closes it, looks and releases apply, other
          presses and clicks move nothing: returns SCREEN_KEY for a press (the session hears the
          hotbar's and the HUD's keys there);
        - the fly key toggles flying only where `flying_allowed`;
        - otherwise the event applies (`apply`), and the inventory key opens the screen, releasing
          every held key (Minecraft's screens do); returns ACTION for a click or a press: what it
          does to the world, the hotbar and the toggles is the session's.
        Returns None when nothing is left for the session to do."""
        if self.dead:
            self.inventory_open = False  # a respawned player starts with it closed
            self.apply(event)
            return None
        bindings = self.input.bindings
        if self.inventory_open:
            if isinstance(event, KeyDown):
                if event.key not in bindings.inventory:
                    return SCREEN_KEY
                self.inventory_open = False
            elif not isinstance(event, Click):
                self.apply(event)
            return None
        if not flying_allowed and isinstance(event, KeyDown) and event.key in bindings.fly:
            self.input.apply(event)  # held (and released later) but no toggle: this game allows no flying
            return None
        self.apply(event)
        if isinstance(event, KeyDown) and bindings.slot_of(event.key) is None and event.key in bindings.inventory:
            self.inventory_open = True
            for key in sorted(self.input.held):
                self.apply(KeyUp(event.tick, key, player=self.name))
            return None
        return ACTION if isinstance(event, (Click, KeyDown)) else None

    def apply(self, event: Event) -> None:
        """Apply one input event at the start of tick `ticks_run` (keys and looks; what clicks and the
        game's keys do is the session's). While dead, only a key release (so no key stays held)
        and RESPAWN_KEY (which respawns) are heard."""
        if self.dead:
            if isinstance(event, KeyUp):
                self.input.apply(event)
            elif isinstance(event, KeyDown) and event.key == RESPAWN_KEY:
                self.respawn()
            return
        self.input.apply(event)
        if isinstance(event, KeyDown):
            if event.key in self.input.bindings.fly:
                self.flying = not self.flying
            elif event.key in self.input.bindings.forward:
                last = self._last_forward_press
                if last is not None and self.ticks_run - last <= DOUBLE_TAP_TICKS:
                    self.sprinting = True
                self._last_forward_press = self.ticks_run

    def intent(self) -> physics.Intent:
        """The intent for the coming tick; updates sprinting (it ends when forward is released or on sneaking)."""
        intent = self.input.intent()
        if intent.forward <= 0.0 or (intent.sneak and not self.flying):
            self.sprinting = False
        elif intent.sprint:
            self.sprinting = True
        made = self._intent
        if made is None or made[0] is not intent or made[1] != (self.sprinting, self.flying):
            made = self._intent = (intent, (self.sprinting, self.flying),
                                   replace(intent, sprint=self.sprinting, fly=self.flying))
        return made[2]

    def tick(self) -> physics.Body:
        """Advance one tick with the events applied so far; returns the new body."""
        return self.take_step(physics.step(self.body, self.world, self.intent(), self.settings, debug=self.sink))

    def take_step(self, stepped: physics.Body) -> physics.Body:
        """The rest of `tick` once the body has made its step (`stepped`: `physics.step` of the body
        with `intent()`, as `game.rules.player_steps` makes many players' at once): below the
        world, back at the spawn; returns the new body."""
        self.previous = self.body
        self.body = stepped
        if stepped.box[1] < FALL_RESPAWN_Y:  # the feet's y
            self.body = self.previous = self.spawn()
            self.respawns += 1
        self.ticks_run += 1
        return self.body

    def suffer(self, world, projectile_hits: Sequence[tuple[float, float]] = (), regenerates: bool = True) -> health.Outcome:
        """The tick's health rules (`health.advance`) for what the body met after its step (and the
        mobs' pushes) and the projectile hits at (x, z); a hit that counted in full knocks the body
        back from where the projectile was (`physics.knockback`). On dying, every held key is let
        go (the body stops walking). Returns what happened."""
        body = self.body
        box = body.box  # `eye`'s arithmetic, without its tuples
        outcome = self._exposure.outcome_at(
            self.vitals, body, world, (box[0] + box[3]) / 2.0, box[1] + EYE_HEIGHT - body.camera_lag,
            (box[2] + box[5]) / 2.0, projectile_hits, self.damage_enabled, regenerates)
        self.vitals = vitals = outcome.vitals
        self.damage_taken = outcome.damage
        for hit_x, hit_z in outcome.knocked_from:
            self.body = physics.knockback(self.body, hit_x, hit_z)
        if vitals.health <= 0:  # dead
            self.input.held.clear()
            self.sprinting = False
        return outcome

    def eye_fluid(self, world, eye: Sequence[float]) -> Material | None:
        """`health.eye_fluid` at `eye` (this player's `eye`) in `world`, reading the eye's cell from
        the blocks its health rules keep."""
        x, y, z = eye
        return self._exposure.eye_fluid(world, x, y, z)

    def heal(self, amount: int) -> None:
        """Health back by `amount` half hearts, up to full (Beta's `heal`: nothing for the dead)."""
        if not self.dead:
            self.vitals = replace(self.vitals, health=min(self.vitals.health + amount, health.MAX_HEALTH))

    def respawn(self) -> None:
        """Back at the spawn with full health and air, no fire, at rest (zero velocity and fall
        distance): beside its bed while that stands and has room (`beds.respawn_feet`), else at the
        world's spawn, and then the bed is forgotten and `bed_missing` set for the session to tell."""
        feet = None if self.bed is None else beds.respawn_feet(self.world, self.bed)
        if self.bed is not None and feet is None:
            self.bed, self.bed_missing = None, True
        self.body = self.previous = self.spawn() if feet is None else physics.Body.at_feet(*feet)
        self.vitals = Vitals()
        self.damage_taken = 0
        self.input.held.clear()
        self.sprinting = False
        self.respawns += 1

    # --- what is seen -------------------------------------------------------------------------

    @property
    def eye(self) -> tuple[float, float, float]:
        """[blocks] The eye at the latest tick (where building aims from)."""
        x, y, z = self.body.feet
        return (x, y + EYE_HEIGHT - self.body.camera_lag, z)

    def view(self, alpha: float) -> View:
        """The view `alpha` (0..1) of the way from the previous tick to the latest one."""
        box = AABB._trusted(*(blend(p, c, alpha) for p, c in zip(self.previous.box, self.body.box)))
        lag = blend(self.previous.camera_lag, self.body.camera_lag, alpha)
        eye = ((box[0] + box[3]) / 2.0, box[1] + EYE_HEIGHT - lag, (box[2] + box[5]) / 2.0)
        return View(eye, box, lag)

    # --- saving ---------------------------------------------------------------------------------

    def to_state(self, hotbar: Hotbar | None = None) -> dict:
        """The player and its hotbar (or `hotbar`) as JSON values for the world's saved player states
        (`World.set_player_state`; floats read back bit for bit)."""
        hotbar = self.hotbar if hotbar is None else hotbar
        body = self.body
        return {
            "version": PLAYER_STATE_VERSION,
            **body_fields(body),
            "yaw": self.input.yaw,
            "pitch": self.input.pitch,
            "flying": self.flying,
            "hotbar": hotbar.to_state(),
            **health.vitals_fields(self.vitals, self.damage_enabled),
            **({} if self.inventory is None else {"inventory": self.inventory.to_state()}),
            **({} if self.bed is None else {"bed": list(self.bed)}),
        }


_OWNER = "the saved player"


def saved_player(state: dict | None) -> SavedPlayer | None:
    """The player saved as `state` (from `World.player_state`), None for a world never played;
    PlayerStateError naming the field when the state cannot be used (any value at all, however
    damaged or deeply nested, gives one or the other).

    A finite yaw is read as the same direction in [0, 360) (the game saves it so); a pitch beyond
    +-MAX_PITCH, or an angle that is not a finite number, is refused. A state saved before the
    vitals existed loads with full health and damage on; vitals out of their ranges or of the
    wrong type are refused (`health.vitals_from_fields`)."""
    try:
        return _saved_player(state)
    except RecursionError:
        raise PlayerStateError("the saved player is nested too deeply to be a player state") from None


def _saved_player(state: object) -> SavedPlayer | None:
    if state is None:
        return None
    if not isinstance(state, dict):
        raise PlayerStateError(f"the saved player is {type(state).__name__}, not an object")
    version = state.get("version")
    if version != PLAYER_STATE_VERSION:
        raise PlayerStateError(f"the saved player has version {preview(version)}; this game reads "
                               f"{PLAYER_STATE_VERSION}")
    body = body_from_fields(state, _OWNER, PlayerStateError)
    (yaw,), (pitch,) = (numbers(state, name, None, _OWNER, PlayerStateError) for name in ("yaw", "pitch"))
    if not -MAX_PITCH <= pitch <= MAX_PITCH:
        raise PlayerStateError(f"the saved player's pitch must be within +-{MAX_PITCH:g} degrees, got {pitch!r}")
    try:
        hotbar = Hotbar.from_state(state.get("hotbar"))
    except HotbarStateError as error:
        raise PlayerStateError(f"the saved player's hotbar: {error}") from None
    vitals, damage_enabled = health.vitals_from_fields(state, _OWNER, PlayerStateError)
    inventory = None
    if "inventory" in state:
        try:
            inventory = PlayerInventory.from_state(state["inventory"])
        except PlayerInventoryStateError as error:
            raise PlayerStateError(f"the saved player's inventory: {error}") from None
    return SavedPlayer(body, wrap_yaw(yaw), pitch, flag(state, "flying", _OWNER, PlayerStateError), hotbar,
                       vitals, damage_enabled, inventory, _saved_bed(state.get("bed")))


def _saved_bed(value: object) -> tuple[int, int, int] | None:
    """A saved bed cell: None, or three whole numbers inside the world; PlayerStateError otherwise."""
    if value is None:
        return None
    if (isinstance(value, list) and len(value) == 3 and all(type(v) is int for v in value)
            and all(-WORLD_BORDER <= v < WORLD_BORDER for v in value[::2]) and 0 <= value[1] < WORLD_HEIGHT):
        return (value[0], value[1], value[2])
    raise PlayerStateError(f"the saved player's bed must be a cell [x, y, z] inside the world, got {preview(value)}")
