"""Start Boxel: `python main.py [options]` (see `python main.py --help`). All logic lives in `game`."""

from game.frontends.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
