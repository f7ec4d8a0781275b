"""The creative inventory, headless: the catalogue of every placeable block, putting an entry in a
hotbar slot through the session's events (and replays), the hotbar saved with the world,
pick-block's rule, and the orientation placing gives stairs (away from the player) and ladders
(on the clicked face). A real World in a temp folder, and a Session clicking on it."""

from __future__ import annotations

import io

import pytest

import physics
from game.rules.controls import LiveInput
from game.rules.health import Vitals
from game.rules.hotbar import DEFAULT_SLOTS, Hotbar, holdable
from game.rules.inventory import CATALOGUE, COLUMNS, ROWS_SHOWN, Catalogue, Entry, put_in_slot
from game.rules.player import Player
from game.rules.replay import (Click, KeyDown, KeyUp, Look, PutInSlot, ReplayFormatError, ReplayWriter, parse_event,
                         parse_replay)
from game.rules.session import Session
from game.rules.targeting import (LADDERS_BY_WALL, STAIRS_BY_FACING, facing_of, find_target, look_direction, placement)
from game.world import UnknownBlockError, World
from game.world.blocks import NAMES, SHAPES, block_id
from physics.shapes import LADDER_THICKNESS

SITE_Y = 100
"""Floor height of the test site: above the seed-42 terrain near the origin, and cleared anyway."""
ISSUE_BLOCKS = ("stairs_north", "stairs_south", "stairs_east", "stairs_west", "fence", "carpet", "ice", "gravel",
                "stone_slab_top", "brick", "glass")
"""The blocks the issue names as unobtainable before the inventory."""


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    opened = World.create(tmp_path_factory.mktemp("inventory") / "world.boxel", seed=42, workers=1)
    yield opened
    opened.close()


@pytest.fixture
def site(world):
    """A clear box of air around the origin at SITE_Y, with a stone floor under it."""
    for x in range(-5, 6):
        for z in range(-5, 6):
            world.set_block(x, SITE_Y - 1, z, "stone")
            for y in range(SITE_Y, SITE_Y + 6):
                world.set_block(x, y, z, "air")
    return world


def session_on(world, yaw: float = 0.0, pitch: float = 0.0) -> Session:
    """A session with the player standing at the site's centre cell (0, SITE_Y, 0)."""
    return Session(world, Player(world, physics.Body.at_feet(0.5, SITE_Y, 0.5), yaw, pitch), autosave=False)


def apply_all(session: Session, events) -> None:
    for event in events:
        session.apply(event)


# --- the catalogue ------------------------------------------------------------------------------------

def test_the_catalogue_holds_every_block_the_hotbar_can_hold_exactly_once():
    members = [name for entry in CATALOGUE.entries for name in entry.members]
    assert len(members) == len(set(members))
    assert set(members) == {name for name in NAMES if holdable(name)}
    assert all(entry.block == entry.members[0] for entry in CATALOGUE.entries)


def test_every_block_the_issue_names_is_obtainable_from_the_catalogue():
    for name in ISSUE_BLOCKS:
        assert name in CATALOGUE.entry_of(name).members


def test_stairs_ladders_and_the_two_slab_halves_are_one_entry_each_and_other_blocks_their_own():
    stairs, ladder, slab = (CATALOGUE.entry_of(name) for name in ("stairs_east", "ladder_west", "stone_slab_top"))
    assert stairs == Entry("stairs_north", ("stairs_north", "stairs_south", "stairs_east", "stairs_west"), "Stairs")
    assert ladder == Entry("ladder_north", ("ladder_north", "ladder_south", "ladder_east", "ladder_west"), "Ladder")
    assert slab == Entry("stone_slab", ("stone_slab", "stone_slab_top"), "Stone Slab")
    assert CATALOGUE.entry_of("glass") == Entry("glass", ("glass",), "Glass")
    assert CATALOGUE.entry_of("double_slab") == Entry("double_slab", ("double_slab",), "Double Slab")
    holdable_count = sum(holdable(name) for name in NAMES)
    # four stairs, four ladders, two slab halves; the torch (with its 4 wall forms), 8 furnaces,
    # 16 door halves, 8 bed halves and the 2 sapling stages
    assert len(CATALOGUE.entries) == holdable_count - 3 - 3 - 1 - 4 - 7 - 15 - 7 - 1


def test_the_catalogue_lists_entries_in_registry_order():
    first_ids = [block_id(entry.members[0]) for entry in CATALOGUE.entries]
    assert first_ids == sorted(first_ids)
    assert [entry.block for entry in CATALOGUE.entries[:4]] == ["stone", "cobblestone", "dirt", "grass"]


@pytest.mark.parametrize(("name", "error", "message"), [
    ("air", ValueError, "air is not in the creative inventory"),
    ("bedrock", ValueError, "bedrock is not in the creative inventory"),
    ("water", ValueError, "water is not in the creative inventory"),
    ("lava_3", ValueError, "lava_3 is not in the creative inventory"),
    ("glas", UnknownBlockError, "did you mean glass"),
    (11, TypeError, "a block name is a str"),
])
def test_air_bedrock_and_the_fluids_are_not_in_the_catalogue_and_unknown_names_are_refused(name, error, message):
    with pytest.raises(error, match=message):
        CATALOGUE.entry_of(name)


def test_the_grid_is_nine_columns_by_five_rows_with_empty_cells_after_the_last_entry():
    cells = CATALOGUE.shown(0)
    assert (COLUMNS, ROWS_SHOWN) == (9, 5) and len(cells) == 45
    count = len(CATALOGUE.entries)
    assert count <= 45 and CATALOGUE.rows == -(-count // 9) and CATALOGUE.max_scroll == 0
    assert cells[:count] == CATALOGUE.entries and cells[count:] == (None,) * (45 - count)


def test_a_catalogue_taller_than_the_screen_scrolls_by_whole_rows_and_stops_at_its_ends():
    short = Catalogue(CATALOGUE.entries, rows_shown=2)
    rows = -(-len(CATALOGUE.entries) // 9)
    assert short.rows == rows and short.max_scroll == rows - 2
    assert short.shown(1) == CATALOGUE.entries[9:27]
    assert short.shown(-3) == short.shown(0) == CATALOGUE.entries[:18]
    last = short.shown(short.max_scroll + 7)
    assert last == short.shown(short.max_scroll)
    assert last[9:9 + len(CATALOGUE.entries) - (rows - 1) * 9] == CATALOGUE.entries[(rows - 1) * 9:]
    assert last[-1] is None or len(CATALOGUE.entries) % 9 == 0


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"entries": (Entry("glass", ("glass",), "Glass"),) * 2}, ValueError),
    ({"entries": [Entry("glass", ("glass",), "Glass")]}, TypeError),
    ({"entries": (), "columns": 0}, ValueError),
    ({"entries": (), "rows_shown": True}, ValueError),
])
def test_a_catalogue_that_cannot_be_laid_out_is_refused(kwargs, error):
    with pytest.raises(error):
        Catalogue(**kwargs)


# --- putting an entry in a slot -----------------------------------------------------------------------

def test_putting_an_entry_in_a_slot_replaces_that_slot_only_and_keeps_the_selection():
    hotbar = Hotbar(selected=4)
    put_in_slot(hotbar, 0, "ice")
    put_in_slot(hotbar, 8, "stairs_west")  # any stair puts the stairs entry's block
    assert hotbar.slots == ("ice",) + DEFAULT_SLOTS[1:8] + ("stairs_north",)
    assert hotbar.selected == 4
    put_in_slot(hotbar, 1, "ice")  # the same block may sit in two slots, as in Minecraft's creative inventory
    assert hotbar.slots[:2] == ("ice", "ice")


@pytest.mark.parametrize(("slot", "block", "error"), [
    (9, "glass", ValueError), (-1, "glass", ValueError), (True, "glass", TypeError), (1.0, "glass", TypeError),
    (0, "bedrock", ValueError), (0, "water", ValueError), (0, "glas", UnknownBlockError), (0, None, TypeError),
])
def test_putting_into_a_slot_that_is_not_one_or_a_block_that_cannot_be_held_changes_nothing(slot, block, error):
    hotbar = Hotbar(selected=2)
    with pytest.raises(error):
        put_in_slot(hotbar, slot, block)
    assert (hotbar.slots, hotbar.selected) == (DEFAULT_SLOTS, 2)


# --- the session's events -----------------------------------------------------------------------------

def test_e_opens_and_closes_the_inventory_and_a_put_changes_the_slot_only_while_it_is_open(site):
    session = session_on(site)
    session.apply(PutInSlot(0, 0, "ice"))
    assert session.hotbar.slots == DEFAULT_SLOTS  # no screen, no put
    session.apply(KeyDown(0, "e"))
    assert session.inventory_open and session.report()["inventory_open"] is True
    session.apply(PutInSlot(0, 0, "ice"))
    assert session.hotbar.slots[0] == "ice"
    apply_all(session, [KeyUp(0, "e"), KeyDown(0, "e")])
    assert not session.inventory_open


def test_while_the_inventory_is_open_clicks_build_nothing_and_movement_and_action_keys_are_not_heard(site):
    session = session_on(site, yaw=0.0, pitch=60.0)  # looking down at the floor in front
    target = session.target()
    assert target is not None
    apply_all(session, [KeyDown(0, "e"), Click(0, "right"), Click(0, "left"), Click(0, "middle"),
                        KeyDown(0, "w"), KeyDown(0, "m"), KeyDown(0, "q"), KeyDown(0, "f")])
    assert site.get_block(*target.block) == "stone" and session.edited_cells == set()
    assert session.hotbar.slots == DEFAULT_SLOTS
    assert not session.player.input.held and not session.player.flying
    assert len(session.mobs.bodies) == 0 and len(session.projectiles.bodies) == 0
    start = session.player.body.feet
    session.tick()
    assert session.player.body.feet == start


def test_opening_the_inventory_releases_the_held_keys_so_the_player_stops(site):
    session = session_on(site)
    apply_all(session, [KeyDown(0, "w"), KeyDown(0, "space")])
    session.tick()
    assert session.player.input.held == {"w", "space"}
    session.apply(KeyDown(1, "e"))
    assert session.player.input.held == set()
    intent = session.player.input.intent()
    assert (intent.forward, intent.strafe, intent.jump) == (0.0, 0.0, False)
    for _ in range(20):
        session.tick()
    assert abs(session.player.body.velocity[2]) < 1e-3  # friction has all but stopped the walk


def test_while_the_inventory_is_open_digits_still_choose_the_slot_and_f1_still_hides_the_hud(site):
    session = session_on(site)
    apply_all(session, [KeyDown(0, "e"), KeyDown(0, "4"), KeyDown(0, "f1")])
    assert session.hotbar.selected == 3 and not session.toggles.hud_visible


def test_a_block_put_in_a_slot_from_the_inventory_is_placed_by_a_right_click(site):
    session = session_on(site, yaw=0.0, pitch=60.0)
    target = session.target()
    assert target is not None and target.face == (0, 1, 0)
    apply_all(session, [KeyDown(0, "e"), PutInSlot(0, 2, "ice"), KeyDown(0, "e"), KeyDown(0, "3"),
                        Click(0, "right")])
    above = (target.block[0], target.block[1] + 1, target.block[2])
    assert site.get_block(*above) == "ice"
    assert session.report()["edited_blocks"] == [[*above, "ice"]]


def test_a_dead_player_has_the_inventory_closed_and_respawns_with_it_closed(site):
    session = session_on(site)
    session.apply(KeyDown(0, "e"))
    session.player.vitals = Vitals(health=0)
    assert session.player.dead and not session.inventory_open
    session.apply(KeyDown(0, "enter"))  # the respawn key
    assert not session.player.dead and not session.inventory_open


def test_the_screens_puts_reach_the_session_as_put_in_slot_events_in_arrival_order():
    live = LiveInput(0.0, 0.0)
    live.receive("e")
    live.put_in_slot(4, "glass")
    live.receive("e up")
    assert live.events_for(7, 0.0, 0.0, 0) == [KeyDown(7, "e"), PutInSlot(7, 4, "glass"), KeyUp(7, "e")]


def test_a_put_in_slot_event_round_trips_through_a_replay_file():
    stream = io.StringIO()
    ReplayWriter(stream).write(PutInSlot(12, 3, "stairs_north"))
    line = stream.getvalue()
    assert line == '{"tick": 12, "event": "put_in_slot", "slot": 3, "block": "stairs_north"}\n'
    assert parse_replay([line]) == (PutInSlot(12, 3, "stairs_north"),)


@pytest.mark.parametrize(("line", "message"), [
    ('{"tick": 0, "event": "put_in_slot", "slot": 9, "block": "glass"}', "slot.*0..8"),
    ('{"tick": 0, "event": "put_in_slot", "slot": true, "block": "glass"}', "slot.*0..8"),
    ('{"tick": 0, "event": "put_in_slot", "slot": 1.0, "block": "glass"}', "slot.*0..8"),
    ('{"tick": 0, "event": "put_in_slot", "slot": 0, "block": "bedrock"}', "block.*can hold"),
    ('{"tick": 0, "event": "put_in_slot", "slot": 0, "block": "glas"}', "block.*can hold"),
    ('{"tick": 0, "event": "put_in_slot", "slot": 0, "block": ["glass"]}', "block.*can hold"),
    ('{"tick": 0, "event": "put_in_slot", "slot": 0}', "lacks 'block'"),
])
def test_a_put_in_slot_line_with_a_bad_slot_or_block_is_refused(line, message):
    with pytest.raises(ReplayFormatError, match=message):
        parse_event(line)


def test_the_hotbar_filled_from_the_inventory_is_saved_with_the_world_and_reopens(tmp_path):
    path = tmp_path / "saved.boxel"
    with World.create(path, seed=42, workers=1) as world:
        session = Session.open(world, autosave=False)
        apply_all(session, [KeyDown(0, "e"), PutInSlot(0, 4, "stairs_east"), PutInSlot(0, 7, "ladder_south"),
                            KeyDown(0, "e"), KeyDown(0, "5")])
        session.tick()
        session.save()
    with World.open(path) as world:
        reopened = Session.open(world, autosave=False)
        assert reopened.hotbar.slots == DEFAULT_SLOTS[:4] + ("stairs_north",) + DEFAULT_SLOTS[5:7] + (
            "ladder_north", DEFAULT_SLOTS[8])
        assert reopened.hotbar.selected == 4
        assert reopened.saved_player_problem is None and not reopened.inventory_open


# --- pick-block ---------------------------------------------------------------------------------------

def test_picking_a_block_the_hotbar_holds_selects_its_slot_and_keeps_every_slot(site):
    site.set_block(0, SITE_Y, 2, "glass")
    session = session_on(site, yaw=0.0, pitch=30.0)
    assert session.target().block == (0, SITE_Y, 2)
    session.apply(Click(0, "middle"))
    assert session.hotbar.selected == DEFAULT_SLOTS.index("glass") and session.hotbar.slots == DEFAULT_SLOTS


def test_picking_a_stair_of_another_facing_finds_the_stairs_slot_instead_of_filling_another(site):
    site.set_block(0, SITE_Y, 2, "stairs_west")
    session = session_on(site, yaw=0.0, pitch=30.0)
    apply_all(session, [KeyDown(0, "e"), PutInSlot(0, 6, "stairs_north"), KeyDown(0, "e"), Click(0, "middle")])
    assert session.hotbar.selected == 6
    assert session.hotbar.slots == DEFAULT_SLOTS[:6] + ("stairs_north",) + DEFAULT_SLOTS[7:]


def test_picking_a_block_the_hotbar_lacks_puts_it_in_the_selected_slot_as_minecraft_does(site):
    site.set_block(0, SITE_Y, 2, "stone_slab_top")
    session = session_on(site, yaw=0.0, pitch=30.0)
    apply_all(session, [KeyDown(0, "9"), KeyDown(0, "e"), PutInSlot(0, 8, "fence"), KeyDown(0, "e"),
                        Click(0, "middle")])
    assert session.hotbar.selected == 8 and session.hotbar.selected_block == "stone_slab"  # the slab entry


# --- orientation when placed ----------------------------------------------------------------------

@pytest.mark.parametrize(("yaw", "facing"), [
    (0.0, "south"), (44.9, "south"), (45.0, "west"), (90.0, "west"), (180.0, "north"), (270.0, "east"),
    (314.9, "east"), (315.0, "south"), (359.9, "south"),
])
def test_the_player_faces_the_nearest_compass_quarter_of_the_yaw(yaw, facing):
    assert facing_of(yaw) == facing


@pytest.mark.parametrize("yaw", [0.0, 90.0, 180.0, 270.0, 30.0, 200.0])
@pytest.mark.parametrize("held", ["stairs_north", "stairs_east"])
def test_stairs_are_placed_rising_away_from_the_player_whatever_facing_is_held(site, yaw, held):
    session = session_on(site, yaw=yaw, pitch=45.0)
    target = session.target()
    assert target is not None and target.face == (0, 1, 0)
    apply_all(session, [KeyDown(0, "e"), PutInSlot(0, 0, held), KeyDown(0, "e"), KeyDown(0, "1"),
                        Click(0, "right")])
    cell = (target.block[0], SITE_Y, target.block[2])
    placed = site.get_block(*cell)
    assert placed == STAIRS_BY_FACING[facing_of(yaw)]
    low, high = sorted(SHAPES[block_id(placed)], key=lambda box: box.max_y)
    dx, _, dz = look_direction(yaw, 0.0)
    centre = lambda box: ((box.min_x + box.max_x) / 2, (box.min_z + box.max_z) / 2)  # noqa: E731
    (lx, lz), (hx, hz) = centre(low), centre(high)
    assert (low.max_y, high.max_y) == (0.5, 1.0)
    assert (hx - lx) * dx + (hz - lz) * dz > 0.0  # the full-height half is the far one: the player walks up


WALL = (0, SITE_Y + 2, 0)
"""A stone block in the air at the site's centre: ladders go on its sides."""


@pytest.mark.parametrize(("eye", "yaw", "face", "ladder"), [
    ((0.5, 2.5, 2.5), 180.0, (0, 0, 1), "ladder_north"),
    ((0.5, 2.5, -1.5), 0.0, (0, 0, -1), "ladder_south"),
    ((2.5, 2.5, 0.5), 90.0, (1, 0, 0), "ladder_west"),
    ((-1.5, 2.5, 0.5), 270.0, (-1, 0, 0), "ladder_east"),
])
def test_a_ladder_lies_flat_on_the_clicked_side_face_whatever_facing_is_held(site, eye, yaw, face, ladder):
    site.set_block(*WALL, "stone")
    target = find_target(site, (eye[0], SITE_Y + eye[1], eye[2]), yaw, 0.0)
    assert target is not None and target.block == WALL and target.face == face
    for held in LADDERS_BY_WALL.values():
        cell, name = placement(site, target, held, yaw + 30.0)  # the look does not matter against a side
        assert (cell, name) == ((WALL[0] + face[0], WALL[1], WALL[2] + face[2]), ladder)
    (box,) = physics.shapes.placed(SHAPES[block_id(ladder)], *cell)
    axis = 0 if face[0] else 2
    plane = WALL[axis] + (1 if face[axis] > 0 else 0)
    touching = box[axis] if face[axis] > 0 else box[axis + 3]
    assert touching == plane and box[axis + 3] - box[axis] == LADDER_THICKNESS


@pytest.mark.parametrize("yaw", [0.0, 90.0, 180.0, 270.0])
def test_a_ladder_clicked_onto_a_bare_floor_is_refused_as_beta_refuses_one_with_no_wall_behind_it(site, yaw):
    session = session_on(site, yaw=yaw, pitch=60.0)
    target = session.target()
    assert target is not None and target.face == (0, 1, 0)
    apply_all(session, [KeyDown(0, "e"), PutInSlot(0, 0, "ladder_north"), KeyDown(0, "e"), KeyDown(0, "1"),
                        Click(0, "right")])
    assert site.get_block(target.block[0], SITE_Y, target.block[2]) == "air"


def test_without_a_yaw_placement_keeps_the_facing_named(site):
    target = find_target(site, (0.5, SITE_Y + 1.62, 0.5), 0.0, 60.0)
    assert placement(site, target, "stairs_west") == ((target.block[0], SITE_Y, target.block[2]), "stairs_west")


@pytest.mark.parametrize(("yaw", "error"), [(float("nan"), ValueError), ("east", TypeError)])
def test_placement_refuses_a_yaw_that_is_not_a_finite_number(site, yaw, error):
    target = find_target(site, (0.5, SITE_Y + 1.62, 0.5), 0.0, 60.0)
    with pytest.raises(error, match="yaw"):
        placement(site, target, "stairs_west", yaw)


def test_a_replay_of_the_inventory_plays_the_same_on_a_fresh_session(site):
    events = [Look(0, 270.0, 45.0), KeyDown(0, "e"), PutInSlot(1, 0, "stairs_south"), KeyDown(2, "e"),
              KeyDown(3, "1"), Click(3, "right")]
    stream = io.StringIO()
    writer = ReplayWriter(stream)
    for event in events:
        writer.write(event)
    replayed = parse_replay(stream.getvalue().splitlines())
    assert replayed == tuple(events)
    session = session_on(site)
    session.run(replayed, 5)
    assert session.report()["edited_blocks"] == [[2, SITE_Y, 0, "stairs_east"]]


# --- the screen's layout (pure arithmetic; the screen itself is tested in test_inventory_display.py) ----

def test_each_grid_cell_and_hotbar_slot_of_the_screen_is_hit_at_its_centre_and_corners_and_gaps_hit_nothing():
    from game.window.ui.inventory_screen import CELL_STEP, SLOT_SIZE, Hit, grid_cell_centre, hit_at, slot_centre

    inside = SLOT_SIZE / 2 - 1e-6
    for index in range(COLUMNS * ROWS_SHOWN):
        x, y = grid_cell_centre(index)
        for dx, dy in ((0.0, 0.0), (inside, inside), (-inside, -inside), (inside, -inside)):
            assert hit_at(x + dx, y + dy) == Hit("grid", index)
        assert hit_at(x + CELL_STEP / 2, y) is None and hit_at(x, y + CELL_STEP / 2) is None  # the gaps
    for slot in range(9):
        x, y = slot_centre(slot)
        assert hit_at(x, y) == hit_at(x + inside, y - inside) == Hit("slot", slot)
    bottom_row = grid_cell_centre(COLUMNS * (ROWS_SHOWN - 1))[1]
    assert bottom_row - slot_centre(0)[1] > CELL_STEP  # the hotbar row stands apart from the grid
    assert hit_at(0.0, 0.49) is None and hit_at(0.0, -0.49) is None and hit_at(0.8, 0.0) is None
