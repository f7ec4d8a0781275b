"""World streaming without a window: a real World (seed 42) and a renderer stand-in that records what
it is asked to draw."""

from __future__ import annotations

import time

import pytest

from game.window.streaming import PLAYING, UNLOAD_MARGIN, Pace, WorldStreamer, with_neighbours, within
from game.world import World
from game.world.change_log import WorldChanges
from game.world.coords import SECTIONS_PER_COLUMN

SETTLE_TIMEOUT_S = 60.0
"""[s] Only stops a hang: settling a few dozen columns takes well under a second."""
NO_TIME = Pace(budget_s=0.0, meshes_in_flight=3, requests_in_flight=2, columns_per_poll=1)
"""A frame with no time to spare and short queues."""


class RecordingRenderer:
    """Stands in for ChunkRenderer: meshes 'finish' at once and are uploaded one per upload_finished(1)."""

    def __init__(self) -> None:
        self.shown: set[tuple[int, int, int]] = set()
        self.queue: list[tuple[int, int, int]] = []
        self.uploaded: list[tuple[int, int, int]] = []
        self.rebuilt: list[tuple[int, int, int]] = []

    @property
    def shown_sections(self) -> frozenset:
        return frozenset(self.shown)

    @property
    def pending(self) -> int:
        return len(self.queue)

    def show(self, sections) -> None:
        for key in sections:
            if key not in self.shown:
                self.shown.add(key)
                self.queue.append(key)

    def rebuild(self, sections) -> list:
        keys = [k for k in sections if k in self.shown]
        self.rebuilt += keys
        self.queue += keys
        return keys

    def unload(self, sections) -> None:
        for key in list(sections):
            self.shown.discard(key)
            self.queue = [k for k in self.queue if k != key]

    def upload_finished(self, limit=None) -> int:
        count = len(self.queue) if limit is None else min(limit, len(self.queue))
        self.uploaded += self.queue[:count]
        del self.queue[:count]
        return count


@pytest.fixture
def world(tmp_path):
    with World.create(tmp_path / "stream.boxel", 42) as world:
        yield world


def columns_of(sections) -> set[tuple[int, int]]:
    return {(cx, cz) for cx, _, cz in sections}


def filled_sections(world: World, cx: int, cz: int) -> set[tuple[int, int, int]]:
    ids = world.column(cx, cz)
    return {(cx, sy, cz) for sy in range(SECTIONS_PER_COLUMN) if ids[:, sy * 16:(sy + 1) * 16, :].any()}


def test_offsets_within_a_radius_are_round_and_nearest_first():
    offsets = within(2)
    assert len(offsets) == 13  # dx^2 + dz^2 <= 4
    assert offsets[0] == (0, 0)
    distances = [dx * dx + dz * dz for dx, dz in offsets]
    assert distances == sorted(distances)
    assert set(with_neighbours(within(1))) == {(dx, dz) for dx in range(-2, 3) for dz in range(-2, 3)} - {
        (-2, -2), (-2, 2), (2, -2), (2, 2)}


def test_settling_draws_every_non_empty_section_within_the_view_distance_and_nothing_else(world):
    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 2, save=lambda: None)
    streamer.settle((3, -1), SETTLE_TIMEOUT_S)
    wanted = {(3 + dx, -1 + dz) for dx, dz in within(2)}
    assert columns_of(renderer.shown) == wanted
    assert renderer.shown == set().union(*(filled_sections(world, *c) for c in wanted))
    assert set(renderer.uploaded) == renderer.shown and renderer.pending == 0
    assert streamer.progress() == 1.0 and streamer.settled
    # Every drawn column's neighbours were loaded first, so meshing never generated on the main thread.
    assert all(world.is_loaded(3 + dx, -1 + dz) for dx, dz in with_neighbours(within(2)))


class CountingList(list):
    """A list that counts the items read from it, by index, slice or iteration."""

    reads = 0

    def __getitem__(self, index):
        item = super().__getitem__(index)
        CountingList.reads += len(item) if isinstance(index, slice) else 1
        return item

    def __iter__(self):
        for item in super().__iter__():
            CountingList.reads += 1
            yield item


def streamed_with_counted_orders(world, view_distance: int) -> WorldStreamer:
    """A streamer settled around (0, 0) whose load and show orders now count what is read of them."""
    streamer = WorldStreamer(world, RecordingRenderer(), view_distance, save=lambda: None)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    for name in ("_load_order", "_show_order"):
        setattr(streamer, name, CountingList(getattr(streamer, name)))
    CountingList.reads = 0
    return streamer


def test_once_the_area_is_streamed_a_frame_reads_no_column_of_it_however_far_the_view(world):
    streamer = streamed_with_counted_orders(world, 3)
    streamer.update((0, 0))
    first = CountingList.reads  # the first frame finds where the streamed part of each order ends
    streamer.update((0, 0))
    streamer.update((0, 0))
    assert first <= 2 and CountingList.reads == first


def test_the_progress_and_stats_of_a_streamed_area_read_no_column_of_it_however_far_the_view(world):
    streamer = streamed_with_counted_orders(world, 3)
    assert streamer.progress() == 1.0 and streamer.settled
    assert CountingList.reads <= 2  # settling asks this between every two waits: 3,473 columns at 32
    CountingList.reads = 0
    assert streamer.stats().queued_columns == 0  # the F3 panel's, ten times a second
    assert CountingList.reads <= 1


class StuckRenderer(RecordingRenderer):
    """A renderer whose meshes never finish."""

    def upload_finished(self, limit=None) -> int:
        return 0


def test_settling_past_its_time_raises_or_when_asked_returns_false_with_what_is_drawn_kept(world):
    for column in with_neighbours(within(1)):
        world.column(*column)  # loaded now: the settle's time goes to showing them
    renderer = StuckRenderer()
    streamer = WorldStreamer(world, renderer, 1, save=lambda: None)
    with pytest.raises(TimeoutError, match="did not settle within 1 s"):
        streamer.settle((0, 0), 1.0)
    shown = set(renderer.shown)
    assert shown  # handed to the renderer, which never finished them
    assert streamer.settle((0, 0), 0.5, raise_on_timeout=False) is False
    assert renderer.shown == shown and not streamer.settled
    done = WorldStreamer(world, RecordingRenderer(), 1, save=lambda: None)
    assert done.settle((0, 0), SETTLE_TIMEOUT_S, raise_on_timeout=False) is True


def test_a_column_is_drawn_only_once_it_and_its_eight_neighbours_are_loaded(world):
    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 3, save=lambda: None)
    deadline = time.perf_counter() + SETTLE_TIMEOUT_S
    while not streamer.settled and time.perf_counter() < deadline:
        streamer.update((0, 0), NO_TIME)
        for cx, cz in columns_of(renderer.shown):
            assert all(world.is_loaded(cx + dx, cz + dz) for dx in (-1, 0, 1) for dz in (-1, 0, 1))
        assert renderer.pending < NO_TIME.meshes_in_flight + SECTIONS_PER_COLUMN  # whole columns go at once
        time.sleep(0.001)
    assert streamer.settled


def test_requests_go_out_a_few_at_a_time_nearest_first(world):
    asked = []
    original = world.request
    world.request = lambda cx, cz: (asked.append((cx, cz)), original(cx, cz))
    not_loaded = [column for column in with_neighbours(within(4)) if not world.is_loaded(*column)]
    streamer = WorldStreamer(world, RecordingRenderer(), 4, save=lambda: None)
    streamer.update((0, 0))
    assert asked == not_loaded[:PLAYING.requests_in_flight]


def test_a_zero_budget_frame_still_uploads_one_mesh(world):
    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 2, save=lambda: None)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    world.set_block(0, 100, 0, "stone")
    world.set_block(5, 100, 5, "stone")
    streamer.note_changes(world.take_changes())  # as a tick's record hands them over
    renderer.uploaded.clear()
    streamer.update((0, 0), NO_TIME)
    assert len(renderer.uploaded) == 1


def test_a_record_naming_many_sections_is_re_meshed_nearest_column_first_over_the_frames_it_takes(world):
    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 2, save=lambda: None)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    world.take_changes()  # the light streaming gave new columns: not this test's record
    drawn = sorted(renderer.shown)
    streamer.note_changes(WorldChanges(sections=frozenset(drawn)))  # as the first record after loading names dozens
    streamer.update((0, 0), NO_TIME)
    # No time to spare: the nearest column's sections alone (an edit where the player stands never waits).
    assert set(renderer.rebuilt) == {key for key in drawn if (key[0], key[2]) == (0, 0)}
    frames = 1
    while len(renderer.rebuilt) < len(drawn):
        before = len(renderer.rebuilt)
        streamer.update((0, 0), NO_TIME)
        frames += 1
        assert len(renderer.rebuilt) > before  # a column a frame at the least
    assert sorted(renderer.rebuilt) == drawn and frames == len(columns_of(drawn))
    order = [cx * cx + cz * cz for cx, _, cz in renderer.rebuilt]
    assert order == sorted(order)  # nearer columns first


def test_an_edit_rebuilds_the_drawn_sections_that_see_it_and_draws_a_new_section(world):
    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 2, save=lambda: None)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    world.take_changes()  # the light streaming gave new columns, spread into drawn ones: not this test's edits
    assert (0, 12, 0) not in renderer.shown  # the sky over spawn is empty
    world.set_block(0, 200, 0, "glass")  # on the corner of 4 columns: 4 sections see it, all empty
    streamer.note_changes(world.take_changes())  # as a tick's record hands them over
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    assert (0, 12, 0) in renderer.shown and (0, 12, 0) in renderer.uploaded
    assert renderer.rebuilt == []  # the neighbours (all air) were not drawn, so nothing to rebuild
    world.set_block(1, 70, 1, "brick")  # inside section (0, 4, 0)
    streamer.note_changes(world.take_changes())
    renderer.uploaded.clear()
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    assert renderer.rebuilt == [(0, 4, 0)] and renderer.uploaded == [(0, 4, 0)]


def test_walking_away_unloads_far_columns_from_the_renderer_and_the_world_saving_edits_first(world):
    saves = []

    def save():
        saves.append(True)
        world.save()

    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 2, save=save)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    world.set_block(1, 150, 1, "brick")
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    far = 2 + UNLOAD_MARGIN + 2  # the world keeps one column more than is drawn (the next test)
    streamer.settle((far, 0), SETTLE_TIMEOUT_S)
    assert saves == [True]
    assert not world.is_loaded(0, 0) and not world.is_loaded(-1, 0)
    assert (0, 0) not in columns_of(renderer.shown) and (-2, 0) not in columns_of(renderer.shown)
    assert columns_of(renderer.shown) >= {(far + dx, dz) for dx, dz in within(2)}
    assert columns_of(renderer.shown) <= {(far + dx, dz) for dx, dz in within(2 + UNLOAD_MARGIN)}
    assert world.get_block(1, 150, 1) == "brick"  # read back from the file


def test_every_drawn_columns_eight_neighbours_stay_loaded_so_a_re_mesh_never_makes_a_column(world):
    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 2, save=lambda: None)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    for center in ((3, 0), (5, 1), (9, 1)):  # each step leaves columns drawn out to the margin's edge
        streamer.settle(center, SETTLE_TIMEOUT_S)
        drawn = columns_of(renderer.shown)
        at_the_edge = [c for c in drawn if max(abs(c[0] - center[0]), abs(c[1] - center[1])) == 2 + UNLOAD_MARGIN]
        assert at_the_edge
        assert all(world.is_loaded(cx + dx, cz + dz) for cx, cz in drawn for dx in (-1, 0, 1) for dz in (-1, 0, 1))


def test_columns_within_the_margin_stay_drawn_when_the_player_steps_back_and_forth(world):
    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 2, save=lambda: None)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    streamer.settle((1, 0), SETTLE_TIMEOUT_S)
    assert (-2, 0) in columns_of(renderer.shown)  # 3 columns away: within view distance + margin
    uploads = len(renderer.uploaded)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    assert len(renderer.uploaded) == uploads  # nothing re-meshed on the way back


def test_a_smaller_radius_limit_streams_only_the_spawn_area_until_lifted(world):
    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 4, save=lambda: None)
    streamer.limit_radius(1)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    assert columns_of(renderer.shown) == set(within(1))
    streamer.limit_radius(None)
    assert not streamer.settled
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    assert columns_of(renderer.shown) == set(within(4))


def test_a_bad_view_distance_is_refused(world):
    with pytest.raises(ValueError, match="view distance"):
        WorldStreamer(world, RecordingRenderer(), 0, save=lambda: None)


def test_the_streamer_re_meshes_what_a_record_names_and_never_asks_the_world_what_changed(world):
    renderer = RecordingRenderer()
    streamer = WorldStreamer(world, renderer, 2, save=lambda: None)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    world.take_changes()  # the light streaming gave new columns, spread into drawn ones: not this test's edit
    world.set_block(1, 70, 1, "brick")  # inside section (0, 4, 0)
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    assert renderer.rebuilt == []  # no record yet: nothing pulled from the world
    changes = world.take_changes()
    streamer.note_changes(changes)
    streamer.note_changes(changes)  # two records naming one section: one re-mesh
    streamer.settle((0, 0), SETTLE_TIMEOUT_S)
    assert renderer.rebuilt == [(0, 4, 0)]
