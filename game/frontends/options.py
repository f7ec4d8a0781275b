"""What a launch asks for: `LaunchOptions`, the checked result of the command line.

Owns: the options' value type and its defaults. Pure data: both the entry point (`game.frontends.cli`,
which parses and checks the command line into it) and the runners (`game.window.app`, `game.frontends.headless`)
import it, so neither imports the other for a type.
Does not own: parsing or checking (`game.frontends.cli`), or what a run does with the options.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..rules.replay import Event

DEFAULT_SIZE = (1280, 720)
"""[pixels] Window size when --size is not given."""


@dataclass(frozen=True)
class LaunchOptions:
    lab: bool = False
    """--lab: open the physics lab instead of the world."""
    headless: bool = False
    """--headless: run the session with no window (a replay to its last tick, then the report)."""
    size: tuple[int, int] = DEFAULT_SIZE
    """[pixels] Window width and height."""
    fov: float | None = None
    """[degrees] Vertical field of view; None: the user's setting."""
    replay: tuple[Event, ...] | None = None
    """Events to play instead of the keyboard and mouse (parsed from --replay)."""
    record: Path | None = None
    exit_after_ticks: int | None = None
    screenshot: Path | None = None
    report: Path | None = None
    world: Path | None = None
    """The world file; None: `game.userdata.paths.default_world_path()`."""
    seed: int | None = None
    """Seed for a new world (--seed's text read by `game.world.seed_text.seed_from_text`); None: a random one.
    For an existing world it must be that world's seed: `game.frontends.cli.open_world` refuses any other."""
    new: bool = False
    """--new: create the world; it is an error if something is already at the path."""
    game_mode: str | None = None
    """--game-mode: "survival" or "creative" for a new world (None: survival, as Beta's new worlds); an
    existing world must already be of that mode (`game.frontends.cli.open_world` refuses another)."""
    view_distance: int | None = None
    """[columns] None: the user's setting."""
    frame_delay_ms: float = 0.0
    """[ms] Sleep this long every frame (testing: a slow machine, without changing the outcome)."""
    realtime: bool = False
    """Run a replay's ticks from the wall clock instead of two frames per tick (benchmarks)."""
    day_time: int | None = None
    """[ticks] --time: the time of day to start at (0..23,999, 0 sunrise); None: the world's saved time.
    A launch option, not an event: it sets where play starts, before tick 0, and a recording does not
    hold it (replay with the same --time); a change during play is the `set_day_time` event
    (`game.rules.replay.SetDayTime`, the pause menu's time buttons)."""
    profile_frames: bool = False
    """--profile-frames (hidden): the report carries a per-frame breakdown from Panda3D's PStats (`game.window.frame_profile`)."""
    offscreen: bool = False
    """--offscreen (hidden): draw into an offscreen buffer through EGL, with no display (`bench.bench_gpu`
    on a GPU machine with no screen)."""
    cave_culling: bool = True
    """False with --no-cave-culling (hidden): every shown section is drawn, also those the eye cannot see
    (`ChunkRenderer.refresh_sight`); for tests and benchmarks that compare."""
    levels_of_detail: bool = True
    """False with --no-lod (hidden): every section drawn from its fine mesh at any view distance
    (`game.window.render.lod_distance.lod_distance_for`); for benchmarks that compare."""
    draw_thread: bool = True
    """False with --no-draw-thread: Panda3D draws on the main thread instead of a thread of its own
    (`game.window.render.window.DRAW_THREAD_CONFIG`), so a frame's image is shown at the end of that
    frame, not one frame later; --profile-frames (its breakdown times the draw inside the frame) and
    --offscreen (a buffer's image cannot be read back from a draw thread) draw on the main thread too."""
    server: bool = False
    """--server: serve the world to network clients (`game.frontends.server`), with no window."""
    host: str = "127.0.0.1"
    """--host: the address a server listens on (127.0.0.1: this machine only; 0.0.0.0: the LAN too)."""
    port: int = 25565
    """--port: the TCP port a server listens on (0: a free one, printed at start)."""
    max_players: int = 20
    """[players] --max-players: a server refuses handshakes beyond this."""
    allow_flying: bool = False
    """--allow-flying: a server lets its players fly (`game.net.hub.ServerLimits.flying_allowed`); off by
    default, as Minecraft's servers (`allow-flight=false`): there the fly key toggles nothing."""
    classic_port: int | None = None
    """--classic-port: with --server, also accept Minecraft Classic clients on this TCP port (0: a free
    one, printed at start; `game.net.classic`); None: Boxel clients only."""
    classic_size: tuple[int, int, int] = (256, 128, 256)
    """[blocks] --classic-size WxHxD: the map window a Classic client gets, around the spawn."""
    connect: tuple[str, int] | None = None
    """--connect HOST:PORT: play on a server instead of a world file (`game.frontends.connect`)."""
    name: str | None = None
    """--name: the player name a client joins a server with."""
