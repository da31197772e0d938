from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.game.options import OPTION_DOCS, OPTION_GROUPS
from bot.game.presets import PRESETS
from bot.game.reference import rules_markdown
from bot.game.rules import OPTION_NAMES

ROOT = Path(__file__).resolve().parents[2]


def test_committed_rules_reference_is_current() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_markdown(), (
        "docs/rules.md is out of date: run "
        "`.venv/bin/python -m bot presets --markdown > docs/rules.md` and commit it")


def test_every_option_is_described_once() -> None:
    grouped = [name for _, names in OPTION_GROUPS for name in names]
    assert sorted(grouped) == sorted(OPTION_NAMES)
    assert set(OPTION_DOCS) == set(OPTION_NAMES)
    assert all(text.endswith(".") for text in OPTION_DOCS.values())


def test_reference_names_every_option_and_preset() -> None:
    text = rules_markdown()
    assert all(f"| `{name}` |" in text for name in OPTION_NAMES)
    assert all(f"### `{name}`: {p.title}" in text for name, p in PRESETS.items())
    assert "- `lock_at`: `900`" in text  # polish: a difference from the defaults is listed


@pytest.mark.slow
def test_presets_command_prints_the_reference() -> None:
    out = subprocess.run([sys.executable, "-m", "bot", "presets", "--markdown"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert out == rules_markdown()
