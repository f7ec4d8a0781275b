"""Beta 1.7.3's explosion (`game.rules.explosion`, `game.rules.blast_exposure`,
`game.world.blast_resistance`): the vectorised blast equals the one-ray-at-a-time reference
(`explosion_reference.py`) cell for cell, in Beta's HashSet order, and body for body, for several
seeds, powers and scenes; hand-checked damage, knock-back, drops and Beta's resistances."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from game.rules import explosion
from game.rules.blast_exposure import RAY_BOUNDS, STOPS_RAYS, exposures, sample_fractions
from game.rules.explosion import Blast, BrokenCell, apply_blast, blast, explosion_pitch
from game.world.java_hash_set import hash_set_order
from game.rules.items import ItemStack
from game.world import World, blocks
from game.world.blast_resistance import BLAST_RESISTANCE, beta_strength, blast_resistance
from game.world.blocks import UnknownBlockError, block_id
from game.world.java_random import JavaRandom, next_float
from physics.aabb import AABB

from . import explosion_reference as reference

AIR, STONE, DIRT, BEDROCK, WATER = (block_id(n) for n in ("air", "stone", "dirt", "bedrock", "water"))
F = np.float32


class BoxWorld:
    """A world made of one numpy box of ids (air around it; the edge rule below y 0 and above 255): the
    reads and the one write the explosion uses."""

    def __init__(self, origin: tuple[int, int, int], ids: np.ndarray) -> None:
        self.origin = np.array(origin)
        self.ids = ids.astype(np.uint16)

    def ids_in_box(self, x0, y0, z0, x1, y1, z1) -> np.ndarray:
        out = np.zeros((x1 - x0, y1 - y0, z1 - z0), dtype=np.uint16)
        low = np.array([x0, y0, z0]) - self.origin
        high = np.array([x1, y1, z1]) - self.origin
        a, b = np.maximum(low, 0), np.minimum(high, self.ids.shape)
        if (b > a).all():
            out[a[0] - low[0]:b[0] - low[0], a[1] - low[1]:b[1] - low[1], a[2] - low[2]:b[2] - low[2]] = \
                self.ids[a[0]:b[0], a[1]:b[1], a[2]:b[2]]
        ys = np.arange(y0, y1)
        out[:, ys < 0, :] = BEDROCK
        out[:, ys >= 256, :] = AIR
        return out

    def id_at(self, x, y, z) -> int:
        return int(self.ids_in_box(x, y, z, x + 1, y + 1, z + 1)[0, 0, 0])

    def set_id(self, x, y, z, block) -> None:
        self.ids[x - self.origin[0], y - self.origin[1], z - self.origin[2]] = block

    def set_block(self, x, y, z, name) -> None:
        self.set_id(x, y, z, block_id(name))

    def copy(self) -> BoxWorld:
        return BoxWorld(tuple(self.origin), self.ids.copy())


FLOOR = 60
"""The scenes' stone reaches up to this y (the cell at y 60 is the top stone)."""


def _scene(name: str) -> BoxWorld:
    """A 40-wide scene around the origin: its ground, and walls that half hide some of `BODIES`."""
    ids = np.zeros((40, 40, 40), dtype=np.uint16)  # x -20..19, y 40..79, z -20..19
    ground = FLOOR - 40 + 1
    ids[:, :ground, :] = STONE
    if name == "cliff":
        ids[20:, ground:ground + 6, :] = STONE  # x >= 0 rises 6 blocks: a cliff face at x = 0
    if name == "water":
        ids[14:26, ground - 3:ground, 22:30] = WATER  # a pool beside the centre, z 2..9
        ids[18:22, ground - 6, 18:22] = BEDROCK
    ids[23, ground:ground + 1, 17:23] = STONE  # a knee-high wall at x = 3: a body beyond is half hidden
    ids[14, ground:ground + 3, 17:23] = block_id("planks")  # a wall at x = -6 taller than a body
    ids[22, ground, 24] = block_id("stairs_north")
    ids[18, ground, 24] = block_id("fence")
    ids[19, ground, 15] = block_id("glass")
    ids[21, ground, 15] = block_id("torch")
    return BoxWorld((-20, 40, -20), ids)


CENTRES = {"stone": (0.5, FLOOR - 1.5, 0.5), "air": (0.5, FLOOR + 6.25, 0.5), "cliff": (-0.3, FLOOR + 1.0, 0.6),
           "water": (0.5, FLOOR + 1.0, 0.5)}
"""Where each scene's explosion is: buried in the stone, in the air, at the foot of the cliff, on the
floor beside the pool."""


def _body(x: float, y: float, z: float, width: float = 0.6, height: float = 1.8) -> tuple[AABB, tuple]:
    half = width / 2.0
    return AABB(x - half, y, z - half, x + half, y + height, z + half), (x, y, z)


BODIES = [_body(2.0, FLOOR + 1.0, 0.5), _body(4.5, FLOOR + 1.0, 0.3), _body(-7.5, FLOOR + 1.0, 0.5),
          _body(0.5, FLOOR + 1.0, 6.0, 1.4, 0.9), _body(1.0, FLOOR + 3.0, -1.0, 0.25, 0.25),
          _body(9.0, FLOOR + 1.0, 9.0), _body(0.5, FLOOR + 1.0, 0.5)]
"""A player beside the centre, one behind the knee-high wall, one behind the tall wall, a spider, an
item in the air, a player out of reach, a body standing on the centre."""


def _same(world, centre, power, seed):
    boxes = [box for box, _ in BODIES]
    positions = [position for _, position in BODIES]
    fast = blast(world, centre, power, JavaRandom(seed), boxes, positions)
    cells, bodies = reference.explode(world, centre, power, JavaRandom(seed), boxes, positions)
    return fast, cells, bodies


@pytest.mark.parametrize("scene", ["stone", "air", "cliff", "water"])
@pytest.mark.parametrize("power", [1.0, 3.0, 4.0, 6.0])
def test_the_fast_blast_equals_the_reference_cell_for_cell_and_body_for_body(scene, power):
    world = _scene(scene)
    seed = 1000 * int(power) + len(scene)
    fast, cells, bodies = _same(world, CENTRES[scene], power, seed)
    assert list(fast.cells) == cells
    assert [(b.index, b.damage, b.impulse, b.exposure) for b in fast.bodies] == [
        (index, damage, impulse, float(exposure)) for index, damage, impulse, exposure in bodies]


@pytest.mark.parametrize("seed", [0, 1, 42, -7, 2**40 + 3])
def test_the_fast_blast_equals_the_reference_for_several_seeds(seed):
    fast, cells, bodies = _same(_scene("cliff"), CENTRES["cliff"], 3.0, seed)
    assert list(fast.cells) == cells
    assert [(b.index, b.damage, b.impulse) for b in fast.bodies] == [(i, d, p) for i, d, p, _ in bodies]


def test_a_ray_sources_state_moves_on_by_1352_draws_exactly_as_one_by_one():
    fast, slow = JavaRandom(99), JavaRandom(99)
    blast(_scene("air"), CENTRES["air"], 3.0, fast)
    for _ in range(explosion.RAYS):
        slow.next_float()
    assert fast.state == slow.state


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=-2**47, max_value=2**47))
def test_the_intensities_drawn_at_once_equal_javas_draws_one_by_one(seed):
    one_by_one = JavaRandom(seed)
    expected = [F(F(3.0) * F(F(0.7) + F(F(one_by_one.next_float()) * F(0.6)))) for _ in range(explosion.RAYS)]
    assert explosion.ray_intensities(F(3.0), JavaRandom(seed)).tolist() == [float(v) for v in expected]


def test_a_python_random_stands_in_for_beta_s_random_with_the_same_blast_as_the_reference():
    world = _scene("cliff")
    fast = blast(world, CENTRES["cliff"], 3.0, random.Random(5))
    cells, _ = reference.explode(world, CENTRES["cliff"], 3.0, random.Random(5))
    assert list(fast.cells) == cells


def test_a_creepers_blast_on_flat_open_stone_makes_exactly_the_references_crater_the_block_under_it():
    world = BoxWorld((-20, 40, -20), np.zeros((40, 40, 40)))
    world.ids[:, :FLOOR - 40 + 1, :] = STONE
    centre = (0.5, FLOOR + 1.0, 0.5)  # a creeper's feet on the floor
    crater = blast(world, centre, 3.0, JavaRandom(2024))
    twin = world.copy()
    cells, _ = reference.explode(twin, centre, 3.0, JavaRandom(2024))
    broken = apply_blast(world, crater, JavaRandom(1), lambda cell, stack, rng: None)
    twin_broken = reference.break_cells(twin, cells, JavaRandom(1), lambda cell, stack, rng: None)
    assert [(b.cell, b.block) for b in broken] == twin_broken
    assert np.array_equal(world.ids, twin.ids)
    # Every ray that goes down is in the floor's top cell after its first 0.3 step, still within 0.3 of
    # the centre: stone (6) soaks (6 + 0.3) * 0.3 of at most 3 * 1.3, and the next step kills it.
    assert [(b.cell, b.block) for b in broken] == [((0, FLOOR, 0), STONE)]
    assert len(crater.cells) > 100  # the air cells the rays crossed are in Beta's set too


def test_a_blast_changes_no_block_until_it_is_applied():
    world = _scene("water")
    before = world.ids.copy()
    result = blast(world, CENTRES["water"], 4.0, JavaRandom(5), [box for box, _ in BODIES],
                   [position for _, position in BODIES])
    assert result.cells and result.bodies
    assert np.array_equal(world.ids, before)


def test_bedrock_and_water_survive_a_tnt_blast_beside_them():
    world = BoxWorld((-10, 0, -10), np.zeros((20, 20, 20)))
    world.ids[:, 0, :] = BEDROCK
    world.ids[:, 1:4, :] = DIRT
    world.ids[10:14, 3, 10:14] = WATER
    result = blast(world, (0.5, 2.0, -1.5), 4.0, JavaRandom(3))  # the pool is x 0..3, z 0..3
    apply_blast(world, result, JavaRandom(4), lambda cell, stack, rng: None)
    assert (world.ids[:, 0, :] == BEDROCK).all()
    assert (world.ids[10:14, 3, 10:14] == WATER).all()
    assert all(y >= 1 for _, y, _ in result.cells)
    assert (world.ids[:, 1:4, :] == AIR).sum() > 20  # the dirt around the centre went


def test_a_body_in_the_open_takes_betas_damage_and_push_by_hand():
    # power 3: reach 6; the body 2.5 from the centre along x, nothing in the way (exposure 1):
    # impact = (1 - 2.5 / 6) * 1 = 0.5833..., damage = (int)((impact^2 + impact) / 2 * 8 * 6 + 1) = 23,
    # push = (1, 0, 0) * impact.
    box, position = _body(3.0, 64.0, 0.5)
    result = blast(BoxWorld((0, 0, 0), np.zeros((1, 1, 1))), (0.5, 64.0, 0.5), 3.0, JavaRandom(0), [box], [position])
    (hit,) = result.bodies
    impact = 1.0 - 2.5 / 6.0
    assert hit.index == 0 and hit.exposure == 1.0
    assert hit.damage == 23 == int((impact * impact + impact) / 2.0 * 8.0 * 6.0 + 1.0)
    assert hit.impulse == (impact, 0.0, 0.0) == (0.5833333333333333, 0.0, 0.0)


def test_a_body_walled_off_from_the_blast_still_takes_one_hit_point_and_no_push():
    world = BoxWorld((-10, 50, -10), np.zeros((20, 30, 20)))
    world.ids[11, :, :] = STONE  # the wall at x = 1 from y 50 to 79
    box, position = _body(3.0, 64.0, 0.5)
    (hit,) = blast(world, (0.5, 64.0, 0.5), 3.0, JavaRandom(0), [box], [position]).bodies
    assert (hit.exposure, hit.damage, hit.impulse) == (0.0, 1, (0.0, 0.0, 0.0))


def test_bodies_out_of_reach_or_outside_the_blasts_box_are_not_hit():
    near, near_position = _body(1.5, 64.0, 0.5)
    far, far_position = _body(7.0, 64.0, 0.5)  # 6.5 away: past twice the power
    result = blast(BoxWorld((0, 0, 0), np.zeros((1, 1, 1))), (0.5, 64.0, 0.5), 3.0, JavaRandom(0),
                   [far, near], [far_position, near_position])
    assert [hit.index for hit in result.bodies] == [1]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(-40, 40), st.integers(-5, 300), st.integers(-40, 40)), unique=True,
                max_size=900))
def test_the_hash_set_order_equals_a_simulated_java_6_hash_set(cells):
    simulated = reference.JavaHashSet()
    for cell in cells:
        simulated.add(cell, reference.chunk_position_hash(*cell))
    array = np.array(cells, dtype=np.int64).reshape(-1, 3)
    assert [cells[i] for i in hash_set_order(array)] == list(simulated)


_RAY_BLOCKS = [AIR, STONE, WATER, block_id("stone_slab"), block_id("stairs_east"), block_id("fence"),
               block_id("torch"), block_id("glass"), block_id("door_lower_north_closed"), block_id("ladder_west"),
               block_id("dandelion"), block_id("cobweb"), block_id("cactus"), block_id("bed_foot_south")]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_vectorised_exposure_equals_betas_block_density_ray_by_ray(data):
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    ids = np.array([[[rng.choice(_RAY_BLOCKS) if rng.random() < 0.35 else AIR for _ in range(10)]
                     for _ in range(10)] for _ in range(10)])
    world = BoxWorld((0, 60, 0), ids)
    centre = tuple(data.draw(st.floats(2.0, 8.0)) for _ in range(3))
    centre = (centre[0], centre[1] + 60.0, centre[2])
    boxes = []
    for _ in range(data.draw(st.integers(1, 3))):
        x, y, z = (data.draw(st.floats(1.0, 8.0)) for _ in range(3))
        w, h = data.draw(st.sampled_from([0.25, 0.6, 0.98, 1.4])), data.draw(st.sampled_from([0.25, 0.7, 0.9, 1.8]))
        boxes.append(AABB(x - w / 2, y + 60.0, z - w / 2, x + w / 2, y + 60.0 + h, z + w / 2))
    assert exposures(world, centre, boxes).tolist() == [float(reference.block_density(world, centre, box))
                                                        for box in boxes]


def test_rays_through_a_cells_corner_and_along_its_faces_match_the_reference():
    ids = np.zeros((8, 8, 8))
    ids[3, 2, 3] = STONE
    ids[4, 2, 4] = block_id("stone_slab")
    world = BoxWorld((0, 60, 0), ids)
    centre = (4.0, 62.5, 4.0)  # on the shared edge of four cells
    boxes = [AABB(1.0, 62.0, 1.0, 2.0, 63.0, 2.0), AABB(3.0, 62.0, 3.0, 3.5, 62.5, 3.5),
             AABB(6.0, 61.0, 6.0, 7.0, 62.0, 7.0), AABB(4.0, 62.5, 4.0, 4.6, 64.3, 4.6)]
    assert exposures(world, centre, boxes).tolist() == [float(reference.block_density(world, centre, box))
                                                        for box in boxes]


def test_a_players_box_is_sampled_at_betas_45_points():
    assert [len(sample_fractions(side)) for side in (0.6, 1.8, 0.6)] == [3, 5, 3]
    assert sample_fractions(0.6)[1] == float(F(1.0 / 2.2))


def test_rays_are_stopped_by_betas_block_bounds():
    for name in ("stairs_north", "fence", "cactus", "soul_sand", "stone"):
        assert STOPS_RAYS[block_id(name)] and RAY_BOUNDS[block_id(name)].tolist() == [0, 0, 0, 1, 1, 1], name
    assert RAY_BOUNDS[block_id("stone_slab")].tolist() == [0, 0, 0, 1, 0.5, 1]
    for name in ("air", "water", "lava_3"):
        assert not STOPS_RAYS[block_id(name)], name
    assert STOPS_RAYS[block_id("torch")] and RAY_BOUNDS[block_id("torch")][4] == float(F(0.6))


def test_the_blast_resistances_are_betas():
    expected = {"stone": 6.0, "cobblestone": 6.0, "dirt": 0.5, "grass": 0.6, "planks": 3.0, "stairs_west": 3.0,
                "bedrock": 3600000.0, "water": 100.0, "water_7": 100.0, "lava": 100.0, "obsidian": 1200.0,
                "iron_block": 6.0, "coal_ore": 3.0, "leaves": 0.2, "glass": 0.3, "torch": 0.0, "air": 0.0,
                "cobweb": 4.0, "furnace_east": 3.5}
    assert {name: blast_resistance(block_id(name)) for name in expected} == {
        name: float(F(value)) for name, value in expected.items()}
    assert BLAST_RESISTANCE.dtype == np.float32 and len(BLAST_RESISTANCE) == blocks.COUNT


def test_every_registry_block_has_betas_strength_with_the_registrys_hardness():
    for name in blocks.NAMES:
        hardness, _ = beta_strength(name)
        assert hardness == -1.0 or hardness == blocks.HARDNESS[block_id(name)] or name.startswith(
            ("water", "lava")), name


def test_blast_resistance_refuses_a_non_int_and_an_unknown_id():
    with pytest.raises(TypeError):
        blast_resistance("stone")
    with pytest.raises(UnknownBlockError):
        blast_resistance(blocks.COUNT)


def _first_float(seed: int) -> float:
    return JavaRandom(seed).next_float()


def test_a_blasted_stone_drops_cobblestone_only_when_betas_chance_draw_is_at_most_0_3():
    seeds = [n * 1_000_003 for n in range(100)]  # Java's first float is alike for small seeds
    lucky = next(seed for seed in seeds if _first_float(seed) <= float(F(0.3)))
    unlucky = next(seed for seed in seeds if _first_float(seed) > float(F(0.3)))
    for seed, expected in ((lucky, [ItemStack("cobblestone")]), (unlucky, [])):
        world = BoxWorld((0, 60, 0), np.full((1, 1, 1), STONE))
        dropped = []
        broken = apply_blast(world, Blast((0.5, 60.5, 0.5), 3.0, ((0, 60, 0),), ()), JavaRandom(seed),
                             lambda cell, stack, rng: dropped.append((cell, stack)))
        assert broken == (BrokenCell((0, 60, 0), STONE),)
        assert dropped == [((0, 60, 0), stack) for stack in expected]
        assert world.ids[0, 0, 0] == AIR


def test_the_drops_follow_the_blasts_cell_order_as_the_reference_draws_them():
    world = _scene("air")
    world.ids[:, FLOOR - 40 - 2:FLOOR - 40 + 1, :] = block_id("gravel")  # gravel's drop draws again (flint)
    world.ids[15:25, FLOOR - 40 + 1, 15:25] = block_id("leaves")
    centre = (0.5, FLOOR + 1.0, 0.5)
    result = blast(world, centre, 4.0, JavaRandom(8))
    twin = world.copy()
    ours, theirs = [], []

    def spawn(into):
        return lambda cell, stack, rng: into.append((cell, stack, next_float(rng)))  # the spawn draws too

    apply_blast(world, result, JavaRandom(9), spawn(ours))
    reference.break_cells(twin, list(result.cells), JavaRandom(9), spawn(theirs))
    assert ours == theirs and len(ours) > 3
    assert np.array_equal(world.ids, twin.ids)


def test_the_explosion_sound_pitch_is_betas_two_draws():
    rng, twin = JavaRandom(11), JavaRandom(11)
    first, second = F(twin.next_float()), F(twin.next_float())
    assert explosion_pitch(rng) == float(F(F(F(1.0) + F(F(first - second) * F(0.2))) * F(0.7)))
    assert rng.state == twin.state


def test_a_blast_on_a_real_world_breaks_its_crater_and_reports_the_sections(tmp_path):
    world = World.create(tmp_path / "blast.boxel", seed=42, workers=1)
    try:
        sx, sy, sz = world.spawn
        x, y, z = int(sx // 1), int(sy // 1) - 10, int(sz // 1)
        world.set_id(x, y, z, AIR)
        world.set_id(x, y + 1, z, AIR)
        world.take_changes()
        result = blast(world, (x + 0.5, float(y), z + 0.5), 3.0, JavaRandom(7))
        broken = apply_blast(world, result, JavaRandom(8), lambda cell, stack, rng: None)
        changes = world.take_changes()
        assert broken and all(world.id_at(*b.cell) == AIR for b in broken)
        assert {b.cell for b in broken} <= set(result.cells)
        assert {change.cell for change in changes.blocks if change.new == "air"} >= {b.cell for b in broken}
        assert changes.sections
    finally:
        world.close()


@pytest.mark.parametrize("power", [0.0, -1.0, math.nan, math.inf, explosion.MAX_POWER * 2])
def test_a_bad_power_is_refused_with_nothing_drawn(power):
    rng = JavaRandom(1)
    with pytest.raises(ValueError):
        blast(_scene("air"), (0.5, 70.0, 0.5), power, rng)
    assert rng.state == JavaRandom(1).state


@pytest.mark.parametrize("arguments, error", [
    (dict(centre=(0.5, 70.0)), TypeError), (dict(centre=(0.5, math.nan, 0.5)), ValueError),
    (dict(power="3"), TypeError), (dict(rng=3), TypeError),
    (dict(boxes=[AABB(0, 0, 0, 1, 1, 1)]), ValueError),
    (dict(boxes=[(0, 0, 0, 1, 1, 1)], positions=[(0, 0, 0)]), TypeError),
])
def test_bad_blast_arguments_are_refused(arguments, error):
    call = dict(centre=(0.5, 70.0, 0.5), power=3.0, rng=JavaRandom(1), boxes=(), positions=())
    call.update(arguments)
    with pytest.raises(error):
        blast(_scene("air"), call["centre"], call["power"], call["rng"], call["boxes"], call["positions"])


def test_apply_blast_refuses_what_is_not_a_blast_or_a_drop():
    world = _scene("air")
    with pytest.raises(TypeError):
        apply_blast(world, ((0, 60, 0),), JavaRandom(1), lambda cell, stack, rng: None)
    with pytest.raises(TypeError):
        apply_blast(world, Blast((0.5, 60.5, 0.5), 3.0, (), ()), JavaRandom(1), None)
