"""The title screen: "Boxel", the player's worlds (name, seed, last played, size on disk) and the
buttons Play, New, Rename, Delete, Multiplayer, Settings and Quit.

Owns: drawing the list from `game.userdata.world_list` (newest first; a world that cannot be played greyed,
with the reason, and never playable), the selection (a click on a row; Up and Down), the dialogs
(New: a name and an optional seed; Rename: the new name; Delete: a confirmation naming the world;
Settings: the shared `SettingsPanel`), doing what they ask through `game.userdata.world_list`, showing its
refusals on the screen, the Multiplayer dialog (an address, a name, the recent servers of
`game.userdata.recent_servers`, Join), and saying what the player chose: `choice` becomes a
`TitleChoice` (play a world, with whether New just made it, join a server, or quit) for the window's loop to act on.
Does not own: the window or its loop, opening and playing a world, or what the game does after
(`game.window.app.run_title`); the world files (`game.userdata.world_list`); the settings controls
(`game.window.ui.settings_panel`); how a text field's caret and selection behave (`game.window.ui.text_input`:
the caret starts at the end of the name, Home and End move it).

Keys: Enter plays the selected world (or confirms an open dialog), Esc closes a dialog, Up and
Down move the selection, the wheel scrolls a long list. Sizes are in window heights on `camera.ui`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ursina import Button, Entity, Text, camera, color, destroy, window

from ...net.link import parse_address
from ...userdata import recent_servers, user_settings, world_list
from ...world.player_names import check_player_name
from . import style
from .loading_screen import BACKDROP_TILE_SIZE, BACKDROP_TINT, backdrop_tile_texture
from .settings_panel import (CONTROL_HEIGHT, CONTROL_SPACING, CONTROL_WIDTH, SettingsPanel, control_button,
                             set_caption)
from .text_input import TextInput
from ...userdata.user_settings import UserSettings
from ...world.file_format import CREATIVE, SURVIVAL
from ...world.seed_text import is_blank, seed_from_text
from ...userdata.world_list import WorldEntry

TITLE = "Boxel"
TITLE_Y = 0.39
LIST_WIDTH = 1.1
"""[window heights] Width of the world list and of the button rows under it (fits a 4:3 window)."""
LIST_PADDING = 0.01
"""[window heights] The list's darker panel reaches this far beyond its rows on each side."""
ROW_HEIGHT = 0.082
ROW_GAP = 0.008
"""[window heights] Between two rows of the list."""
LIST_TOP_Y = 0.27
"""[window heights] Centre line of the first row."""
VISIBLE_ROWS = 5
"""Rows shown at once; the wheel scrolls a longer list."""
TEXT_INSET = 0.02
"""[window heights] From a row's left edge to its text."""
MESSAGE_Y = -0.205
BUTTON_ROW_Y = (-0.29, -0.38)
"""[window heights] Centre lines of the two button rows: Play, New, Rename, Delete; Multiplayer, Settings, Quit."""
BUTTON_GAP = 0.012
UNPLAYABLE_COLOR = color.rgb(0.50, 0.50, 0.52)
"""Name of a world that cannot be played: greyed."""
PROBLEM_COLOR = color.rgb(0.90, 0.55, 0.50)
"""The reason a world cannot be played, and refusals in the message line."""
DIALOG_BOX = (0.0, -0.02, LIST_WIDTH * 0.8, 0.5)
"""[window heights] A dialog's box: centre x, centre y, width, height."""
DIALOG_TITLE_Y = 0.16
DIALOG_FIELD_Y = (0.05, -0.07)
"""[window heights] Centre lines of a dialog's first and second text fields (their labels sit above)."""
DIALOG_ERROR_Y = -0.135
DIALOG_BUTTONS_Y = -0.2
DIALOG_MODE_Y = DIALOG_BUTTONS_Y
"""[window heights] The New dialog's game-mode button, where other dialogs have their buttons (its
own buttons sit one row lower, inside its taller box)."""
FIELD_WIDTH = CONTROL_WIDTH
DEFAULT_NEW_NAME = "New World"
SEED_CHARACTERS = 21
"""Longest seed text the New dialog takes: any 64-bit int (a sign and 19 digits) and one more (longer text seeds: --seed)."""
LAYER_DIALOG = -20 * style.LAYER_STEP
"""A dialog's depth: in front of the list and its buttons."""
SETTINGS_TITLE_Y = 0.36
SETTINGS_BOX = (CONTROL_WIDTH + 0.1, 0.86)
"""[window heights] The Settings dialog's box, width and height: the controls with a margin, title to Done."""
KIB = 1024
RECENT_SHOWN = 3
"""Recent servers listed in the Multiplayer dialog (under its buttons)."""
RECENT_ROW_HEIGHT = 0.078
"""[window heights] Between the recent servers' buttons."""
HOST_BUTTON_WIDTH = 0.12
"""[window heights] A world row's Host button, at the row's right end."""
MAX_PLAYER_NAME_CHARS = 16
"""A name's longest (`game.world.player_names`)."""


@dataclass(frozen=True)
class TitleChoice:
    """What the player chose on the title screen: play `path` (`created`: New made it just now; `host`:
    its row's Host button), join `server` ((host, port, name): the Multiplayer dialog's Join), or quit."""

    path: Path | None
    created: bool = False
    server: tuple[str, int, str] | None = None
    host: bool = False
    """Host `path`: serve it to other players from this machine and play it as one of them."""

    @property
    def quit(self) -> bool:
        return self.path is None and self.server is None


def size_text(size_bytes: int) -> str:
    """A size on disk as a player reads it: "812 bytes", "24 KB", "1.5 MB", "2.0 GB" (1 KB = 1024 bytes)."""
    if size_bytes < KIB:
        return f"{size_bytes} bytes"
    for unit, power in (("KB", 1), ("MB", 2), ("GB", 3)):
        value = size_bytes / KIB ** power
        if value < KIB or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "KB" else f"{value:.1f} {unit}"
    raise AssertionError("unreachable")


def played_text(epoch_s: float) -> str:
    """When a world was last played, in local time: "2026-11-24 15:30"."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch_s))


def entry_lines(entry: WorldEntry) -> tuple[str, str]:
    """A list row's two lines: the name, then the game mode, seed, last played and size (or why it cannot be
    played)."""
    if not entry.readable:
        return entry.name, f"Cannot be played: {entry.problem}"
    mode = f"{entry.game_mode.title()}   " if entry.game_mode else ""
    return entry.name, f"{mode}Seed {entry.seed}   Played {played_text(entry.last_played)}   {size_text(entry.size_bytes)}"


def parse_seed(text: str) -> int | None:
    """A seed typed in the New dialog: blank is None (a random seed); any other text is the seed
    `game.world.seed_text.seed_from_text` makes of it (a number, or Beta's hash of the text)."""
    return None if is_blank(text) else seed_from_text(text)


class WorldRow(Button):
    """One world in the list: a clickable row with the world's name and its details under it."""

    def __init__(self, parent: Entity, y: float, on_click: Callable[[], None],
                 on_host: Callable[[], None] | None = None) -> None:
        super().__init__(parent=parent, model="quad", y=y, z=-style.LAYER_STEP, scale=(LIST_WIDTH, ROW_HEIGHT),
                         color=style.PANEL_COLOR, highlight_color=style.HOVER_COLOR, pressed_color=style.HOVER_COLOR)
        self.on_click = on_click
        self.host_button = Button(parent=parent, model="quad", y=y, z=-3 * style.LAYER_STEP,
                                  x=LIST_WIDTH / 2 - TEXT_INSET - HOST_BUTTON_WIDTH / 2,
                                  scale=(HOST_BUTTON_WIDTH, ROW_HEIGHT * 0.6), color=style.PANEL_COLOR,
                                  highlight_color=style.HOVER_COLOR, pressed_color=style.PANEL_COLOR)
        set_caption(self.host_button, "Host")
        self.host_button.on_click = on_host if on_host is not None else (lambda: None)
        left = -LIST_WIDTH / 2 + TEXT_INSET
        self.name_text = Text(parent=parent, x=left, y=y + ROW_HEIGHT * 0.18, origin=(-0.5, 0), z=-2 * style.LAYER_STEP,
                              scale=style.TEXT_SCALE * 1.1, color=style.TEXT_COLOR)
        self.detail_text = Text(parent=parent, x=left, y=y - ROW_HEIGHT * 0.22, origin=(-0.5, 0),
                                z=-2 * style.LAYER_STEP, scale=style.TEXT_SCALE * 0.8, color=style.SUBTLE_TEXT_COLOR)
        self.frame = style.outline(parent, 0.0, y, LIST_WIDTH, ROW_HEIGHT, 0.004, style.HIGHLIGHT_COLOR,
                                   z=-2 * style.LAYER_STEP)
        self.entry: WorldEntry | None = None

    def show(self, entry: WorldEntry | None, selected: bool) -> None:
        self.entry = entry
        for part in (self, self.name_text, self.detail_text):
            part.enabled = entry is not None
        self.host_button.enabled = entry is not None and entry.readable
        self.frame.enabled = entry is not None and selected
        if entry is None:
            return
        name, detail = entry_lines(entry)
        self.name_text.text, self.detail_text.text = name, detail
        self.name_text.color = style.TEXT_COLOR if entry.readable else UNPLAYABLE_COLOR
        self.detail_text.color = style.SUBTLE_TEXT_COLOR if entry.readable else PROBLEM_COLOR


class Dialog(Entity):
    """A modal box in front of the screen: a full-window shade that takes every click, a title, and
    whatever the screen puts on it; `close` removes it."""

    def __init__(self, title: str, extra_height: float = 0.0, **kwargs) -> None:
        """`extra_height` [window heights]: the box reaches this much lower than DIALOG_BOX (a dialog
        with a row more than the others)."""
        super().__init__(parent=camera.ui, z=LAYER_DIALOG, **kwargs)
        shade = style.rectangle(self, 0.0, 0.0, style.cover_width(window.aspect_ratio), 1.0, style.SHADE_COLOR)
        shade.collider = "box"  # clicks outside the dialog's controls land here, not on the list behind
        x, y, width, height = DIALOG_BOX
        self.content = Entity(parent=self, scale=style.fit_scale(style.window_width(window.aspect_ratio), width))
        """The box and what is on it, shrunk to fit a narrow window."""
        self.box = style.rectangle(self.content, x, y - extra_height / 2, width, height + extra_height,
                                   color.rgba(0.08, 0.08, 0.10, 0.94),
                                   z=-style.LAYER_STEP * 0.5)
        self.title = Text(title, parent=self.content, origin=(0, 0), y=DIALOG_TITLE_Y, z=-style.LAYER_STEP,
                          scale=style.TEXT_SCALE * 1.3, color=style.TEXT_COLOR)
        self.error = Text("", parent=self.content, origin=(0, 0), y=DIALOG_ERROR_Y, z=-style.LAYER_STEP,
                          scale=style.TEXT_SCALE * 0.8, color=PROBLEM_COLOR)
        self.on_confirm: Callable[[], None] | None = None
        """What Enter does in this dialog (its confirm button's action)."""

    def field(self, label: str, y: float, text: str, limit: int) -> TextInput:
        """A labelled text field holding `text`, the caret at its end and nothing selected."""
        Text(label, parent=self.content, origin=(0, 0), y=y + CONTROL_HEIGHT * 0.85, z=-style.LAYER_STEP,
             scale=style.TEXT_SCALE * 0.8, color=style.SUBTLE_TEXT_COLOR)
        made = TextInput(parent=self.content, y=y, z=-style.LAYER_STEP, scale=(FIELD_WIDTH, CONTROL_HEIGHT),
                         character_limit=limit, color=color.rgba(0, 0, 0, 0.8))
        made.text = text
        made.text_color = style.TEXT_COLOR
        return made

    def buttons(self, confirm: str, on_confirm: Callable[[], None], on_cancel: Callable[[], None],
                y: float = DIALOG_BUTTONS_Y) -> tuple[Button, Button]:
        width = (CONTROL_WIDTH - BUTTON_GAP) / 2
        offset = (width + BUTTON_GAP) / 2
        self.on_confirm = on_confirm
        return (control_button(self.content, confirm, y, on_confirm, x=-offset, width=width),
                control_button(self.content, "Cancel", y, on_cancel, x=offset, width=width))

    def close(self) -> None:
        destroy(self)


def game_mode_caption(mode: str) -> str:
    """The New dialog's mode button: "Game mode: Survival" or "Game mode: Creative"."""
    return f"Game mode: {mode.title()}"


class TitleScreen(Entity):
    """The title screen on `camera.ui`, over the whole window; `choice` is None until the player
    chooses a world to play or Quit."""

    def __init__(self, folder: Path | None = None, settings: UserSettings | None = None,
                 settings_path: Path | None = None, notice: str | None = None, selected: Path | None = None,
                 on_settings_changed: Callable[[UserSettings], None] | None = None, **kwargs) -> None:
        """`folder`: the worlds folder (default `world_list.worlds_folder()`); `settings`: what the
        Settings dialog starts from (default: the saved ones), saved to `settings_path` (default: the
        config folder); `notice`: a line shown at first (why the last game ended badly, say);
        `selected`: the world selected at first when it is listed (default: the newest)."""
        super().__init__(parent=camera.ui, z=-8 * style.LAYER_STEP, **kwargs)
        self.folder = folder
        self.settings = settings if settings is not None else user_settings.load(settings_path)
        notice = notice or user_settings.take_notice()  # a settings file that could not be used, set aside
        self.settings_path = settings_path
        self.on_settings_changed = on_settings_changed
        self.choice: TitleChoice | None = None
        self.entries: list[WorldEntry] = []
        self.selected_path: Path | None = None if selected is None else Path(selected)
        self.first_row = 0
        """Index in `entries` of the top row shown (scrolling)."""
        self.dialog: Dialog | None = None
        self.settings_panel: SettingsPanel | None = None
        self.fields: dict[str, TextInput] = {}

        self.backdrop = style.rectangle(self, 0.0, 0.0, 1.0, 1.0, BACKDROP_TINT)
        self.backdrop.texture = backdrop_tile_texture()
        self.content = Entity(parent=self)
        """Everything but the backdrop, at full size, scaled as a whole to fit a narrow window."""
        self._window = style.AspectWatch()
        self.title = Text(TITLE, parent=self.content, origin=(0, 0), y=TITLE_Y, z=-style.LAYER_STEP,
                          scale=style.TITLE_SCALE,
                          color=style.TEXT_COLOR)
        list_height = VISIBLE_ROWS * (ROW_HEIGHT + ROW_GAP)
        style.rectangle(self.content, 0.0, LIST_TOP_Y - list_height / 2 + (ROW_HEIGHT + ROW_GAP) / 2,
                        LIST_WIDTH + 2 * LIST_PADDING,
                        list_height + 0.01, color.rgba(0, 0, 0, 0.35), z=-0.5 * style.LAYER_STEP)
        self.rows = [WorldRow(self.content, LIST_TOP_Y - k * (ROW_HEIGHT + ROW_GAP), lambda k=k: self._click_row(k),
                              on_host=lambda k=k: self.host(self.rows[k].entry)) for k in range(VISIBLE_ROWS)]
        self.empty_text = Text("No worlds yet: New makes one", parent=self.content, origin=(0, 0),
                               y=LIST_TOP_Y - ROW_HEIGHT,
                               z=-style.LAYER_STEP, color=style.SUBTLE_TEXT_COLOR)
        self.message = Text(notice or "", parent=self.content, origin=(0, 0), y=MESSAGE_Y, z=-style.LAYER_STEP,
                            scale=style.TEXT_SCALE * 0.85, color=PROBLEM_COLOR)
        quarter = (LIST_WIDTH - 3 * BUTTON_GAP) / 4
        self.buttons: dict[str, Button] = {}
        first_row = (("Play", self.play), ("New", self.open_new), ("Rename", self.open_rename),
                     ("Delete", self.open_delete))
        for k, (caption, action) in enumerate(first_row):
            x = -LIST_WIDTH / 2 + quarter / 2 + k * (quarter + BUTTON_GAP)
            self.buttons[caption] = control_button(self.content, caption, BUTTON_ROW_Y[0], action, x=x, width=quarter)
        third = (LIST_WIDTH - 2 * BUTTON_GAP) / 3
        second_row = (("Multiplayer", self.open_multiplayer), ("Settings", self.open_settings), ("Quit", self.quit))
        for k, (caption, action) in enumerate(second_row):
            x = -LIST_WIDTH / 2 + third / 2 + k * (third + BUTTON_GAP)
            self.buttons[caption] = control_button(self.content, caption, BUTTON_ROW_Y[1], action, x=x, width=third)
        self._fit_window()
        self.refresh()

    def update(self) -> None:
        """Ursina calls this every frame: fit a resized window."""
        self._fit_window()

    def _fit_window(self) -> None:
        aspect_ratio = window.aspect_ratio
        if self._window.changed(aspect_ratio):
            self.content.scale = style.fit_scale(style.window_width(aspect_ratio), LIST_WIDTH + 2 * LIST_PADDING)
            width = style.cover_width(aspect_ratio)
            self.backdrop.scale_x = width
            self.backdrop.texture_scale = (width / BACKDROP_TILE_SIZE, 1.0 / BACKDROP_TILE_SIZE)

    # --- the list ---------------------------------------------------------------------------------

    @property
    def selected(self) -> WorldEntry | None:
        return next((entry for entry in self.entries if entry.path == self.selected_path), None)

    def refresh(self) -> None:
        """Read the worlds folder again and redraw; the selection stays on its world, else the newest."""
        try:
            self.entries = world_list.list_worlds(self.folder)
        except (OSError, ValueError) as error:
            self.entries = []
            self.show_message(f"Cannot list the worlds: {error}")
        if self.selected is None:
            self.selected_path = self.entries[0].path if self.entries else None
        self._scroll_to_selection()
        self._draw()

    def select(self, path: Path) -> None:
        """Select the listed world at `path`; ValueError when no listed world is there (nothing changes)."""
        if not any(entry.path == Path(path) for entry in self.entries):
            raise ValueError(f"no listed world at {path}")
        self.selected_path = Path(path)
        self._scroll_to_selection()
        self._draw()

    def _click_row(self, k: int) -> None:
        entry = self.rows[k].entry
        if entry is not None and self.dialog is None:
            self.select(entry.path)

    def _move_selection(self, steps: int) -> None:
        if not self.entries:
            return
        index = next((i for i, e in enumerate(self.entries) if e.path == self.selected_path), 0)
        self.select(self.entries[min(max(index + steps, 0), len(self.entries) - 1)].path)

    def _scroll_to_selection(self) -> None:
        index = next((i for i, e in enumerate(self.entries) if e.path == self.selected_path), 0)
        self.first_row = min(max(self.first_row, index - VISIBLE_ROWS + 1), index)
        self.first_row = max(0, min(self.first_row, len(self.entries) - VISIBLE_ROWS))

    def _draw(self) -> None:
        shown = self.entries[self.first_row:self.first_row + VISIBLE_ROWS]
        for k, row in enumerate(self.rows):
            entry = shown[k] if k < len(shown) else None
            row.show(entry, entry is not None and entry.path == self.selected_path)
        self.empty_text.enabled = not self.entries
        selected = self.selected
        for caption in ("Rename", "Delete"):
            self._enable(self.buttons[caption], selected is not None)
        self._enable(self.buttons["Play"], selected is not None and selected.readable)

    @staticmethod
    def _enable(button: Button, on: bool) -> None:
        button.disabled = not on
        button.text_entity.color = style.TEXT_COLOR if on else UNPLAYABLE_COLOR

    def show_message(self, text: str) -> None:
        self.message.text = text

    # --- actions ----------------------------------------------------------------------------------

    def play(self) -> None:
        """Play the selected world (not one that cannot be played)."""
        entry = self.selected
        if entry is None or self.dialog is not None:
            return
        if not entry.readable:
            self.show_message(f"{entry.name} cannot be played: {entry.problem}")
            return
        self.choice = TitleChoice(entry.path)

    def host(self, entry: WorldEntry | None = None) -> None:
        """Host `entry` (default: the selected world): serve it to other players from this machine and
        play it as one of them (`game.net.hosting`); not a world that cannot be played."""
        entry = self.selected if entry is None else entry
        if entry is None or self.dialog is not None:
            return
        if not entry.readable:
            self.show_message(f"{entry.name} cannot be hosted: {entry.problem}")
            return
        self.selected_path = entry.path
        self.choice = TitleChoice(entry.path, host=True)

    def quit(self) -> None:
        if self.dialog is None:
            self.choice = TitleChoice(None)

    def open_new(self) -> None:
        """The New dialog: a name, an optional seed and the game mode (survival unless switched), then
        Create (makes the world and plays it)."""
        dialog = self._open_dialog("New world", extra_height=CONTROL_SPACING)
        if dialog is None:
            return
        self.fields = {"name": dialog.field("World name", DIALOG_FIELD_Y[0], DEFAULT_NEW_NAME,
                                            world_list.MAX_NAME_CHARS),
                       "seed": dialog.field("Seed (leave blank for a random one)", DIALOG_FIELD_Y[1], "",
                                            SEED_CHARACTERS)}
        self.fields["name"].active = True
        self.new_game_mode = SURVIVAL
        self.mode_button = control_button(dialog.content, game_mode_caption(SURVIVAL), DIALOG_MODE_Y,
                                          self.switch_game_mode)
        dialog.buttons("Create", self.confirm_new, self.close_dialog, y=DIALOG_MODE_Y - CONTROL_SPACING)

    def switch_game_mode(self) -> None:
        """The New dialog's mode button: survival <-> creative."""
        self.new_game_mode = CREATIVE if self.new_game_mode == SURVIVAL else SURVIVAL
        set_caption(self.mode_button, game_mode_caption(self.new_game_mode))

    def confirm_new(self, name: str | None = None, seed_text: str | None = None, game_mode: str | None = None) -> None:
        """Create the world the New dialog describes (or `name`, `seed_text` and `game_mode` when given)
        and play it; a bad name or seed is shown in the dialog and nothing is made."""
        name = self.fields["name"].text if name is None else name
        seed_text = self.fields["seed"].text if seed_text is None else seed_text
        game_mode = self.new_game_mode if game_mode is None else game_mode
        try:
            entry = world_list.create(name, parse_seed(seed_text), self.folder, game_mode)
        except (ValueError, TypeError, OSError) as error:
            self.dialog.error.text = str(error)
            return
        self.close_dialog()
        self.choice = TitleChoice(entry.path, created=True)

    def open_rename(self) -> None:
        entry = self.selected
        if entry is None:
            return
        dialog = self._open_dialog(f"Rename {entry.name}")
        if dialog is None:
            return
        self.fields = {"name": dialog.field("New name", DIALOG_FIELD_Y[0], entry.name, world_list.MAX_NAME_CHARS)}
        self.fields["name"].active = True
        dialog.buttons("Rename", self.confirm_rename, self.close_dialog)

    def confirm_rename(self, new_name: str | None = None) -> None:
        """Rename the selected world to the dialog's name (or `new_name`); a refusal is shown in the dialog."""
        new_name = self.fields["name"].text if new_name is None else new_name
        try:
            entry = world_list.rename(self.selected_path, new_name)
        except (ValueError, TypeError, OSError) as error:
            self.dialog.error.text = str(error)
            return
        self.selected_path = entry.path
        self.close_dialog()
        self.show_message("")
        self.refresh()

    def open_delete(self) -> None:
        entry = self.selected
        if entry is None:
            return
        dialog = self._open_dialog(f"Delete {entry.name}?")
        if dialog is None:
            return
        Text(f"'{entry.name}' will be lost forever (a long time!)", parent=dialog.content, origin=(0, 0),
             y=DIALOG_FIELD_Y[0],
             z=-style.LAYER_STEP, color=style.SUBTLE_TEXT_COLOR)
        dialog.buttons("Delete", self.confirm_delete, self.close_dialog)

    def confirm_delete(self) -> None:
        """Delete the selected world (the Delete dialog's button); a refusal is shown in the dialog."""
        try:
            world_list.delete(self.selected_path)
        except (ValueError, TypeError, OSError) as error:
            self.dialog.error.text = str(error)
            return
        self.selected_path = None
        self.close_dialog()
        self.show_message("")
        self.refresh()

    def open_multiplayer(self) -> None:
        """The Multiplayer dialog: the server's address and the name to play as (the last server
        joined filled in), the recent servers (a click fills both fields), then Join."""
        dialog = self._open_dialog("Multiplayer")
        if dialog is None:
            return
        self.recent = recent_servers.load()
        last = self.recent[0] if self.recent else None
        self.fields = {"address": dialog.field("Server address (HOST:PORT)", DIALOG_FIELD_Y[0],
                                               last.address if last else "", recent_servers.MAX_ADDRESS_CHARS),
                       "name": dialog.field("Your name", DIALOG_FIELD_Y[1], last.name if last else "",
                                            MAX_PLAYER_NAME_CHARS)}
        self.fields["address"].active = True
        shown = self.recent[:RECENT_SHOWN]
        x, y, width, height = DIALOG_BOX
        dialog.box.y, dialog.box.scale_y = y - len(shown) * RECENT_ROW_HEIGHT / 2, height + len(shown) * RECENT_ROW_HEIGHT
        for k, server in enumerate(shown):
            control_button(dialog.content, f"{server.address}  as  {server.name}",
                           DIALOG_BUTTONS_Y - (k + 1) * RECENT_ROW_HEIGHT, lambda s=server: self._fill_server(s),
                           width=CONTROL_WIDTH)
        dialog.buttons("Join", self.confirm_join, self.close_dialog)

    def _fill_server(self, server) -> None:
        self.fields["address"].text, self.fields["name"].text = server.address, server.name

    def confirm_join(self, address: str | None = None, name: str | None = None) -> None:
        """Join the server the Multiplayer dialog names (or `address` and `name` when given): it is
        remembered first in the recent servers; a bad address or name is shown in the dialog."""
        address = self.fields["address"].text if address is None else address
        name = self.fields["name"].text if name is None else name
        try:
            host, port = parse_address(address)
            check_player_name(name)
        except (ValueError, TypeError) as error:
            self.dialog.error.text = str(error)
            return
        try:
            recent_servers.remember(address, name)
        except OSError as error:  # the list is a convenience: a full disk must not stop the join
            print(f"boxel: could not save the recent servers: {error}")
        self.close_dialog()
        self.choice = TitleChoice(None, server=(host, port, name))

    def open_settings(self) -> None:
        """The Settings dialog: the same controls as the pause menu's, saved as they change."""
        dialog = self._open_dialog("Settings")
        if dialog is None:
            return
        dialog.title.y = SETTINGS_TITLE_Y
        dialog.box.y, dialog.box.scale = 0.0, SETTINGS_BOX
        self.settings_panel = SettingsPanel(self.settings, self._settings_changed, self.settings_path,
                                            top_y=SETTINGS_TITLE_Y - 1.4 * CONTROL_SPACING, parent=dialog.content,
                                            z=-style.LAYER_STEP)
        done_y = self.settings_panel.switch_y - 1.5 * CONTROL_SPACING
        self.settings_done = control_button(dialog.content, "Done", done_y, self.close_dialog)
        dialog.on_confirm = self.close_dialog

    def _settings_changed(self, settings: UserSettings) -> None:
        self.settings = settings
        if self.on_settings_changed is not None:
            self.on_settings_changed(settings)

    def _open_dialog(self, title: str, extra_height: float = 0.0) -> Dialog | None:
        if self.dialog is not None or self.choice is not None:
            return None
        self.dialog = Dialog(title, extra_height)
        return self.dialog

    def close_dialog(self) -> None:
        """Close the open dialog (Cancel, Esc, Done); settings changed in it are saved."""
        if self.settings_panel is not None:
            self.settings_panel.commit()
            self.settings_panel = None
        if self.dialog is not None:
            self.dialog.close()
            self.dialog = None
        self.fields = {}

    # --- keys -------------------------------------------------------------------------------------

    def input(self, key: str) -> None:
        if self.choice is not None:
            return
        if self.dialog is not None:
            if key == "escape":
                self.close_dialog()
            elif key == "enter" and self.dialog.on_confirm is not None:
                self.dialog.on_confirm()
            return
        if key in ("up arrow", "down arrow"):
            self._move_selection(-1 if key == "up arrow" else 1)
        elif key in ("scroll up", "scroll down"):
            self.first_row = max(0, min(self.first_row + (-1 if key == "scroll up" else 1),
                                        len(self.entries) - VISIBLE_ROWS))
            self._draw()
        elif key == "enter":
            self.play()
