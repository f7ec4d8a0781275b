"""Cave culling (`game.world.sight`): which faces of a section see each other, and which sections
the eye's section can see."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world.blocks import block_id
from game.world.sight import (ALL_FACES, CLOSED_LINKS, FACE_COUNT, OPEN_LINKS, SectionLinks, _walk_plan, face_links,
                              face_links_by_cells, hidden_sections, visible_sections, visible_sections_by_order)

STONE, AIR, GLASS, LEAVES = block_id("stone"), block_id("air"), block_id("glass"), block_id("leaves")
WEST, EAST, DOWN, UP, NORTH, SOUTH = range(FACE_COUNT)  # -x, +x, -y, +y, -z, +z


def stone_section() -> np.ndarray:
    return np.full((16, 16, 16), STONE, dtype=np.uint16)


def linked_pairs(links: np.ndarray) -> set[tuple[int, int]]:
    return {(a, b) for a in range(FACE_COUNT) for b in range(FACE_COUNT) if a < b and links[a] & (1 << b)}


def test_an_empty_section_links_every_face_to_every_face():
    assert face_links(np.zeros((16, 16, 16), dtype=np.uint16)).tolist() == [ALL_FACES] * FACE_COUNT


def test_a_solid_stone_section_links_no_faces():
    assert face_links(stone_section()).tolist() == [0] * FACE_COUNT


def test_a_straight_tunnel_along_x_links_only_its_two_ends():
    section = stone_section()
    section[:, 7, 7] = AIR
    links = face_links(section)
    assert linked_pairs(links) == {(WEST, EAST)}
    assert links.tolist() == [0b11, 0b11, 0, 0, 0, 0]


def test_a_tunnel_that_turns_upward_links_its_side_to_the_top_only():
    section = stone_section()
    section[0:8, 4, 9] = AIR  # from the west face to x = 7
    section[7, 4:16, 9] = AIR  # then up to the top face
    assert linked_pairs(face_links(section)) == {(WEST, UP)}


def test_two_separate_tunnels_do_not_link_each_others_faces():
    section = stone_section()
    section[:, 3, 3] = AIR  # west - east
    section[12, 12, :] = AIR  # north - south
    assert linked_pairs(face_links(section)) == {(WEST, EAST), (NORTH, SOUTH)}


def test_glass_and_leaves_let_sight_through_but_a_stone_wall_does_not():
    section = np.zeros((16, 16, 16), dtype=np.uint16)
    section[8, :, :] = GLASS
    assert linked_pairs(face_links(section)) >= {(WEST, EAST)}
    section[8, :, :] = LEAVES
    assert linked_pairs(face_links(section)) >= {(WEST, EAST)}
    section[8, :, :] = STONE
    assert (WEST, EAST) not in linked_pairs(face_links(section))
    assert {(WEST, UP), (EAST, UP), (NORTH, SOUTH)} <= linked_pairs(face_links(section))


def test_a_winding_cave_is_labelled_as_one_component():
    section = stone_section()
    cell = [0, 0, 0]
    section[tuple(cell)] = AIR
    while cell[1] < 15:  # a staircase from the west face's corner to the top: one step x, y, z in turn
        for axis in range(3):
            cell[axis] = min(cell[axis] + 1, 15)
            section[tuple(cell)] = AIR
    links = face_links(section)
    assert np.array_equal(links, face_links_by_cells(section))
    assert (WEST, UP) in linked_pairs(links)


sections = st.integers(0, 2 ** 32 - 1).map(
    lambda seed: np.where(np.random.default_rng(seed).random((16, 16, 16)) < 0.62, STONE, AIR).astype(np.uint16))


@settings(max_examples=12, deadline=None)
@given(sections)
def test_face_links_agree_with_the_cell_by_cell_flood_fill(section):
    assert np.array_equal(face_links(section), face_links_by_cells(section))


def test_a_section_of_the_wrong_shape_or_with_unknown_ids_is_refused():
    with pytest.raises(ValueError):
        face_links(np.zeros((16, 16, 15), dtype=np.uint16))
    with pytest.raises(ValueError):
        face_links(np.full((16, 16, 16), 60000, dtype=np.uint16))
    with pytest.raises(TypeError):
        face_links([[0]])


def grid(shape, links=OPEN_LINKS) -> np.ndarray:
    out = np.empty((*shape, FACE_COUNT), dtype=np.uint8)
    out[...] = links
    return out


def test_in_open_air_every_section_is_seen():
    assert visible_sections(grid((5, 3, 5)), (2, 1, 2)).all()


def test_sections_behind_a_closed_section_are_hidden_and_the_closed_one_is_seen():
    links = grid((5, 1, 1))
    links[2, 0, 0] = CLOSED_LINKS
    assert visible_sections(links, (0, 0, 0))[:, 0, 0].tolist() == [True, True, True, False, False]


def test_sight_goes_around_a_corner_but_never_back_toward_the_eye():
    # A 3 x 3 layer of stone blocks except an L-shaped cave: east from the eye, then south.
    links = grid((3, 1, 3), CLOSED_LINKS)
    links[0, 0, 0] = OPEN_LINKS  # the eye's section
    links[1, 0, 0] = [0b11, 0b11, 0, 0, 0, 0]  # west - east tunnel
    links[2, 0, 0] = [0b100001, 0, 0, 0, 0, 0b100001]  # west - south bend
    links[2, 0, 1] = [0, 0, 0, 0, 0b110000, 0b110000]  # north - south tunnel
    seen = visible_sections(links, (0, 0, 0))[:, 0, :]
    assert seen.tolist() == [[True, True, False], [True, False, False], [True, True, True]]
    # A cave that leads back west toward the eye's column is not followed.
    links[2, 0, 1] = [0b010001, 0, 0, 0, 0b010001, 0]  # north - west bend
    seen = visible_sections(links, (0, 0, 0))[:, 0, :]
    assert seen[1, 1] == False  # noqa: E712 - reached only by stepping west, back toward the eye


def test_a_section_is_left_only_by_faces_linked_to_the_face_it_was_entered_by():
    links = grid((1, 4, 1), CLOSED_LINKS)
    links[0, 1, 0] = [0, 0, 0b1100, 0b1100, 0, 0]  # open top to bottom
    links[0, 2, 0] = [0, 0, 0, 0b1000, 0, 0]  # only its top face is open
    seen = visible_sections(links, (0, 0, 0))[0, :, 0]
    assert seen.tolist() == [True, True, True, False]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_the_wave_sweep_agrees_with_the_sweep_in_order_of_distance(seed):
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 7, size=3))
    links = rng.integers(0, 64, size=(*shape, FACE_COUNT), dtype=np.uint8)
    links[rng.random(shape) < 0.4] = OPEN_LINKS
    eye = tuple(int(rng.integers(0, n)) for n in shape)
    assert np.array_equal(visible_sections(links, eye), visible_sections_by_order(links, eye))


def test_an_eye_outside_the_grid_or_a_malformed_grid_is_refused():
    with pytest.raises(ValueError):
        visible_sections(grid((2, 2, 2)), (2, 0, 0))
    with pytest.raises(TypeError):
        visible_sections(np.zeros((2, 2, 2, 6), dtype=np.int64), (0, 0, 0))


def test_hidden_sections_counts_sections_missing_from_the_set_as_open_and_finds_those_behind_stone():
    # A column of sections: the eye in open air at sy = 10, far above; solid stone at sy 2 and 3,
    # a sealed cave at sy 1 (closed faces all round), and bedrock-level stone at sy 0.
    links = {(0, 3, 0): CLOSED_LINKS, (0, 2, 0): CLOSED_LINKS, (0, 1, 0): CLOSED_LINKS, (0, 0, 0): CLOSED_LINKS,
             (1, 3, 0): OPEN_LINKS}
    assert hidden_sections(links, (0, 10, 0)) == {(0, 2, 0), (0, 1, 0), (0, 0, 0)}
    # From inside the cave its neighbours are seen, and nothing past them.
    assert hidden_sections(links, (0, 1, 0)) == {(0, 3, 0)}
    assert hidden_sections({}, (0, 0, 0)) == set()


def test_hidden_sections_is_the_same_with_either_walk():
    rng = np.random.default_rng(7)
    links = {(int(x), int(y), int(z)): rng.integers(0, 64, size=FACE_COUNT, dtype=np.uint8)
             for x, y, z in rng.integers(-4, 5, size=(120, 3))}
    for eye in ((0, 0, 0), (3, -2, 1), (40, 0, -9)):
        assert hidden_sections(links, eye) == hidden_sections(links, eye, walk=visible_sections_by_order)


def test_hidden_sections_refuses_links_that_are_not_six_bytes_a_section():
    links = {(0, 0, 0): OPEN_LINKS, (1, 0, 0): np.zeros(5, dtype=np.uint8)}
    with pytest.raises(ValueError, match="6 bytes"):
        hidden_sections(links, (0, 0, 0))


def random_links(rng: np.random.Generator) -> np.ndarray:
    """Face links mostly closed (each face reaching each other face one time in four), some
    sections solid, some open: grids where much is hidden and much is seen."""
    roll = rng.random()
    if roll < 0.15:
        return CLOSED_LINKS.copy()
    if roll < 0.25:
        return OPEN_LINKS.copy()
    return ((rng.random((FACE_COUNT, FACE_COUNT)) < 0.25) * (1 << np.arange(FACE_COUNT))).sum(axis=1).astype(np.uint8)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_the_packed_links_hide_what_the_dict_of_links_hides_as_sections_come_and_go(seed):
    rng = np.random.default_rng(seed)
    packed, kept = SectionLinks(), {}
    for _ in range(int(rng.integers(1, 5))):
        low = rng.integers(-6, 3, size=3)
        size = rng.integers(1, 7, size=3)
        for x, y, z in (np.indices(size).reshape(3, -1).T + low).tolist():
            links = random_links(rng)
            before = packed.put((x, y, z), links)
            assert (before is None) == ((x, y, z) not in kept)
            if before is not None:
                assert np.array_equal(before, kept[(x, y, z)])
            kept[(x, y, z)] = links
        for key in list(kept)[:: int(rng.integers(2, 9))]:
            assert packed.pop(key)
            del kept[key]
        assert len(packed) == len(kept) and all(np.array_equal(packed.get(key), kept[key]) for key in kept)
        eye = tuple(int(c) for c in rng.integers(-9, 9, size=3))
        assert packed.hidden(eye) == hidden_sections(kept, eye) == hidden_sections(
            kept, eye, walk=visible_sections_by_order)


def test_packed_links_refuse_links_of_another_size_or_type_and_keep_what_they_had():
    packed = SectionLinks()
    packed.put((0, 0, 0), CLOSED_LINKS)
    with pytest.raises(ValueError, match="6 bytes"):
        packed.put((0, 0, 0), np.zeros(5, dtype=np.uint8))
    with pytest.raises(TypeError, match="uint8"):
        packed.put((0, 0, 0), np.full(6, 63, dtype=np.int64))
    assert np.array_equal(packed.get((0, 0, 0)), CLOSED_LINKS) and len(packed) == 1
    assert not packed.pop((1, 0, 0)) and packed.hidden((0, 0, 0)) == set()
    assert packed.pop((0, 0, 0)) and len(packed) == 0 and packed.hidden((0, 0, 0)) == set()


def test_a_walk_plan_is_kept_for_its_shape_and_eye_and_cannot_be_written():
    links = grid((4, 2, 4))
    visible_sections(links, (1, 0, 2))
    plan = _walk_plan((4, 2, 4), (1, 0, 2))
    assert plan is _walk_plan((4, 2, 4), (1, 0, 2)) and not plan.came_from.flags.writeable
    assert plan.starts[0] == 0 and plan.order[0] == plan.eye_cell
