"""The scenario corpus (tests/scenarios/*.json, and the illegal ones in
tests/scenarios/illegal/*.json) replayed through the engine.

Each file carries its expected replay output under ``_expect`` (ignored by ``replay``):
every key of ``_expect`` must equal the result's value; dicts are compared recursively on
their listed keys only, lists exactly. ``_expect_error_contains`` (optional) is a substring
the error message must contain.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.game.presets import PRESETS
from bot.game.scenario import replay_file

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "tests" / "scenarios"
ILLEGAL = SCEN / "illegal"
LEGAL_FILES = sorted(SCEN.glob("*.json"))
ILLEGAL_FILES = sorted(ILLEGAL.glob("*.json"))
FILES = LEGAL_FILES + ILLEGAL_FILES


def subset_diff(expect: Any, got: Any, where: str = "$") -> list[str]:
    """Where ``got`` breaks ``expect`` (dicts: listed keys, recursively; else equality)."""
    if isinstance(expect, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected an object, got {got!r}"]
        out: list[str] = []
        for k, v in expect.items():
            if k not in got:
                out.append(f"{where}.{k}: missing from the result")
            else:
                out += subset_diff(v, got[k], f"{where}.{k}")
        return out
    if expect != got or type(expect) is not type(got):
        return [f"{where}: expected {expect!r}, got {got!r}"]
    return []


def test_subset_rule() -> None:
    assert subset_diff({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}, "d": 3}) == []
    assert subset_diff({"a": [1, 2]}, {"a": [1, 2, 3]})
    assert subset_diff({"a": {"b": 1}}, {"a": {"b": 2}})
    assert subset_diff({"a": 1}, {})
    assert subset_diff({"a": False}, {"a": 0})


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "_note" in data, "every scenario explains what it pins"
    assert "_expect" in data, "every scenario states its expected result"
    result = replay_file(str(path))
    assert result["file"] == str(path)
    diff = subset_diff(data["_expect"], result)
    assert not diff, "\n".join(diff)
    fragment = data.get("_expect_error_contains")
    if fragment is not None:
        assert result["ok"] is False
        assert fragment in result["error"], result["error"]
    if result["ok"] is False:
        assert "error" in data["_expect"] or fragment is not None


def test_corpus_size_and_presets() -> None:
    assert len(LEGAL_FILES) >= 40 and len(ILLEGAL_FILES) >= 10
    used = {json.loads(p.read_text(encoding="utf-8")).get("preset", "russian") for p in FILES}
    missing = set(PRESETS) - used
    assert not missing, f"presets without a scenario: {sorted(missing)}"


def _cli(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "replay", *map(str, files)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )


@pytest.mark.slow
def test_cli_replay_one_line_per_file_and_exit_status() -> None:
    ok = SCEN / "w00_russian_complete_hand.json"
    bad = ILLEGAL / "err_bid_step.json"
    proc = _cli(ok, bad)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["file"] == str(ok) and first["ok"] is True
    assert second["file"] == str(bad) and second["ok"] is False
    assert second["error"] == json.loads(bad.read_text(encoding="utf-8"))["_expect"]["error"]
    assert first == replay_file(str(ok))
    proc = _cli(ok)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line)["ok"] for line in proc.stdout.splitlines()] == [True]


@pytest.mark.slow
def test_folders_split_legal_from_illegal() -> None:
    """Replaying the legal folder succeeds (exit 0); every file of the illegal one fails (2)."""
    legal = _cli(*LEGAL_FILES)
    assert legal.returncode == 0, legal.stdout + legal.stderr
    assert all(json.loads(line)["ok"] for line in legal.stdout.splitlines())
    illegal = _cli(*ILLEGAL_FILES)
    assert illegal.returncode == 2, illegal.stderr
    results = [json.loads(line) for line in illegal.stdout.splitlines()]
    assert len(results) == len(ILLEGAL_FILES) and not any(r["ok"] for r in results)
    assert all(p.stem.startswith("err_") for p in ILLEGAL_FILES)
    assert not any(p.stem.startswith("err_") for p in LEGAL_FILES)
