"""The one declared world protocol: `World` and the lab's `Arena` both are `GameWorld`s, with every
method taking the protocol's parameters, and no module of the game probes a world for a member."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from game.rules.game_world import GAME_WORLD_METHODS, STREAMED_WORLD_METHODS, GameWorld, StreamedWorld
from game.world.lab import Arena, build_arena
from game.world import World

GAME_DIR = Path(__file__).resolve().parents[2] / "game"
PROBES = ("getattr", "hasattr")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    opened = World.create(tmp_path_factory.mktemp("protocol") / "world.boxel", seed=42, workers=1)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def arena() -> Arena:
    return build_arena()


def protocol_properties(protocol: type) -> list[str]:
    return sorted(name for name, value in vars(protocol).items() if isinstance(value, property))


def names_a_world(node: ast.expr) -> bool:
    """Whether an expression names a world: `world`, `arena`, `x_world`, or `<anything>.world` / `._world`."""
    if isinstance(node, ast.Name):
        return node.id in ("world", "arena") or node.id.endswith("_world")
    if isinstance(node, ast.Attribute):
        return node.attr in ("world", "_world", "arena")
    return False


def world_probes(source: str) -> list[tuple[int, str]]:
    """(line, call) of every getattr/hasattr whose first argument names a world."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in PROBES
                and node.args and names_a_world(node.args[0])):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_probe_scan_finds_a_probe_of_a_world_and_nothing_else():
    source = ("a = getattr(world, 'light', None)\nb = hasattr(self.world, 'tick')\n"
              "c = getattr(session.world, 'x')\nd = getattr(options, 'lab')\ne = hasattr(self, 'world')\n")
    assert [line for line, _ in world_probes(source)] == [1, 2, 3]


def test_no_module_of_the_game_probes_a_world_with_getattr_or_hasattr():
    probes = [f"{path.relative_to(GAME_DIR.parent)}:{line}: {call}"
              for path in sorted(GAME_DIR.rglob("*.py")) for line, call in world_probes(path.read_text())]
    assert probes == []


@pytest.mark.parametrize("which", ["world", "arena"])
def test_the_world_and_the_labs_arena_are_both_game_worlds(which, request):
    assert isinstance(request.getfixturevalue(which), GameWorld)


def test_only_the_world_streams_its_columns(world, arena):
    assert isinstance(world, StreamedWorld)
    assert not isinstance(arena, StreamedWorld)


def test_a_world_missing_one_member_is_not_a_game_world():
    class Lacking(Arena):
        take_problems = None  # the protocol check counts a method set to None as missing

    assert not isinstance(Lacking(), GameWorld)
    assert not isinstance(object(), GameWorld)


def check_parameters(protocol: type, implementation: object, name: str) -> None:
    """`implementation.name` takes the protocol's parameters: the same names in the same order and
    of the same kinds (each with a default where the protocol's has one); any further ones have defaults."""
    declared = inspect.signature(vars(protocol)[name])
    wanted = list(declared.parameters.values())[1:]  # less self
    member = getattr(implementation, name)  # bound: no self (a staticmethod has none either)
    assert callable(member), f"{type(implementation).__name__}.{name} is not a method"
    signature = inspect.signature(member)
    given = list(signature.parameters.values())
    assert [(p.name, p.kind) for p in given[:len(wanted)]] == [(p.name, p.kind) for p in wanted], \
        f"{type(implementation).__name__}.{name}{signature} does not take the parameters of {name}{declared}"
    for want, have in zip(wanted, given):
        if want.default is not inspect.Parameter.empty:
            assert have.default is not inspect.Parameter.empty, f"{name}: {have.name} needs a default"
    for extra in given[len(wanted):]:
        assert extra.default is not inspect.Parameter.empty or extra.kind in (
            inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD), \
            f"{type(implementation).__name__}.{name}: its extra parameter {extra.name} needs a default"


@pytest.mark.parametrize("which", ["world", "arena"])
@pytest.mark.parametrize("name", GAME_WORLD_METHODS)
def test_every_protocol_method_takes_the_protocols_parameters(which, name, request):
    check_parameters(GameWorld, request.getfixturevalue(which), name)


@pytest.mark.parametrize("name", STREAMED_WORLD_METHODS)
def test_every_streaming_method_of_the_world_takes_the_protocols_parameters(world, name):
    check_parameters(StreamedWorld, world, name)


@pytest.mark.parametrize("which", ["world", "arena"])
def test_every_protocol_property_is_a_value_not_a_method(which, request):
    implementation = request.getfixturevalue(which)
    for name in protocol_properties(GameWorld):
        assert not inspect.ismethod(getattr(implementation, name)), f"{which}.{name} is a method"


def test_the_check_finds_a_method_with_other_parameters(arena):
    class Renamed(Arena):
        def get_block(self, x, y, height):  # a parameter renamed
            return "air"

    class Extra(Arena):
        def light(self, x, y, z, strict):  # an extra parameter without a default
            return (15, 0)

    for wrong, name in ((Renamed(), "get_block"), (Extra(), "light")):
        with pytest.raises(AssertionError):
            check_parameters(GameWorld, wrong, name)
