"""The map window, its encoding (`game.net.classic.level`) and the block table (`game.net.classic.blocks`)."""

from __future__ import annotations

import gzip
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.net.classic.blocks import (CLASSIC_BLOCKS, DEFINED_IDS, FIRST_DEFINED_ID, BlockMap, Capabilities)
from game.net.classic.level import (MapWindow, WindowBlocks, check_window_size, decode_level, encode_level,
                                    encode_level_slowly, level_chunks)
from game.net.classic.packets import CHUNK_BYTES
from game.world.blocks import COUNT, NAMES, block_id

PLAIN, CUSTOM, DEFINED = (BlockMap(Capabilities()), BlockMap(Capabilities(custom_blocks=True)),
                          BlockMap(Capabilities(custom_blocks=True, block_definitions=True)))


def test_every_boxel_block_has_a_classic_id_in_each_client_kind():
    assert set(CLASSIC_BLOCKS) == set(NAMES)
    assert PLAIN.lookup.max() < 50 and CUSTOM.lookup.max() < 66
    assert DEFINED.lookup.max() == FIRST_DEFINED_ID + len(DEFINED_IDS) - 1


def test_a_plain_client_sees_the_nearest_classic_block_and_a_cpe_client_sees_more():
    assert PLAIN.client_id(block_id("stone")) == 1 and PLAIN.client_id(block_id("grass")) == 2
    assert PLAIN.client_id(block_id("torch")) == 39 and CUSTOM.client_id(block_id("torch")) == 54
    assert PLAIN.client_id(block_id("ice")) == 20 and CUSTOM.client_id(block_id("ice")) == 60
    assert DEFINED.client_id(block_id("torch")) == DEFINED_IDS["torch"] >= FIRST_DEFINED_ID


def test_blocks_with_no_classic_id_are_defined_for_block_definitions_clients():
    defined = {packet.block for packet in DEFINED.definitions()}
    assert defined == set(DEFINED_IDS.values())
    for name in ("torch", "ladder_north", "stairs_east", "fence", "cactus", "stone_slab_top", "tall_grass"):
        assert name in DEFINED_IDS
    assert PLAIN.definitions() == [] and CUSTOM.definitions() == []


def test_a_client_places_the_boxel_block_its_id_stands_for():
    assert PLAIN.boxel_block(1) == "stone" and PLAIN.boxel_block(9) == "water" and PLAIN.boxel_block(44) == "stone_slab"
    assert DEFINED.boxel_block(DEFINED_IDS["stairs_west"]) == "stairs_west"
    assert PLAIN.boxel_block(19) is None  # sponge: Boxel has none


def test_the_default_window_is_256_by_128_by_256_around_the_spawn_in_whole_columns():
    window = MapWindow.around((8.5, 70.0, -3.2))
    assert (window.width, window.height, window.depth) == (256, 128, 256)
    assert (window.x0, window.y0, window.z0) == (-128, 6, -144)
    assert window.contains(8, 70, -4) and not window.contains(128, 70, 0)
    assert len(window.columns()) == 256


def test_a_window_size_must_be_whole_sections_within_the_world():
    assert check_window_size((64, 64, 64)) == (64, 64, 64)
    for bad in ((60, 64, 64), (64, 272, 64), (0, 64, 64), (2048, 64, 64)):
        with pytest.raises(ValueError):
            check_window_size(bad)
    with pytest.raises(TypeError):
        check_window_size((64.0, 64, 64))


def test_the_level_is_gzip_of_a_big_endian_volume_then_ids_with_x_fastest_then_z_then_y():
    ids = np.zeros((2, 3, 4), dtype=np.uint16)
    ids[1, 2, 3] = block_id("stone")
    ids[0, 1, 0] = block_id("grass")
    raw = gzip.decompress(encode_level(ids, PLAIN.lookup))
    assert struct.unpack(">i", raw[:4]) == (24,)
    blocks = raw[4:]
    assert blocks[(2 * 4 + 3) * 2 + 1] == 1 and blocks[(1 * 4 + 0) * 2 + 0] == 2
    assert sum(1 for b in blocks if b) == 2


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)).flatmap(
    lambda shape: st.lists(st.integers(0, COUNT - 1), min_size=shape[0] * shape[1] * shape[2],
                           max_size=shape[0] * shape[1] * shape[2]).map(
        lambda values: np.array(values, dtype=np.uint16).reshape(shape))))
def test_the_fast_level_encoding_equals_its_readable_twin(ids):
    for blocks in (PLAIN, CUSTOM, DEFINED):
        assert gzip.decompress(encode_level(ids, blocks.lookup)) == gzip.decompress(encode_level_slowly(ids, blocks.lookup))
        assert (decode_level(encode_level(ids, blocks.lookup), ids.shape) == blocks.lookup[ids]).all()


def test_the_level_goes_in_1024_byte_chunks_with_the_percent_sent():
    chunks = level_chunks(bytes(range(256)) * 10)
    assert [len(chunk.data) for chunk in chunks] == [CHUNK_BYTES, CHUNK_BYTES, 512]
    assert [chunk.percent for chunk in chunks] == [40, 80, 100]


class _FakeWorld:
    def __init__(self):
        self.loaded, self.requested = set(), []

    def is_loaded(self, cx, cz):
        return (cx, cz) in self.loaded

    def request(self, cx, cz):
        self.requested.append((cx, cz))

    def column(self, cx, cz):
        column = np.zeros((16, 256, 16), dtype=np.uint16)
        column[:, 60, :] = block_id("stone")
        column[3, 61, 4] = cx * 10 + cz + 100
        return column


def test_the_window_copies_loaded_columns_asks_for_the_rest_and_then_follows_edits():
    window = MapWindow(0, 32, 0, 32, 64, 32)
    blocks = WindowBlocks(window)
    world = _FakeWorld()
    world.loaded = {(0, 0), (1, 1)}
    assert blocks.fill(world, budget=8) == 2
    assert sorted(world.requested) == [(0, 1), (1, 0)]
    assert blocks.ids[16 + 3, 61 - 32, 16 + 4] == 111 and blocks.ids[3, 61 - 32, 4] == 100
    world.loaded |= {(0, 1), (1, 0)}
    assert blocks.fill(world, budget=8) == 0 and blocks.complete
    assert blocks.apply((5, 40, 6), block_id("glass")) and blocks.ids[5, 8, 6] == block_id("glass")
    assert not blocks.apply((5, 31, 6), block_id("glass"))
