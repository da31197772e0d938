"""The tests in layers: `make test-fast` leaves out the tests marked postgres, browser, e2e
and slow; a test asking for a layer's fixture is marked by tests/conftest.py, and a module
that starts a layer's server by itself says so. Helpers live in tests/helpers, fixtures in
the conftest files."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
# what a test module calls when it starts a layer's server itself, not through a fixture
STARTS = {"e2e": ("FakeDiscord(", "Standalone("), "postgres": ("PgServer(",),
          "browser": ("async_playwright(",)}


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if p != Path(__file__).resolve())


def test_a_module_that_starts_a_layer_by_itself_is_marked() -> None:
    unmarked = [f"{p.relative_to(ROOT)}: {layer}" for p in _test_modules()
                for layer, calls in STARTS.items()
                if any(c in (text := p.read_text(encoding="utf-8")) for c in calls)
                and f"pytest.mark.{layer}" not in text]
    assert not unmarked


def test_the_fast_run_leaves_out_every_layer_and_nothing_else() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    registered = {m.split(":")[0] for m in config["tool"]["pytest"]["ini_options"]["markers"]}
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    fast = re.search(r'^test-fast:.*\n\t.*-m "([^"]+)"', make, re.M)
    assert fast is not None
    assert set(re.findall(r"not (\w+)", fast.group(1))) == registered


def test_no_test_imports_from_a_conftest() -> None:
    pattern = re.compile(r"^\s*from (\.|tests\.[\w.]*)conftest import", re.M)
    bad = [str(p.relative_to(ROOT)) for p in TESTS.rglob("*.py")
           if pattern.search(p.read_text(encoding="utf-8"))]
    assert not bad
