"""The day's duplicate boards: derived from the date and the preset alone, and replayable."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.game.boards import board, day_boards, digest
from bot.game.presets import PRESETS
from bot.game.rules import RulesError
from bot.game.scenario import run as replay

DAY = dt.date(2026, 11, 27)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_one_days_boards_are_pinned() -> None:
    # The same on every machine: a change here changes every server's daily challenge.
    assert digest(day_boards(DAY, "russian")) == "44a0292addd992ef"
    out = run_cli("boards", "--date", "2026-11-27")
    assert out.returncode == 0
    assert hashlib.sha256(out.stdout.encode()).hexdigest() == (
        "e23cef428e79918146fd9bfaa66661ab3d0e1216055689925a25cff4014f3108")
    first = json.loads(out.stdout.splitlines()[0])
    assert first["dealer"] == "A"
    assert first["hands"][0]["deal"]["talon"] == ["QC", "KH", "9S"]


@pytest.mark.slow
def test_two_runs_print_the_same_boards_and_each_replays(tmp_path: Path) -> None:
    a = run_cli("boards", "--date", "2026-11-27", "--preset", "polish")
    b = run_cli("boards", "--date", "2026-11-27", "--preset", "polish", "--count", "6")
    assert a.returncode == 0 and a.stdout == b.stdout
    lines = a.stdout.splitlines()
    assert len(lines) == 6
    out = run_cli("boards", "--date", "2026-11-27", "--preset", "polish", "--out",
                  str(tmp_path))
    paths = out.stdout.split()
    assert len(paths) == 6
    replayed = run_cli("replay", *paths)
    assert replayed.returncode == 0
    for line in replayed.stdout.splitlines():
        result = json.loads(line)
        assert result["ok"] and result["hands"][0]["complete"] is False


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_gives_boards_that_replay_and_seat_the_player_evenly(name: str) -> None:
    boards = day_boards(DAY, name)
    seats = PRESETS[name].rules.seats
    assert len(boards) == 2 * seats
    assert sorted(b.seat for b in boards) == sorted(list(range(seats)) * 2)
    for b in boards:
        assert replay(b.scenario())["ok"]
        s = b.start()
        assert b.seat in s.active  # the player never sits out


def test_days_and_presets_differ() -> None:
    assert board(DAY, "russian", 0).deal != board(DAY + dt.timedelta(days=1), "russian", 0).deal
    assert board(DAY, "russian", 0).deal != board(DAY, "russian", 1).deal
    assert digest(day_boards(DAY, "russian")) != digest(day_boards(DAY, "russian_online"))


@pytest.mark.slow
def test_a_count_that_is_not_a_multiple_of_the_seats_is_refused() -> None:
    with pytest.raises(RulesError, match="multiple of 3"):
        day_boards(DAY, "russian", 4)
    out = run_cli("boards", "--date", "2026-11-27", "--count", "4")
    assert out.returncode == 2 and "multiple of 3" in out.stderr
    out = run_cli("boards", "--date", "27.11.2026")
    assert out.returncode == 2 and "not a date" in out.stderr
