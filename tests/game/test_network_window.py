"""The window as a network client (`--connect HOST:PORT --name NAME` with a window): two windowed
clients under Xvfb join one server subprocess on 127.0.0.1; one places a block by a replay, and a
screenshot from the other, which joins once the block is there, shows the block where it projects
and the first player's model with its name tag. A refused join exits with the server's reason. A
client that got no window (`conftest.START_FAILURES`) is started again, as the other display tests do."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.net.link import Link
from game.net.protocol import TickUpdate
from game.rules.player import EYE_HEIGHT
from game.rules.replay import Click, KeyDown, KeyUp, Look, ReplayWriter
from game.rules.targeting import look_direction
from game.world.blocks import block_id
from tests.net.test_server_process import start_server, stop

from .conftest import REPO_ROOT, TEST_WINDOW_SIZE, display_command, keep_docs_screenshot, retry_start

pytestmark = pytest.mark.display

CLIENT_TIMEOUT_S = 150
"""[s] For one windowed client's whole run (a hang ends here; a run takes ~40 s on the 2-core machine)."""
BOB_TICKS = 60
"""[ticks] The watching window plays this long once loaded (alice's model blends to where she stands)."""
FOV_DEGREES = 70.0
"""The clients' vertical field of view (in their settings file), for the block's place on screen."""
WINDOW = tuple(int(v) for v in TEST_WINDOW_SIZE.split("x"))
PATCH = 3
"""[pixels] Half the side of the square looked at around the block's projected middle."""
STONE_GREY = (50, 200)
"""Stone's texels as drawn in daylight, its shaded sides too: grey, each channel in this range and
within STONE_TINT of each other (grass, dirt, leaves and sky are far from grey)."""
STONE_TINT = 16


def _write(path: Path, events) -> Path:
    with ReplayWriter.open(path) as writer:
        for event in events:
            writer.write(event)
    return path


def _client(tmp_path: Path, port: int, name: str, replay: Path, ticks: int) -> subprocess.Popen:
    env = {**os.environ, "BOXEL_CONFIG_DIR": str(tmp_path / name / "config"),
           "BOXEL_DATA_DIR": str(tmp_path / name / "data")}
    (tmp_path / name / "config").mkdir(parents=True, exist_ok=True)
    (tmp_path / name / "config" / "settings.json").write_text(json.dumps({"fov_degrees": FOV_DEGREES}))
    command = [*display_command(), sys.executable, str(REPO_ROOT / "main.py"), "--connect", f"127.0.0.1:{port}",
               "--name", name, "--size", TEST_WINDOW_SIZE, "--replay", str(replay), "--exit-after-ticks", str(ticks),
               "--screenshot", str(tmp_path / name / "last.png"), "--report", str(tmp_path / name / "report.json")]
    return subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _ran(client: subprocess.Popen) -> tuple[int, str]:
    """Wait for `client` to end (killed after CLIENT_TIMEOUT_S): its exit status and stderr."""
    try:
        _, err = client.communicate(timeout=CLIENT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(client.pid, signal.SIGKILL)
        raise
    return client.returncode, err


def _stop_game(client: subprocess.Popen) -> None:
    """SIGTERM to the game in `client`'s session (not its X server, which must outlive the window's
    closing: the game leaves the server and removes its mirror world; nor xvfb-run, whose command line
    names main.py too and which stops its X server only when the game is done), then wait for all of it."""
    found = subprocess.run(["pgrep", "-s", str(client.pid), "-f", "main.py"], capture_output=True, text=True)
    for pid in found.stdout.split():
        if _runs_main_py(int(pid)):
            os.kill(int(pid), signal.SIGTERM)
    try:
        client.communicate(timeout=CLIENT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(client.pid, signal.SIGKILL)
        raise


def _runs_main_py(pid: int) -> bool:
    """Whether process `pid` is Python running main.py itself (its argv[1]); False once it has gone."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return len(argv) > 1 and Path(argv[1].decode()).name == "main.py"


def _block_placed_by(start_builder, port: int) -> tuple[int, int, int]:
    """The cell that the client `start_builder()` starts places (`_first_block_placed`), the client
    started again when it got no window (`retry_start`); fails, with its output, when it exited first."""
    def attempt() -> tuple[int | None, str, tuple[int, int, int] | None]:
        builder = start_builder()
        cell = _first_block_placed(port, builder)
        return (None, "", cell) if cell is not None else (builder.returncode, builder.stderr.read(), None)

    status, err, cell = retry_start(attempt)
    if cell is None:
        pytest.fail(f"the building client exited ({status}) before placing a block:\n{err[-3000:]}")
    return cell


def _first_block_placed(port: int, builder: subprocess.Popen) -> tuple[int, int, int] | None:
    """Watch the server as a player of the test's own ("watcher", no window) until a block is
    placed; the cell, or None at once when the client `builder` that is to place it has exited.
    The watcher leaves then."""
    link = Link.open("127.0.0.1", port, "watcher")
    try:
        deadline = time.monotonic() + CLIENT_TIMEOUT_S
        while time.monotonic() < deadline and link.lost is None:
            if builder.poll() is not None:
                return None
            for message in link.take():
                if isinstance(message, TickUpdate) and message.blocks:
                    edit = message.blocks[0]
                    assert edit.block == block_id("stone")
                    return edit.x, edit.y, edit.z
            time.sleep(0.05)
        pytest.fail(f"no block placed in {CLIENT_TIMEOUT_S} s ({link.lost})")
    finally:
        link.close()


def _screen_pixel(report: dict, point) -> tuple[int, int]:
    """(column, row) of the window pixel a physics point lands on, seen from the report's eye and look."""
    feet = np.array(report["predicted_feet"])
    eye = feet + (0.0, EYE_HEIGHT, 0.0)
    forward = np.array(look_direction(report["yaw"], report["pitch"]))
    right = np.cross(forward, (0.0, 1.0, 0.0))  # Minecraft's axes: facing +z, +x is on the left
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    offset = np.array(point, dtype=float) - eye
    depth = offset @ forward
    half_height = math.tan(math.radians(FOV_DEGREES) / 2.0)
    width, height = WINDOW
    x = (offset @ right) / depth / (half_height * width / height)
    y = (offset @ up) / depth / half_height
    return round((x + 1.0) / 2.0 * width), round((1.0 - y) / 2.0 * height)


def _stone_pixels(picture: np.ndarray) -> np.ndarray:
    low, high = STONE_GREY
    rgb = picture[..., :3].astype(int)
    grey = (rgb.max(axis=2) - rgb.min(axis=2)) <= STONE_TINT
    return grey & (rgb.min(axis=2) >= low) & (rgb.max(axis=2) <= high)


@pytest.mark.slow
def test_a_block_one_windowed_client_places_shows_in_the_other_clients_window_with_the_first_players_model(tmp_path):
    server, port = start_server(tmp_path / "served.boxel", "--new", "--seed", "42")
    started: list[subprocess.Popen] = []  # every client started, each stopped at the end if still running

    def start(name: str, replay: Path, ticks: int) -> subprocess.Popen:
        started.append(_client(tmp_path, port, name, replay, ticks))
        return started[-1]

    try:
        # alice walks along +Z, stops, turns to +X looking down, places stone beside her and stays.
        builder = _write(tmp_path / "alice.jsonl", [
            KeyDown(5, "w"), KeyUp(20, "w"), Look(25, 270.0, 60.0), Click(40, "right")])
        cell = _block_placed_by(lambda: start("alice", builder, 20 * CLIENT_TIMEOUT_S), port)
        # bob joins at the spawn once the block is there, looks along +Z, and takes the picture.
        watching = _write(tmp_path / "bob.jsonl", [Look(2, 0.0, 12.0)])
        status, err = retry_start(lambda: _ran(start("bob", watching, BOB_TICKS)))
        assert status == 0, err[-4000:]
    finally:
        for client in started:
            if client.poll() is None:
                _stop_game(client)
        status, log = stop(server, signal.SIGTERM)
    assert status == 0, log

    report = json.loads((tmp_path / "bob" / "report.json").read_text())
    assert report["edited_blocks"] == [[*cell, "stone"]]  # bob's copy of the world holds alice's block
    assert report["other_players_drawn"] == ["alice"]
    assert report["name_tags_drawn"] == ["alice"]
    assert report["lost"] is None
    picture = np.asarray(Image.open(tmp_path / "bob" / "last.png"))
    x, y, z = cell
    column, row = _screen_pixel(report, (x + 0.5, y + 0.7, z))  # on the face bob sees (-Z), above any ledge
    patch = _stone_pixels(picture)[row - PATCH:row + PATCH + 1, column - PATCH:column + PATCH + 1]
    assert patch.mean() > 0.8, (column, row, picture[row, column])  # stone where the block should be
    keep_docs_screenshot(tmp_path / "bob" / "last.png", "multiplayer.png")


def test_a_window_whose_server_is_full_exits_with_the_servers_reason(tmp_path):
    from game.net.link import Link

    server, port = start_server(tmp_path / "served.boxel", "--new", "--seed", "42", "--max-players", "1")
    try:
        holder = Link.open("127.0.0.1", port, "alice")  # the one place there is
        try:
            nothing = _write(tmp_path / "b.jsonl", [])
            status, err = retry_start(lambda: _ran(_client(tmp_path, port, "bob", nothing, 20)))
        finally:
            holder.close()
    finally:
        stop(server, 15)
    assert status == 4, err[-3000:]
    assert f"the server 127.0.0.1:{port} said: " in err and "full" in err, err[-3000:]
    assert not (tmp_path / "bob" / "report.json").exists()
