"""The in-game HUD: the crosshair, the hotbar row of block icons, the hearts and air bubbles, and
the selected block's name.

Owns: drawing those on `camera.ui`, the icon texture (`assets/textures/icons.png`, cut by
`atlas.icon_uv_rect`), the heart and bubble pictures (drawn here as pixel art: HEART_PIXELS,
BUBBLE_PIXELS), showing a `Hotbar`'s slots and selection and a player's `health.Vitals`, and
hiding it all (F1).
Does not own: the hotbar's contents or selection rules (`game.rules.hotbar`), health and air
(`game.rules.health`), key handling (the session keeps the selection and the F1 toggle; the window
calls `show_hotbar` and `show_vitals` and sets `visible`), the target outline
(`target_outline.py`) or the hurt flash and underwater tint (`screen_effects.py`).

Layout (window heights): the hotbar is a row of SLOT_COUNT square slots centred at the bottom,
the selected slot framed in white; above its left half a row of HEART_COUNT hearts (one per
2 health, a half heart for an odd one, empty ones dark), and above the hearts a row of air
bubbles while the air is not full (one per BUBBLE_AIR ticks of air begun, as Beta draws them);
the block's name appears above those rows for NAME_TICKS game ticks after the selection changes, then
fades; the crosshair sits at the window's centre, hidden while a menu or screen is open over the
game (`show_paused`, which the window calls for the pause menu, the inventory and the death screen:
a cross over a menu's buttons reads as a pointer that is not there). The hearts appear with the
first `show_vitals`.

Fitting the window: the constants below are the layout in a window wide enough for the hotbar
(HOTBAR_WIDTH plus the window margins; 16:9 and most landscape windows). In a narrower window
(portrait, or small and square) the hotbar, hearts, bubbles, block name and notice shrink together
by `hud_layout(aspect_ratio).scale`, kept at the window's bottom (the notice at NOTICE_Y); the
crosshair keeps its size. The HUD looks at the window's aspect ratio every frame and lays itself
out again only when it changed (a resize).
"""

from __future__ import annotations

import time  # Ursina writes each frame's duration to the standard time module as time.dt
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from ursina import Entity, Text, Texture, camera, color, window

from ...rules.health import MAX_AIR, MAX_HEALTH, Vitals
from ...rules.hotbar import SLOT_COUNT, Hotbar
from . import style
from ...world import atlas
from ...world.blocks import block_id

ICONS_PATH = Path(__file__).resolve().parents[3] / atlas.ICONS_FILE

SLOT_SIZE = 0.078
"""[window heights] Edge of one hotbar slot (56 px in a 720 px window)."""
SLOT_GAP = 0.004
"""[window heights] Space between neighbouring slots."""
SLOT_BORDER = 0.003
"""[window heights] Width of a slot's thin frame (2 px at 720 px)."""
ICON_SIZE = 0.066
"""[window heights] Edge of a block icon inside its slot."""
SELECTION_SIZE = SLOT_SIZE + 2 * SLOT_GAP
"""[window heights] The selected slot's white frame: the slot plus the gap around it."""
SELECTION_BORDER = 0.005
HOTBAR_MARGIN = 0.012
"""[window heights] From the window's bottom edge to the selection frame."""
HOTBAR_Y = -0.5 + HOTBAR_MARGIN + SELECTION_SIZE / 2
"""[window heights] Centre line of the hotbar row."""
HEART_SIZE = 0.03
"""[window heights] Edge of one heart or bubble (9 art pixels, 22 screen pixels at 720 px)."""
HEART_STEP = 0.032
"""[window heights] From one heart's centre to the next (and from the hearts' row to the bubbles')."""
HEART_COUNT = MAX_HEALTH // 2
"""Hearts in the row: one per 2 health."""
BUBBLE_AIR = MAX_AIR // 10
"""[ticks] Air per bubble: 10 bubbles at full air (Beta)."""
VITALS_GAP = 0.008
"""[window heights] From the top of the selection frame to the bottom of the hearts."""
HEARTS_Y = HOTBAR_Y + SELECTION_SIZE / 2 + VITALS_GAP + HEART_SIZE / 2
"""[window heights] Centre line of the hearts."""
BUBBLES_Y = HEARTS_Y + HEART_STEP
"""[window heights] Centre line of the air bubbles, right above the hearts."""
HEARTS_X = -(SLOT_COUNT / 2) * (SLOT_SIZE + SLOT_GAP) + SLOT_GAP / 2 + HEART_SIZE / 2
"""[window heights] Centre x of the first heart and bubble: the rows start at the hotbar's left edge."""
NAME_GAP = VITALS_GAP + HEART_SIZE / 2 + 2 * HEART_STEP
"""[window heights] From the top of the hotbar row to the centre of the block name: above the
hearts and the bubbles."""
NAME_LINE_HEIGHT = 0.03
"""[window heights] Room the block name's one line takes: Ursina's default text is 0.025 tall,
and a name's descenders reach a little below it."""
NAME_Y = HOTBAR_Y + SELECTION_SIZE / 2 + NAME_GAP
"""[window heights] Centre line of the block name at full size."""
HUD_TOP = NAME_Y + NAME_LINE_HEIGHT / 2
"""[window heights] The top of the HUD's bottom rows at full size (the block name's line, above
the hotbar, hearts and bubbles): a menu drawn over the game keeps above it (`pause_menu`)."""

HOTBAR_WIDTH = SLOT_COUNT * (SLOT_SIZE + SLOT_GAP) + SLOT_GAP
"""[window heights] The hotbar row from the left edge of the leftmost slot's selection frame to the
right edge of the rightmost one (the widest part of the HUD: the hearts start at its left edge,
the block name and a notice are narrower)."""
WINDOW_BOTTOM = -0.5
"""[window heights] The window's bottom edge on `camera.ui`: the hotbar shrinks towards it."""

CROSSHAIR_LENGTH = 0.028
"""[window heights] Length of each crosshair arm, end to end."""
CROSSHAIR_WIDTH = 0.004
"""[window heights] Thickness of the arms (3 px at 720 px)."""
CROSSHAIR_OUTLINE = 0.0015
"""[window heights] Dark edge around the arms, so the white cross reads against snow and sky."""
CROSSHAIR_COLOR = color.rgba(1.0, 1.0, 1.0, 0.92)
CROSSHAIR_OUTLINE_COLOR = color.rgba(0.0, 0.0, 0.0, 0.5)

NAME_TICKS = 40
"""[ticks] How long the selected block's name stays after the selection changes, fading over the last
NAME_FADE_TICKS (Minecraft's 2 s highlight timer). Counted in game ticks, not wall time, so a replay
shows the same name at the same tick however fast the machine draws (scripted screenshots agree)."""
NAME_FADE_TICKS = 10
"""[ticks] The block name fades out over its last half second."""
NOTICE_SECONDS = 8.0
"""[s] How long a notice (a failed save, a damaged column) stays on screen: long enough to read two lines."""
NOTICE_WRAP_CHARACTERS = 60
"""[characters] Line length of a notice: two lines of a failed-save message fit across the middle."""
NOTICE_Y = 0.38
"""[screen units] Height of the notice line: near the top, clear of the crosshair and the F3 panel's first lines."""
FADE_SECONDS = 0.5
"""[s] A notice fades out over its last half second."""


HEART_PIXELS = (
    ".kk...kk.",
    "kwrk.krrk",
    "kwrrkrrrk",
    "krrrrrrrk",
    ".krrrrrk.",
    "..krrrk..",
    "...krk...",
    "....k....",
    ".........",
)
"""A heart as 9 x 9 art pixels: k outline, r red, w highlight, . clear."""
BUBBLE_PIXELS = (
    "..kkkkk..",
    ".kbbbbbk.",
    "kbwbbbbbk",
    "kbwbbbbbk",
    "kbbbbbbbk",
    "kbbbbbbbk",
    "kbbbbbbbk",
    ".kbbbbbk.",
    "..kkkkk..",
)
"""An air bubble as 9 x 9 art pixels: k outline, b blue, w highlight, . clear."""
PIXEL_COLORS = {
    "k": (24, 8, 8, 255), "r": (214, 28, 28, 255), "w": (255, 214, 214, 255),
    "b": (96, 160, 255, 255), "e": (52, 22, 22, 230), ".": (0, 0, 0, 0),
}
"""RGBA of each art pixel letter; "e" is the dark fill of an empty heart (where "r" and "w" are)."""


def pixel_art(rows: tuple[str, ...], filled_columns: int | None = None) -> Image.Image:
    """`rows` as an RGBA image; columns at or right of `filled_columns` have their fill drawn empty
    ("e"), for an empty (0) or half (filled_columns 5) heart."""
    image = Image.new("RGBA", (len(rows[0]), len(rows)))
    for y, row in enumerate(rows):
        for x, letter in enumerate(row):
            if filled_columns is not None and x >= filled_columns and letter in "rw":
                letter = "e"
            image.putpixel((x, y), PIXEL_COLORS[letter])
    return image


def heart_states(health: int) -> list[str]:
    """Each heart left to right for `health` half hearts: "full", "half" or "empty"."""
    return ["full" if health >= 2 * (i + 1) else "half" if health == 2 * i + 1 else "empty"
            for i in range(HEART_COUNT)]


def bubble_count(air: int) -> int:
    """Bubbles shown for `air` ticks: none at full air (out of water), else one per BUBBLE_AIR
    ticks begun (Beta rounds up), none once the air is gone."""
    if air >= MAX_AIR or air <= 0:
        return 0
    return -(-air // BUBBLE_AIR)


def slot_x(index: int) -> float:
    """[window heights] Centre x of hotbar slot `index` (slot 0 leftmost), at full size."""
    return (index - (SLOT_COUNT - 1) / 2) * (SLOT_SIZE + SLOT_GAP)


@dataclass(frozen=True, slots=True)
class HudLayout:
    """Where the hotbar and the rows above it are drawn in a window of one aspect ratio
    (`camera.ui` units: window heights, the window's centre at 0, 0)."""

    scale: float
    """The hotbar, hearts, bubbles, block name and notice drawn at this fraction of full size (1.0
    when the hotbar fits)."""
    slot_xs: tuple[float, ...]
    """Centre x of each hotbar slot, slot 0 leftmost."""
    slot_size: float
    """Edge of a slot's square, frame included."""
    selection_size: float
    """Edge of the selected slot's white frame."""
    hotbar_y: float
    """Centre line of the hotbar row."""
    hearts_x: float
    """Centre x of the first heart and bubble."""
    heart_step: float
    """From one heart's (or bubble's) centre to the next."""
    hearts_y: float
    bubbles_y: float
    name_y: float
    """Centre line of the selected block's name."""

    @property
    def left(self) -> float:
        """The hotbar's left edge (the leftmost selection frame's)."""
        return self.slot_xs[0] - self.selection_size / 2

    @property
    def right(self) -> float:
        """The hotbar's right edge (the rightmost selection frame's)."""
        return self.slot_xs[-1] + self.selection_size / 2

    @property
    def bottom(self) -> float:
        """The hotbar's bottom edge (a selection frame's)."""
        return self.hotbar_y - self.selection_size / 2

    @property
    def top(self) -> float:
        """The top of the block name's line: nothing of the hotbar and the rows above it is higher."""
        return self.name_y + NAME_LINE_HEIGHT * self.scale / 2


def hud_scale(aspect_ratio: float) -> float:
    """How much the hotbar and the rows above it shrink in a window of `aspect_ratio` (width /
    height): 1.0 where HOTBAR_WIDTH fits between the window margins, else what makes it fit."""
    return style.fit_scale(style.window_width(aspect_ratio), HOTBAR_WIDTH)


def at_scale(y: float, scale: float) -> float:
    """[window heights] A full-size height `y` (measured from the window's centre) in a HUD shrunk
    by `scale` towards the window's bottom."""
    return WINDOW_BOTTOM + (y - WINDOW_BOTTOM) * scale


def hud_layout(aspect_ratio: float) -> HudLayout:
    """The hotbar, hearts, bubbles and block name laid out for a window of `aspect_ratio`: full
    size where the hotbar fits, else shrunk by `hud_scale` towards the bottom centre. TypeError or
    ValueError for anything but a positive finite ratio."""
    s = hud_scale(aspect_ratio)
    return HudLayout(scale=s, slot_xs=tuple(slot_x(i) * s for i in range(SLOT_COUNT)), slot_size=SLOT_SIZE * s,
                     selection_size=SELECTION_SIZE * s, hotbar_y=at_scale(HOTBAR_Y, s), hearts_x=HEARTS_X * s,
                     heart_step=HEART_STEP * s, hearts_y=at_scale(HEARTS_Y, s), bubbles_y=at_scale(BUBBLES_Y, s),
                     name_y=at_scale(NAME_Y, s))


def display_name(block_name: str) -> str:
    """A block name as players read it: "stone_slab" -> "Stone Slab"."""
    return block_name.replace("_", " ").title()


def load_icons_texture(path: Path = ICONS_PATH) -> Texture:
    """The hotbar icons image as a texture (bilinear: icons are drawn smaller or larger than 32 px,
    and each icon's transparent margin keeps its neighbours from bleeding in)."""
    if not path.is_file():
        raise FileNotFoundError(f"hotbar icons {path} are missing: run python -m assets.make_atlas")
    return Texture(path, filtering="bilinear")


class Hud(Entity):
    """Crosshair, hotbar and block name on `camera.ui`. `visible` shows or hides all of it."""

    def __init__(self, hotbar: Hotbar | None = None, **kwargs) -> None:
        super().__init__(parent=camera.ui, **kwargs)
        self._build_crosshair()
        self.bar = Entity(parent=self, y=WINDOW_BOTTOM)
        """The hotbar, hearts, bubbles and block name, drawn at full size from the window's bottom
        (children's y is their full-size height above it) and scaled as a whole to fit the window."""
        bar_y = HOTBAR_Y - WINDOW_BOTTOM
        icons = load_icons_texture()
        self.slots: list[Entity] = []
        self.icons: list[Entity] = []
        for index in range(SLOT_COUNT):
            x = slot_x(index)
            slot = style.rectangle(self.bar, x, bar_y, SLOT_SIZE, SLOT_SIZE, style.PANEL_COLOR)
            style.outline(slot, 0.0, 0.0, 1.0, 1.0, SLOT_BORDER / SLOT_SIZE, style.BORDER_COLOR, z=-style.LAYER_STEP)
            self.slots.append(slot)
            self.icons.append(Entity(parent=self.bar, model="quad", texture=icons, scale=ICON_SIZE,
                                     position=(x, bar_y, -2 * style.LAYER_STEP)))
        self.selection = style.outline(self.bar, 0.0, bar_y, SELECTION_SIZE, SELECTION_SIZE, SELECTION_BORDER,
                                       style.HIGHLIGHT_COLOR, z=-3 * style.LAYER_STEP)
        self.name_label = Text(parent=self.bar, origin=(0, 0), y=NAME_Y - WINDOW_BOTTOM,
                               color=style.TEXT_COLOR, scale=style.TEXT_SCALE)
        self._name_ticks_left = 0
        self.notice_label = Text(parent=self, origin=(0, 0), y=NOTICE_Y, color=style.TEXT_COLOR,
                                 scale=style.TEXT_SCALE)
        self._notice_seconds_left = 0.0
        self._shown: tuple[tuple[str, ...], int] | None = None
        self._build_vitals()
        self.layout = hud_layout(window.aspect_ratio)
        """The layout now drawn (`hud_layout` of the window's aspect ratio when it was last laid out)."""
        self._window = style.AspectWatch()
        self._fit_window()
        if hotbar is not None:
            self.show_hotbar(hotbar)

    def _fit_window(self) -> None:
        """Lay the HUD out for the window's shape, if it changed since the last time."""
        aspect_ratio = window.aspect_ratio
        if not self._window.changed(aspect_ratio):
            return
        self.layout = hud_layout(aspect_ratio)
        self.bar.scale = self.layout.scale
        self.notice_label.scale = style.TEXT_SCALE * self.layout.scale

    def _build_vitals(self) -> None:
        textures = {"full": pixel_art(HEART_PIXELS), "half": pixel_art(HEART_PIXELS, filled_columns=5),
                    "empty": pixel_art(HEART_PIXELS, filled_columns=0), "bubble": pixel_art(BUBBLE_PIXELS)}
        self.vitals_textures = {name: Texture(image, filtering=None) for name, image in textures.items()}
        self.vitals_row = Entity(parent=self.bar, enabled=False)
        """The hearts and bubbles (shown from the first `show_vitals`)."""
        hearts_y, bubbles_y = HEARTS_Y - WINDOW_BOTTOM, BUBBLES_Y - WINDOW_BOTTOM
        self.hearts = [Entity(parent=self.vitals_row, model="quad", texture=self.vitals_textures["full"],
                              scale=HEART_SIZE, position=(HEARTS_X + i * HEART_STEP, hearts_y, 0.0))
                       for i in range(HEART_COUNT)]
        self.bubbles = [Entity(parent=self.vitals_row, model="quad", texture=self.vitals_textures["bubble"],
                               scale=HEART_SIZE, position=(HEARTS_X + i * HEART_STEP, bubbles_y, 0.0), enabled=False)
                        for i in range(MAX_AIR // BUBBLE_AIR)]
        self._vitals_shown: tuple[int, int] | None = None

    def show_vitals(self, vitals: Vitals) -> None:
        """Show `vitals`: the hearts for its health, the bubbles for its air (none when full)."""
        if not isinstance(vitals, Vitals):
            raise TypeError(f"show_vitals needs game.rules.health.Vitals, got {vitals!r}")
        shown = (vitals.health, bubble_count(vitals.air))
        if shown == self._vitals_shown:
            return
        self.vitals_row.enabled = True
        for heart, state in zip(self.hearts, heart_states(vitals.health)):
            heart.texture = self.vitals_textures[state]
        for i, bubble in enumerate(self.bubbles):
            bubble.enabled = i < shown[1]
        self._vitals_shown = shown

    def _build_crosshair(self) -> None:
        length, width, edge = CROSSHAIR_LENGTH, CROSSHAIR_WIDTH, CROSSHAIR_OUTLINE
        self.crosshair = Entity(parent=self)
        for w, h in ((length, width), (width, length)):
            style.rectangle(self.crosshair, 0.0, 0.0, w + 2 * edge, h + 2 * edge, CROSSHAIR_OUTLINE_COLOR)
        for w, h in ((length, width), (width, length)):
            style.rectangle(self.crosshair, 0.0, 0.0, w, h, CROSSHAIR_COLOR, z=-style.LAYER_STEP)

    def show_hotbar(self, hotbar: Hotbar) -> None:
        """Show `hotbar`'s icons and selected slot; the block name appears when the selection changed."""
        if not isinstance(hotbar, Hotbar):
            raise TypeError(f"show_hotbar needs a game.rules.hotbar.Hotbar, got {hotbar!r}")
        shown = (hotbar.slots, hotbar.selected)
        if shown == self._shown:
            return
        for icon, name in zip(self.icons, hotbar.slots):
            u_min, v_min, u_max, v_max = atlas.icon_uv_rect(block_id(name))
            icon.texture_scale = (u_max - u_min, v_max - v_min)
            icon.texture_offset = (u_min, v_min)
        self.selection.x = slot_x(hotbar.selected)
        if self._shown is None or self._shown[0][self._shown[1]] != hotbar.selected_block:
            self.name_label.text = display_name(hotbar.selected_block)
            self._name_ticks_left = NAME_TICKS
            self._fade_name()
        self._shown = shown

    def show_notice(self, message: str) -> None:
        """Show `message` (what the session told the player) for NOTICE_SECONDS, replacing the last."""
        self.notice_label.text = message
        self.notice_label.wordwrap = NOTICE_WRAP_CHARACTERS
        # A dark panel behind it: white text alone is lost against a bright sky.
        self.notice_label.create_background(color=style.PANEL_COLOR)
        self._notice_seconds_left = NOTICE_SECONDS
        self.notice_label.alpha = 1.0

    def update(self) -> None:
        """Ursina calls this every frame: fit a resized window, fade the block name and the notice."""
        self._fit_window()
        if self._notice_seconds_left > 0.0:
            self._notice_seconds_left = max(self._notice_seconds_left - time.dt, 0.0)
            self.notice_label.alpha = min(self._notice_seconds_left / FADE_SECONDS, 1.0)
            if self._notice_seconds_left == 0.0 and self.notice_label.background:
                self.notice_label.background = False

    def after_tick(self) -> None:
        """One game tick has run: the block name's time runs down (see NAME_TICKS)."""
        if self._name_ticks_left > 0:
            self._name_ticks_left -= 1
            self._fade_name()

    def _fade_name(self) -> None:
        self.name_label.alpha = min(self._name_ticks_left / NAME_FADE_TICKS, 1.0)

    def toggle(self) -> None:
        """F1: hide the HUD if shown, show it if hidden."""
        self.visible = not self.visible

    def show_paused(self, paused: bool) -> None:
        """Hide the crosshair while a menu or screen is open over the game (`paused`: the pause menu,
        the inventory or the death screen), show it again after. TypeError for anything but a bool."""
        if not isinstance(paused, bool):
            raise TypeError(f"show_paused needs True or False, got {paused!r}")
        self.crosshair.enabled = not paused

    @property
    def crosshair_shown(self) -> bool:
        """The crosshair is drawn: the HUD is visible (F1) and the game is not paused."""
        return bool(self.visible and self.crosshair.enabled)
