"""Prediction over real sockets: a headless client behind a proxy that adds 150 ms of round trip
and +-30 ms of jitter (`tests.net.proxy`) walks, jumps, swims, climbs and flies alone for 60 s of
ticks (in real time: the server ticks at 20 Hz) and is never corrected; the client counts."""

from __future__ import annotations

import asyncio

import pytest

from game.net.client import play

from .course import build_course, script
from .proxy import LaggyProxy
from .test_server import serving

MINUTE_TICKS = 1200
LIMIT_SECONDS = 85


@pytest.mark.slow
def test_a_lone_client_behind_150_ms_and_jitter_plays_a_minute_of_ticks_with_no_correction(session):
    build_course(session.world)

    async def scenario():
        async with serving(session) as (server, port):
            proxy = LaggyProxy(port, delay_s=0.075, jitter_s=0.030)
            try:
                proxied = await proxy.start()
                return await play("127.0.0.1", proxied, "alice", script(MINUTE_TICKS), MINUTE_TICKS, timeout=75)
            finally:
                await proxy.close()

    async def limited():
        async with asyncio.timeout(LIMIT_SECONDS):
            return await scenario()

    report = asyncio.run(limited())
    assert report["ticks_run"] == MINUTE_TICKS
    assert report["corrections"] == 0
    assert report["input_tick"] > report["start_tick"] + MINUTE_TICKS - 300  # it played the script to its end
