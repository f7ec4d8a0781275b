"""The debug sink: what a move reports for the F3 overlay."""

import physics
from physics import AABB, Intent, RecordingSink, shapes

from .worlds import EAST_YAW, floor, run, standing


def test_a_move_into_a_wall_reports_the_wall_box_as_clipping_and_the_floor_as_gathered():
    grid = floor()
    grid.fill(3, 64, -5, 3, 65, 5)
    body = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 30)
    sink = RecordingSink()
    physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW), debug=sink)
    report = sink.last
    wall = AABB(3, 64, 0, 4, 65, 1)
    assert wall in report.gathered and wall in report.clipping
    assert AABB(2, 63, 0, 3, 64, 1) in report.clipping  # the floor under the body stopped the fall
    assert AABB(0, 63, 1, 1, 64, 2) not in report.gathered  # beyond the body: not considered
    assert report.step_probe is not None and not report.stepped  # a step was tried and refused
    assert report.requested[0] > 0.0 and report.allowed[0] == 0.0


def test_a_kept_step_is_reported_with_its_probe():
    grid = floor()
    grid.fill(3, 64, -5, 10, 64, 5, shapes.SLAB)
    body = standing(grid)
    sink = RecordingSink()
    for _ in range(30):
        body = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW), debug=sink)
    stepped = [r for r in sink.reports if r.stepped]
    assert len(stepped) == 1
    assert stepped[0].end.min_y == 64.5
    assert stepped[0].step_probe.max_y >= stepped[0].start.max_y + 0.5


def test_a_recording_sink_keeps_only_the_last_reports_it_is_asked_to():
    grid = floor()
    sink = RecordingSink(keep=1)
    body = standing(grid)
    physics.step(body, grid, Intent(), debug=sink)
    physics.step(body, grid, Intent(), debug=sink)
    assert len(sink.reports) == 1
