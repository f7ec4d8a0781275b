"""Suite-wide rules. In CI (CI=true) a skipped display test is a failure: display tests must run there."""

import os

import pytest
from hypothesis import settings

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
