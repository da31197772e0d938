"""Every message key the service and the cogs use exists in the English catalog."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import CATALOGS, has, language, t

ROOT = Path(__file__).resolve().parents[2]
KEY = re.compile(r"""["']((?:error|ok|notice|table|result|button|hand|select|cmd|choice|rules)"""
                 r"""\.[a-z_.]+[a-z_])["']""")


def test_used_keys_exist():
    used = set()
    for folder in ("bot/tables", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            used |= set(KEY.findall(path.read_text(encoding="utf-8")))
    missing = sorted(k for k in used if not has(k))
    assert not missing, missing
    for status in ("seating", "playing", "finished", "ended", "abandoned"):
        assert has(f"error.status.{status}")


def test_locales_and_parameters():
    assert language("en-US") == "en" and language("xx") == "en" and language(None) == "en"
    assert language("pl") == "pl" and language("pt-BR") == "en"
    assert t("error.not_your_turn", "xx", name="Bob") == "It is not your turn: Bob is to play."
    assert t("no.such.key") == "no.such.key"
    assert t("error.not_your_turn") .startswith("It is not your turn")  # missing param: raw
    for catalog in CATALOGS.values():
        assert set(catalog) <= set(CATALOGS["en"])
