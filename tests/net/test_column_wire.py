"""A column on the wire (`game.net.column_wire`): a never-edited column goes as its seed's (a checksum:
the client generates it), an edited one one byte a block; every form reads back to exactly the
server's ids, and data that is not a column is a ProtocolError, never anything else."""

from __future__ import annotations

import time
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.net.client import ClientWorld
from game.net.column_wire import MAX_IDS8_BYTES, column_checksum, column_data, column_ids_of
from game.net.hub import Hub, column_message
from game.net.protocol import (PROTOCOL_VERSION, SEED_COLUMN_DATA_BYTES, ColumnData, Hello, ProtocolError,
                               decode, encode)
from game.world.blocks import COUNT
from game.world.column import Column
from game.world.coords import COLUMN_SHAPE
from game.world.terrain import Terrain

from .conftest import SEED


def _never_generated(cx, cz):
    raise AssertionError("a column sent in full is not generated")


def test_a_column_the_world_never_edited_goes_as_its_seeds_checksum_and_reads_back_generated(session):
    cx, cz = 0, 0
    assert session.world.is_as_generated(cx, cz)
    message = decode(encode(column_message(session.world, cx, cz))[4:])
    assert (message.form, len(message.data)) == ("seed", SEED_COLUMN_DATA_BYTES)
    assert len(encode(message)) == 4 + 1 + 8 + 1 + 4 + SEED_COLUMN_DATA_BYTES
    ids = column_ids_of(message, Terrain(SEED).column)
    assert (ids == session.world.column(cx, cz)).all()


def test_an_edited_column_goes_one_byte_a_block_and_reads_back_exactly(session):
    x, y, z = 3, 70, 5
    session.world.set_block(x, y, z, "glass")
    assert not session.world.is_as_generated(0, 0)
    message = decode(encode(column_message(session.world, 0, 0))[4:])
    assert message.form == "ids8"
    ids = column_ids_of(message, _never_generated)
    assert (ids == session.world.column(0, 0)).all()
    assert len(message.data) < 3000  # ~1.5 KB: a generated column's 130 KB of ids at zlib level 6


def test_a_saved_edited_column_is_still_sent_in_full_after_the_world_reopens(tmp_path):
    from game.world import World

    path = tmp_path / "w.boxel"
    world = World.create(path, SEED, workers=1)
    world.set_block(1, 80, 1, "glass")
    world.save()
    world.close()
    world = World.open(path, workers=1)
    try:
        assert not world.is_as_generated(0, 0) and world.is_as_generated(1, 0)
        assert column_message(world, 0, 0).form == "ids8"
    finally:
        world.close()


def test_a_column_with_an_id_above_255_goes_two_bytes_a_block_in_the_worlds_byte_form():
    ids = np.zeros(COLUMN_SHAPE, dtype=np.uint16)
    ids[0, 0, 0] = 300
    message = column_data(0, 0, ids, as_generated=False)
    assert message.form == "ids16"
    assert zlib.decompress(message.data) == Column.from_ids(ids).to_bytes()


def test_a_seed_column_this_client_generates_otherwise_is_a_protocol_error_naming_it():
    generated = Terrain(SEED).column(2, -1)
    message = column_data(2, -1, generated, as_generated=True)
    other = generated.copy()
    other[0, 0, 0] = 1 if other[0, 0, 0] != 1 else 2
    with pytest.raises(ProtocolError, match=r"column \(2, -1\) generated here differs from the server's"):
        column_ids_of(message, lambda cx, cz: other)
    assert column_checksum(generated) != column_checksum(other)


columns = st.lists(st.tuples(st.integers(0, 15), st.integers(0, 255), st.integers(0, 15), st.integers(1, COUNT - 1)),
                   max_size=40)


@settings(max_examples=60, deadline=None)
@given(cells=columns)
def test_every_column_sent_in_full_reads_back_to_exactly_its_ids(cells):
    ids = np.zeros(COLUMN_SHAPE, dtype=np.uint16)
    for x, y, z, block in cells:
        ids[x, y, z] = block
    message = decode(encode(column_data(-7, 9, ids, as_generated=False))[4:])
    assert (column_ids_of(message, _never_generated) == ids).all()


@settings(max_examples=200, deadline=None)
@given(form=st.sampled_from(["ids8", "ids16"]), data=st.binary(max_size=200))
def test_column_data_that_is_not_a_column_is_a_protocol_error_and_nothing_else(form, data):
    try:
        column_ids_of(ColumnData(0, 0, data, form), _never_generated)
    except ProtocolError:
        pass


@pytest.mark.parametrize("raw, message", [
    (b"\x01\x00" + bytes(4096 * 2), "its mask lists 1 sections"),
    (b"\x01\x00" + bytes([COUNT]) * 4096, f"block id {COUNT}"),
    (bytes(MAX_IDS8_BYTES + 1), "inflates past"),
])
def test_a_full_column_of_the_wrong_length_or_ids_is_refused_saying_why(raw, message):
    with pytest.raises(ProtocolError, match=message):
        column_ids_of(ColumnData(0, 0, zlib.compress(raw), "ids8"), _never_generated)
    with pytest.raises(ProtocolError, match="does not end"):
        column_ids_of(ColumnData(0, 0, zlib.compress(b"\x00\x00") + b"x", "ids8"), _never_generated)


def test_a_client_holds_the_server_columns_exactly_whichever_form_each_came_in(session):
    session.world.set_block(2, 90, 2, "glass")  # the spawn column edited: sent in full, the rest as the seed's
    hub = Hub(session)
    copy = ClientWorld(hub.admit(Hello(PROTOCOL_VERSION, "alice"), "10.0.0.1"))
    forms, deadline = set(), time.monotonic() + 30
    while len(copy.columns) < 9 and time.monotonic() < deadline:
        for message in hub.tick()["alice"]:
            message = decode(encode(message)[4:])
            copy.apply(message)
            if isinstance(message, ColumnData):
                forms.add(message.form)
        time.sleep(0.01)
    assert forms == {"seed", "ids8"}
    for (cx, cz), ids in copy.columns.items():
        assert (ids == session.world.column(cx, cz)).all()


def test_a_column_message_made_before_an_edit_is_not_sent_after_it(session):
    hub = Hub(session)
    hub.admit(Hello(PROTOCOL_VERSION, "alice"), "10.0.0.1")
    before = hub._column_message((0, 0))
    assert before.form == "seed" and hub._column_message((0, 0)) is before  # made once for every client
    session.world.set_block(4, 100, 4, "glass")
    hub.tick()
    after = hub._column_message((0, 0))
    assert after.form == "ids8"
    assert column_ids_of(after, _never_generated)[4, 100, 4] == session.world.column(0, 0)[4, 100, 4]
