"""Benchmark: median milliseconds and PNG size of each image kind.

``run_bench()`` prints one line per kind and, as its last line, one JSON object
``{"kinds": {"<kind>": {"median_ms": 12.3, "png_kb": 48.0}, ...}}``, and returns that dict.
The first render of each kind (which fills the caches) is not timed.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from render import samples


def kinds() -> dict[str, Callable[[], bytes]]:
    r = samples.renderers()
    return {
        "table2": r["table2_play"],
        "table3": r["table3_trump_H"],
        "table4": r["table4_play"],
        "hand": r["hand_follow"],
        "hand32": r["hand_32"],
        "sheet45": r["sheet4_45_hands"],
        "leaderboard": r["leaderboard"],
        "summary": r["summary4"],
    }


def run_bench(repeats: int = 30, *, echo: bool = True) -> dict[str, Any]:
    result: dict[str, dict[str, float]] = {}
    for name, fn in kinds().items():
        data = fn()  # warm the caches
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1000)
        entry = {
            "median_ms": round(statistics.median(times), 1),
            "png_kb": round(len(data) / 1024, 1),
        }
        result[name] = entry
        if echo:
            print(f"{name:12} {entry['median_ms']:7.1f} ms  {entry['png_kb']:7.1f} KB")
    out = {"kinds": result}
    if echo:
        print(json.dumps(out, sort_keys=True))
    return out
