"""The layer rules: physics is standalone, game.world is numpy-only (docs/ARCHITECTURE.md); and every
third-party package the product imports is declared in pyproject.toml."""

import ast
import importlib.metadata
import pathlib
import re
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINE_MODULES = ("ursina", "panda3d", "direct")
NUMPY_IN_PHYSICS = {"physics/crowd.py", "physics/crowd_vector.py", "physics/broad_phase.py"}
"""The only physics modules where numpy pays (stepping thousands of bodies at once)."""


def imported_top_level_names(folder: pathlib.Path) -> dict[str, set[str]]:
    found = {}
    for path in [folder] if folder.is_file() else folder.rglob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_importing_physics_loads_no_engine_or_game_module():
    code = ("import sys, physics; bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('ursina', 'panda3d', 'direct', 'game')); print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_no_physics_module_imports_the_engine_or_the_game_and_only_the_crowd_uses_numpy():
    for path, names in imported_top_level_names(ROOT / "physics").items():
        assert not names & {*ENGINE_MODULES, "game"}, path
        if path not in NUMPY_IN_PHYSICS:
            assert "numpy" not in names, path


def test_nothing_under_game_world_imports_ursina_or_panda3d():
    for path, names in imported_top_level_names(ROOT / "game" / "world").items():
        assert not names & set(ENGINE_MODULES), path


def test_importing_game_world_loads_no_engine_module():
    code = ("import sys, game.world, game.world.blocks; bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('ursina', 'panda3d', 'direct')); print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


PRODUCT = ("game", "physics", "assets", "main.py")
"""What `pip install .` users run: the packages, the asset generator and the entry point (not tests or bench)."""


def canonical(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def test_every_third_party_package_the_product_imports_is_a_declared_dependency():
    requirements = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    declared = {canonical(re.match(r"[A-Za-z0-9._-]+", requirement).group()) for requirement in requirements}
    local = {path.stem for path in ROOT.iterdir() if path.is_dir() or path.suffix == ".py"}
    providers = importlib.metadata.packages_distributions()
    for part in PRODUCT:
        for path, names in imported_top_level_names(ROOT / part).items():
            for name in names - set(sys.stdlib_module_names) - local - {"__future__"}:
                assert name in providers, f"{path} imports {name}, which no installed distribution provides"
                assert {canonical(d) for d in providers[name]} & declared, \
                    f"{path} imports {name} ({', '.join(providers[name])}), not in pyproject.toml's dependencies"
