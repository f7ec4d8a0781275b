"""The game: a streamed world on screen, the player in it, building, HUD, menus, saving, and scripted runs.

Owns: the game's window and scene (sky, fog, camera), the frame loop (loading screen until the
spawn area is drawn, then fixed 20 Hz ticks from `TickClock` with the view blended between ticks,
mouse look every frame), routing input events (keyboard and mouse through `player.LiveInput`, or
a replay file) to the player, the hotbar, building, spawning mobs (M), throwing (Q) and the
toggles at tick boundaries, recording them, autosaving, saving on quit and on window close, and
the end-of-run outputs (screenshot, JSON report).
Does not own: movement (`game.player` and `physics`), mobs (`game.mobs`), projectiles
(`game.projectiles`), streaming (`game.streaming`), building rules (`game.targeting`), the
hotbar (`game.hotbar`), widgets (`game.ui`), the options and opening the world (`game.cli`) or
the physics -> Ursina mapping (`game.render.space`).

A tick: apply the events due (replay) or received since the last tick (live; mouse-wheel notches
become the digit key of the slot they select, so a recording replays them), then `Player.tick`,
then the mobs (`MobManager.tick`, which adds their pushes to the player's velocity), then the
projectiles (their hits knock mobs back).
Clicks act on the block targeted from the eye at the latest tick, so a replay edits the same
blocks. A frame: add the frame's duration to the clock, run the ticks it hands out, place the
camera between the last two ticks, outline the target, stream.

Scripted runs (--replay) are deterministic and independent of the frame rate: the clock is fed a
fixed SCRIPTED_FRAME_SECONDS per frame (two frames per tick) instead of wall time, unless
--realtime asks for wall-clock ticks (benchmarks). Ticks start once the spawn area is drawn;
with --exit-after-ticks the run stops after N ticks, waits until every wanted column is drawn,
saves the screenshot and report, saves the world and exits.
"""

from __future__ import annotations

import gc
import tempfile
import math
import statistics
import sys
import time
from collections import deque
from pathlib import Path

from panda3d.core import CullBinManager
from ursina import Entity, application, camera, color, mouse, scene, window

import physics
from game import user_settings
from game.cli import LaunchOptions
from game.clock import SCRIPTED_FRAME_SECONDS, TICKS_PER_SECOND, FrameTimes, TickClock
from game.controls import MOUSE_DEGREES_PER_UNIT, turned
from game.hotbar import SLOT_COUNT, Hotbar, holdable
from game.mobs import MobManager
from game.saved_values import body_fields
from game.render.window import CLOSING_FRAMES, NEAR_CLIP, LaunchError, horizontal_fov, open_window, write_run_outputs
from game.player import WHEEL_STEPS, LiveInput, Player, saved_player, section_of
from game.projectiles import Projectiles
from game.render import space
from game.render.chunk_renderer import ChunkRenderer
from game.render.entity_view import EntityView
from game.replay import Click, Event, KeyDown, KeyUp, ReplayCursor, ReplayWriter
from game.screenshots import save_screenshot
from game.streaming import LOADING, WorldStreamer
from game.targeting import Target, break_block, find_target, place_block, placement_cell
from game.ui.debug_overlay import DebugOverlay, GameStatus, panel_lines, status_lines
from game.ui.hud import Hud
from game.ui.loading_screen import LoadingScreen
from game.ui.pause_menu import PauseMenu
from game.ui.target_outline import TargetOutline
from game.world.coords import CHUNK_SIZE, column_of

SKY_COLOR = color.rgb32(140, 192, 236)
"""Clear colour and fog colour, so the far edge of the world fades into the sky."""
FOG_START_FRACTION = 0.55
"""Fog starts at this fraction of the fog end distance: the last ~half of the view fades."""
SPAWN_AREA_RADIUS = 6
"""[columns] The loading screen stays until the columns this close to the spawn are drawn (113
columns, ~1 s on the 2-core development machine); the rest of the view streams in while
playing, nearest first."""
AUTOSAVE_TICKS = 60 * TICKS_PER_SECOND
"""[ticks] Save every minute of play. A save writes only the columns edited since the last one and
the player, in one SQLite transaction: measured 0.5 ms with nothing edited, 1.0 ms for 10 edited
columns, 3.7 ms for 50, so it fits in a frame and needs no thread (the World is single-threaded)."""
SETTLE_TIMEOUT_S = 120.0
"""[s] Longest wait for streaming to finish before the final screenshot of a scripted run."""
FPS_WINDOW_S = 1.0
"""[s] The F3 panel's FPS and frame time are over this much recent time."""
PANEL_REFRESH_TICKS = 2
"""[ticks] The F3 panel text is rebuilt this often (10 times a second: readable, and cheap)."""
EXIT_SCRIPT_INTERRUPTED = 3
"""Exit status of a scripted run (--exit-after-ticks) that was quit before its last tick."""
TOGGLE_HUD_KEY, SCREENSHOT_KEY, DEBUG_KEY, BOXES_KEY = "f1", "f2", "f3", "b"
SPAWN_MOB_KEY, THROW_KEY = "m", "q"
"""M spawns a mob on the targeted face; Q throws a projectile along the look (the hotbar holds only
blocks, so there is no throwable item to right-click with)."""
DIGIT_KEYS = {str(i + 1): i for i in range(SLOT_COUNT)}
"""Number keys 1-9 select hotbar slots 0-8."""


def fog_end(view_distance: int) -> float:
    """[blocks] Where the fog is opaque: one column inside the drawn radius, so the drawn edge
    (whose nearest point is at least (view distance - 1) columns away) is never seen."""
    return max(view_distance - 1, 1) * CHUNK_SIZE


def draw_opaque_front_to_back() -> None:
    """Sort opaque geometry nearest first instead of by render state (all sections share one state).

    Software OpenGL (llvmpipe) skips shading a pixel that fails the depth test, so drawing near
    hills before the land behind them saves work: ~5 % of the frame at view distance 8 (measured,
    10 views, 2 samples each, 59 vs 63 ms median at 1280x720)."""
    bins = CullBinManager.get_global_ptr()
    bins.set_bin_type(bins.find_bin("opaque"), CullBinManager.BT_front_to_back)


def launch_settings(options: LaunchOptions) -> user_settings.UserSettings:
    """The saved settings with --fov and --view-distance put over them for this session (they are
    written to the settings file only if the player then changes a setting in the pause menu)."""
    settings = user_settings.load()
    overrides = {"fov_degrees": options.fov, "view_distance_columns": options.view_distance}
    return settings.with_changes(**{name: value for name, value in overrides.items() if value is not None})


def run(options: LaunchOptions, world) -> int:
    """Open the window and play `world` until the player quits, the window closes or the run ends."""
    recorder = None
    if options.record is not None:
        try:
            recorder = ReplayWriter.open(options.record)
        except OSError as error:
            world.close()
            raise LaunchError(f"cannot write the recording {options.record}: {error.strerror or error}") from None
    game = None
    try:
        app = open_window(options.size)
        draw_opaque_front_to_back()
        game = Game(world, options, launch_settings(options), recorder)
        while not (game.ticks_done or game.quit_requested):
            app.step()
        if game.ticks_done:
            game.streamer.settle(game.player_column(), SETTLE_TIMEOUT_S)
            for _ in range(CLOSING_FRAMES):
                app.step()
            game.write_outputs(app)
        elif options.exit_after_ticks is not None:
            # Quit (Esc, Save and quit) before the scripted ticks ran: no screenshot or report was
            # written, so a harness must not read this as a finished run.
            print(f"boxel: quit after {game.player.ticks_run} of {options.exit_after_ticks} scripted ticks; "
                  "no screenshot or report written", file=sys.stderr)
            return EXIT_SCRIPT_INTERRUPTED
    finally:
        if game is not None:
            game.close()  # saves: also after a window close (SystemExit) or an error
        else:
            world.close()
        if recorder is not None:
            recorder.close()
    return 0


class Game:
    """The running game. Its hook entity makes Ursina call `input` for every key and `update` once per frame."""

    def __init__(self, world, options: LaunchOptions, settings: user_settings.UserSettings,
                 recorder: ReplayWriter | None) -> None:
        self.world = world
        self.options = options
        self.settings = settings
        self.recorder = recorder
        self.cursor = ReplayCursor(options.replay) if options.replay is not None else None
        self.wall_clock_ticks = self.cursor is None or options.realtime
        self.clock = TickClock()
        self.frame_times = FrameTimes()
        """Frame durations once playing (the loading screen's frames are not counted)."""
        self.recent_frames: deque[tuple[float, float]] = deque()
        """(end time, duration) of the frames in the last FPS_WINDOW_S [s]."""
        self.tick_seconds = 0.0
        saved = saved_player(world.player_state)
        self.player = Player.spawned(world, saved)
        self.hotbar = saved.hotbar if saved is not None else Hotbar()
        self.live = LiveInput(self.player.input.yaw, self.player.input.pitch)
        self.loading = True
        self.started_at = time.time()
        self.first_playable_at: float | None = None
        self.ticks_done = False
        self.quit_requested = False
        self.paused = False
        self.target: Target | None = None
        self.mobs = MobManager(world, world.seed)
        """Every mob; placing a block respects them, F3 draws them, the report lists them."""
        self.projectiles = Projectiles(world)
        self._last_frame: float | None = None

        window.color = SKY_COLOR
        scene.fog_color = SKY_COLOR
        camera.clip_plane_near = NEAR_CLIP
        self.renderer = ChunkRenderer(world.padded_section)
        self.renderer.ignore = True  # Ursina must not upload: the streamer does, under its frame budget
        self.streamer = WorldStreamer(world, self.renderer, settings.view_distance_columns,
                                      save=self.save)
        self.apply_settings(settings)
        self.streamer.limit_radius(SPAWN_AREA_RADIUS)
        self.outline = TargetOutline()
        self.entities = EntityView()
        self.overlay = DebugOverlay()
        self.hud = Hud(self.hotbar)
        self.menu = PauseMenu(settings, on_resume=self.resume, on_settings_changed=self.apply_settings,
                              on_save_and_quit=self.request_quit)
        self.loading_screen = LoadingScreen()
        self._hooks = Entity(name="boxel", update=self.update, input=self.input)
        self._place_view(1.0)

    # --- settings and menus ---------------------------------------------------------------------

    def apply_settings(self, settings: user_settings.UserSettings) -> None:
        """Use new settings now (the pause menu calls this while a slider moves)."""
        self.settings = settings
        camera.fov = horizontal_fov(settings.fov_degrees, window.aspect_ratio)
        distance = settings.view_distance_columns
        if distance != self.streamer.view_distance:
            self.streamer.view_distance = distance
        end = fog_end(distance)
        scene.fog_density = (FOG_START_FRACTION * end, end)
        camera.clip_plane_far = end  # beyond it the fog is opaque: nothing there needs drawing

    def pause(self) -> None:
        self.paused = True
        self.menu.open()
        mouse.locked = False

    def resume(self) -> None:
        if self.menu.is_open:
            self.menu.close()
        self.paused = False
        self._last_frame = None  # the time spent paused is not owed to the clock
        mouse.locked = True

    def request_quit(self) -> None:
        self.quit_requested = True

    # --- input ----------------------------------------------------------------------------------

    def input(self, key: str) -> None:
        if key == "escape":
            if self.cursor is not None:
                self.quit_requested = True  # a replay ignores the real keyboard; Esc still ends it
            elif self.paused:
                self.resume()
            elif not self.loading:
                self.pause()
            return
        if self.cursor is not None or key == "escape up":
            return
        if self.paused or self.loading:
            if key.endswith(" up") and key not in WHEEL_STEPS:
                self.live.receive(key)  # releases still count, so no key stays held after the menu
            elif key == SCREENSHOT_KEY:
                self._screenshot()  # ticks are stopped, so it cannot wait for one
            return
        self.live.receive(key)

    # --- frame ------------------------------------------------------------------------------------

    def update(self) -> None:
        now = time.perf_counter()
        wall_seconds = 0.0 if self._last_frame is None else now - self._last_frame
        self._last_frame = now
        if self.options.frame_delay_ms:
            time.sleep(self.options.frame_delay_ms / 1000.0)
        if self.loading:
            self._load()
            return
        if wall_seconds:
            self.frame_times.add(wall_seconds)
            self.recent_frames.append((now, wall_seconds))
            while self.recent_frames and self.recent_frames[0][0] < now - FPS_WINDOW_S:
                self.recent_frames.popleft()
        if self.paused or self.ticks_done:
            self.streamer.update(self.player_column())
            return
        if self.cursor is None and mouse.locked:
            degrees_per_unit = MOUSE_DEGREES_PER_UNIT * self.settings.mouse_sensitivity
            self.player.input.look_at(*turned(self.player.input.yaw, self.player.input.pitch,
                                              mouse.velocity[0], mouse.velocity[1], degrees_per_unit))
        frame = self.clock.advance(wall_seconds if self.wall_clock_ticks else SCRIPTED_FRAME_SECONDS)
        alpha = frame.alpha
        for _ in range(frame.ticks):
            self._tick()
            if self.player.ticks_run == self.options.exit_after_ticks:
                self.ticks_done = True
                alpha = 1.0
                break
        self._place_view(alpha)
        self.streamer.update(self.player_column())

    def _load(self) -> None:
        self.streamer.update(self.player_column(), LOADING)
        stats = self.streamer.stats()
        self.loading_screen.progress(self.streamer.progress(), f"Generating terrain: {stats.loaded_columns} of "
                                     f"{stats.wanted_columns} columns, {stats.shown_sections} sections drawn")
        if self.streamer.settled:
            self.loading = False
            self.loading_screen.close()
            self.streamer.limit_radius(None)
            self.first_playable_at = time.time()
            print(f"boxel: {self.world.path} (seed {self.world.seed}) ready after "
                  f"{self.first_playable_at - self.started_at:.1f} s", flush=True)
            if self.cursor is None:
                mouse.locked = True
            gc.collect()
            gc.freeze()  # everything alive now is long-lived: later collections skip it

    def bodies(self) -> list[physics.Body]:
        """The player's body and every mob's (projectiles are too small to stand in anyone's way)."""
        return [self.player.body, *self.mobs.bodies]

    def player_column(self) -> tuple[int, int]:
        x, _, z = self.player.body.feet
        return column_of(math.floor(x), math.floor(z))

    # --- tick ---------------------------------------------------------------------------------------

    def _tick(self) -> None:
        tick = self.player.ticks_run
        if self.cursor is not None:
            events = list(self.cursor.due(tick))
        else:
            events = self.live.events_for(tick, self.player.input.yaw, self.player.input.pitch)
            steps = self.live.take_wheel_steps()
            if steps:
                slot = str((self.hotbar.selected + steps) % SLOT_COUNT + 1)
                events += [KeyDown(tick, slot), KeyUp(tick, slot)]
        for event in events:
            self._apply(event)
            if self.recorder is not None:
                self.recorder.write(event)
        started = time.perf_counter()
        self.player.tick()
        self.player.body = self.mobs.tick(self.player.body)
        for knock in self.projectiles.tick(self.mobs.bodies):
            self.mobs.knock_back(knock.index, knock.impulse)
        self.tick_seconds = time.perf_counter() - started  # the whole simulation tick: player, mobs, projectiles
        if self.player.ticks_run % AUTOSAVE_TICKS == 0:
            self.save()
        if self.overlay.boxes_enabled:
            self.overlay.show_boxes(self.player.sink.last)
        if self.overlay.panel_enabled and self.player.ticks_run % PANEL_REFRESH_TICKS == 0:
            self._refresh_panel()

    def _apply(self, event: Event) -> None:
        """One event at the start of a tick: the player's keys and look, then the game's own keys and clicks."""
        self.player.apply(event)
        if isinstance(event, Click):
            self._build(event.button)
        elif isinstance(event, KeyDown):
            if event.key in DIGIT_KEYS:
                self.hotbar.select(DIGIT_KEYS[event.key])
                self.hud.show_hotbar(self.hotbar)
            elif event.key == DEBUG_KEY:
                self.overlay.toggle()
                if self.overlay.panel_enabled:
                    self._refresh_panel()
            elif event.key == BOXES_KEY:
                self.overlay.toggle_boxes()
            elif event.key == TOGGLE_HUD_KEY:
                self.hud.toggle()
            elif event.key == SCREENSHOT_KEY:
                self._screenshot()
            elif event.key == SPAWN_MOB_KEY:
                player = self.player
                target = find_target(self.world, player.eye, player.input.yaw, player.input.pitch)
                facing_you = (player.input.yaw + 180.0) % 360.0
                self.mobs.spawn_at_target(target, facing_you, [player.body])
            elif event.key == THROW_KEY:
                self.projectiles.throw(self.player.eye, self.player.input.yaw, self.player.input.pitch)

    def _screenshot(self) -> None:
        # A scripted run keeps F2 images beside its --screenshot (or in the temporary folder), out of the user's.
        folder = None
        if self.options.exit_after_ticks is not None:
            folder = (Path(self.options.screenshot).parent if self.options.screenshot is not None
                      else Path(tempfile.gettempdir()) / "boxel-screenshots")
        try:
            print(f"screenshot saved: {save_screenshot(application.base, folder)}")
        except OSError as error:  # a full disk must not end the game
            print(f"boxel: could not save a screenshot: {error}", file=sys.stderr)

    def _build(self, button: str) -> None:
        """A click: break, place against or pick the block targeted from the eye at the latest tick."""
        player = self.player
        target = find_target(self.world, player.eye, player.input.yaw, player.input.pitch)
        if target is None:
            return
        if button == "left":
            break_block(self.world, target)
        elif button == "right":
            place_block(self.world, placement_cell(target), self.hotbar.selected_block, self.bodies())
        elif holdable(name := self.world.get_block(*target.block)):
            self.hotbar.pick(name)
            self.hud.show_hotbar(self.hotbar)

    # --- drawing --------------------------------------------------------------------------------------

    def _place_view(self, alpha: float) -> None:
        view = self.player.view(alpha)
        camera.position = space.point(*view.eye)
        camera.rotation = space.camera_rotation(self.player.input.yaw, self.player.input.pitch)
        if not self.loading:
            self.target = find_target(self.world, self.player.eye, self.player.input.yaw, self.player.input.pitch)
            self.outline.show(self.target.boxes if self.target is not None else ())
        mobs, projectiles = self.mobs.views(alpha), self.projectiles.views(alpha)
        self.entities.show(mobs, projectiles)
        if self.overlay.boxes_enabled:
            self.overlay.show_player_box(view.box)
            self.overlay.show_velocity(view.box, self.player.body.velocity)
            self.overlay.show_bodies([v.box for v in mobs] + [v.box for v in projectiles])
            self.overlay.show_contacts(self.projectiles.contacts)

    def _refresh_panel(self) -> None:
        stats = self.streamer.stats()
        frames = [duration for _, duration in self.recent_frames]
        status = GameStatus(
            fps=len(frames) / max(sum(frames), 1e-9) if frames else 0.0,
            frame_ms=statistics.median(frames) * 1000.0 if frames else 0.0,
            tick_ms=self.tick_seconds * 1000.0,
            loaded_columns=stats.loaded_columns, queued_columns=stats.queued_columns,
            meshes_in_flight=stats.meshes_in_flight, bodies=len(self.bodies()),
            yaw=self.player.input.yaw, pitch=self.player.input.pitch,
            flying=self.player.flying, sprinting=self.player.sprinting, target=self._target_text())
        body = self.player.body
        self.overlay.show_panel(panel_lines(body, self.player.sink.last, self.player.ticks_run)
                                + status_lines(status, body.feet)
                                + [f"mobs      {len(self.mobs)}  projectiles {len(self.projectiles)}"
                                   f"  contacts {len(self.projectiles.contacts)}"])

    def _target_text(self) -> str:
        if self.target is None:
            return "-"
        x, y, z = self.target.block
        return f"{self.world.get_block(x, y, z)} at {x} {y} {z}, face {self.target.face}"

    # --- saving and the end of a run ----------------------------------------------------------------

    def save(self) -> None:
        """Write the edited columns, the mobs (with their columns) and the player (box, velocity, look,
        flying, hotbar) to the world file."""
        self.mobs.save()
        self.world.player_state = self.player.to_state(self.hotbar)
        self.world.save()
        self.streamer.saved()

    def close(self) -> None:
        """Save and close the world (at quit, window close, or the end of a scripted run)."""
        try:
            self.save()
        finally:
            self.renderer.close()
            self.world.close()

    def write_outputs(self, app) -> None:
        """Save --screenshot and --report (parent folders are created)."""
        write_run_outputs(app, self.options.screenshot, self.options.report, self.report)

    def report(self) -> dict:
        body = self.player.body
        target = find_target(self.world, self.player.eye, self.player.input.yaw, self.player.input.pitch)
        stats = self.streamer.stats()
        return {
            "ticks_run": self.player.ticks_run,
            "feet": list(body.feet),
            **body_fields(body),
            "yaw": self.player.input.yaw,
            "pitch": self.player.input.pitch,
            "flying": self.player.flying,
            "section": list(section_of(body.feet)),
            "targeted_block": None if target is None else {
                "block": list(target.block), "name": self.world.get_block(*target.block), "face": list(target.face)},
            "hotbar": self.hotbar.to_state(),
            "debug_overlay": self.overlay.enabled,
            "hud_visible": bool(self.hud.visible),
            "columns_loaded": stats.loaded_columns,
            "sections_shown": stats.shown_sections,
            "bodies": [{"kind": kind, "box": list(b.box), "velocity": list(b.velocity)} for kind, bodies in
                       (("player", [body]), ("mob", self.mobs.bodies), ("projectile", self.projectiles.bodies))
                       for b in bodies],
            "seed": self.world.seed,
            "view_distance": self.streamer.view_distance,
            "window": list(self.options.size),
            "first_playable_s": None if self.first_playable_at is None else self.first_playable_at - self.started_at,
            "first_playable_epoch_s": self.first_playable_at,
            "frame_ms": self.frame_times.summary_ms(),
        }

