"""Digging by Beta 1.7.3's rules (`game.rules.mining`, played through a headless `Session`): break times
from hardness, the 5-tick wait, resets on release and on a new target, crack stages, dig sounds,
the arm swing, peaceful's instant break, the registry's hardness and the replay's `release` event."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

from game.rules import mining, sounds
from game.rules.controls import LiveInput, event_from_ursina
from game.rules.mining import Mining, MiningProgress, dig_strength
from game.rules.replay import Click, Look, Release, ReplayFormatError, ReplayWriter, parse_replay, read_replay
from game.rules.player_actions import BrokenBlock
from game.rules.sounds import SoundEvent
from game.world import blocks
from tests.game.test_session import MIXED_PLAY
from tests.game.test_sounds import FACING_EAST, floor_session

DOWN_AHEAD = 45.0
"""[degrees] The pitch that looks at the floor two blocks ahead of the player."""


def beta_ticks_to_break(hardness: float, divisor: float) -> int:
    """The tick on which Beta's float32 damage (1 / hardness / divisor added each tick) reaches 1.0."""
    f32 = np.float32
    strength, damage, ticks = f32(f32(1.0) / f32(hardness)) / f32(divisor), f32(0.0), 0
    while damage < 1.0:
        damage, ticks = f32(damage + strength), ticks + 1
    return ticks


def digging_session(block: str = "dirt"):
    """A player standing on a floor of `block`, looking down at the floor ahead: (session, that cell)."""
    session = floor_session(block, yaw=FACING_EAST, pitch=DOWN_AHEAD)
    return session, session.target().block


def hold(session, ticks: int) -> list[int]:
    """Run `ticks` ticks (the attack button as it is); the ticks (counted from 1) on which a block broke."""
    broke = []
    for tick in range(1, ticks + 1):
        session.tick()
        if session.take_broken_blocks():
            broke.append(tick)
    return broke


# --- break times ---------------------------------------------------------------------------------

def test_dirt_dug_by_hand_breaks_on_the_15th_tick_held_as_beta_float32_damage_reaches_one():
    session, cell = digging_session("dirt")
    assert beta_ticks_to_break(0.5, 30.0) == 15  # 1 / 0.5 / 30 = 0.0667 a tick, summed in float32
    session.apply(Click(0, "left"))
    assert hold(session, 14) == [] and session.world.get_block(*cell) == "dirt"
    session.tick()
    assert session.world.get_block(*cell) == "air"
    assert session.take_broken_blocks() == [BrokenBlock(cell, "dirt")] and cell in session.edited_cells


def test_stone_needs_a_tool_so_the_bare_hand_takes_151_ticks_as_float32_sums_fall_short_at_150():
    session, cell = digging_session("stone")
    strength = dig_strength(blocks.block_id("stone"))
    assert strength == np.float32(np.float32(1.0) / np.float32(1.5)) / np.float32(100.0)  # 1 / 1.5 / 100
    assert beta_ticks_to_break(1.5, 100.0) == 151  # 150 additions of float32 0.00666667 end just below 1.0
    session.apply(Click(0, "left"))
    assert hold(session, 150) == [] and session.world.get_block(*cell) == "stone"
    assert hold(session, 1) == [1] and session.world.get_block(*cell) == "air"


@pytest.mark.parametrize("plant", ["dandelion", "rose", "tall_grass", "torch"])
def test_a_block_of_hardness_zero_breaks_on_the_first_tick(plant):
    dig = Mining()
    dig.press((0, 0, 0))
    assert dig_strength(blocks.block_id(plant)) == np.inf
    assert dig.tick((0, 0, 0), dig_strength(blocks.block_id(plant))).broken == (0, 0, 0)


def test_a_rose_in_play_is_aimed_at_by_its_selection_box_and_a_click_breaks_it_on_the_first_tick():
    session, cell = digging_session("dirt")
    x, y, z = cell
    rose = (x - 1, y + 1, z)  # on the floor between the player and the dirt it looks at
    session.world.set_block(*rose, "rose")
    assert session.target().block == rose
    session.apply(Click(0, "left"))
    assert hold(session, 1) == [1] and session.world.get_block(*rose) == "air"


def test_bedrock_takes_no_damage_however_long_it_is_dug():
    session, cell = digging_session("bedrock")
    session.apply(Click(0, "left"))
    assert hold(session, 400) == [] and session.world.get_block(*cell) == "bedrock"
    assert session.mining_progress is None


def test_in_water_and_off_the_ground_the_hand_digs_five_times_slower_each():
    dirt, f32 = blocks.block_id("dirt"), np.float32
    on_land = dig_strength(dirt)
    assert dig_strength(dirt, in_water=True) == f32(f32(f32(1.0) / f32(5.0)) / f32(0.5)) / f32(30.0)
    assert dig_strength(dirt, in_water=True, on_ground=False) < dig_strength(dirt, in_water=True) < on_land
    assert dig_strength(blocks.block_id("stone"), in_water=True, on_ground=False) == dig_strength(
        blocks.block_id("stone"))  # Beta's tool-less rate has no penalties


def test_after_a_break_the_next_block_waits_5_ticks_then_a_tick_to_start_then_its_own_15():
    session, cell = digging_session("dirt")
    session.apply(Click(0, "left"))
    broke = hold(session, 60)
    assert broke[:2] == [15, 15 + mining.BLOCK_HIT_WAIT_TICKS + 1 + 15]
    assert session.world.get_block(*cell) == "air"


# --- what resets the damage -------------------------------------------------------------------------

def test_releasing_the_button_resets_the_damage_so_the_block_takes_15_ticks_again():
    session, cell = digging_session("dirt")
    session.apply(Click(0, "left"))
    hold(session, 10)
    assert session.mining_progress == MiningProgress(cell, 6)
    session.apply(Release(10, "left"))
    assert session.mining_progress is None
    assert hold(session, 20) == []  # released: nothing is dug
    session.apply(Click(30, "left"))
    assert hold(session, 14) == [] and hold(session, 1) == [1]


def test_looking_at_another_block_resets_the_damage_and_spends_a_tick_starting_it():
    session, cell = digging_session("dirt")
    session.apply(Click(0, "left"))
    hold(session, 10)
    session.apply(Look(10, FACING_EAST, 60.0))  # a nearer floor cell
    session.tick()
    other = session.target().block
    assert other != cell and session.mining_progress is None and session.mining.cell == other
    session.apply(Look(11, FACING_EAST, DOWN_AHEAD))  # back: the first block starts again from 0
    assert hold(session, 15) == [] and session.world.get_block(*cell) == "dirt"
    assert hold(session, 1) == [1] and session.world.get_block(*cell) == "air"


def test_a_repeated_click_while_the_button_is_held_does_not_restart_the_dig():
    session, cell = digging_session("dirt")
    session.apply(Click(0, "left"))
    hold(session, 5)
    session.apply(Click(5, "left"))  # the recording's repeat every BUILD_REPEAT_TICKS
    hold(session, 5)
    session.apply(Click(10, "left"))
    assert hold(session, 5) == [5]


def test_opening_the_inventory_resets_the_damage_and_the_dig_goes_on_after_closing_it():
    session, cell = digging_session("dirt")
    session.apply(Click(0, "left"))
    hold(session, 10)
    session.apply(event_from_ursina("e", 10))
    hold(session, 3)
    assert session.mining_progress is None and session.world.get_block(*cell) == "dirt"
    session.apply(event_from_ursina("e", 13))
    assert hold(session, 15) == [15]  # the same block, from 0 again


def test_with_damage_off_a_click_breaks_the_block_at_once_as_in_creative_mode():
    session, cell = digging_session("obsidian")
    session.damage_enabled = False
    session.apply(Click(0, "left"))
    assert session.world.get_block(*cell) == "air"
    assert session.take_broken_blocks() == [BrokenBlock(cell, "obsidian")]


# --- what the window reads ----------------------------------------------------------------------------

def test_the_crack_stage_is_int_of_ten_times_the_float32_damage_and_none_when_undamaged():
    session, cell = digging_session("dirt")
    assert session.mining_progress is None
    session.apply(Click(0, "left"))
    strength, damage, stages, expected = dig_strength(blocks.block_id("dirt")), np.float32(0.0), [], []
    for _ in range(14):
        session.tick()
        damage = np.float32(damage + strength)
        stages.append(session.mining_progress)
        expected.append(MiningProgress(cell, int(damage * np.float32(10.0))))
    assert stages == expected
    assert [s.stage for s in stages] == sorted(s.stage for s in stages) and stages[-1].stage == 9
    session.tick()
    assert session.mining_progress is None  # broken


def test_digging_plays_the_blocks_step_sound_every_4th_tick_quieter_and_lower_then_its_break_sound():
    session, cell = digging_session("dirt")
    session.apply(Click(0, "left"))
    heard = []
    for tick in range(15):
        session.tick()
        heard += [(tick, sound) for sound in session.take_sounds()]
    centre = tuple(c + 0.5 for c in cell)
    dig = SoundEvent("step_grass", centre, sounds.DIG_VOLUME, sounds.DIG_PITCH)
    assert heard == [(0, dig), (4, dig), (8, dig), (12, dig),
                     (14, SoundEvent("break_grass", centre, sounds.EDIT_VOLUME, sounds.EDIT_PITCH))]


def test_a_left_click_swings_the_arm_for_8_ticks_in_eighths_then_it_rests_at_zero():
    session = floor_session("stone", pitch=-90.0)  # looking at the sky: the click hits nothing
    assert session.swing_progress(0.5) == 0.0
    session.apply(Click(0, "left"))
    seen = []
    for _ in range(9):
        session.tick()
        seen.append(session.swing_progress(1.0))
    assert seen == [0.0, 1 / 8, 2 / 8, 3 / 8, 4 / 8, 5 / 8, 6 / 8, 7 / 8, 0.0]
    assert session.swing_progress(0.5) == 7 / 8 + 1 / 16  # the last eighth blends on towards 1, never back
    assert session.swing_progress(1.0) < 1.0
    session.tick()
    assert session.swing_progress(0.5) == 0.0


def test_while_digging_the_arm_never_rests_and_placing_a_block_swings_it():
    session, _ = digging_session("stone")
    session.apply(Click(0, "left"))
    swings = []
    for _ in range(40):
        session.tick()
        swings.append(session.swing_progress(1.0))
    assert all(0.0 <= s < 1.0 for s in swings) and swings.count(0.0) <= 40 // mining.SWING_RESTART_TICKS
    assert len(set(swings)) > 2
    placing, _ = digging_session("stone")
    placing.apply(Click(0, "right"))
    placing.tick()
    placing.tick()
    assert placing.swing_progress(1.0) == 1 / 8


@pytest.mark.parametrize("alpha", [-0.1, 1.5, math.nan, "0.5", True])
def test_a_swing_alpha_outside_zero_to_one_is_refused(alpha):
    with pytest.raises(ValueError, match="alpha"):
        Mining().swing_progress(alpha)


# --- the registry ---------------------------------------------------------------------------------------

BETA_HARDNESS = {"stone": 1.5, "grass": 0.6, "dirt": 0.5, "cobblestone": 2.0, "planks": 2.0, "sand": 0.5,
                 "gravel": 0.6, "log": 2.0, "leaves": 0.2, "glass": 0.3, "obsidian": 10.0, "coal_ore": 3.0,
                 "diamond_ore": 3.0, "brick": 2.0, "ice": 0.5, "cactus": 0.4, "cobweb": 4.0, "soul_sand": 0.5,
                 "ladder_north": 0.4, "fence": 2.0, "stairs_east": 2.0, "torch": 0.0, "dandelion": 0.0}
"""Beta 1.7.3's Block constructors' `setHardness`."""


def test_every_registry_block_has_a_hardness_and_the_named_ones_are_betas():
    assert blocks.HARDNESS.shape == (blocks.COUNT,) and np.isfinite(blocks.HARDNESS).all()
    assert ((blocks.HARDNESS >= 0.0) | (blocks.HARDNESS == -1.0)).all()
    assert {name: float(blocks.HARDNESS[blocks.block_id(name)]) for name in BETA_HARDNESS} == BETA_HARDNESS
    assert not blocks.BREAKABLE[blocks.block_id("bedrock")]


def test_rock_blocks_and_the_cobweb_need_a_tool_and_dirt_wood_and_glass_do_not():
    needs = {name for name in blocks.NAMES if blocks.NEEDS_TOOL[blocks.block_id(name)]}
    assert {"stone", "cobblestone", "obsidian", "iron_ore", "brick", "stone_slab", "cobweb"} <= needs
    assert not needs & {"dirt", "grass", "sand", "log", "planks", "glass", "leaves", "stairs_north", "ice"}


# --- the replay's release event ----------------------------------------------------------------------------

def test_a_release_event_round_trips_through_a_replay_file_and_a_bad_button_is_refused():
    stream = io.StringIO()
    ReplayWriter(stream).write(Release(8, "left"))
    assert stream.getvalue() == '{"tick": 8, "event": "release", "button": "left"}\n'
    assert parse_replay(stream.getvalue().splitlines()) == (Release(8, "left"),)
    with pytest.raises(ReplayFormatError, match="line 1.*button"):
        parse_replay(['{"tick": 8, "event": "release", "button": "thumb"}'])


def test_a_file_from_before_releases_still_loads_and_its_click_holds_the_button_to_the_end():
    events = read_replay(MIXED_PLAY)
    assert Click(22, "left") in events and not any(isinstance(e, Release) for e in events)
    session, cell = digging_session("dirt")
    session.apply(Click(0, "left"))
    assert hold(session, 15) == [15]  # no release: still held


def test_live_input_records_the_left_buttons_release_after_its_click():
    live = LiveInput(0.0, 0.0)
    live.receive("left mouse down")
    assert live.events_for(0, 0.0, 0.0, 0) == [Click(0, "left")]
    live.receive("left mouse up")
    live.receive("right mouse up")
    assert live.events_for(3, 0.0, 0.0, 0) == [Release(3, "left")]
    assert live.events_for(20, 0.0, 0.0, 0) == []  # released: no more repeats


# --- the crack pictures ------------------------------------------------------------------------------------

def test_each_crack_stage_keeps_every_crack_pixel_of_the_one_before_and_adds_more():
    from assets.make_cracks import crack_masks

    masks = crack_masks()
    assert masks.shape == (mining.STAGES, 16, 16)
    for before, after in zip(masks, masks[1:]):
        assert (after >= before).all() and after.sum() > before.sum()
    assert 0 < masks[0].sum() and masks[-1].sum() < masks[-1].size // 2  # cracks, not a dark square


def test_the_crack_picture_in_assets_is_the_one_the_script_paints():
    from PIL import Image

    from assets.make_cracks import CRACKS_FILE, DEFAULT_OUT, cracks_pixels

    assert (np.asarray(Image.open(DEFAULT_OUT / CRACKS_FILE).convert("RGBA")) == cracks_pixels()).all()
