"""The other players in the game, drawn: each with the player model and a name tag over its head.

Owns: `OtherPlayerPose` (one other player as drawn in a frame: name, blended box, look, walk cycle,
held block), `other_player_poses` (the poses of every player but the local one, read from the
session's players, blended between ticks as the mobs are), `name_tag_height` (how tall a tag is
drawn at a distance) and `OtherPlayers`, which keeps one `PlayerModel` and one name tag per name
shown, places them every frame, makes them for a player who joined and removes them for one who
left.
Does not own: the model's look and pose (`game.window.render.player_model`: the same model F5 shows
of the local player), where a player is or how its walk cycle runs (`game.rules.player`,
`game.rules.view_bobbing`), the physics -> Ursina mapping (`game.window.render.space`).

A name tag is drawn as Beta's `RenderLiving.renderLivingLabel` draws it: white text on a quarter-
opaque black card, turned to face the camera, NAME_TAG_ABOVE_FEET over the feet, not drawn past
NAME_TAG_RANGE. Through walls it is drawn dimmed, as Beta does: one copy (card and dim text) is drawn
with no depth test, so it shows through blocks, and the text again at full brightness with the depth
test, so it is bright where nothing is in front of it. Beta's tag has a fixed size in the world and
so shrinks to a few pixels far away; here it keeps at least NAME_TAG_MIN_ANGLE of the view's height,
so a name stays readable at a distance.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from panda3d.core import NodePath, TextNode, TransparencyAttrib
from ursina import Entity, Text, destroy

from . import space
from .player_model import PlayerModel

NAME_TAG_ABOVE_FEET = 2.3
"""[blocks] Beta's renderLivingLabel draws a player's name this far above its feet (y + 2.3F)."""
NAME_TAG_RANGE = 64.0
"""[blocks] Beta's RenderPlayer draws the names of players closer than this (renderLivingLabel's 64)."""
NAME_TAG_TEXT_HEIGHT = 8.0 * 0.016666668 * 1.6
"""[blocks] Height of a tag's line in the world up close: Beta's 8-pixel font line times its label
scale (0.016666668F x 1.6F)."""
NAME_TAG_MIN_ANGLE = 0.045
"""[radians] A tag's line is drawn at least this tall as seen from the camera (about 26 pixels of a
720-pixel window at the default 70-degree field of view, 13 of a 360-pixel one), so a far name stays
readable instead of shrinking away (Beta's fixed size falls below it about 4.7 blocks away)."""
NAME_TAG_CARD_RGBA = (0.0, 0.0, 0.0, 0.25)
"""Beta's label background: black at a quarter opacity."""
NAME_TAG_CARD_MARGIN = 0.15
"""[text line heights] The card reaches this far past the text on every side (Beta: one pixel of eight)."""
NAME_TAG_DIM_ALPHA = 0x20 / 255.0
"""Beta draws the text behind walls with colour 0x20FFFFFF: white at an eighth opacity."""
NAME_TAG_BIN = "fixed"
"""Panda3D's cull bin drawn after the world's opaque and blended passes: a tag is drawn over what is
already there (the dim copy through walls, the bright copy where the depth test lets it)."""
DIM_SORT, BRIGHT_SORT = 40, 41
"""Within NAME_TAG_BIN, the dim copy first, the bright copy over it."""


@dataclass(frozen=True, slots=True)
class OtherPlayerPose:
    """One other player as drawn in one frame (plain values: `OtherPlayers` imports no game logic)."""

    name: str
    """The player's name (the tag's text and its key: a player keeps its model from frame to frame)."""
    box: tuple[float, float, float, float, float, float]
    """[blocks] The box blended between the last two ticks (physics coordinates, min x, y, z, max x, y, z)."""
    yaw: float
    """[degrees] Where the player looks (Minecraft's yaw): the body turns to it."""
    pitch: float
    """[degrees] The look's pitch (positive down): the head tilts to it."""
    limbs: tuple[float, float]
    """(phase, size) of the walk cycle, blended (`ViewMotion.limbs`)."""
    held: str | None
    """The block in the right hand (None: empty)."""


def other_player_poses(players: Mapping[str, object], local_name: str, alpha: float) -> list[OtherPlayerPose]:
    """The pose of every player in `players` (name -> `game.rules.player.Player`, as `Session.players`)
    except `local_name`, in their order, `alpha` (0..1) of the way from the previous tick to the
    latest: the box as `Player.view` blends it, the latest look (the look changes at ticks, as the
    local model's does), the walk cycle and held block of its `view_motion`."""
    poses = []
    for name, player in players.items():
        if name == local_name:
            continue
        motion = player.view_motion
        poses.append(OtherPlayerPose(name, tuple(player.view(alpha).box), player.input.yaw, player.input.pitch,
                                     motion.limbs(alpha), motion.shown))
    return poses


def name_tag_height(distance: float, fov_degrees: float) -> float:
    """[blocks] How tall a tag's line is drawn `distance` blocks from the camera with a vertical field
    of view of `fov_degrees`: Beta's NAME_TAG_TEXT_HEIGHT, or NAME_TAG_MIN_ANGLE of the view where that
    would be smaller. ValueError for a negative or non-finite distance or a field of view outside (0, 180)."""
    if not (math.isfinite(distance) and distance >= 0.0):
        raise ValueError(f"distance must be finite and not negative, got {distance!r}")
    if not (math.isfinite(fov_degrees) and 0.0 < fov_degrees < 180.0):
        raise ValueError(f"the field of view must be between 0 and 180 degrees, got {fov_degrees!r}")
    return max(NAME_TAG_TEXT_HEIGHT, distance * math.tan(NAME_TAG_MIN_ANGLE / 2.0) * 2.0)


def _text_node(name: str, font, *, card: bool, alpha: float) -> TextNode:
    node = TextNode(f"name tag {name}")
    if font is not None:
        node.set_font(font)
    node.set_text(name)
    node.set_align(TextNode.A_center)
    node.set_text_color(1.0, 1.0, 1.0, alpha)
    if card:
        node.set_card_color(*NAME_TAG_CARD_RGBA)
        node.set_card_as_margin(NAME_TAG_CARD_MARGIN, NAME_TAG_CARD_MARGIN, NAME_TAG_CARD_MARGIN, NAME_TAG_CARD_MARGIN)
    return node


class NameTag:
    """One player's name over its head: a node facing the camera with the dim copy (card and text, no
    depth test) and the bright copy (text, depth tested) under it."""

    def __init__(self, parent: NodePath, name: str, font) -> None:
        self.name = name
        self.root = parent.attach_new_node(f"name tag {name}")
        self.root.set_billboard_point_eye()
        self.root.set_light_off(1)
        self.root.set_fog_off(1)
        self.root.set_transparency(TransparencyAttrib.M_alpha, 1)
        self.root.set_depth_write(False, 1)
        dim = self.root.attach_new_node(_text_node(name, font, card=True, alpha=NAME_TAG_DIM_ALPHA))
        dim.set_depth_test(False, 1)
        dim.set_bin(NAME_TAG_BIN, DIM_SORT, 1)
        bright = self.root.attach_new_node(_text_node(name, font, card=False, alpha=1.0))
        bright.set_bin(NAME_TAG_BIN, BRIGHT_SORT, 1)
        self.copies = (dim, bright)

    def place(self, feet: tuple[float, float, float], camera_at: Sequence[float], fov_degrees: float) -> bool:
        """Stand the tag over `feet` (physics coordinates), sized for its distance from `camera_at`
        (Ursina coordinates); hidden (False returned) past NAME_TAG_RANGE."""
        x, y, z = space.point(feet[0], feet[1] + NAME_TAG_ABOVE_FEET, feet[2])
        distance = math.dist((x, y, z), tuple(camera_at))
        if distance >= NAME_TAG_RANGE:
            self.root.hide()
            return False
        self.root.show()
        self.root.set_pos(x, y, z)
        self.root.set_scale(name_tag_height(distance, fov_degrees))
        return True

    def remove(self) -> None:
        self.root.remove_node()


class OtherPlayers(Entity):
    """Every other player on screen; call `show` once per frame with the frame's poses.

    `texture`: the block atlas for held blocks (the chunk renderer's, so it is loaded once)."""

    def __init__(self, texture=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._atlas = texture
        self.models: dict[str, PlayerModel] = {}
        """Player name -> its model."""
        self.name_tags: dict[str, NameTag] = {}
        """Player name -> its name tag."""
        self._tag_node = self.attachNewNode("name tags")
        """Parent of the tags: a plain node, so Ursina keeps no list of them."""
        self._font = builtins.loader.loadFont(Text.default_font)
        self.destroyed = False

    @property
    def shown_tags(self) -> list[str]:
        """The names whose tags are drawn this frame (in range), in the order the poses came."""
        return [name for name, tag in self.name_tags.items() if not tag.root.is_hidden()]

    def show(self, poses: Sequence[OtherPlayerPose], camera_at: Sequence[float], fov_degrees: float) -> None:
        """Place the model and tag of each pose; make them for new names, remove those of names not given.
        `camera_at`: the camera's position (Ursina coordinates); `fov_degrees`: its vertical field of view."""
        for pose in poses:
            model = self.models.get(pose.name)
            if model is None:
                model = self.models[pose.name] = PlayerModel(texture=self._atlas, parent=self)
                self.name_tags[pose.name] = NameTag(self._tag_node, pose.name, self._font)
            model.show(pose.box, pose.yaw, pose.pitch, pose.limbs, held=pose.held)
            box = pose.box
            self.name_tags[pose.name].place(((box[0] + box[3]) / 2.0, box[1], (box[2] + box[5]) / 2.0), camera_at,
                                       fov_degrees)
        if len(self.models) != len(poses):  # every name given has a model now: more models means some left
            shown = {pose.name for pose in poses}
            for name in [n for n in self.models if n not in shown]:
                self.models.pop(name).destroy()
                self.name_tags.pop(name).remove()

    def destroy(self) -> None:
        """Remove every model and tag (when the world is left); a second call does nothing."""
        if self.destroyed:
            return
        self.destroyed = True
        for model in self.models.values():
            model.destroy()
        for tag in self.name_tags.values():
            tag.remove()
        self.models.clear()
        self.name_tags.clear()
        destroy(self)
