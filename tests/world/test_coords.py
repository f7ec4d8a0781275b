"""World coordinates: floor division into columns and sections, including negative coordinates."""

import pytest

from game.world.coords import (COLUMN_BORDER, WORLD_BORDER, OutOfWorldError, block_coordinate, column_coordinate,
                               column_of, sections_seeing)


@pytest.mark.parametrize(("x", "cx"), [(0, 0), (15, 0), (16, 1), (-1, -1), (-16, -1), (-17, -2), (-33, -3)])
def test_block_x_maps_to_the_column_by_floor_division(x, cx):
    assert column_of(x, 0) == (cx, 0)
    assert column_of(0, x) == (0, cx)


def test_an_interior_block_is_seen_only_by_its_own_section():
    assert sections_seeing(5, 40, -7) == ((0, 2, -1),)


def test_a_block_on_a_section_corner_is_seen_by_the_eight_sections_around_the_corner():
    assert set(sections_seeing(-16, 32, 15)) == {(cx, sy, cz) for cx in (-1, -2) for sy in (2, 1) for cz in (0, 1)}


def test_sections_outside_the_build_height_are_never_listed():
    assert set(sections_seeing(3, 0, 3)) == {(0, 0, 0)}
    assert set(sections_seeing(3, 255, 3)) == {(0, 15, 0)}


def test_block_coordinates_must_be_integers():
    assert block_coordinate(-3.0, "x") == -3
    with pytest.raises(TypeError, match="block coordinate x must be an integer"):
        block_coordinate(0.5, "x")
    with pytest.raises(TypeError):
        block_coordinate(True, "x")


def test_the_world_border_runs_along_column_edges():
    assert column_of(WORLD_BORDER - 1, -WORLD_BORDER) == (COLUMN_BORDER - 1, -COLUMN_BORDER)
    assert block_coordinate(WORLD_BORDER - 1, "x") == WORLD_BORDER - 1
    assert column_coordinate(-COLUMN_BORDER, "cz") == -COLUMN_BORDER
    for beyond in (WORLD_BORDER, -WORLD_BORDER - 1, 2 ** 70):
        with pytest.raises(OutOfWorldError, match="x = .* is beyond the world border"):
            block_coordinate(beyond, "x")
    for beyond in (COLUMN_BORDER, -COLUMN_BORDER - 1):
        with pytest.raises(OutOfWorldError, match="column cz = .* is beyond the world border"):
            column_coordinate(beyond, "cz")
