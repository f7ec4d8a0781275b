"""Run the benchmark suites and print one table: `python -m bench [--quick] [--profile] [suite ...]`."""

from __future__ import annotations

import argparse
import importlib
import inspect
import platform
import sys

from .harness import format_table

SUITES = ("physics", "sweep", "crowd", "world", "fluids", "falling", "meshing", "sight", "light", "memory", "game",
          "draws", "peers", "overlay", "session", "server", "gpu",
          "crafting", "items", "explosion", "pathfinding", "creatures", "mobs")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("suites", nargs="*", help=f"which suites (default: all of {', '.join(SUITES)})")
    parser.add_argument("--quick", action="store_true", help="few repeats: checks that every case runs, numbers are rough")
    parser.add_argument("--profile", action="store_true",
                        help="suites that can (game): a per-frame breakdown from Panda3D's PStats instead of their rows")
    args = parser.parse_args(argv)
    chosen = args.suites or list(SUITES)
    rows = []
    for name in chosen:
        try:
            module = importlib.import_module(f"bench.bench_{name}")
        except ModuleNotFoundError as error:
            if error.name == f"bench.bench_{name}" and not args.suites:
                continue  # a suite that does not exist yet
            raise
        print(f"running {name} ...", file=sys.stderr, flush=True)
        if args.profile and "profile" in inspect.signature(module.run).parameters:
            rows.extend(module.run(quick=args.quick, profile=True))
        else:
            rows.extend(module.run(quick=args.quick))
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}"
          f"{' (quick run: rough numbers)' if args.quick else ''}")
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
