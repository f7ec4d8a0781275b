"""View bobbing, the held block's equip dip and the walk cycle (`game.rules.view_bobbing`), headless.

The expected values are worked out here a second way: with numpy's float32 arithmetic and a sine
table of numpy's own, by Beta's formulas (EntityPlayer.onLivingUpdate, EntityRenderer.
setupViewBobbing, ItemRenderer.updateEquippedItem), for bodies moved by `physics.step`."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

import physics
from physics import BlockGrid, Intent

from game.rules.replay import KeyDown, KeyUp
from game.rules.view_bobbing import NO_BOBBING, Bobbing, ViewMotion, held_block_matrix, rotate
from game.rules.session import Toggles

F = np.float32
TABLE = np.sin(np.arange(65536, dtype=np.float64) * math.pi * 2.0 / 65536.0).astype(np.float32)
FLOOR_Y = 10
WALK_TICKS = 30
"""[ticks] Long enough to reach walking speed (about 8 ticks) and walk more than a block and a half."""


def table_sin(x: np.float32) -> np.float32:
    return TABLE[int(F(x * F(10430.378))) & 0xFFFF]


def table_cos(x: np.float32) -> np.float32:
    return TABLE[int(F(F(x * F(10430.378)) + F(16384.0))) & 0xFFFF]


def floor_world() -> BlockGrid:
    grid = BlockGrid()
    for x in range(-4, 5):
        for z in range(-4, 40):
            grid.set(x, FLOOR_Y, z)
    return grid


def settled_body(grid: BlockGrid) -> physics.Body:
    """A body standing on the floor after a few ticks (on the ground, at rest)."""
    body = physics.Body.at_feet(0.5, FLOOR_Y + 1.0, 0.5)
    for _ in range(3):
        body = physics.step(body, grid, Intent())
    assert body.on_ground
    return body


def run(grid, body, intents, *, held="stone", motion=ViewMotion(), sneaking=False, dead=False):
    """Step `body` with each intent and advance the view motion with it; (bodies, motions) per tick."""
    bodies, motions = [body], [motion]
    for intent in intents:
        after = physics.step(bodies[-1], grid, intent)
        motions.append(motions[-1].advanced(bodies[-1], after, sneaking=sneaking, dead=dead, held=held))
        bodies.append(after)
    return bodies, motions


def expected_walk(bodies, ticks: int):
    """(walked, previous walked, cameraYaw, previous cameraYaw) after `ticks` ticks, the float32 way."""
    walked = previous_walked = camera_yaw = previous_yaw = F(0.0)
    for before, after in zip(bodies[:ticks], bodies[1:ticks + 1]):
        previous_walked, previous_yaw = walked, camera_yaw
        dx, dz = after.feet[0] - before.feet[0], after.feet[2] - before.feet[2]
        walked = F(float(walked) + float(F(math.sqrt(dx * dx + dz * dz))) * 0.6)
        vx, _, vz = after.velocity
        speed = min(F(math.sqrt(vx * vx + vz * vz)), F(0.1)) if after.on_ground else F(0.0)
        camera_yaw = F(camera_yaw + F(F(speed - camera_yaw) * F(0.4)))
    return walked, previous_walked, camera_yaw, previous_yaw


def test_standing_still_gives_no_bobbing_at_any_moment_between_ticks():
    grid = floor_world()
    _, motions = run(grid, settled_body(grid), [Intent()] * 20)
    for alpha in (0.0, 0.25, 0.5, 1.0):
        assert motions[-1].bobbing(alpha) == NO_BOBBING
    assert motions[-1].walked == 0.0


def test_walking_gives_betas_bobbing_values_after_thirty_ticks():
    grid = floor_world()
    bodies, motions = run(grid, settled_body(grid), [Intent(forward=1.0)] * WALK_TICKS)
    walked, previous_walked, camera_yaw, previous_yaw = expected_walk(bodies, WALK_TICKS)
    motion = motions[-1]
    assert (motion.walked, motion.previous_walked) == (walked, previous_walked)
    assert (motion.camera_yaw, motion.previous_camera_yaw) == (camera_yaw, previous_yaw)
    alpha = F(0.5)
    phase = F(-F(walked + F(F(walked - previous_walked) * alpha)) * F(3.1415927))
    size = F(previous_yaw + F(F(camera_yaw - previous_yaw) * alpha))
    bob = motion.bobbing(0.5)
    assert bob == Bobbing(right=F(F(table_sin(phase) * size) * F(0.5)),
                          up=-abs(F(table_cos(phase) * size)),
                          roll=F(F(table_sin(phase) * size) * F(3.0)),
                          tilt=F(abs(F(table_cos(F(phase - F(0.2))) * size)) * F(5.0)),
                          fall_pitch=0.0)
    assert bob != NO_BOBBING and walked > 1.0


def test_walking_bobs_at_betas_cap_settling_one_float_step_below_0_1():
    grid = floor_world()
    _, motions = run(grid, settled_body(grid), [Intent(forward=1.0)] * 60)
    # Walking (0.118 a tick after friction) is faster than the cap, 0.1F; a float 0.4 of a one-step
    # gap rounds away, so Beta's cameraYaw stops one float step short of the cap.
    assert motions[-1].camera_yaw == motions[-1].previous_camera_yaw == np.nextafter(F(0.1), F(0.0))


def test_sneaking_on_the_ground_walks_no_distance_so_the_view_does_not_sway():
    grid = floor_world()
    _, motions = run(grid, settled_body(grid), [Intent(forward=1.0, sneak=True)] * 10, sneaking=True)
    assert motions[-1].walked == 0.0
    assert motions[-1].bobbing(1.0).right == 0.0


def test_a_falling_player_stops_bobbing_and_tilts_the_view_down_by_betas_rate():
    grid = BlockGrid()
    grid.set(0, 0, 0)  # far below: the body falls all the way
    walking = ViewMotion(camera_yaw=F(0.1), previous_camera_yaw=F(0.1))
    bodies, motions = run(grid, physics.Body.at_feet(0.5, 50.0, 0.5), [Intent()] * 2, motion=walking)
    vy = bodies[1].velocity[1]
    target = F(F(math.atan(-vy * 0.20000000298023224)) * F(15.0))
    assert motions[1].camera_pitch == F(F(target - F(0.0)) * F(0.8))
    assert motions[1].camera_yaw == F(F(0.1) + F(F(F(0.0) - F(0.1)) * F(0.4)))
    assert motions[2].bobbing(1.0).fall_pitch > motions[1].bobbing(1.0).fall_pitch > 0.0


def test_a_dead_player_moving_on_the_ground_bobs_toward_nothing():
    grid = floor_world()
    walking = ViewMotion(camera_yaw=F(0.1), previous_camera_yaw=F(0.1))
    _, motions = run(grid, settled_body(grid), [Intent(forward=1.0)] * 10, motion=walking, dead=True)
    yaws = [m.camera_yaw for m in motions]
    assert yaws[1] == F(F(0.1) + F(F(F(0.0) - F(0.1)) * F(0.4)))  # the target is 0 although the body moves
    assert all(later < earlier for earlier, later in zip(yaws, yaws[1:]))
    assert all(m.camera_pitch == 0.0 for m in motions)


def test_changing_the_held_block_dips_the_hand_then_raises_the_new_block_at_betas_0_4_a_tick():
    grid = floor_world()
    body = settled_body(grid)
    up = ViewMotion(equip=1.0, previous_equip=1.0, shown="stone")
    _, motions = run(grid, body, [Intent()] * 6, motion=up, held="dirt")
    equips = [m.equip for m in motions[1:]]
    expected, value = [], F(1.0)
    for target in (0.0, 0.0, 0.0, 1.0, 1.0, 1.0):
        value = F(value + np.clip(F(F(target) - value), F(-0.4), F(0.4)))
        expected.append(value)
    assert equips == expected  # 0.6, 0.2, 0.0, 0.4, 0.8, 1.0
    assert [m.shown for m in motions[1:]] == ["stone", "stone", "dirt", "dirt", "dirt", "dirt"]
    assert motions[2].equip_progress(0.5) == F(expected[0] + F(F(expected[1] - expected[0]) * F(0.5)))


def test_an_unchanged_held_block_stays_fully_up():
    grid = floor_world()
    _, motions = run(grid, settled_body(grid), [Intent()] * 5, motion=ViewMotion(equip=1.0, shown="stone"))
    assert [m.equip for m in motions[1:]] == [1.0] * 5


def test_walking_swings_the_limbs_toward_betas_full_swing_and_standing_lets_them_rest():
    grid = floor_world()
    bodies, motions = run(grid, settled_body(grid), [Intent(forward=1.0)] * WALK_TICKS + [Intent()] * 60)
    assert motions[WALK_TICKS].limb_yaw > 0.5  # 0.216 blocks a tick x 4 = 0.86, approached at 0.4 a tick
    assert motions[-1].limb_yaw < 1e-6
    phase, size = motions[WALK_TICKS].limbs(1.0)
    assert (phase, size) == (motions[WALK_TICKS].limb_swing, motions[WALK_TICKS].limb_yaw)


def test_the_held_block_rests_in_the_lower_right_in_front_of_the_eye_and_drops_while_equipping():
    resting = held_block_matrix(0.0, 1.0)
    assert resting[:3, 3] == pytest.approx((0.7 * 0.8, -0.65 * 0.8, -0.9 * 0.8), abs=1e-12)
    lowered = held_block_matrix(0.0, 0.0)
    assert lowered[1, 3] == pytest.approx(resting[1, 3] - 0.6, abs=1e-12)
    swinging = held_block_matrix(0.5, 1.0)
    assert swinging[0, 3] < resting[0, 3]  # the swing carries it toward the middle


def test_bad_moments_and_bad_values_are_refused():
    motion = ViewMotion()
    with pytest.raises(ValueError):
        motion.bobbing(1.5)
    with pytest.raises(TypeError):
        motion.bobbing("half")
    body = physics.Body.at_feet(0.0, 0.0, 0.0)
    with pytest.raises(TypeError):
        motion.advanced(body, (0.0, 0.0, 0.0), sneaking=False, dead=False, held="stone")
    with pytest.raises(TypeError):
        motion.advanced(body, body, sneaking=False, dead=False, held=3)


def test_the_session_advances_the_view_motion_each_tick_while_walking(sky_session):
    session = sky_session
    session.run([KeyDown(0, "w")], 40)
    assert session.view_motion.walked > 0.0
    assert session.view_motion.shown == session.hotbar.selected_block
    session.run([KeyUp(session.ticks_run, "w")], 1)


def test_f5_toggles_third_person_and_the_other_toggles_keep_it(sky_session):
    session = sky_session
    session.run([KeyDown(0, "f5"), KeyUp(0, "f5")], 1)
    assert session.toggles.third_person
    session.run([KeyDown(1, "f3"), KeyUp(1, "f3"), KeyDown(1, "f1"), KeyUp(1, "f1")], 1)
    assert session.toggles == replace(Toggles(), third_person=True, overlay_panel=True, overlay_boxes=True,
                                      hud_visible=False)
    session.run([KeyDown(2, "f5"), KeyUp(2, "f5")], 1)
    assert not session.toggles.third_person


def test_rotations_turn_as_gl_rotatef_does_right_handed_about_each_axis():
    x, y, z = np.eye(4)[:, 0], np.eye(4)[:, 1], np.eye(4)[:, 2]
    assert rotate(90.0, 0.0, 0.0, 1.0) @ x == pytest.approx(y)
    assert rotate(90.0, 1.0, 0.0, 0.0) @ y == pytest.approx(z)
    assert rotate(90.0, 0.0, 1.0, 0.0) @ z == pytest.approx(x)
    with pytest.raises(ValueError):
        rotate(45.0, 1.0, 1.0, 0.0)
