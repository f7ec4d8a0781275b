"""The F3 panel's game lines (`game.window.ui.debug_overlay.status_lines`): streaming, cave culling and the
levels of detail, as the player reads them."""

from dataclasses import replace

from game.window.ui.debug_overlay import GameStatus, status_lines

STATUS = GameStatus(fps=60.0, frame_ms=16.5, tick_ms=0.25, loaded_columns=289, queued_columns=3, meshes_in_flight=2,
                    sections_shown=1205, sections_hidden=498, sections_coarse=707, lod_distance=4, bodies=1,
                    yaw=200.0, pitch=8.0, flying=False, sprinting=False, target="-")


def test_the_panel_says_how_many_sections_are_coarse_and_beyond_how_many_columns():
    lines = status_lines(STATUS, (8.5, 64.0, -3.5))
    assert "sections  shown 1205  hidden by cave culling 498" in lines
    assert "detail    coarse 707 beyond 4 columns" in lines


def test_the_panel_says_every_section_is_fine_without_levels_of_detail():
    lines = status_lines(replace(STATUS, sections_coarse=0, lod_distance=None), (8.5, 64.0, -3.5))
    assert "detail    every section fine" in lines
