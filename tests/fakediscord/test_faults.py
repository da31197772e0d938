"""Injected faults: the next matching requests fail (or arrive late), then all is well."""

from __future__ import annotations

import time

import aiohttp


async def test_injected_failure_then_normal_service(fake_discord, world):
    fd = fake_discord
    headers = {"Authorization": f"Bot {fd.token}"}
    url = f"{fd.api_base}/channels/{world.channel.id}"
    fault = fd.inject("GET", f"/channels/{world.channel.id}", times=2)
    slow = fd.inject("GET", "/users/@me", status=None, delay=0.3)
    async with aiohttp.ClientSession(headers=headers) as http:
        statuses = []
        for _ in range(3):
            async with http.get(url) as resp:
                statuses.append(resp.status)
        t0 = time.monotonic()
        async with http.get(f"{fd.api_base}/users/@me") as resp:
            assert resp.status == 200
        assert time.monotonic() - t0 >= 0.3
        async with http.post(url + "/messages", json={"content": "x"}) as resp:
            assert resp.status == 200  # another method: not caught
    assert statuses == [503, 503, 200]
    assert fault.hits == 2 and slow.hits == 1
