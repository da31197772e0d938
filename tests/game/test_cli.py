from __future__ import annotations

import subprocess
import sys

import pytest


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.slow
def test_presets_lists_every_preset_with_a_description() -> None:
    from bot.game.presets import PRESETS

    out = run_cli("presets")
    assert out.returncode == 0
    lines = out.stdout.strip().splitlines()
    assert [line.split()[0] for line in lines] == list(PRESETS)
    assert all(len(line) > 40 for line in lines)


@pytest.mark.slow
def test_simulate_prints_hands_per_second_last() -> None:
    out = run_cli("simulate", "--preset", "polish4", "--hands", "50", "--seed", "2")
    assert out.returncode == 0
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("hands/s: ") and float(last.split()[1]) > 0


@pytest.mark.slow
def test_simulate_matches() -> None:
    out = run_cli("simulate", "--preset", "elwood2", "--matches", "2", "--seed", "2")
    assert out.returncode == 0 and "matches: 2" in out.stdout


@pytest.mark.slow
def test_simulate_unknown_preset_is_an_error() -> None:
    out = run_cli("simulate", "--preset", "nope")
    assert out.returncode == 2 and "unknown preset" in out.stderr
