"""Test drivers: small programs that open a real window, drive part of Boxel and write screenshots
and reports for the display tests to check (run from the repository root as
`python -m tests.game.drivers.NAME`). Test code, not product: they may import any game module.

- `preview`: the chunk renderer on a generated landscape or a hand-built corner.
- `widget_demo`: the UI widgets (HUD, target outline, loading screen, pause menu) on a small scene.
"""
