"""The window: a `game.rules.session.Session` drawn with Ursina, played with the keyboard and mouse.

Owns: the game's window and scene (sky, fog, camera), the frame loop (loading screen until the
spawn area is drawn and everything play shows was drawn once behind it (`game.window.first_draws`),
then fixed 20 Hz ticks from `TickClock`, each running the session's tick,
with the view blended between ticks and mouse look every frame), turning keyboard and mouse
input into the session's events (`controls.LiveInput`) or reading them from a replay file,
recording them, showing the session's state (HUD with hearts and air, F3 overlay, the other players
with their name tags (`game.window.render.other_players`), the session's notices and chat as lines over
the HUD (`game.window.ui.chat_lines`), mobs, projectiles, the targeted block's outline, the hurt flash, the death screen, the view's tint and
fog with the eye in water or lava; the sky, clouds, sun, moon and the world's light by the session's
time of day, `game.window.render.sky`, `game.window.render.clouds`), playing the session's sounds (`game.window.render.sound_player`), the creative
inventory screen while the session's inventory is open (the pointer free, its clicks made into the
session's `put_in_slot` events, Esc sending the inventory key), the chat input line (T; Enter sends what
was typed as the session's `chat` event, Esc closes it; `game.window.ui.chat_input`), the pause menu (its time of day and
Peaceful switch sent as the session's `set_day_time` and `set_peaceful` events: the window changes the
game only through events, so a recording has every change), saving on quit,
on window close and on a stop signal (SIGTERM, SIGHUP, SIGINT: a flag the frame loop checks; Esc while loading quits saving
nothing, as nothing was played), and the end-of-run outputs (screenshot, JSON report: the session's report plus what only a window has).
With no world chosen on the command line the window opens on the title screen (`run_title`,
`TitleRun`): the world chosen there plays in the same window, and "Save and quit" goes back to it.
The same window plays the lab (`--lab`): the session is then over the lab's arena, whose
sections are drawn all at once (`FixedSections`) instead of streamed.
The same window plays a server's world (`--connect`: `run_connected`; the title screen's Multiplayer
and Host: `play_remote`): the session is then a `game.net.remote_session.RemoteSession`, the
network-backed object with the surface the `Game` drives a `Session` through, and the loading
screen closes once the columns JOIN_AREA_RADIUS around the player are drawn.
Does not own: the game's rules and tick order (`game.rules.session`), movement (`game.rules.player` and
`physics`), streaming (`game.window.streaming`), widgets (`game.window.ui`), the options and opening the
world (`game.frontends.cli`) or the physics -> Ursina mapping (`game.window.render.space`).

A frame: add the frame's duration to the clock; for each tick it hands out, apply the tick's
events (live: received since the last tick; replay: those due) to the session and run its tick;
then place the camera between the last two ticks, outline the target, stream.

Scripted runs (--replay) are deterministic and independent of the frame rate: the clock is fed a
fixed SCRIPTED_FRAME_SECONDS per frame (two frames per tick) instead of wall time, unless
--realtime asks for wall-clock ticks (benchmarks). Ticks start once the spawn area is drawn;
with --exit-after-ticks the run stops after N ticks, waits until every wanted column is drawn,
saves the screenshot and report, saves the world and exits.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import io
import math
import statistics
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

from panda3d.core import CullBinManager
from ursina import Entity, application, camera, color, destroy, mouse, scene, window

from ..rules import health

from ..userdata import paths, user_settings
from ..rules.clock import SCRIPTED_FRAME_SECONDS, FrameTimer, FrameTimes, TickClock
from ..rules.controls import (MOUSE_BUTTON_KEYS, MOUSE_DEGREES_PER_UNIT, PAUSE_KEY, RESPAWN_KEY, WHEEL_STEPS, LiveInput,
                           turned)
from ..rules.medium import medium_lines
from ..frontends.options import LaunchOptions
from ..frontends.process_memory import resident_mib
from ..rules.player import View
from .render.window import (CLOSING_FRAMES, NEAR_CLIP, LaunchError, frames_in_flight, graphics_renderer,
                            horizontal_fov, open_window, save_window_image)
from .render import space
from .render.break_particles import BreakParticles
from .render.chunk_renderer import ChunkRenderer
from .render.lod_distance import lod_distance_for
from .render.crack_overlay import CrackOverlay
from .first_draws import FIRST_DRAW_FRAMES, FirstDraws
from .pointer_motion import PointerMotion, screens_use_pointer
from .render.frame_loop import leave_frame_loop
from .render.entity_view import EntityView, LookArrowPose
from .render.hand_view import HandView
from .render.player_model import PlayerModel
from .render.other_players import OtherPlayers, other_player_poses
from .render.third_person import third_person_camera
from .render.sky import brightness as light_brightness
from .render.screenshots import save_screenshot
from .render.clouds import Clouds
from .render.sky import Sky, far_clip, sky_colors, sun_heading
from .render.sound_player import SoundPlayer, choose_audio_library, muted_by_environment
from ..rules.replay import GAME_CHANGES, Chat, Event, ReplayCursor, ReplayWriter, SetDayTime, SetPeaceful
from ..rules.session import Session, write_report
from ..rules.targeting import find_target, selected_boxes
from ..frontends.stop_signals import StopFlag, on_stop_signals
from ..world.player_names import LOCAL_PLAYER
from .streaming import LOADING, FixedSections, WorldStreamer
from ..rules.tick_changes import TickChanges
from .ui.death_screen import DeathScreen
from .ui.debug_overlay import DebugOverlay, GameStatus, changes_line, panel_lines, status_lines
from .ui.chat_input import CHAT_KEY, SAY_KEY, ChatInput
from .ui.chat_lines import ChatLines
from .ui.hud import Hud
from .ui.inventory_screen import InventoryScreen
from .ui.survival_screens import HotbarItems, SurvivalScreen
from .ui.item_icons import item_picture
from .render.item_models import DroppedItemsView
from .ui.loading_screen import LoadingScreen
from .ui.pause_menu import PauseMenu
from .ui.screen_effects import ScreenEffects, fluid_fog
from .ui.target_outline import TargetOutline
from ..rules.view_bobbing import ARM_BOX, NO_BOBBING, Bobbing, empty_hand_matrix, held_block_matrix
from .ui.title_screen import TitleScreen
from ..world.coords import CHUNK_SIZE, column_of

SKY_COLOR = color.rgb32(140, 192, 236)
"""Clear colour and fog colour in full day, so the far edge of the world fades into the sky; the
time of day dims and tints it (`game.window.render.sky.sky_colors`)."""
FOG_START_FRACTION = 0.55
"""Fog starts at this fraction of the fog end distance: the last ~half of the view fades."""
SPAWN_AREA_RADIUS = 6
"""[columns] The loading screen stays until the columns this close to the spawn are drawn (113
columns, ~1 s on the 2-core development machine); the rest of the view streams in while
playing, nearest first."""
JOIN_AREA_RADIUS = 4
"""[columns] Joining a server, the loading screen stays until the columns this close to the player
are drawn (49 columns, 64 blocks each way: about half the work of SPAWN_AREA_RADIUS); the rest of
the view streams in while playing, nearest first. Beta's own client shows a server's world as soon
as the player's position comes (GuiDownloadTerrain closes on the first Packet10Flying), columns
appearing as they arrive."""
POINTER_RAYS_OFF = sys.maxsize
"""Ursina's `mouse.update_step` while no screen wants the pointer: Ursina casts the pointer's rays
(into the UI, for hovering and clicks) only on frames where its frame counter reaches the step, so
this skips them (0.85 ms a frame, measured) and keeps the rest (the look's mouse velocity)."""
POINTER_RAYS_EVERY_FRAME = 1
SETTLE_TIMEOUT_S = 120.0
"""[s] Longest wait for streaming to finish before the final screenshot of a scripted run."""
FPS_WINDOW_S = 1.0
"""[s] The F3 panel's FPS and frame time are over this much recent time."""
PANEL_REFRESH_TICKS = 2
"""[ticks] The F3 panel text is rebuilt this often (10 times a second: readable, and cheap)."""
EXIT_SCRIPT_INTERRUPTED = 3
"""Exit status of a scripted run (--exit-after-ticks) that was quit before its last tick."""
LAB_SKY_COLOR = color.rgb(0.62, 0.78, 0.96)
LAB_FOG_RANGE = (40.0, 90.0)
"""[blocks] The lab's linear fog, start to end: the far parts of the arena fade into its sky."""
LAB_FAR_CLIP = 500.0
LOADING_SCREEN_FIRST_FRAMES = 2
"""Frames drawn with the loading screen alone, right after the window opens and before the game is
built. The first frame still has the window's first size (the backdrop drawn too large, no text);
the second is the whole screen. Measured at 640x360 under Xvfb on the 2-core development machine
(from the window opening to the end of the frame showing the whole loading screen): 94-189 ms,
where the first frame, drawn only once the game was built, came 213-384 ms after the window opened."""
LOADING_FRAME_S = 0.02
"""[s] A loading frame lasts at least this long (it sleeps what its streaming work leaves), and the
world is not drawn behind the loading screen: a frame that drew it (~40 ms of software rendering at
view distance 8) took a core from generation and meshing, and a frame that neither drew nor slept
kept the main thread in Python, taking the interpreter's lock from the mesher thread (the join was
~1 s slower so, on the 2-core development machine). Only the last loading frame (`FIRST_DRAW_FRAMES`),
once the spawn area is drawn, draws the world behind the screen, with a sample of everything else play
shows (`game.window.first_draws`)."""
EXIT_DISCONNECTED = 4
"""Exit status of a scripted connected run (--connect --exit-after-ticks) that the server refused or
cut: the headless client's (`game.frontends.connect.EXIT_REFUSED`, which the window may not import)."""
HOST_NAME = LOCAL_PLAYER
"""The name a hosting player plays its own world's server as: the single-player name, so the host is
where it last played that world alone."""
YOUNG_GENERATIONS = 1
"""`gc.collect`'s generation when the loading screen closes, before `gc.freeze()`: the two young
generations (about a millisecond). The full collection (35-110 ms on the 2-core development machine,
where it took the first played frame's time) runs a frame earlier, behind the loading screen
(`Game._draw_first`)."""
MEMORY_SAMPLE_TICKS = 100
"""[ticks] With --report, the report's `memory` samples are taken this often (every 5 s of play)."""


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


def run(options: LaunchOptions, session: Session, stop: StopFlag | None = None) -> int:
    """Open the window and play `session` until the player quits, the window closes, a stop signal
    (SIGTERM, SIGHUP, SIGINT) comes or the run ends. `stop`: the flag the stop signals set, when
    the caller (`game.frontends.cli`) already listens for them; by default the run makes its own."""
    recorder = None
    if options.record is not None:
        try:
            recorder = ReplayWriter.open(options.record)
        except OSError as error:
            session.world.close()
            raise LaunchError(f"cannot write the recording {options.record}: {error.strerror or error}") from None
    stop = stop if stop is not None else StopFlag()
    """Set by a stop signal: the frame loop ends as on closing the window (a flag checked between
    frames: an exception raised inside Panda3D's frame would crash the process)."""
    hearing = on_stop_signals(stop)
    hearing.__enter__()
    try:
        try:
            app = open_game_window(options)
        except BaseException:
            session.world.close()
            raise
        return play(app, options, session, stop, recorder)
    finally:
        if recorder is not None:
            recorder.close()
        hearing.__exit__(None, None, None)  # after the save: a second signal cannot break into it


def _draw_world(drawn: bool) -> None:
    """Draw the 3D scene (the camera's display region) or not; the UI's region is drawn either way."""
    region = getattr(camera, "display_region", None)  # none before a window is open
    if region is not None:
        region.set_active(drawn)


def open_game_window(options: LaunchOptions):
    """The window, with the audio library chosen first (OpenAL, unless muted or there is no device)."""
    choose_audio_library(muted_by_environment())
    # The frame profile times the draw's parts inside the main thread's frame, so it keeps the draw there;
    # an offscreen buffer's image cannot be read back from a draw thread (it comes out black).
    app = open_quietly(options.size, offscreen=options.offscreen,
                       draw_thread=options.draw_thread and not options.profile_frames and not options.offscreen)
    draw_opaque_front_to_back()
    return app


def play(app, options: LaunchOptions, session: Session, stop: StopFlag, recorder: ReplayWriter | None = None,
         on_game=None, spawn_area_radius: int = SPAWN_AREA_RADIUS) -> int:
    """Play `session` in the open window `app` until the player quits (Esc while loading, Save and
    quit), the window closes, `stop` is set or the scripted run ends; the exit status. The session is
    saved and closed on every path (closed unsaved when nothing was played). `on_game(game)` is
    called once the `Game` is built; the loading screen stays until the columns `spawn_area_radius`
    close are drawn."""
    if session.saved_player_problem is not None:
        print(f"boxel: warning: {session.saved_player_problem}", file=sys.stderr)
    game = None
    try:
        loading_screen = LoadingScreen()
        for _ in range(LOADING_SCREEN_FIRST_FRAMES):
            app.step()  # the loading screen is up before the game is built: no black window meanwhile
        game = Game(session, options, launch_settings(options), recorder, loading_screen,
                    spawn_area_radius=spawn_area_radius)
        settings_notice = user_settings.take_notice()  # a settings file that could not be used, set aside
        if settings_notice is not None:
            # on the HUD and stderr with the session's notices: this window's player's alone
            session.notify(settings_notice, player=session.local_name)
        if on_game is not None:
            on_game(game)
        while not (game.ticks_done or game.quit_requested or stop):
            app.step()
        if game.ticks_done:
            game.settle()
            for _ in range(CLOSING_FRAMES + frames_in_flight()):
                app.step()
            game.write_outputs(app)
        elif options.exit_after_ticks is not None and not stop:
            # Quit (Esc, Save and quit) before the scripted ticks ran: no screenshot or report was
            # written, so a harness must not read this as a finished run.
            print(f"boxel: quit after {session.ticks_run} of {options.exit_after_ticks} scripted ticks; "
                  "no screenshot or report written", file=sys.stderr)
            return EXIT_SCRIPT_INTERRUPTED
    finally:
        if game is not None:
            game.close()  # saves: also after a window close (SystemExit) or an error
        else:
            session.world.close()
    return 0


def run_title(options: LaunchOptions, open_session, stop: StopFlag | None = None, on_open=None) -> int:
    """Open the window on the title screen; play the worlds the player chooses there, back to the
    title screen after each "Save and quit", until Quit, the window closes or a stop signal comes
    (the world in play is saved first, as `run` does); the exit status.

    `open_session(path)`: the `Session` on the world at `path`, or a ValueError whose message the
    title screen shows (`game.frontends.cli.title_session`). `stop`: as for `run`. `on_open(title_run)`: called
    once the window is open, before the first frame (a test driver adds its scripted input there)."""
    stop = stop if stop is not None else StopFlag()
    hearing = on_stop_signals(stop)
    hearing.__enter__()
    try:
        title_run = TitleRun(open_game_window(options), options, open_session, stop)
        if on_open is not None:
            on_open(title_run)
        return title_run.run()
    finally:
        hearing.__exit__(None, None, None)


def run_connected(options: LaunchOptions, open_session, stop: StopFlag | None = None) -> int:
    """`--connect HOST:PORT --name NAME` with a window: play on that server (`play_remote`). A refusal
    or a lost connection shows its reason on the title screen, which then plays on as `run_title`
    does (a scripted run, --exit-after-ticks, exits instead with EXIT_DISCONNECTED)."""
    stop = stop if stop is not None else StopFlag()
    hearing = on_stop_signals(stop)
    hearing.__enter__()
    try:
        app = open_game_window(options)
        host, port = options.connect
        status, reason = play_remote(app, options, host, port, options.name, stop)
        if reason is None or stop:
            return status
        if options.exit_after_ticks is not None:
            print(f"boxel: {reason}", file=sys.stderr)
            return EXIT_DISCONNECTED
        title_run = TitleRun(app, options, open_session, stop)
        title_run.notice = reason
        title_run._clear()
        return title_run.run()
    finally:
        hearing.__exit__(None, None, None)


def play_remote(app, options: LaunchOptions, host: str, port: int, name: str, stop: StopFlag,
                on_game=None) -> tuple[int, str | None]:
    """Join `host`:`port` as `name` (`game.net.remote_session.RemoteSession`: the network-backed
    object with a `Session`'s surface) and play there with the same `Game` and loop as a local world
    (`play`) until the player quits, the window closes, `stop` is set, the scripted run ends or the
    connection is lost. The server's messages are taken every frame, also while the spawn area
    loads, and ticks follow the wall clock also in a scripted run (--replay): the server's do, so a
    replay's tick is the server's time. Returns the exit status and why the game ended when the
    player did not choose it (the server's reason, or why it could not be joined; None when they did)."""
    from ..net.remote_session import JoinError, RemoteSession

    options = dataclasses.replace(options, realtime=True)
    connecting = LoadingScreen(text=f"Connecting to {host}:{port}")
    for _ in range(LOADING_SCREEN_FIRST_FRAMES):
        app.step()
    try:
        session = RemoteSession.join(host, port, name)
    except JoinError as error:
        return 0, str(error)
    finally:
        connecting.close()
    print(f"boxel: joined {host}:{port} as {name}", flush=True)
    pump = None

    def started(game: Game) -> None:
        nonlocal pump

        def take_messages() -> None:
            if not game.ticks_done:  # once a scripted run's ticks are done, its report is what was drawn
                session.poll()

        pump = Entity(name="boxel network", update=take_messages)  # the server's messages, every frame
        session.on_lost = lambda reason: game.request_quit()
        if on_game is not None:
            on_game(game)

    try:
        status = play(app, options, session, stop, on_game=started, spawn_area_radius=JOIN_AREA_RADIUS)
    finally:
        session.close()
        if pump is not None:
            destroy(pump)
    if session.lost is not None:
        print(f"boxel: disconnected from {host}:{port}: {session.lost}", file=sys.stderr)
        return status, f"disconnected from {host}:{port}: {session.lost}"
    return status, None


class TitleRun:
    """The title screen's loop in an open window: the screen, then the chosen world, then the screen again.

    `title` is the screen while it is shown (None while a world plays), `game` the `Game` while one plays."""

    def __init__(self, app, options: LaunchOptions, open_session, stop: StopFlag) -> None:
        self.app = app
        self.options = options
        self.open_session = open_session
        self.stop = stop
        self.title: TitleScreen | None = None
        self.game: Game | None = None
        self.notice: str | None = None
        """Shown on the next title screen: why the last world could not be opened or saved."""
        self.last_world: Path | None = None
        """The world played last: selected on the next title screen."""
        self.worlds_played = 0

    def run(self) -> int:
        while not self.stop:
            self.title = TitleScreen(notice=self.notice, selected=self.last_world)
            self.notice = None
            print("boxel: title screen", flush=True)
            while self.title.choice is None and not self.stop:
                self.app.step()
            choice = self.title.choice
            self._clear()
            self.title = None
            if self.stop or choice.quit:
                break
            if choice.server is not None:
                self._join(*choice.server)
                continue
            if choice.host:
                self._host(choice.path)
                continue
            self._play(choice.path, choice.created)
        return 0

    def _play(self, path: Path, created: bool) -> None:
        """Open and play the world at `path`; a new world (`created`) left unplayed is removed again."""
        from ..userdata import world_list
        from ..world import WorldFileError

        self.last_world = path
        try:
            session = self.open_session(path)
        except ValueError as error:  # a world that cannot be opened (in use, damaged, ...): said on the title screen
            self.notice = str(error)
            return
        try:
            play(self.app, self.options, session, self.stop, on_game=self._started)
        except WorldFileError as error:  # the disk refused the save on quitting: play since the last save is lost
            self.notice = f"the world could not be saved, and play since its last save is lost: {error}"
            print(f"boxel: error: {self.notice}", file=sys.stderr)
        finally:
            self.game = None
        self.worlds_played += 1
        if created and session.ticks_run == 0:
            world_list.delete(path)
            print(f"boxel: nothing was played, so the new world {path} was not kept", file=sys.stderr)
        if not self.stop:
            self._clear()

    def _join(self, host: str, port: int, name: str) -> None:
        """Play on the server the Multiplayer dialog chose (`play_remote`);
        why it ended, when the player did not choose it, is shown on the next title screen."""
        _, self.notice = self._play_remote(host, port, name, self._started)
        if not self.stop:
            self._clear()

    def _host(self, path: Path) -> None:
        """Host the world at `path` (`game.net.hosting`): its server as a child process on a free port,
        joined as HOST_NAME with the address to share said in the chat; leaving the world stops the
        server (SIGTERM: it saves) and waits for it."""
        from ..net.hosting import HostError, HostedServer

        self.last_world = path
        loading = LoadingScreen(text=f"Starting a server on {path.stem}")
        for _ in range(LOADING_SCREEN_FIRST_FRAMES):
            self.app.step()
        try:
            server = HostedServer.start(path)
        except HostError as error:
            self.notice = str(error)
            return
        finally:
            loading.close()
        print(f"boxel: hosting {path} on {server.address_text}", flush=True)
        share = f"Hosting on {server.address_text}: other players join this address (Multiplayer)"

        def started(game: Game) -> None:
            self.game = game
            game.session.notify(share)

        try:
            host, port = server.address
            _, self.notice = self._play_remote(host, port, HOST_NAME, started)
        finally:
            status = server.stop()
            if status != 0:
                self.notice = f"the server for {path.stem} exited with status {status}: its last save stands"
        if not self.stop:
            self._clear()

    def _play_remote(self, host: str, port: int, name: str, on_game) -> tuple[int, str | None]:
        try:
            return play_remote(self.app, self.options, host, port, name, self.stop, on_game=on_game)
        finally:
            self.game = None

    def _started(self, game: Game) -> None:
        self.game = game

    def _clear(self) -> None:
        """Remove everything the last screen or game put in the scene (the scene's persistent parts stay)."""
        scene.clear()
        mouse.locked = False
        mouse.update_step = POINTER_RAYS_EVERY_FRAME  # the title screen's buttons need the pointer's rays
        screens_use_pointer(True)
        camera.position, camera.rotation = (0, 0, 0), (0, 0, 0)
        gc.unfreeze()  # what the game froze as long-lived is gone now
        gc.collect()


def open_quietly(size: tuple[int, int], *, offscreen: bool = False, draw_thread: bool = False):
    """`open_window`, without the lines Ursina prints on every start (its folders, the window's
    position, "info:" notes); what it printed goes to stderr only if the window cannot open."""
    application.print_info = False
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            return open_window(size, offscreen=offscreen, draw_thread=draw_thread)
    except BaseException:
        sys.stderr.write(printed.getvalue())
        raise


class Game:
    """The window on a session. Its hook entity makes Ursina call `input` for every key and `update` once per frame."""

    first_draws: FirstDraws | None = None
    """The samples drawn once behind the loading screen (`_draw_first`); None before and after."""

    def __init__(self, session: Session, options: LaunchOptions, settings: user_settings.UserSettings,
                 recorder: ReplayWriter | None, loading_screen: LoadingScreen | None = None, *,
                 spawn_area_radius: int = SPAWN_AREA_RADIUS) -> None:
        self.session = session
        self.world = session.world
        self.options = options
        self.settings = settings
        self.recorder = recorder
        self.cursor = ReplayCursor(options.replay) if options.replay is not None else None
        self.wall_clock_ticks = self.cursor is None or options.realtime
        self.clock = TickClock()
        self.frame_timer = FrameTimer()
        self.pointer = PointerMotion()
        self.frame_times = FrameTimes()
        """Frame durations once playing (the loading screen's frames, the pause menu's wait and the
        end-of-run settle are not counted)."""
        self.settle_seconds: float | None = None
        """[s] How long the end-of-run settle waited for streaming (None before it ran)."""
        self.settled: bool | None = None
        """Whether the end-of-run `settle` drew everything wanted (None before it ran)."""
        self.recent_frames: deque[tuple[float, float]] = deque()
        """(end time, duration) of the frames in the last FPS_WINDOW_S [s]."""
        self.memory_samples: list[dict] = []
        """The report's `memory`: every MEMORY_SAMPLE_TICKS ticks, what streaming holds (columns and sections
        shown, the farthest shown column's distance in columns, live section entities and scene nodes) and
        the process's resident size."""
        player = session.player
        self.live = LiveInput(player.input.yaw, player.input.pitch, session.bindings)
        self.look = (player.input.yaw, player.input.pitch)
        """[degrees] (yaw, pitch) where the mouse has turned the view in live play: drawn every frame,
        and sent to the session as a `look` event at the next tick (`view_look`), never set on its player."""
        self.loading = True
        self.started_at = time.time()
        self.first_playable_at: float | None = None
        self.first_playable_cpu_s: float | None = None
        """[s] The window's process's CPU time (every thread) when the loading screen closed."""
        self.loading_times: dict[str, float] = {}
        """[s since the epoch] The loading's milestones (the report's `loading_times`): 'game_built',
        'spawn_loaded' (every column of the spawn area in the world), 'first_draws_started' (the spawn area
        drawn: the loading frames that draw everything once behind the loading screen begin),
        'first_frame_drawn' (the frame after the loading screen closed was drawn)."""
        self.ticks_done = False
        self.last_changes: TickChanges | None = None
        """The latest tick's record (`Session.tick()`): the F3 panel shows a line of it."""
        self.quit_requested = False
        self.paused = False
        self.chat_opening = False
        """T was pressed: the chat input opens next frame (after this frame's "t" was typed nowhere)."""
        self.said: list[str] = []
        """Lines said in the chat input since the last tick: `Chat` events of the next tick."""
        self.target = None
        self.view_fluid = None
        """The fluid the eye is in as drawn this frame (`health.eye_fluid`): the view's tint and fog."""
        self.sky_color = LAB_SKY_COLOR if options.lab else SKY_COLOR
        """The clear and fog colour of the sky now (the time of day's; the lab's sky never changes)."""
        self.shown_day_time: int | None = None
        """The time of day the sky, fog and daylight were last set for (None: not yet)."""
        self.sky = None
        self.clouds = None
        self.shown_far_clip: float | None = None
        """The camera's far plane as last set for the eye's height (`far_clip`; None: not yet)."""
        self.first_draws = None
        self.first_draw_frames_left: int | None = None
        """Loading frames still to draw them (None: not started)."""

        camera.clip_plane_near = NEAR_CLIP
        # A streamed world's first light is spread over frames (`World.prepare_light`); the lab's arena has none.
        self.renderer = ChunkRenderer(self.world.padded_section, padded_light=self.world.padded_light,
                                      prepare_light=None if options.lab else self.world.prepare_light)
        self._sync_lod_distance(settings.view_distance_columns)  # before any section is asked for
        try:
            self.renderer.ignore = True  # Ursina must not upload: the streamer does, under its frame budget
            if options.lab:
                self.streamer = FixedSections(self.world, self.renderer, self.world.section_keys())
            else:
                self.streamer = WorldStreamer(self.world, self.renderer, settings.view_distance_columns,
                                              save=session.save)
            self.sound = SoundPlayer(settings.sound_volume)
            self.apply_settings(settings)
            self.streamer.limit_radius(spawn_area_radius)
            self.outline = TargetOutline()
            self.entities = EntityView(texture=self.renderer.atlas_texture)
            self.dropped_items = DroppedItemsView(item_picture)
            self.cracks = CrackOverlay()
            self.particles = BreakParticles(self.renderer.atlas_texture, seed=session.world.seed)
            self.overlay = DebugOverlay()
            self.hand = HandView(ARM_BOX, texture=self.renderer.atlas_texture)
            self.player_model = PlayerModel(texture=self.renderer.atlas_texture)
            self.other_players = OtherPlayers(texture=self.renderer.atlas_texture)
            self.effects = ScreenEffects()
            self.hud = Hud(session.hotbar)
            self.chat = ChatLines()
            self.chat_input = ChatInput()
            # Survival's screens (inventory, crafting table, chest, furnace) or creative's catalogue
            self.inventory = (SurvivalScreen(on_click=self.live.slot_click) if session.survival is not None else
                              InventoryScreen(on_put=self.live.put_in_slot, slot_keys=session.bindings.hotbar_slots))
            self.hotbar_items = HotbarItems(self.hud) if session.survival is not None else None
            self.death_screen = DeathScreen(on_respawn=self.request_respawn)
            self.menu = PauseMenu(settings, on_resume=self.resume, on_settings_changed=self.apply_settings,
                                  on_save_and_quit=self.request_quit, peaceful=not session.damage_enabled,
                                  on_peaceful_changed=self.set_peaceful,
                                  on_time_chosen=None if options.lab else self.set_day_time)
            self.loading_screen = loading_screen if loading_screen is not None else LoadingScreen()
            if not options.lab:
                self.sky = Sky()
                self.clouds = Clouds()
        except BaseException:
            self.renderer.close()  # its mesher threads must not outlive a failed start
            raise
        self._hooks = Entity(name="boxel", update=self.update, input=self.input)
        # Hundreds of plain quads and labels (most hidden while playing) leave Ursina's per-frame walk,
        # and the mouse's ray skips the 3D scene: aiming is the physics' look ray, never Ursina's.
        leave_frame_loop(self.hud, self.chat, self.chat_input, self.inventory, self.death_screen, self.menu,
                         self.overlay.panel, self.effects)
        mouse.traverse_target = None
        if options.profile_frames:
            from . import frame_profile  # PStats and its in-process server only when asked
            frame_profile.attach(self)
        self._show_toggles()
        self._show_vitals()
        self._place_view(1.0)
        _draw_world(False)  # behind the opaque loading screen: not drawn until it closes (LOADING_FRAME_S)
        self.loading_times["game_built"] = time.time()

    # --- settings and menus ---------------------------------------------------------------------

    def apply_settings(self, settings: user_settings.UserSettings) -> None:
        """Use new settings now (the pause menu calls this while a slider moves)."""
        self.settings = settings
        camera.fov = horizontal_fov(settings.fov_degrees, window.aspect_ratio)
        self.sound.volume = settings.sound_volume
        if self.options.lab:
            camera.clip_plane_far = LAB_FAR_CLIP
        else:
            distance = settings.view_distance_columns
            if distance != self.streamer.view_distance:
                self.streamer.view_distance = distance  # the next frame's `_stream` re-levels for it
        self._apply_fog()  # which sets the far plane by the fog's end

    def _sync_lod_distance(self, view_distance: int) -> None:
        """Give the renderer the levels of detail for `view_distance` in this window with this field of view
        (`game.window.render.lod_distance`; none with --no-lod or in the lab). Called every frame, so a
        resized window or a new FOV or view distance moves them; the renderer re-levels only on a change."""
        if not self.options.levels_of_detail or self.options.lab:
            return  # the renderer's default: every section fine
        height = application.base.win.get_y_size()
        if height >= 1:  # a minimised window (0 pixels high on some systems) keeps the levels it had
            self.renderer.lod_distance = lod_distance_for(view_distance, height, self.settings.fov_degrees)

    def _apply_fog(self) -> None:
        """The fog and clear colour: the fluid's with the eye in one (`view_fluid`, by eye distance), else
        the sky's (by horizontal distance into the sky gradient, the clouds fading with it, the far plane
        reaching the whole height of the world at the fog's end: `game.window.render.sky.far_clip`)."""
        fluid = fluid_fog(self.view_fluid)
        if fluid is not None:
            window.color = scene.fog_color = fluid.fog_color
            scene.fog_density = fluid.fog_range
            self.renderer.sync_fog(sky=False)  # by eye distance: the fluid is all around
            return
        window.color = scene.fog_color = self.sky_color
        if self.options.lab:
            scene.fog_density = LAB_FOG_RANGE
        else:
            end = fog_end(self.settings.view_distance_columns)
            scene.fog_density = (FOG_START_FRACTION * end, end)
            if self.clouds is not None:
                self.clouds.set_fog(*scene.fog_density)
            self.shown_far_clip = camera.clip_plane_far = math.ceil(
                far_clip(end, camera.world_position[1], self.view_look()[1]))
        self.renderer.sync_fog(sky=True)  # by horizontal distance, into the sky gradient

    def pause(self) -> None:
        self.paused = True
        self.menu.show_peaceful(not self.session.damage_enabled)  # the game's, whoever changed it last
        self.menu.open()
        self._show_crosshair()
        mouse.locked = False

    def resume(self) -> None:
        if self.menu.is_open:
            self.menu.close()
        self.paused = False
        self._show_crosshair()
        self.frame_timer.skip_gap()  # the time spent paused is not owed to the clock, nor a frame
        if not self.death_screen.is_open:  # whose button needs the pointer
            mouse.locked = True  # (mouse look starts again from the window's centre: `PointerMotion.take`)
        else:
            mouse.locked = False

    def set_day_time(self, ticks: int) -> None:
        """The pause menu's time buttons: a `SetDayTime` event (`send`), shown at once (also while paused)."""
        self.send(SetDayTime(self.session.ticks_run, ticks))
        self._show_day_time()

    def _show_day_time(self) -> None:
        """The sky colour and gradient, the fog, the clouds, the sun and moon and the world's daylight for
        the session's time of day (the lab keeps its sky). Colours and daylight change only when the
        time did; the dome, clouds, sun and moon follow the eye every frame, and the far plane its
        height (`far_clip`: the fog is by horizontal distance, so the land far below must be drawn)."""
        if self.sky is None:
            return
        day_time = self.session.day_time
        if day_time != self.shown_day_time:
            self.shown_day_time = day_time
            colors = sky_colors(day_time, tuple(SKY_COLOR)[:3])
            heading = sun_heading(day_time)
            self.sky_color = color.rgb(*colors.sky)
            self.renderer.set_daylight(colors.daylight)
            self.renderer.set_sky(colors.zenith, heading, colors.glow)
            self.sky.paint(colors, heading)
            self.clouds.paint(day_time)
            if self.view_fluid is None:
                self._apply_fog()
        eye = tuple(camera.world_position)
        pitch = self.view_look()[1]
        far = math.ceil(far_clip(fog_end(self.settings.view_distance_columns), eye[1], pitch))
        if far != self.shown_far_clip:
            self.shown_far_clip = camera.clip_plane_far = far
        in_air = self.view_fluid is None
        self.sky.show(day_time, eye, visible=in_air)
        self.clouds.show(eye, self.world.ticks, visible=in_air)

    def set_peaceful(self, peaceful: bool) -> None:
        """The pause menu's Peaceful switch: a `SetPeaceful` event (`send`), the player's damage off (on)
        or on (off)."""
        self.send(SetPeaceful(self.session.ticks_run, peaceful))

    def send(self, event: Event) -> None:
        """A change the window's menus make to the game (`replay.GAME_CHANGES`), as an event of the
        tick that runs next: applied to the session now, so the menu shows it at once (ticks are
        stopped while it is open), and recorded (--record) in order with the input events applied
        before that tick, so a replay of the recording applies it at the same point of play. The
        window changes the game only through events (`_play_event`). TypeError for any other event."""
        if not isinstance(event, GAME_CHANGES):
            raise TypeError(f"the window's menus send only {', '.join(t.__name__ for t in GAME_CHANGES)}, "
                            f"got {event!r}")
        if self.cursor is not None:
            return  # a replay plays its own events; the window adds none
        self._play_event(event)

    def _play_event(self, event: Event) -> None:
        """Apply `event` to the session and record it (--record): the one path of every event, from
        the keyboard and mouse, the menus or a replay file. A player a replay line names joins at
        its first event (`Session.join_for`), as in a headless run."""
        self.session.join_for(event)
        self.session.apply(event)
        if self.recorder is not None:
            self.recorder.write(event)

    def request_respawn(self) -> None:
        """The death screen's Respawn button: the respawn key, as if pressed (so a recording has it)."""
        if self.cursor is None:
            self.live.receive(RESPAWN_KEY)

    def request_quit(self) -> None:
        self.quit_requested = True

    # --- input ----------------------------------------------------------------------------------

    def input(self, key: str) -> None:
        if key == PAUSE_KEY:
            if self.cursor is not None:
                self.quit_requested = True  # a replay ignores the real keyboard; Esc still ends it
            elif self.chat_input.is_open:
                self._close_chat()
            elif self.paused:
                self.resume()
            elif self.inventory.is_open:
                self._close_inventory()
            elif self.loading:
                self.quit_requested = True  # nothing played yet: quit at once (`close` saves nothing)
            else:
                self.pause()
            return
        if self.cursor is not None or key == PAUSE_KEY + " up":
            return
        if self.paused or self.loading:
            if key.endswith(" up") and key not in WHEEL_STEPS:
                self.live.receive(key)  # releases still count, so no key stays held after the menu
            elif key in self.session.bindings.screenshot:
                self._screenshot()  # ticks are stopped, so it cannot wait for one
            return
        if self.chat_input.is_open:
            self._chat_key(key)
            return
        if key == CHAT_KEY and not (self.inventory.is_open or self.death_screen.is_open):
            self.chat_opening = True  # next frame: this frame's keystroke "t" must not be typed into it
            return
        if self.death_screen.is_open and key in MOUSE_BUTTON_KEYS:
            return  # a click on the Respawn button must not also build once the player is back
        if self.inventory.is_open and self.inventory.handle(key, mouse.position):
            return  # the screen's: a click on the grid or a slot, a wheel step, a digit over an entry
        self.live.receive(key)

    def _open_chat(self) -> None:
        """T: the chat input line opens and the pointer is freed (Beta's GuiChat); the game goes on."""
        self.chat_opening = False
        if self.paused or self.loading or self.inventory.is_open or self.death_screen.is_open:
            return
        self.chat_input.open()
        mouse.locked = False

    def _chat_key(self, key: str) -> None:
        """A key while the chat input is open: the field types it (Ursina hands it the keystrokes);
        Enter says the line (a `Chat` event at the next tick) and closes it; releases still reach the
        game, so a key held when the chat opened does not stay held."""
        if key == SAY_KEY:
            line = self.chat_input.said()
            if line is not None:
                self.said.append(line)
            self._close_chat()
        elif key.endswith(" up") and key not in WHEEL_STEPS:
            self.live.receive(key)

    def _close_chat(self) -> None:
        self.chat_input.close()
        self._after_inventory()  # the pointer captured again, from the window's centre

    # --- frame ------------------------------------------------------------------------------------

    def update(self) -> None:
        now = time.perf_counter()
        wall_seconds = self.frame_timer.frame(now) or 0.0
        pointer_wanted = self.loading or self.paused or self.inventory.is_open or self.death_screen.is_open
        mouse.update_step = POINTER_RAYS_EVERY_FRAME if pointer_wanted else POINTER_RAYS_OFF
        screens_use_pointer(pointer_wanted)
        holds_pointer = not pointer_wanted and self.cursor is None and mouse.locked  # mouse look
        if not holds_pointer:
            self.pointer.release()
        if self.options.frame_delay_ms:
            time.sleep(self.options.frame_delay_ms / 1000.0)
        if self.loading:
            self._load()
            return
        if "first_frame_drawn" not in self.loading_times:
            self.loading_times["first_frame_drawn"] = time.time()
        if wall_seconds and not self.ticks_done:  # after a scripted run's last tick: its end, not play
            self.frame_times.add(wall_seconds)
            self.recent_frames.append((now, wall_seconds))
            while self.recent_frames and self.recent_frames[0][0] < now - FPS_WINDOW_S:
                self.recent_frames.popleft()
        if self.paused or self.ticks_done:
            self._stream()
            return
        if self.chat_opening:
            self._open_chat()
        if holds_pointer:
            degrees_per_unit = MOUSE_DEGREES_PER_UNIT * self.settings.mouse_sensitivity
            self.look = turned(*self.look, *self.pointer.take(), degrees_per_unit)
        frame = self.clock.advance(wall_seconds if self.wall_clock_ticks else SCRIPTED_FRAME_SECONDS)
        alpha = frame.alpha
        for _ in range(frame.ticks):
            self._tick()
            if self.session.ticks_run == self.options.exit_after_ticks:
                self.ticks_done = True
                alpha = 1.0
                break
        self._place_view(alpha)
        self._stream()

    def _stream(self) -> None:
        """Stream around the player, then hide what the eye cannot see (`ChunkRenderer.refresh_sight`)."""
        self._sync_lod_distance(self.streamer.view_distance)
        self.streamer.update(self.player_column())
        self.renderer.refresh_sight()

    def _load(self) -> None:
        started = time.perf_counter()
        self.streamer.update(self.player_column(), LOADING)
        stats = self.streamer.stats()
        if "spawn_loaded" not in self.loading_times and stats.loaded_columns == stats.wanted_columns:
            self.loading_times["spawn_loaded"] = time.time()
        self.loading_screen.progress(self.streamer.progress(), f"Generating terrain: {stats.loaded_columns} of "
                                     f"{stats.wanted_columns} columns, {stats.shown_sections} sections drawn")
        if not self.streamer.settled:
            time.sleep(max(0.0, LOADING_FRAME_S - (time.perf_counter() - started)))
        elif self._draw_first():
            return
        else:
            self.loading = False
            self.loading_screen.close()
            _draw_world(True)
            self.streamer.limit_radius(None)
            self.first_playable_at = time.time()
            self.first_playable_cpu_s = time.process_time()
            print(f"boxel: {self.world.path or 'the lab'} (seed {self.world.seed}) ready after "
                  f"{self.first_playable_at - self.started_at:.1f} s", flush=True)
            if self.cursor is None:
                mouse.locked = not self.death_screen.is_open  # a player saved dead needs the pointer
            gc.collect(YOUNG_GENERATIONS)
            gc.freeze()  # everything alive now is long-lived: later collections skip it

    def _draw_first(self) -> bool:
        """With the spawn area drawn: whether this is one of the FIRST_DRAW_FRAMES loading frames that draw
        the world and `FirstDraws`' samples behind the loading screen (their first draws are slow: see
        `game.window.first_draws`); after the last, the samples are destroyed and False is returned."""
        if self.first_draw_frames_left is None:
            # with a draw thread, a frame is drawn while the next is worked out: wait for it behind the screen
            self.first_draw_frames_left = FIRST_DRAW_FRAMES + frames_in_flight()
            _draw_world(True)  # behind the loading screen, which still covers the window
            self.first_draws = FirstDraws(self.renderer, item_picture, sky=self.sky, seed=self.world.seed)
            self.loading_times["first_draws_started"] = time.time()
            gc.collect()  # what loading left to free, behind the loading screen (see YOUNG_GENERATIONS)
        if self.first_draw_frames_left > 0:
            self.first_draw_frames_left -= 1
            return True
        if self.first_draws is not None:
            self.first_draws.destroy()
            self.first_draws = None
        return False

    def view_look(self) -> tuple[float, float]:
        """[degrees] (yaw, pitch) the view is drawn with: in live play where the mouse has turned it
        (`look`, ahead of the session's player by at most a tick), in a replay the player's own."""
        if self.cursor is None:
            return self.look
        player_input = self.session.player.input
        return player_input.yaw, player_input.pitch

    def player_column(self) -> tuple[int, int]:
        x, _, z = self.session.player.body.feet
        return column_of(math.floor(x), math.floor(z))

    # --- tick ---------------------------------------------------------------------------------------

    def _tick(self) -> None:
        """One session tick with this tick's events, then what the window shows of it."""
        session = self.session
        tick = session.ticks_run
        if self.cursor is not None:
            events = list(self.cursor.due(tick))
        else:
            events = self.live.events_for(tick, *self.look, session.hotbar.selected)
            events += [Chat(tick, line) for line in self.said]
            self.said.clear()
        for event in events:
            self._play_event(event)
        for _ in range(session.take_screenshot_requests()):
            self._screenshot()
        self._show_toggles()
        changes = self.last_changes = session.tick()
        self.streamer.note_changes(changes)  # the sections to re-mesh: the record's, nothing pulled
        self.sound.play(changes.sounds, session.player.eye, session.player.input.yaw)
        self.particles.tick()
        self.hud.after_tick()
        self.chat.after_tick()
        for broken in session.take_broken_blocks():
            self.particles.burst(broken.cell, broken.block)
        self._show_vitals()
        if self.options.report is not None and session.ticks_run % MEMORY_SAMPLE_TICKS == 0:
            self._sample_memory()  # ~3 ms at view distance 32: only for a report
        for notice in changes.notices:
            if notice.player in (None, session.local_name):
                print(f"boxel: {notice.text}", file=sys.stderr)
                self.chat.add(notice.text)
        if self.overlay.boxes_enabled:
            self.overlay.show_boxes(session.player.sink.last)
        if self.overlay.panel_enabled and session.ticks_run % PANEL_REFRESH_TICKS == 0:
            self._refresh_panel()

    def _sample_memory(self) -> None:
        stats = self.streamer.stats()
        cx, cz = self.player_column()
        farthest = max(((x - cx) ** 2 + (z - cz) ** 2 for x, _, z in self.renderer.shown_sections), default=0)
        self.memory_samples.append({
            "tick": self.session.ticks_run, "rss_mib": resident_mib(), "loaded_columns": stats.loaded_columns,
            "shown_columns": stats.shown_columns, "shown_sections": stats.shown_sections,
            "farthest_shown_column": math.sqrt(farthest), "section_entities": self.renderer.live_entities,
            "section_nodes": self.renderer.scene_nodes})

    def _show_toggles(self) -> None:
        """Show the session's HUD and overlay state and its hotbar, where they changed."""
        session, toggles = self.session, self.session.toggles
        if self.hud.visible != toggles.hud_visible:
            self.hud.visible = toggles.hud_visible
            self.chat.visible = toggles.hud_visible  # F1 hides the chat with the HUD, as in Beta
        panel_was_on = self.overlay.panel_enabled
        if (self.overlay.panel_enabled, self.overlay.boxes_enabled) != (toggles.overlay_panel, toggles.overlay_boxes):
            self.overlay.show_parts(panel=toggles.overlay_panel, boxes=toggles.overlay_boxes)
        if self.overlay.panel_enabled and not panel_was_on:
            self._refresh_panel()
        self.hud.show_hotbar(session.hotbar)  # redraws only when the slots or the selection changed
        inventory = session.player.inventory
        if self.hotbar_items is not None and inventory is not None:  # survival: the stacks and counts
            self.hotbar_items.show(inventory.slots[:9], inventory.selected)
        self._show_inventory()

    def _show_inventory(self) -> None:
        """Open or close the inventory screen as the session's `inventory_open` says: open, the
        pointer is free (no mouse look) and the crosshair hidden; closed, both come back."""
        session = self.session
        if isinstance(self.inventory, SurvivalScreen):
            self._show_survival_screen()
            return
        if session.inventory_open and not self.inventory.is_open:
            self.inventory.open(session.hotbar)
            self._show_crosshair()
            mouse.locked = False
        elif not session.inventory_open and self.inventory.is_open:
            self.inventory.close()
            self._after_inventory()
        if self.inventory.is_open:
            self.inventory.show_hotbar(session.hotbar)

    def _show_survival_screen(self) -> None:
        """Survival: the screen follows the player's open one (its slots, the cursor's stack, a
        furnace's fire); opening frees the pointer and hides the crosshair, closing takes them back."""
        player, was_open = self.session.player, self.inventory.is_open
        screen = player.screen if self.session.inventory_open else None
        cell = player.screen_cell
        furnace = None if screen is None or cell is None else self.session.block_entities.furnace(cell)
        self.inventory.follow_screen(screen, furnace)
        if self.inventory.is_open and not was_open:
            self._show_crosshair()
            mouse.locked = False
        elif was_open and not self.inventory.is_open:
            self._after_inventory()

    def _close_inventory(self) -> None:
        """Esc over the inventory: the screen closes now, and the inventory key is sent as if
        pressed (so the session closes it at the next tick and a recording has it)."""
        self.inventory.close()
        key = min(self.session.bindings.inventory)
        self.live.receive(key)
        self.live.receive(f"{key} up")
        self._after_inventory()

    def _after_inventory(self) -> None:
        """The crosshair back and the pointer captured again (mouse look starts from the window's
        centre, so a pointer left over a hotbar slot does not turn the view: `PointerMotion.take`)."""
        self._show_crosshair()
        if self.cursor is None and not self.paused and not self.death_screen.is_open:
            mouse.locked = True

    def _show_vitals(self) -> None:
        """Show the player's hearts and air, flash red on a tick that took health, and open or
        close the death screen (releasing the pointer while it is open)."""
        player = self.session.player
        self.hud.show_vitals(player.vitals)
        if player.damage_taken:
            self.effects.flash()
        if player.dead and not self.death_screen.is_open:
            self.death_screen.open()
            self._show_crosshair()
            mouse.locked = False
        elif not player.dead and self.death_screen.is_open:
            self.death_screen.close()
            self._show_crosshair()
            if self.cursor is None and not self.paused:
                mouse.locked = True
        if self.menu.peaceful == player.damage_enabled:  # a loaded save or a respawn may have changed it
            self.menu.show_peaceful(not player.damage_enabled)

    def _show_crosshair(self) -> None:
        """The crosshair only while nothing is open over the game: a cross over a menu's buttons
        reads as a pointer that is not there (the pause menu, the inventory, the death screen)."""
        self.hud.show_paused(self.paused or self.inventory.is_open or self.death_screen.is_open)

    def _screenshot(self) -> None:
        # A scripted run keeps F2 images beside its --screenshot (or in the temporary folder), out of the user's.
        folder = paths.screenshots_dir()
        if self.options.exit_after_ticks is not None:
            folder = (Path(self.options.screenshot).parent if self.options.screenshot is not None
                      else Path(tempfile.gettempdir()) / "boxel-screenshots")
        try:
            print(f"screenshot saved: {save_screenshot(application.base, folder)}")
        except OSError as error:  # a full disk must not end the game
            print(f"boxel: could not save a screenshot: {error}", file=sys.stderr)

    # --- drawing --------------------------------------------------------------------------------------

    def _place_view(self, alpha: float) -> None:
        session = self.session
        player = session.player
        view: View = player.view(alpha)
        fluid = health.eye_fluid(self.world, *view.eye)
        if fluid != self.view_fluid:
            self.view_fluid = fluid
            self.effects.show_fluid(fluid)
            self._apply_fog()
        self._place_camera(view, alpha)
        if self.options.cave_culling:
            self.renderer.look_from(*space.point(*camera.world_position))  # the mirror is its own inverse
        self._show_day_time()
        if not self.loading:
            self.target = find_target(self.world, player.eye, *self.view_look())  # the outline follows the mouse
            shown = self.target is not None and not self.inventory.is_open  # the screen covers the view
            self.outline.show(self.target.boxes if shown else ())
            self._show_cracks()
        self.particles.show(alpha)
        mobs, projectiles = session.mobs.views(alpha), session.projectiles.views(alpha)
        self.entities.show(mobs, projectiles, session.falling.views(alpha))
        self.entities.show_arrows([LookArrowPose.of(view) for view in session.arrows.views(alpha)])
        self.dropped_items.show(session.dropped.views(alpha))
        others = other_player_poses(session.players, session.local_name, alpha)
        self.other_players.show(others, camera.world_position, self.settings.fov_degrees)
        if self.overlay.boxes_enabled:
            self.overlay.show_player_box(view.box)
            self.overlay.show_velocity(view.box, player.body.velocity)
            self.overlay.show_bodies([pose.box for pose in others] + [v.box for v in mobs] + [v.box for v in projectiles]
                                     + [body.box for body in session.falling.bodies])  # falling sand: the tick's box
            self.overlay.show_contacts(session.projectiles.contacts)

    def _show_cracks(self) -> None:
        """The dug block's cracks (`Session.mining_progress`), on its boxes; none while nothing is dug."""
        progress = self.session.mining_progress
        if progress is None:
            self.cracks.hide()
            return
        target = self.target
        boxes = target.boxes if target is not None and tuple(target.block) == progress.cell else \
            selected_boxes(self.world, progress.cell)
        self.cracks.show(boxes, progress.stage)

    def _place_camera(self, view: View, alpha: float) -> None:
        """The camera at the eye, or behind it in third person (F5: `third_person_camera`), bobbing
        with the steps when the settings have view bobbing on (Beta's setupViewBobbing: the scene's
        offset and tilt in view space, so the camera moves and turns the other way); then the hand
        (first person) or the player's own model (third person)."""
        session, player = self.session, self.session.player
        yaw, pitch = self.view_look()
        third_person = session.toggles.third_person
        bob = session.view_motion.bobbing(alpha) if self.settings.view_bobbing else NO_BOBBING
        eye = third_person_camera(self.world, view.eye, yaw, pitch) if third_person else view.eye
        camera.rotation = (pitch + bob.pitch, yaw, bob.roll)
        camera.position = space.point(*eye)
        if bob.right or bob.up:
            camera.position -= camera.right * bob.right + camera.up * bob.up
        self._show_hand(alpha, bob, view.eye, visible=not third_person and session.toggles.hud_visible
                        and not player.dead and not self.inventory.is_open)
        if third_person:
            motion = session.view_motion
            self.player_model.show(view.box, yaw, pitch, motion.limbs(alpha), held=motion.shown)
        else:
            self.player_model.hide_model()
        self.overlay.first_person = not third_person  # the own box is drawn only from outside it

    def _show_hand(self, alpha: float, bob: Bobbing, eye: tuple[float, float, float], visible: bool) -> None:
        """The held block (or the bare arm) where Beta's ItemRenderer holds it: swinging, dipping
        while the held block changes, bobbing with the view, lit by the light at the eye (the
        brighter of sky light by the time of day and block light, through Beta's brightness table)."""
        if not visible:
            self.hand.show(None, None, visible=False)
            return
        motion = self.session.view_motion
        place = held_block_matrix if motion.shown is not None else empty_hand_matrix
        matrix = place(self.session.swing_progress(alpha), motion.equip_progress(alpha), bob)
        sky, block = self.world.light(*(math.floor(v) for v in eye))  # the lab's: full brightness
        shine = light_brightness(max(sky * self.renderer.daylight, block))
        self.hand.show(motion.shown, matrix, brightness=shine)

    def _refresh_panel(self) -> None:
        session = self.session
        player = session.player
        stats = self.streamer.stats()
        frames = [duration for _, duration in self.recent_frames]
        status = GameStatus(
            fps=len(frames) / max(sum(frames), 1e-9) if frames else 0.0,
            frame_ms=statistics.median(frames) * 1000.0 if frames else 0.0,
            tick_ms=session.tick_seconds * 1000.0,
            loaded_columns=stats.loaded_columns, queued_columns=stats.queued_columns,
            meshes_in_flight=stats.meshes_in_flight, sections_shown=stats.shown_sections,
            sections_hidden=len(self.renderer.hidden_sections), sections_coarse=len(self.renderer.coarse_sections),
            lod_distance=self.renderer.lod_distance, bodies=len(session.bodies()),
            yaw=player.input.yaw, pitch=player.input.pitch,
            flying=player.flying, sprinting=player.sprinting, target=self._target_text())
        body = player.body
        self.overlay.show_panel(panel_lines(body, player.sink.last, session.ticks_run)
                                + medium_lines(body, session.world)
                                + status_lines(status, body.feet)
                                + [changes_line(self.last_changes)]
                                + [f"mobs      {len(session.mobs)}  projectiles {len(session.projectiles)}"
                                   f"  contacts {len(session.projectiles.contacts)}"])

    def _target_text(self) -> str:
        if self.target is None:
            return "-"
        x, y, z = self.target.block
        return f"{self.world.get_block(x, y, z)} at {x} {y} {z}, face {self.target.face}"

    # --- saving and the end of a run ----------------------------------------------------------------

    def settle(self) -> None:
        """At the end of a scripted run: stream until every wanted column is drawn (waits up to
        SETTLE_TIMEOUT_S; past it the run ends with what is drawn, a warning on stderr and the report's
        `settled` false). The wait is no frame: frame times leave it out, as they leave out every
        frame after the last tick (`update`)."""
        started = time.perf_counter()
        self.settled = self.streamer.settle(self.player_column(), SETTLE_TIMEOUT_S, raise_on_timeout=False)
        self.settle_seconds = time.perf_counter() - started
        if not self.settled:
            print(f"boxel: warning: streaming did not finish within {SETTLE_TIMEOUT_S:g} s "
                  f"({self.streamer.stats()}); the screenshot and report show what was drawn by then",
                  file=sys.stderr)
        self.frame_timer.skip_gap()

    def world_views(self) -> tuple:
        """The window's parts made for this world that `scene.clear()` does not reach, each with a
        `destroy()`: the hand (a display region of its own on the window, drawn until removed: left
        behind, the last world's held block stayed on screen over the next), the player's own model,
        the sky and the clouds (kept out of Ursina's entity list), and the first draws' samples while the
        loading screen is up (their hands are display regions too). `close` destroys them, so the next
        world's `Game` makes them anew."""
        return tuple(part for part in (self.hand, self.player_model, self.other_players, self.sky, self.clouds,
                                       self.first_draws) if part is not None)

    def close(self) -> None:
        """Stop the mesher, tear down this world's views (`world_views`), save and close the world (at
        quit, window close, or the end of a scripted run).
        Quit while loading, nothing was played: the world is closed as it was opened, unsaved."""
        try:
            _draw_world(True)  # off while loading: the window's next world is drawn
            self.renderer.close()
            self.sound.close()
            for part in self.world_views():
                part.destroy()
        finally:
            if self.loading:
                self.session.world.close()
            else:
                self.session.close()

    def write_outputs(self, app) -> None:
        """Save --screenshot and --report (parent folders are created); LaunchError when one cannot be written."""
        if self.options.screenshot is not None:
            save_window_image(app, self.options.screenshot)
        if self.options.report is not None:
            try:
                write_report(self.options.report, self.report())
            except OSError as error:
                raise LaunchError(f"cannot write the report {self.options.report}: {error.strerror or error}") from None

    def report(self) -> dict:
        """The session's report, plus what only the window has: streaming, the window, frame times."""
        stats = self.streamer.stats()
        return {
            **self.session.report(),
            "columns_loaded": stats.loaded_columns,
            "sections_shown": stats.shown_sections,
            "section_entities": self.renderer.live_entities,
            "sections_hidden": len(self.renderer.hidden_sections),
            "sections_coarse": len(self.renderer.coarse_sections),
            "lod_distance": self.renderer.lod_distance,
            "view_distance": self.streamer.view_distance,
            "window": list(self.options.size),
            "graphics_renderer": graphics_renderer(),
            "draw_thread": frames_in_flight() > 0,
            "first_playable_s": None if self.first_playable_at is None else self.first_playable_at - self.started_at,
            "first_playable_epoch_s": self.first_playable_at,
            "first_playable_cpu_s": self.first_playable_cpu_s,
            "loading_times": dict(self.loading_times),
            "frame_ms": self.frame_times.summary_ms(),
            "settle_s": self.settle_seconds,
            "settled": self.settled,
            "view_fluid": None if self.view_fluid is None else self.view_fluid.name.lower(),
            "falling_blocks_drawn": len(self.entities.falling),
            "other_players_drawn": sorted(self.other_players.models),
            "name_tags_drawn": sorted(self.other_players.shown_tags),
            "chat_lines_drawn": self.chat.shown,
            "chat_input_open": self.chat_input.is_open,
            "break_particles_drawn": len(self.particles.cloud),
            "crack_stage_drawn": None if self.cracks.shown is None else self.cracks.shown[1],
            "death_screen": self.death_screen.is_open,
            "crosshair_drawn": self.hud.crosshair_shown,
            "memory": self.memory_samples,
            "sounds_heard": dict(sorted(self.sound.heard.items())),
        }
