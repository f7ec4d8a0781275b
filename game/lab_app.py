"""The physics lab app: the arena on screen, a first-person player moved only by `physics.step`,
the F3 overlay, and scripted runs (replay, record, exit after N ticks with screenshot and report).

Owns: the Ursina window and scene for the lab, the frame loop (fixed 20 Hz ticks from
`TickClock`, view interpolated between the last two ticks, mouse look every frame), routing
input events (keyboard or replay file) to `controls.InputState` at tick boundaries, recording
them, and the end-of-run outputs.
Does not own: physics, the arena layout (`game.lab`), the event format (`game.replay`), the
key mapping (`game.controls`) or the physics -> Ursina mapping (`game.render.space`).

A tick: apply the events due (replay) or received since the last tick (keyboard; the look
angles are recorded as a `look` event when they changed), build the `Intent`, `physics.step`
with a `RecordingSink(keep=1)`, keep the previous body for interpolation. A frame: add the
frame's duration to the clock, run the ticks it hands out, then draw the player's view at
previous + (current - previous) x alpha, eye at feet + 1.62 - camera lag (lag blended the same way).

Scripted runs are deterministic and independent of the frame rate: with --replay the clock is
fed a fixed SCRIPTED_FRAME_SECONDS per frame instead of wall time, so every run makes exactly two
frames per tick (alpha 0 and 0.5) whatever the machine, and events apply at their ticks. The
final screenshot is drawn at the last tick's state (alpha 1). Frame times in the report are
real wall-clock durations.
"""

from __future__ import annotations

import time

import numpy as np
from panda3d.core import TransparencyAttrib
from PIL import Image
from ursina import Entity, Mesh, Text, Texture, camera, color, mouse, scene, window

import physics
from game.cli import LaunchOptions
from game.clock import SCRIPTED_FRAME_SECONDS, FrameTimes, TickClock
from game.controls import InputState, event_from_ursina, turned
from game.lab import SPAWN_PITCH, SPAWN_YAW, Arena, arena_mesh, build_arena
from game.render import space
from game.player import EYE_HEIGHT, FALL_RESPAWN_Y, blend
from game.render.window import (CLOSING_FRAMES, NEAR_CLIP, LaunchError, horizontal_fov, open_window,
                                write_run_outputs)
from game.replay import Event, Look, ReplayCursor, ReplayWriter
from game.saved_values import body_fields
from game.ui.debug_overlay import DebugOverlay

FAR_CLIP = 500.0
SKY_COLOR = (0.62, 0.78, 0.96)
FOG_RANGE = (40.0, 90.0)
"""[blocks] Linear fog from start to end distance: far parts of the arena fade into the sky."""
TEXTURE_SIZE = 16
"""[pixels] Side of each procedural block texture (drawn with nearest filtering)."""
TEXTURE_SEED = 2
"""Seed of the texture noise, so every run draws the same image."""


def run(options: LaunchOptions) -> int:
    """Open the lab window and run until the player quits or --exit-after-ticks is reached."""
    recorder = None
    if options.record is not None:
        try:
            recorder = ReplayWriter.open(options.record)
        except OSError as error:
            raise LaunchError(f"cannot write the recording {options.record}: {error.strerror or error}") from None
    try:
        app = open_window(options.size)
        lab = Lab(build_arena(), options, recorder)
        while not (lab.ticks_done or lab.quit_requested):
            app.step()
        if lab.ticks_done:
            for _ in range(CLOSING_FRAMES):
                app.step()
            lab.write_outputs(app)
    finally:
        if recorder is not None:
            recorder.close()
    return 0


class Lab:
    """The running lab. Its hook entity makes Ursina call `input` for every key and `update` once per frame."""

    def __init__(self, arena: Arena, options: LaunchOptions, recorder: ReplayWriter | None) -> None:
        self.arena = arena
        self.options = options
        self.recorder = recorder
        self.cursor = ReplayCursor(options.replay) if options.replay is not None else None
        self.clock = TickClock()
        self.frame_times = FrameTimes()
        self.state = InputState(SPAWN_YAW, SPAWN_PITCH)
        self.received: list[str] = []
        """Ursina input names since the last tick (unused under a replay)."""
        self.recorded_look = (self.state.yaw, self.state.pitch)
        self.body = self.previous = arena.spawn_body()
        self.sink = physics.RecordingSink(keep=1)
        self.tick = 0
        """Ticks simulated so far; also the number of the next tick."""
        self.ticks_done = False
        """--exit-after-ticks was reached: the final view is placed, outputs are due."""
        self.quit_requested = False
        self._last_frame: float | None = None
        self._hooks = Entity(name="lab", update=self.update, input=self.input)

        _build_scene(arena)
        self.overlay = DebugOverlay()
        camera.fov = horizontal_fov(options.fov, window.aspect_ratio)
        camera.clip_plane_near = NEAR_CLIP
        camera.clip_plane_far = FAR_CLIP
        self.hint = Text(parent=camera.ui, origin=(0, 0), scale=0.9, color=color.white,
                         text="Click to look around.   Esc releases the mouse, Esc again quits.")
        if self.cursor is None:
            self._capture_mouse(True)
        else:
            self.hint.enabled = False
        self._place_view(1.0)

    # --- input ------------------------------------------------------------------------------

    def input(self, key: str) -> None:
        if key == "escape up":
            return  # Esc is handled on its press and is not game input
        if key == "escape":
            if self.cursor is None and mouse.locked:
                self._capture_mouse(False)
            else:
                self.quit_requested = True
            return
        if self.cursor is not None:
            return  # a replay drives the game; the real keyboard and mouse are ignored
        if key == "left mouse down" and not mouse.locked:
            self._capture_mouse(True)
            return
        self.received.append(key)

    def _capture_mouse(self, captured: bool) -> None:
        mouse.locked = captured
        self.hint.enabled = not captured

    # --- frame ------------------------------------------------------------------------------

    def update(self) -> None:
        if self.ticks_done:
            return
        now = time.perf_counter()
        wall_seconds = 0.0 if self._last_frame is None else now - self._last_frame
        self._last_frame = now
        if wall_seconds:
            self.frame_times.add(wall_seconds)
        if self.cursor is None and mouse.locked:
            self.state.look_at(*turned(self.state.yaw, self.state.pitch, mouse.velocity[0], mouse.velocity[1]))

        frame = self.clock.advance(SCRIPTED_FRAME_SECONDS if self.cursor is not None else wall_seconds)
        alpha = frame.alpha
        for _ in range(frame.ticks):
            self._tick()
            if self.tick == self.options.exit_after_ticks:
                self.ticks_done = True
                alpha = 1.0
                break
        self._place_view(alpha)

    def _tick(self) -> None:
        tick = self.tick
        for event in self._events_for(tick):
            if self.state.apply(event):
                self.overlay.toggle()
            if self.recorder is not None:
                self.recorder.write(event)
        self.previous = self.body
        self.body = physics.step(self.body, self.arena.grid, self.state.intent(), debug=self.sink)
        if self.body.feet[1] < FALL_RESPAWN_Y:
            self.body = self.previous = self.arena.spawn_body()
        self.tick = tick + 1
        if self.overlay.enabled:
            summary = self.frame_times.summary_ms()
            self.overlay.show_move(self.body, self.sink.last, self.tick, extra=(
                f"look      yaw {self.state.yaw:7.2f}  pitch {self.state.pitch:6.2f}",
                f"frame     {summary['median']:.1f} ms median over {summary['frames']} frames",
            ))

    def _events_for(self, tick: int) -> list[Event]:
        if self.cursor is not None:
            return list(self.cursor.due(tick))
        events = []
        look = (self.state.yaw, self.state.pitch)
        if look != self.recorded_look:
            self.recorded_look = look
            events.append(Look(tick, *look))
        events += [e for name in self.received if (e := event_from_ursina(name, tick)) is not None]
        self.received.clear()
        return events

    def _place_view(self, alpha: float) -> None:
        previous, current = self.previous, self.body
        box = tuple(blend(p, c, alpha) for p, c in zip(previous.box, current.box))
        lag = blend(previous.camera_lag, current.camera_lag, alpha)
        feet_x, feet_y, feet_z = (box[0] + box[3]) / 2.0, box[1], (box[2] + box[5]) / 2.0
        camera.position = space.point(feet_x, feet_y + EYE_HEIGHT - lag, feet_z)
        camera.rotation = space.camera_rotation(self.state.yaw, self.state.pitch)
        if self.overlay.enabled:
            self.overlay.show_player_box(box)

    # --- end of a scripted run ----------------------------------------------------------------

    def write_outputs(self, app) -> None:
        """Save --screenshot and --report (parent folders are created)."""
        write_run_outputs(app, self.options.screenshot, self.options.report, self.report)

    def report(self) -> dict:
        body = self.body
        return {
            "ticks_run": self.tick,
            "feet": list(body.feet),
            **body_fields(body),
            "yaw": self.state.yaw,
            "pitch": self.state.pitch,
            "debug_overlay": self.overlay.enabled,
            "window": list(self.options.size),
            "frame_ms": self.frame_times.summary_ms(),
        }


# --- the scene -------------------------------------------------------------------------------

def _build_scene(arena: Arena) -> None:
    window.color = color.rgb(*SKY_COLOR)
    scene.fog_color = color.rgb(*SKY_COLOR)
    scene.fog_density = FOG_RANGE
    rng = np.random.default_rng(TEXTURE_SEED)
    for material, arrays in arena_mesh(arena).items():
        mesh = Mesh(vertices=space.positions(arrays.positions), triangles=arrays.indices,
                    colors=arrays.colors, uvs=arrays.uvs, static=True)
        entity = Entity(model=mesh, texture=_texture(material, rng))
        entity.model.set_transparency(TransparencyAttrib.M_none)
    for scale in ((0.022, 0.0025), (0.0025, 0.022)):  # crosshair
        Entity(parent=camera.ui, model="quad", scale=scale, color=color.rgba(1, 1, 1, 0.85))


def _texture(material: str, rng: np.random.Generator) -> Texture:
    """A small greyscale pattern per material; the mesh's vertex colours give the hue."""
    n = TEXTURE_SIZE
    value = 0.9 + 0.1 * rng.random((n, n))
    rows, cols = np.mgrid[0:n, 0:n]
    if material == "brick":
        course = rows // 4
        joint = (cols + 4 * (course % 2)) % 8 == 0
        value = np.where((rows % 4 == 0) | joint, 0.72, value)
    elif material in ("planks", "fence"):
        value = np.where(rows % 4 == 0, 0.78, value * (0.95 + 0.05 * np.sin(cols * 0.9 + rows)))
    elif material == "cobble":
        blotches = rng.random((n // 4 + 1, n // 4 + 1))[rows // 4, cols // 4]
        value = value * (0.8 + 0.2 * blotches)
    elif material == "ice":
        value = np.where((rows + cols) % 7 == 0, 1.0, 0.9 + 0.03 * rng.random((n, n)))
    edge = (rows == 0) | (cols == 0) | (rows == n - 1) | (cols == n - 1)
    value = np.where(edge, value * 0.82, value)
    grey = (np.clip(value, 0.0, 1.0) * 255).astype(np.uint8)
    rgba = np.dstack([grey, grey, grey, np.full_like(grey, 255)])
    texture = Texture(Image.fromarray(rgba, "RGBA"))
    texture.filtering = None
    return texture
