"""Suite-wide rules. In CI (CI=true) a skipped display test is a failure: display tests must run there.
The game is muted (BOXEL_MUTE=1) in every test and in the games they start."""

import os

import pytest
from hypothesis import settings

# The game plays no sound in tests, nor in the games they start (which inherit the environment): no
# audio device is opened, so a machine without one prints nothing. A test that plays sound says so in
# the environment it gives its game (tests/game/test_sounds_display.py).
os.environ["BOXEL_MUTE"] = "1"

# CI draws the same examples every run (a red build is reproducible); locally they vary.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and item.get_closest_marker("display") and os.environ.get("CI") == "true":
        report.outcome = "failed"
        report.longrepr = f"display test skipped in CI (a skip is a failure there): {report.longrepr}"
