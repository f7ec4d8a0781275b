"""Who may import whom (docs/ARCHITECTURE.md, "Import rules"): no import cycle in `game/` or `physics/`,
only the window's modules import the engine, and drawing code imports no game logic."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("game", "physics")
ENGINE = {"ursina", "panda3d", "direct"}
ENGINE_IMPORTERS = ("game/window/render/", "game/window/ui/", "game/window/app.py", "game/window/first_draws.py",
                    "game/window/frame_profile.py", "game/window/pointer_motion.py")
"""The only modules that may import the engine: drawing, widgets and the window (the app, the first draws
behind its loading screen, its frame profile, the pointer its mouse look reads)."""
LAYERS_MAY_IMPORT = {
    "game.world": ("game.world", "physics"),
    "game.rules": ("game.rules", "game.world", "physics"),
    "game.userdata": ("game.userdata", "game.world", "physics"),
    "game.net": ("game.net", "game.rules", "game.world", "physics"),
    "game.frontends": ("game.frontends", "game.net", "game.rules", "game.world", "game.userdata", "game.window",
                       "physics"),
    "game.window": ("game.window", "game.net", "game.rules", "game.world", "game.userdata", "game.frontends.options",
                    "game.frontends.process_memory", "game.frontends.stop_signals", "physics"),
}
"""Who may import whom among game's layers (docs/ARCHITECTURE.md, "Layers"): the world knows no rules,
the rules know no front end or window, and only front ends start the window."""
RENDER_MAY_IMPORT = ("game.window.render", "game.world", "physics")
"""What drawing code may import of Boxel: itself, the numpy world data it draws, and physics values."""


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, pathlib.Path]:
    return {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def imports_of(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """Every module of `known` that `name` imports anywhere in its file (also inside functions and
    TYPE_CHECKING blocks: a dependency is a dependency). `from package import module` counts as an
    import of the module; the package's own `__init__` is not counted when a submodule imports a sibling."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in found if m in known and m != name}


def import_graph() -> dict[str, set[str]]:
    known = modules()
    names = set(known)
    return {name: imports_of(name, path, names) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle_and_only_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_game_or_physics_is_part_of_an_import_cycle():
    graph = import_graph()
    assert len(graph) > 50 and "game.rules.session" in graph["game.frontends.headless"]  # the graph is really read
    assert cycles(graph) == []


def engine_imports(path: pathlib.Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names & ENGINE


def test_only_drawing_widgets_and_the_window_import_the_engine():
    importers = {str(p.relative_to(ROOT)) for p in modules().values() if engine_imports(p)}
    assert importers, "no module imports the engine: the check reads nothing"
    assert all(path.startswith(ENGINE_IMPORTERS) for path in importers), sorted(importers)
    assert "game/window/app.py" in importers


def test_drawing_code_imports_no_game_logic():
    graph = import_graph()
    for name, imported in graph.items():
        if name.startswith("game.window.render"):
            assert all(m.startswith(RENDER_MAY_IMPORT) for m in imported), (name, sorted(imported))


def test_the_session_the_headless_runner_the_command_line_and_the_lab_load_no_engine_module():
    code = ("import sys, game.rules.session, game.frontends.headless, game.frontends.cli, game.world.lab, game.frontends.options; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ursina', 'panda3d', 'direct')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_each_layer_of_game_imports_only_the_layers_below_it():
    graph = import_graph()
    checked = 0
    for name, imported in graph.items():
        layer = next((prefix for prefix in LAYERS_MAY_IMPORT if name == prefix or name.startswith(prefix + ".")), None)
        if layer is None:
            continue
        checked += 1
        allowed = LAYERS_MAY_IMPORT[layer]
        stray = sorted(m for m in imported if not m.startswith(allowed))
        assert stray == [], (name, stray)
    assert checked > 80  # every module of every layer was read


def test_game_session_is_still_the_session_module_under_its_old_name():
    code = ("import game.session, game.rules.session; "
            "print(game.session is game.rules.session and game.session.Session is game.rules.session.Session)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"

