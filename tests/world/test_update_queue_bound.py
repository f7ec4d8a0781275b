"""More pending block updates than a world file may list: `World.save` raised a raw
ValueError, the autosave did not catch it, the session crashed and its final save was lost. The queue
now holds at most MAX_PENDING_UPDATES (the number a file may list): an update asked for beyond it is
dropped, so every save writes the whole queue; and a save raises nothing but WorldFileError."""

from __future__ import annotations

import heapq

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.session import AUTOSAVE_TICKS, Session
from game.world import UnsavableWorldError, World, WorldFileError
from game.world import block_updates, fluid_batch
from game.world.block_updates import KINDS, MAX_PENDING_UPDATES, MAX_SAVED_UPDATES, BlockUpdates, pack

from .conftest import SEED, fingerprint

QUEUE_EXAMPLES = 200
"""Hypothesis examples for the queue model (pure Python, well under a millisecond each)."""
FAR_DELAY = 1_000_000
"""[ticks] A delay no test plays through: the updates stay pending."""


def schedule_many(world: World, count: int) -> None:
    """Ask `world` for `count` distinct water updates, FAR_DELAY away, in a 1024 x 1024 area."""
    schedule = world.schedule_update
    for i in range(count):
        schedule(i & 1023, 64 + (i >> 20), (i >> 10) & 1023, "water", FAR_DELAY)


# --- the case --------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_more_than_a_million_pending_updates_are_saved_whole_at_the_limit_and_read_back(tmp_path):
    path = tmp_path / "w.boxel"
    world = World.create(path, seed=SEED, workers=1)
    schedule_many(world, MAX_PENDING_UPDATES + 1000)
    assert world.pending_updates == MAX_PENDING_UPDATES
    world.save()  # raised ValueError before the bound
    world.close()
    reopened = World.open(path, workers=1)  # closed without a save: one save and one read of a million rows
    assert reopened.pending_updates == MAX_PENDING_UPDATES
    assert not reopened.take_problems()
    reopened.close()


def test_the_queue_drops_what_is_asked_for_past_its_limit_and_takes_more_once_room_is_made():
    queue = BlockUpdates(limit=3)
    assert [queue.schedule(x, 64, 0, "water", 5) for x in range(5)] == [True, True, True, False, False]
    queue.schedule_packed([pack(x, 64, 1, "lava") for x in range(4)], 6)
    assert len(queue) == 3 and not queue.is_pending(3, 64, 0, "water")
    assert queue.take_due(5, limit=1) == [pack(0, 64, 0, "water")]
    assert queue.schedule(9, 64, 9, "falls", 7) and len(queue) == 3
    assert [row[:4] for row in queue.rows(0)] == [[1, 64, 0, "water"], [2, 64, 0, "water"], [9, 64, 9, "falls"]]


@pytest.mark.parametrize("limit", [0, -1, MAX_PENDING_UPDATES + 1, 2.5, True])
def test_a_queue_limit_outside_one_to_the_file_limit_is_refused(limit):
    with pytest.raises(ValueError, match="limit must be an int"):
        BlockUpdates(limit=limit)


def test_the_queue_holds_exactly_what_a_world_file_may_list():
    assert MAX_PENDING_UPDATES == MAX_SAVED_UPDATES == BlockUpdates().limit


# --- the whole class: any schedules against a model ---------------------------------------------------------------


class ModelQueue:
    """The queue's rule written plainly: one per cell and kind, at most `limit`, run by (due, order)."""

    def __init__(self, limit: int) -> None:
        self.limit, self.entries, self.count = limit, [], 0

    def schedule(self, key: int, due: int) -> bool:
        if any(entry[2] == key for entry in self.entries) or len(self.entries) >= self.limit:
            return False
        heapq.heappush(self.entries, (due, self.count, key))
        self.count += 1
        return True

    def take_due(self, tick: int, limit: int) -> list[int]:
        due = []
        while self.entries and self.entries[0][0] <= tick and len(due) < limit:
            due.append(heapq.heappop(self.entries)[2])
        return due


cells = st.tuples(st.integers(-3, 3), st.integers(0, 3), st.integers(-3, 3), st.sampled_from(KINDS))
steps = st.one_of(st.tuples(st.just("one"), cells, st.integers(0, 6)),
                  st.tuples(st.just("many"), st.lists(cells, max_size=8, unique=True), st.integers(0, 6)),
                  st.tuples(st.just("take"), st.integers(0, 8), st.integers(1, 5)))


@settings(max_examples=QUEUE_EXAMPLES, deadline=None)
@given(limit=st.integers(1, 12), program=st.lists(steps, max_size=40))
def test_any_schedules_keep_at_most_the_limit_pending_in_beta_order(limit, program):
    queue, model = BlockUpdates(limit=limit), ModelQueue(limit)
    for step, value, number in program:
        if step == "one":
            key = pack(*value)
            assert queue.schedule(*value, number) == model.schedule(key, number)
        elif step == "many":
            queue.schedule_packed([pack(*cell) for cell in value], number)
            for cell in value:
                model.schedule(pack(*cell), number)
        else:
            assert queue.take_due(value, number) == model.take_due(value, number)
        assert len(queue) == len(model.entries) <= limit
    assert queue.take_due(10 ** 9, 10 ** 9) == model.take_due(10 ** 9, 10 ** 9)


FLOOD_LIMIT = 600
"""[updates] A queue limit the flood below reaches while water (due in 5 ticks) and sand (due in 2)
are scheduled in one tick: where the batch and the one-by-one path would drop different updates."""


def flood(world: World, ticks: int) -> tuple:
    """Water spreading under hanging sand on a 48 x 48 stone floor for `ticks` ticks: (blocks, pending rows)."""
    for x in range(-24, 24):
        for z in range(-24, 24):
            world.set_block(x, 119, z, "stone")
    for x in range(-22, 22, 2):
        for z in range(-22, 22, 2):
            world.set_block(x + 1, 121, z, "sand")
    for x in range(-20, 20, 5):
        for z in range(-20, 20, 5):
            world.set_block(x, 120, z, "water")
    for _ in range(ticks):
        world.tick()
    return world.ids_in_box(-30, 110, -30, 30, 123, 30).copy(), world._updates.rows(world.ticks)


def test_a_flood_at_the_queue_limit_gives_the_same_world_batched_as_one_by_one(tmp_path, monkeypatch):
    results = []
    for batched in (True, False):
        with World.create(tmp_path / f"w{batched}.boxel", seed=SEED, workers=1) as world:
            world._updates = BlockUpdates(limit=FLOOD_LIMIT)
            if not batched:
                monkeypatch.setattr(fluid_batch, "run_batch", lambda world, due: None)
            results.append(flood(world, 60))
            monkeypatch.undo()
    (batched_ids, batched_rows), (reference_ids, reference_rows) = results
    assert (batched_ids == reference_ids).all()
    assert batched_rows == reference_rows


# --- a save raises only WorldFileError, and the session lives on ------------------------------------------------


junk = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5),
                 st.lists(st.integers() | st.text(max_size=3) | st.floats(), max_size=7))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=junk | st.dictionaries(st.text(max_size=3), junk, max_size=3), rows=st.lists(junk, max_size=4),
       entities=st.lists(st.dictionaries(st.text(max_size=3), junk, max_size=2) | junk, max_size=2), ticks=junk)
def test_a_save_given_anything_raises_only_a_world_file_error_and_then_writes_nothing(tmp_path, state, rows, entities,
                                                                                     ticks):
    path = tmp_path / "w.boxel"
    path.unlink(missing_ok=True)
    path.with_name(path.name + "-wal").unlink(missing_ok=True)
    world = World.create(path, seed=SEED, workers=1)
    try:
        file = world._file
        before = path.read_bytes(), path.with_name(path.name + "-wal").read_bytes()
        try:
            file.save([], state, [((0, 0), entities)], rows, ticks)
        except WorldFileError as error:
            assert isinstance(error, UnsavableWorldError) and "nothing of this save was written" in str(error)
            assert (path.read_bytes(), path.with_name(path.name + "-wal").read_bytes()) == before
    finally:
        world.close()
    World.open(path, workers=1).close()  # whatever happened, the file opens


def test_a_save_of_more_rows_than_a_file_may_list_is_a_world_file_error_naming_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(block_updates, "MAX_SAVED_UPDATES", 3)
    with World.create(tmp_path / "w.boxel", seed=SEED, workers=1) as world:
        before = fingerprint(tmp_path / "w.boxel")[0]
        rows = [[x, 64, 0, "water", 1, x] for x in range(4)]
        with pytest.raises(UnsavableWorldError, match="at most 3 rows"):
            world._file.save([], None, [], rows, 0)
        assert fingerprint(tmp_path / "w.boxel")[0] == before


def test_an_autosave_the_file_cannot_take_is_told_and_play_and_the_final_save_go_on(tmp_path):
    path = tmp_path / "w.boxel"
    World.create(path, seed=SEED, workers=1).close()
    with World.open(path, workers=1) as world:
        session = Session.open(world)
        real_rows = world._updates.rows
        world._updates.rows = lambda now: [[0, 64, 0, "water", 1, MAX_SAVED_UPDATES]]  # a row no file may hold
        session.run([], AUTOSAVE_TICKS)  # the autosave raised ValueError out of the session before
        told = session.take_notices()
        assert len(told) == 1 and "Could not save" in told[0] and "a pending block update is not" in told[0]
        world._updates.rows = real_rows
        session.save()  # the final save
    with World.open(path, workers=1) as reopened:
        assert reopened.player_state == session.player.to_state(session.hotbar)
