"""What a player's input does to the game: the input rules of a `Session`, player by player.

Owns: `PlayerActions`, which applies each event for the player it is for (`apply`: keys, clicks, the
screens' clicks, chat, and the settings the pause menu sends), works out what each player's look ray
targets (`target`, keeping each ray's reads between ticks), digs for every player holding the attack
button (`dig_all`, the tick's step 2), and breaks, places and uses blocks, punches mobs and lies down
in beds; the blocks broken, kept for a front end's particles (`take_broken_blocks`); `wake_up`; and
`SessionView`, what these rules see of the session.
Does not own: the players, the world, the mobs, the sounds or the tick order (the `Session` it acts
on, `game.rules.session`), nor the rules it calls on (`mining`, `targeting`, `placement_rules`,
`beds`, `doors`, `survival`, `hotbar`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Protocol

import physics
from physics.materials import Material

from . import beds
from .block_entities import BlockEntities
from .controls import KeyBindings
from .doors import toggle_door
from .game_world import GameWorld
from .hotbar import holdable
from .inventory import CATALOGUE, put_in_slot
from .items import attack_damage
from .mining import dig_strength
from .mobs import MobManager
from .player import ACTION, SCREEN_KEY, Player
from .projectiles import Projectiles
from .reach import DIG_REACH_BLOCKS, PLACE_REACH_BLOCKS, within_reach
from .replay import (DEGREES_PER_TURN, Chat, Click, DropHeld, Event, KeyDown, PutInSlot, Release, SetDayTime,
                     SetPeaceful, SlotClick, wrap_yaw)
from .sounds import BREAK, PLACE, SoundRules
from .survival import Survival, has_block_entity
from .targeting import (KeptSelection, MobBoxes, MobTarget, SelectedBoxes, Target, aimed_block, break_block, find_mob,
                        find_target, place_against)
from .tick_changes import SoundLog
from ..world.blocks import block_id

CHAT_NOTICE = "<{name}> {text}"
"""A line of chat (`Chat`) as every player is told it: Beta's `<name> text`."""

MOB_BOXES_FROM = 16
"""[mobs] From this many mobs on, a tick's diggers look for a mob in front of their targets among
the mobs' boxes ordered once for all of them (`targeting.MobBoxes`); with fewer, each scans them all."""

MAX_PENDING_BROKEN = 64
"""[blocks] The broken blocks kept for a front end's particles (`take_broken_blocks`): a tick breaks
at most a few; a headless run never takes them, so only the latest this many are kept."""


@dataclass(frozen=True, slots=True)
class BrokenBlock:
    """A block the player broke: where, and what it was (the window's break particles show it)."""

    cell: tuple[int, int, int]
    block: str


class SessionView(Protocol):
    """What the input rules read and change of the game they act on: `game.rules.session.Session`,
    which hands itself to its `PlayerActions` (declared here, so that this module needs no import of
    the session's)."""

    world: GameWorld
    survival: Survival | None
    mobs: MobManager
    projectiles: Projectiles
    block_entities: BlockEntities
    sounds: SoundLog
    sound_rules: SoundRules
    edited_cells: set[tuple[int, int, int]]
    bindings: KeyBindings
    flying_allowed: bool

    @property
    def players(self) -> Mapping[str, Player]: ...

    @property
    def day_time(self) -> int: ...

    def target(self, player: Player | None = None) -> Target | None: ...

    def bodies(self) -> list[physics.Body]: ...

    def notify(self, message: str, player: str | None = None) -> None: ...

    def set_day_time(self, ticks: int) -> None: ...


class PlayerActions:
    """The input rules of `session`, for each of its players (see the module docstring)."""

    def __init__(self, session: SessionView) -> None:
        self._session = session
        self._looks: dict[str, tuple[SelectedBoxes, KeptSelection]] = {}
        """Each player's look ray's kept reads (`targeting.SelectedBoxes`, `targeting.KeptSelection`):
        the boxes of its target and along its ray, read again only where a block changed."""
        self.broken_blocks: deque[BrokenBlock] = deque(maxlen=MAX_PENDING_BROKEN)
        """The blocks broken since a front end last took them (`take_broken_blocks`), oldest first."""

    def forget(self, name: str) -> None:
        """Drop what the look ray of the player `name` kept (it left the game)."""
        self._looks.pop(name, None)

    def target(self, player: Player) -> Target | None:
        """The block `player` looks at from the eye at the latest tick: what `Session.target` gives,
        which the rules here ask for (building acts on it)."""
        looks = self._looks_of(player)
        return find_target(self._session.world, player.eye, player.input.yaw, player.input.pitch,
                           selected=looks[0], kept=looks[1])

    def _looks_of(self, player: Player) -> tuple[SelectedBoxes, KeptSelection]:
        """What `player`'s look ray keeps between ticks (`targeting.SelectedBoxes`, `KeptSelection`)."""
        looks = self._looks.get(player.name)
        if looks is None:
            looks = self._looks[player.name] = (SelectedBoxes(), KeptSelection())
        return looks

    def apply(self, event: Event, who: Player) -> None:
        """Apply one event (checked by `Session.apply`) for the player `who` before the next tick: an
        input, or a game change the window's menus send (`SetDayTime`, `SetPeaceful`: heard whatever
        the player is doing)."""
        session = self._session
        if isinstance(event, SetDayTime):  # the game's settings (the pause menu's): heard always
            session.set_day_time(event.day_time)
            return
        if isinstance(event, SetPeaceful):
            who.damage_enabled = not event.peaceful
            return
        if isinstance(event, Chat):  # said whatever the player is doing; every player is told
            session.notify(CHAT_NOTICE.format(name=who.name, text=event.text))
            return
        if isinstance(event, Release):  # heard always (dead, a screen open), so no button stays down
            if event.button == "left":
                who.mining.release()
            return
        if isinstance(event, PutInSlot):
            if who.inventory_open and session.survival is None:  # the creative screen's move
                put_in_slot(who.hotbar, event.slot, event.block)
            return
        if isinstance(event, SlotClick):  # the survival screen's click (nothing with no screen open)
            if session.survival is not None:
                session.survival.click(who, event.slot, event.button, event.shift)
            return
        if isinstance(event, DropHeld):
            if session.survival is not None and not who.inventory_open:
                session.survival.drop_held(who, event.whole_stack)
            return
        was_open = who.inventory_open
        outcome = who.take_input(event, session.flying_allowed)  # the player's own rules (dead, screen, flying)
        if session.survival is not None and who.inventory_open != was_open:
            self._sync_screen(who)
        if who.sleeping_ticks and isinstance(event, KeyDown) and session.bindings.moves(event.key):
            wake_up(who)  # a movement key leaves the bed (Beta's "Leave Bed")
        if who.bed_missing:  # the respawn found no bed
            who.bed_missing = False
            session.notify(beds.NOTICE_BED_MISSING, player=who.name)
        if outcome == SCREEN_KEY:
            # With the inventory screen open the player does not act, as in Minecraft: clicks belong
            # to the screen (which sends `PutInSlot`); of the presses, the digits (choosing the slot)
            # and the HUD, screenshot and overlay keys are heard.
            bindings = session.bindings
            if bindings.slot_of(event.key) is not None or event.key in (
                    bindings.toggle_hud | bindings.screenshot | bindings.debug_overlay | bindings.overlay_boxes):
                self._key_down(who, event.key)
        elif outcome == ACTION:
            if isinstance(event, Click):
                self._build(who, event.button)
            else:
                self._key_down(who, event.key)

    def _sync_screen(self, player: Player) -> None:
        """The inventory key (or death) opened or closed a survival player's screen: make or close it."""
        session = self._session
        if player.inventory_open and player.screen is None:
            session.survival.open_inventory(player)
        elif not player.inventory_open and player.screen is not None:
            session.survival.close_screen(player)

    def _key_down(self, player: Player, key: str) -> None:
        session = self._session
        bindings, toggles = session.bindings, player.toggles
        slot = bindings.slot_of(key)
        if slot is not None:
            player.hotbar.select(slot)
            if player.inventory is not None:
                player.inventory.select(slot)
        elif key in bindings.debug_overlay:
            # F3 opens the whole overlay (panel and boxes) unless its panel is up, which it closes
            # with the boxes: after B alone, F3 adds the panel instead of hiding the boxes.
            shown = not toggles.overlay_panel
            player.toggles = replace(toggles, overlay_panel=shown, overlay_boxes=shown)
        elif key in bindings.overlay_boxes:
            player.toggles = replace(toggles, overlay_boxes=not toggles.overlay_boxes)
        elif key in bindings.toggle_hud:
            player.toggles = replace(toggles, hud_visible=not toggles.hud_visible)
        elif key in bindings.third_person:
            player.toggles = replace(toggles, third_person=not toggles.third_person)
        elif key in bindings.screenshot:
            player.screenshot_requests += 1
        elif key in bindings.spawn_mob:
            facing_you = wrap_yaw(player.input.yaw + DEGREES_PER_TURN / 2)
            session.mobs.spawn_at_target(session.target(player), facing_you, [p.body for p in session.players.values()])
        elif key in bindings.throw:
            if session.survival is not None:  # Q drops one of the held item, as Beta's
                session.survival.drop_held(player)
            else:  # creative keeps the test projectile
                session.projectiles.throw(player.eye, player.input.yaw, player.input.pitch)

    def _build(self, player: Player, button: str) -> None:
        """A click: break (or start digging), use or place against, or pick the block targeted from
        the eye at the latest tick. A mob in front of that block takes the click instead: a left
        click punches it (`_punch`), the other buttons do nothing (nothing is built through a mob).

        A left click swings the arm and presses the attack button: it starts digging the target
        (`game.rules.mining`: Beta's break times, the block breaks in a later tick), except in a
        creative game with damage off (peaceful), where it breaks the target at once. A right
        click uses the block first (`_use_block`: a door opens or shuts, a bed is slept in, a
        survival screen opens), else places the held block against it; a survival player with
        nothing placed then uses the held item (eats)."""
        session = self._session
        target = session.target(player)
        mining = player.mining
        if button == "left":
            mining.swing()
        mob = self._mob_before(player, None if target is None else target.distance)
        if not self._breaks_at_once(player) and button == "left":
            mining.press(None if mob is not None or target is None else tuple(target.block))
        if mob is not None:
            if button == "left":
                self._punch(player, mob)
            return
        if target is None or not within_reach(player.eye, target.block,
                                              DIG_REACH_BLOCKS if button == "left" else PLACE_REACH_BLOCKS):
            if button == "right" and target is None and session.survival is not None:
                session.survival.use_item(player)
            return  # beyond Beta's server reach (never from the look ray: see game.rules.reach)
        if button == "left":
            if self._breaks_at_once(player):
                self._break(target, player)
        elif button == "right":
            if self._use_block(player, tuple(target.block)):
                mining.swing()
                return
            block = player.hotbar.selected_block if session.survival is None else session.survival.placed_block(player)
            cell = None if block is None else place_against(session.world, target, block, session.bodies(),
                                                              player.input.yaw)
            if cell is not None:
                mining.swing()
                session.edited_cells.add(tuple(cell))
                placed = session.world.get_block(*cell)
                if has_block_entity(placed):
                    session.block_entities.on_block_placed(tuple(cell), placed)
                if session.survival is not None:
                    session.survival.on_placed(player)
                session.sounds.extend(session.sound_rules.block_edited(PLACE, placed, cell))
            elif session.survival is not None:
                session.survival.use_item(player)
        elif session.survival is None and holdable(name := session.world.get_block(*target.block)):
            player.hotbar.pick(CATALOGUE.held_block(name))  # a stair of any facing: the stairs entry

    def _breaks_at_once(self, player: Player) -> bool:
        """A left click breaks the target at once (no digging): a creative game in peaceful, as
        Minecraft's creative mode; survival always digs."""
        return self._session.survival is None and not player.damage_enabled

    def _use_block(self, player: Player, cell: tuple[int, int, int]) -> bool:
        """Right click on the block at `cell` acts on it (Beta's `blockActivated`), in Beta's order
        before placing: a door opens or shuts (`game.rules.doors`), a bed is slept in
        (`game.rules.beds`), and in survival a crafting table, chest or furnace opens its screen.
        True when the block acted."""
        session = self._session
        if toggle_door(session.world, cell):
            session.edited_cells.add(cell)
            return True
        foot = beds.foot_of(session.world, cell)
        if foot is not None:
            self._lie_down(player, foot)
            return True
        return session.survival is not None and session.survival.use_block(player, cell, session.world.get_block(*cell))

    def _lie_down(self, player: Player, foot: tuple[int, int, int]) -> None:
        """`player` tries the bed whose foot is `foot` (`game.rules.beds.lie_down`): asleep on it, or
        told why not."""
        session = self._session
        occupied = any(other.sleeping_ticks and other.bed == foot for other in session.players.values())
        refused = beds.lie_down(session.world, player.body.feet, foot, session.day_time, occupied)
        if refused is not None:
            session.notify(refused, player=player.name)
            return
        player.input.held.clear()
        player.sprinting = False
        player.body = player.previous = physics.Body.at_feet(*beds.bed_feet(foot))
        player.sleeping_at = foot
        player.sleeping_ticks = 1

    def _mob_before(self, player: Player, distance: float | None, mobs: MobBoxes | None = None) -> MobTarget | None:
        """The mob `player`'s look ray meets before the block it targets at `distance` along the ray
        (None: no block targeted), None if none; `mobs`: the mobs' boxes ordered for many rays
        (`dig_all`), the same answer."""
        session = self._session
        if mobs is not None:  # only the mobs the ray may meet before the block (`MobBoxes.find_mob`'s `before`)
            return mobs.find_mob(player.eye, player.input.yaw, player.input.pitch, before=distance)
        mob = find_mob(player.eye, player.input.yaw, player.input.pitch, [body.box for body in session.mobs.bodies])
        return mob if mob is not None and (distance is None or mob.distance < distance) else None

    def _break(self, target: Target, player: Player) -> None:
        """`player` breaks the targeted block (not bedrock): its sound, the edit, the broken block
        for the window; in survival its drops and the tool's wear (`game.rules.survival`); a furnace's
        or chest's contents fall out in survival and are gone in creative."""
        session = self._session
        broken = session.world.get_block(*target.block)
        if break_block(session.world, target):
            cell = tuple(target.block)
            session.edited_cells.add(cell)
            session.sounds.extend(session.sound_rules.block_edited(BREAK, broken, cell))
            self.broken_blocks.append(BrokenBlock(cell, broken))
            if session.survival is not None:
                session.survival.on_broken(player, cell, block_id(broken))
            elif has_block_entity(broken):
                session.block_entities.on_block_removed(cell)

    def dig_all(self, players: list[Player]) -> None:
        """Step 2, every player's digging in join order (`_dig`); the mobs' boxes are ordered once
        for all the diggers (`targeting.MobBoxes`) when there are MOB_BOXES_FROM mobs or more
        (no digging moves a mob)."""
        session = self._session
        mobs = None
        for player in players:
            if mobs is None and player.mining.held and len(session.mobs) >= MOB_BOXES_FROM:
                mobs = MobBoxes(body.box for body in session.mobs.bodies)
            self._dig(player, mobs)

    def _dig(self, player: Player, mobs: MobBoxes | None = None) -> None:
        """`player`'s digging this tick (`game.rules.mining`) while its attack button is held: the block
        targeted (none behind a mob), by its strength for the player now (in water, off the ground).
        `mobs`: the mobs' boxes ordered for many rays (`dig_all`), or None to scan them all."""
        session = self._session
        mining = player.mining
        if not mining.held or self._breaks_at_once(player):  # creative's peaceful breaks on the click itself
            mining.tick(None, 0.0)
            return
        eye = player.eye
        # The target's block and distance alone (`targeting.aimed_block`: `session.target(player)`'s):
        # the whole target is made only for a block broken.
        aimed = aimed_block(session.world, eye, player.input.yaw, player.input.pitch, self._looks_of(player)[1])
        if aimed is not None and self._mob_before(player, aimed[1], mobs) is not None:
            aimed = None
        strength = 0.0
        if aimed is not None:
            block = session.world.id_at(*aimed[0])  # `block_id(get_block(...))`, without the name between
            in_water = player.eye_fluid(session.world, eye) == Material.WATER
            on_ground = player.body.on_ground or player.flying
            strength = (dig_strength(block, in_water=in_water, on_ground=on_ground) if session.survival is None
                        else session.survival.dig_strength(player, block, in_water, on_ground))
        done = mining.tick(None if aimed is None else aimed[0], strength,
                           can_act=not player.dead and not player.inventory_open)
        if done.sound is not None:
            session.sounds.extend(session.sound_rules.digging(session.world.get_block(*done.sound), done.sound))
        if done.broken is not None and within_reach(eye, aimed[0], DIG_REACH_BLOCKS):
            self._break(session.target(player), player)  # the same ray: nothing changed since

    def take_broken_blocks(self) -> list[BrokenBlock]:
        """The blocks broken since the last call, oldest first (the window's break particles)."""
        taken = list(self.broken_blocks)
        self.broken_blocks.clear()
        return taken

    def _punch(self, player: Player, mob: MobTarget) -> None:
        """`player` hits mob `mob.index`: a Beta creature takes the held item's damage (Beta's
        `getDamageVsEntity`; a sheep gives its wool) and is knocked back when the hit counts; a
        boxling only takes Beta's knock-back (`physics.knockback`) away from the player's feet,
        added to the mob's velocity as the change it makes."""
        session = self._session
        body = session.mobs.bodies[mob.index]
        x, _, z = player.body.feet
        creatures = session.mobs.creatures
        if creatures is not None and session.mobs.lives[mob.index] is not None:
            held = None if session.survival is None else session.survival.held(player)
            damage = attack_damage(None if held is None else held.item)
            creatures.hurt(mob.index, damage, (x, z), list(session.players).index(player.name), by_player=True)
            if session.survival is not None:
                session.survival.on_hit(player)
            return
        knocked = physics.knockback(body, x, z)
        session.mobs.knock_back(mob.index, tuple(after - before for after, before in zip(knocked.velocity, body.velocity)))
        session.sounds.extend(session.sound_rules.mob_hurt(body))
        if session.survival is not None:
            session.survival.on_hit(player)


def wake_up(player: Player, home: bool = False) -> None:
    """`player` gets up; `home`: after a night slept through, its bed becomes its spawn (Beta's
    `wakeUpPlayer(..., setSpawn=true)`)."""
    if home and player.sleeping_at is not None:
        player.bed = player.sleeping_at
    player.sleeping_ticks = 0
    player.sleeping_at = None
