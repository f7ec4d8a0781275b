"""The frame profile's pure parts: the PStats wire protocol, per-frame collector times, the summary and the
breakdown table of `python -m bench game --profile`, the drawn-block count, and the peers suite's arithmetic."""

import os
import socket
import struct
import sys

import numpy as np
import pytest

from bench import bench_game, bench_peers
from bench.harness import run_in_window
from game.window import frame_profile
from game.frontends.cli import parse_options
from game.window.frame_profile import (CollectorDef, CollectorNames, FrameData, PStatsReceiver, ProtocolError,
                                collector_seconds, decode_collectors, decode_frame, exposed_blocks, playing_frames,
                                summarize, take_messages)
from game.world.blocks import OPAQUE


def frame_payload(thread, number, events, levels):
    """A client frame message as Panda3D writes it: events are (collector, is_start, seconds)."""
    data = struct.pack("<BHIH", 0, thread, number, len(events))
    for index, is_start, seconds in events:
        data += struct.pack("<Hf", index | (0 if is_start else 0x8000), seconds)
    data += struct.pack("<H", len(levels))
    for index, value in levels:
        data += struct.pack("<Hf", index, value)
    return data


def string(text):
    return struct.pack("<H", len(text)) + text.encode()


def collectors_payload(defs):
    data = struct.pack("<BH", 2, len(defs))
    for index, name, parent, units, factor in defs:
        data += (struct.pack("<h", index) + string(name) + struct.pack("<hfffh", parent, 0.5, 0.5, 0.5, -1)
                 + string(units) + struct.pack("<ff", 0.0, factor))
    return data


def framed(payload):
    return struct.pack("<I", len(payload)) + payload


def names_for(*defs):
    names = CollectorNames()
    names.define(CollectorDef(*d) for d in defs)
    return names


def test_a_frame_message_decodes_into_its_start_and_stop_events_and_levels():
    frame = decode_frame(frame_payload(0, 7, [(0, True, 1.0), (3, True, 1.25), (3, False, 1.5), (0, False, 2.0)],
                                       [(5, 442.0)]))
    assert frame == FrameData(0, 7, ((0, True, 1.0), (3, True, 1.25), (3, False, 1.5), (0, False, 2.0)),
                              ((5, 442.0),))


def test_a_frame_message_cut_short_is_a_protocol_error():
    payload = frame_payload(0, 7, [(0, True, 1.0), (0, False, 2.0)], [(5, 1.0)])
    with pytest.raises(ProtocolError):
        decode_frame(payload[:-3])
    with pytest.raises(ProtocolError, match="not a frame"):
        decode_frame(b"\x01" + payload[1:])


def test_a_collectors_time_is_the_sum_of_its_spans_and_a_nested_start_of_it_adds_nothing():
    frame = FrameData(0, 1, ((4, True, 1.0), (4, False, 1.25), (4, True, 1.5), (4, True, 1.75), (4, False, 2.0),
                             (4, False, 2.5), (9, True, 3.0), (9, False, 3.5)), ())
    assert collector_seconds(frame) == {4: 1.25, 9: 0.5}


def test_collector_definitions_give_full_names_under_the_frame_and_raw_levels_by_their_factor():
    defs = decode_collectors(collectors_payload([(0, "Frame", 0, "", 1.0), (1, "Draw", 0, "", 1.0),
                                                 (2, "window1", 1, "", 1.0), (3, "Vertices", 0, "K", 0.5)]))
    names = CollectorNames()
    names.define(defs)
    assert [names.full_name(i) for i in range(4)] == ["Frame", "Draw", "Draw:window1", "Vertices"]
    assert names.full_name(42) == "#42"
    assert names.raw_level(3, 21.0) == 42.0


def test_only_whole_messages_are_taken_from_the_buffer_and_a_partial_one_stays():
    buffer = bytearray(framed(b"\x01ab") + framed(b"\x02cdef")[:5])
    assert take_messages(buffer) == [b"\x01ab"]
    assert buffer == bytearray(framed(b"\x02cdef")[:5])
    buffer += framed(b"\x02cdef")[5:]
    assert take_messages(buffer) == [b"\x02cdef"] and buffer == bytearray()


def test_the_summary_counts_a_collector_that_did_not_run_in_a_frame_as_zero_and_counts_missing_frames():
    names = names_for((0, "Frame", 0, "", 1.0), (1, "Cull", 0, "", 1.0), (2, "Geoms", 0, "", 1.0))
    frames = [FrameData(0, 10, ((0, True, 0.0), (1, True, 0.0), (1, False, 0.5), (0, False, 1.0)), ((2, 30.0),)),
              FrameData(0, 11, ((0, True, 1.0), (0, False, 3.0)), ((2, 10.0),)),
              FrameData(0, 13, ((0, True, 3.0), (1, True, 3.0), (1, False, 4.0), (0, False, 6.0)), ((2, 20.0),))]
    summary = summarize(frames, names)
    assert summary["frames"] == 3 and summary["frames_missing"] == 1
    assert summary["ms"]["Frame"] == {"median": 2000.0, "mean": 2000.0}
    assert summary["ms"]["Cull"] == {"median": 500.0, "mean": 500.0}
    assert summary["levels"] == {"Geoms": 20.0}


def test_the_worst_frames_are_the_slowest_by_the_frame_collector_each_with_its_longest_parts():
    names = names_for((0, "Frame", 0, "", 1.0), (1, "Cull", 0, "", 1.0), (2, "Draw", 0, "", 1.0))
    frames = [FrameData(0, 10, ((0, True, 0.0), (1, True, 0.0), (1, False, 0.5), (0, False, 1.0)), ()),
              FrameData(0, 11, ((0, True, 1.0), (2, True, 1.0), (2, False, 3.5), (0, False, 4.0)), ()),
              FrameData(0, 12, ((0, True, 4.0), (1, True, 4.0), (1, False, 4.5), (2, True, 4.5), (2, False, 5.5),
                                (0, False, 6.0)), ())]
    assert frame_profile.worst_frames(frames, names, count=2) == [
        {"frame": 11, "ms": 3000.0, "parts": {"Draw": 2500.0}},
        {"frame": 12, "ms": 2000.0, "parts": {"Draw": 1000.0, "Cull": 500.0}}]


def test_only_the_frames_marked_as_played_are_kept():
    names = names_for((0, "Frame", 0, "", 1.0), (1, frame_profile.PLAYING_MARKER, 0, "", 1.0))
    loading = FrameData(0, 1, (), ((1, 0.0),))
    played = FrameData(0, 2, (), ((1, 1.0),))
    unmarked = FrameData(0, 3, (), ())
    assert playing_frames([loading, played, unmarked], names) == [played]


def test_the_receiver_answers_the_clients_hello_and_keeps_the_main_threads_frames_only():
    receiver = PStatsReceiver()
    client = socket.create_connection(("127.0.0.1", receiver.port))
    try:
        client.sendall(framed(b"\x01" + string("host") + string("Boxel") + struct.pack("<HH", 3, 0)))
        client.sendall(framed(collectors_payload([(0, "Frame", 0, "", 1.0), (1, "Cull", 0, "", 1.0)])))
        client.sendall(framed(frame_payload(0, 1, [(1, True, 0.0), (1, False, 0.25)], [])))
        client.sendall(framed(frame_payload(1, 1, [(1, True, 0.0), (1, False, 0.5)], [])))
        client.settimeout(5.0)
        for _ in range(200):
            receiver.poll()
            if len(receiver.frames) == 1:
                break
        reply = client.recv(1024)
    finally:
        client.close()
        receiver.close()
    (length,) = struct.unpack_from("<I", reply)
    assert reply[4] == frame_profile.SERVER_HELLO and len(reply) == 4 + length
    assert struct.unpack_from("<H", reply, len(reply) - 2) == (frame_profile.UNUSED_UDP_PORT,)
    assert [f.thread for f in receiver.frames] == [0]
    assert receiver.names.full_name(1) == "Cull"


def test_a_lone_block_is_exposed_and_the_buried_centre_of_a_3x3x3_stone_cube_is_not():
    stone = int(np.flatnonzero(OPAQUE)[0])
    padded = np.zeros((18, 18, 18), dtype=np.uint16)
    padded[5, 5, 5] = stone
    assert exposed_blocks(padded, OPAQUE) == 1
    padded[8:11, 8:11, 8:11] = stone
    assert exposed_blocks(padded, OPAQUE) == 1 + 26


def test_a_block_beside_the_sections_border_is_hidden_by_the_neighbours_block_in_the_padding():
    stone = int(np.flatnonzero(OPAQUE)[0])
    padded = np.full((18, 18, 18), stone, dtype=np.uint16)
    assert exposed_blocks(padded, OPAQUE) == 0
    padded[0, 9, 9] = 0  # air in the neighbour section, beside local block (0, 8, 8)
    assert exposed_blocks(padded, OPAQUE) == 1


def test_exposed_blocks_refuses_an_array_that_is_not_a_padded_section():
    with pytest.raises(ValueError, match="18x18x18"):
        exposed_blocks(np.zeros((16, 16, 16), dtype=np.uint16), OPAQUE)


def test_a_breakdown_part_made_of_several_collectors_adds_and_subtracts_their_figures():
    collectors = {"App:Show code:update": {"median": 5.0, "mean": 6.0},
                  "Boxel:Game.update": {"median": 1.0, "mean": 3.0}, "Boxel:HUD": {"median": 0.5, "mean": 0.5},
                  "App:Show code:dataLoop": {"median": 0.25, "mean": 0.5},
                  "App:Show code:General": {"median": 5.5, "mean": 7.0},
                  "App:Show code:dataLoop:deeper": {"median": 9.0, "mean": 9.0}}
    collectors["Ursina:mouse picking"] = {"median": 0.25, "mean": 0.5}
    collectors["Boxel:profile poll"] = {"median": 0.125, "mean": 0.25}
    collectors["Ursina:entity updates:Sky"] = {"median": 0.5, "mean": 0.25}
    collectors["Ursina:entity updates:Clouds"] = {"median": 1.0, "mean": 1.0}
    loop = next(p for p in bench_game.BREAKDOWN if p.label.startswith("- Ursina's loop"))
    updates = next(p for p in bench_game.BREAKDOWN if p.label.startswith("- other entities' own updates"))
    others = next(p for p in bench_game.BREAKDOWN if p.label.startswith("Python: Panda3D's other tasks"))
    assert updates.value(collectors, "mean") == 1.25 and updates.value(collectors, "median") == 1.5
    assert loop.value(collectors, "mean") == 6.0 - 3.0 - 0.5 - 0.5 - 0.25 - 1.25
    assert loop.value(collectors, "median") == 5.0 - 1.0 - 0.5 - 0.25 - 0.125 - 1.5
    assert others.value(collectors, "mean") == 0.5  # direct children only, the update task and General left out


def test_the_breakdown_table_has_a_median_and_a_mean_column_per_window_size_and_the_rest_of_the_frame():
    profile = {"ms": {"Frame": {"median": 20.0, "mean": 21.0}, "Cull": {"median": 1.5, "mean": 1.75}},
               "levels": {"Vertices:Triangles": 300.0, "Geoms": 12.0},
               "scene": {"nodes": 5, "geoms": 4, "vertices": 3, "triangles": 2, "ursina_entities": 1},
               "frames": 100, "frames_missing": 0}
    table = bench_game.breakdown_table({"160x90": {"frame_profile": profile}})
    lines = table.splitlines()
    assert lines[0] == "| part | 160x90 median | 160x90 mean |"
    assert "| whole frame (PStats 'Frame') | 20.00 ms | 21.00 ms |" in lines
    assert "| Panda3D cull | 1.50 ms | 1.75 ms |" in lines
    assert "| rest of the frame (whole frame - the top-level parts) | 18.50 ms | 19.25 ms |" in lines
    assert "| triangles drawn (triangle vertices / 3) (median per frame) | 100 |  |" in lines
    assert "| frames profiled | 100 frames | 0 missing |" in lines
    with pytest.raises(ValueError):
        bench_game.breakdown_table({})


def test_frame_time_per_visible_block_is_in_microseconds_and_needs_a_block():
    assert bench_peers.per_block_us(10.0, 64) == 156.25
    with pytest.raises(ValueError, match="visible block"):
        bench_peers.per_block_us(10.0, 0)
    with pytest.raises(ValueError, match="non-negative"):
        bench_peers.per_block_us(float("nan"), 5)


def test_the_peer_result_line_is_found_among_the_peers_own_output():
    out = "info: window\nPEER-RESULT {\"frame_ms\": 4.5, \"visible_blocks\": 64, \"frames\": 3}\nbye\n"
    assert bench_peers.parse_result(out) == {"frame_ms": 4.5, "visible_blocks": 64, "frames": 3}
    with pytest.raises(RuntimeError, match="no result line"):
        bench_peers.parse_result("nothing here\n")


def test_the_peers_suite_is_skipped_with_what_is_missing_when_nothing_was_fetched(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bench_peers, "ROOT", tmp_path)
    monkeypatch.setattr(bench_peers, "FOGLEMAN_DIR", tmp_path / ".cache" / "peers" / "fogleman-Minecraft")
    monkeypatch.setattr(bench_peers, "URSINA_SAMPLE", tmp_path / ".cache" / "peers" / "ursina-sample" / "m.py")
    monkeypatch.setattr(bench_peers, "PYGLET1_PYTHON", tmp_path / ".cache" / "peers" / "venv" / "python")
    monkeypatch.setattr(bench_peers, "PEERS_DIR", tmp_path / ".cache" / "peers")
    assert len(bench_peers.missing_peers()) == 3
    assert bench_peers.run(quick=True) == []
    assert "peers: skipped" in capsys.readouterr().err


def test_profile_frames_needs_a_report_and_a_window(tmp_path):
    with pytest.raises(SystemExit) as refused:
        parse_options(["--profile-frames"])
    assert refused.value.code == 2
    options = parse_options(["--profile-frames", "--exit-after-ticks", "5", "--report", str(tmp_path / "r.json")])
    assert options.profile_frames is True
    assert parse_options([]).profile_frames is False


def gl_report(size=(160, 90), samples=0, renderer="llvmpipe (LLVM 15.0.6, 256 bits)", raster_threads=2, **extra):
    """A program's report as `bench/peers_harness.py` prints it (frame figures and GL configuration)."""
    gl = {"renderer": renderer, "samples": samples, "sample_buffers": int(samples > 0), "depth_bits": 32,
          "viewport": list(size), "framebuffer": list(size), "window": list(size)}
    return {"frame_ms": 10.0, "visible_blocks": 100, "frames": 30, "gl": gl,
            "cpu": {"raster_threads": raster_threads, "raster_cpu_ms": 1.0, "main_cpu_ms": 2.0}, **extra}


def test_programs_drawing_at_the_size_asked_with_no_multisampling_on_one_renderer_meet_the_terms():
    terms = bench_peers.Terms((160, 90))
    assert bench_peers.check_equal_terms(terms, {"Boxel": gl_report(), "fogleman": gl_report()}) == (
        "llvmpipe (LLVM 15.0.6, 256 bits)")


def test_a_peer_drawing_with_multisampling_is_refused_as_unequal_terms():
    with pytest.raises(ValueError, match="fogleman drew with GL samples 4: multisampling"):
        bench_peers.check_equal_terms(bench_peers.Terms((160, 90)),
                                      {"Boxel": gl_report(), "fogleman": gl_report(samples=4)})


def test_a_peer_whose_viewport_is_not_the_window_size_asked_is_refused():
    report = gl_report()
    report["gl"]["viewport"] = [800, 600]
    with pytest.raises(ValueError, match=r"fogleman drew with a viewport of \[800, 600\], not the \[160, 90\]"):
        bench_peers.check_equal_terms(bench_peers.Terms((160, 90)), {"fogleman": report})


def test_programs_on_different_renderers_or_more_raster_threads_are_refused():
    terms = bench_peers.Terms((160, 90))
    with pytest.raises(ValueError, match="different renderers"):
        bench_peers.check_equal_terms(terms, {"Boxel": gl_report(), "fogleman": gl_report(renderer="softpipe")})
    with pytest.raises(ValueError, match="fogleman rasterised on 4 llvmpipe threads, more than 2"):
        bench_peers.check_equal_terms(terms, {"fogleman": gl_report(raster_threads=4)})
    with pytest.raises(ValueError, match="no GL configuration"):
        bench_peers.check_equal_terms(terms, {"fogleman": {"frame_ms": 1.0}})


def test_the_peers_rows_are_medians_over_rounds_and_boxels_ratio_is_taken_round_by_round():
    def one_round(boxel_ms, fogleman_ms):
        names = (bench_peers.BOXEL_STANDING, bench_peers.FOGLEMAN, bench_peers.BOXEL_RUNNING, bench_peers.URSINA,
                 bench_peers.URSINA_BIG)
        return {name: gl_report(frame_ms=ms) for name, ms in zip(names, (boxel_ms, fogleman_ms, 12.0, 5.0, 8.0))}

    rows = bench_peers.rows_for("160x90", [one_round(10.0, 20.0), one_round(20.0, 30.0), one_round(16.0, 16.0)])
    by_case = {row.case: row for row in rows}
    fogleman = by_case["fogleman/Minecraft frame time median (160x90)"]
    assert fogleman.median == 20.0
    assert fogleman.note.startswith("3 runs 16-30 ms, 100 visible blocks")
    versus = by_case["Boxel (standing, view distance 8) frame time vs fogleman/Minecraft (160x90)"]
    assert (versus.median, versus.reference) == (16.0, 20.0)
    assert "ratio in each of 3 rounds 1.00-2.00x" in versus.note
    assert "no multisampling" in versus.note


def test_the_harness_counts_only_llvmpipe_threads_that_worked_and_each_threads_cpu_per_frame():
    from bench import peers_harness
    pid = os.getpid()
    ticks_ms = 1000.0 / peers_harness.CLOCK_TICKS_PER_S
    before = {f"{pid}:python": 100, "11:llvmpipe-0": 5, "12:llvmpipe-1": 5, "13:llvmpipe-2": 7}
    after = {f"{pid}:python": 120, "11:llvmpipe-0": 15, "12:llvmpipe-1": 25, "13:llvmpipe-2": 7, "14:gdbus": 3}
    assert peers_harness.cpu_terms(before, after, frames=10) == {
        "raster_threads": 2, "raster_cpu_ms": 30 * ticks_ms / 10, "main_cpu_ms": 20 * ticks_ms / 10}


def test_the_harness_result_line_carries_the_gl_configuration_the_suite_checks(capsys):
    from bench import peers_harness
    report = gl_report()
    peers_harness.report([0.010, 0.020, 0.030], 64, report["gl"], report["cpu"], {"rotation": [0, 0]})
    result = bench_peers.parse_result(capsys.readouterr().out)
    assert (result["frame_ms"], result["visible_blocks"], result["frames"]) == (20.0, 64, 3)
    assert bench_peers.check_equal_terms(bench_peers.Terms((160, 90)), {"peer": result}).startswith("llvmpipe")


@pytest.mark.display
def test_boxels_window_draws_at_the_size_asked_with_no_multisampling():
    done = run_in_window([sys.executable, str(bench_peers.HARNESS), "boxel", "160x90", "2", "0"], timeout_s=120,
                         env=dict(os.environ, LP_NUM_THREADS=bench_peers.LLVMPIPE_THREADS, LIBGL_ALWAYS_SOFTWARE="1"))
    assert done.returncode == 0, done.stderr[-2000:]
    gl = bench_peers.parse_result(done.stdout)["gl"]
    assert (gl["samples"], gl["sample_buffers"]) == (0, 0)
    assert gl["viewport"] == gl["framebuffer"] == gl["window"] == [160, 90]
    assert gl["renderer"]
