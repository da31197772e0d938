"""The words the images draw, in one language: a frozen value the caller builds from the
message catalog (``Labels.from_catalog``), so that ``render`` draws any language without
knowing where the words come from. Every field is the catalog's ``img.<field>`` template
(dots as underscores); the defaults are the English catalog's."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from babel import Locale

# {name|one:...|other:...}: the catalogs' plural field (see bot/i18n/plurals.py)
_PLURAL = re.compile(r"\{(\w+)((?:\|[a-z]+:[^{}|]*)+)\}")


@cache
def _plural_rule(lang: str) -> Any:
    return Locale.parse(lang.replace("-", "_")).plural_form


@dataclass(frozen=True)
class Labels:
    """Every word of the images; ``lang`` picks the plural forms of counted words."""

    lang: str = "en"
    dealer_mark: str = "D"
    seat: str = "Seat {no}"
    hand_no: str = "Hand {no}"
    last_trick: str = "previous trick"
    high_bid: str = "High bid {bid}"
    trump: str = "trump"
    no_trump: str = "no trump yet"
    stock: str = "stock {count}"
    points: str = "{points} pts"
    declarer: str = "declarer"
    declarer_short: str = "decl."
    sitter: str = "sits out"
    sitter_short: str = "out"
    barrel: str = "barrel"
    barrel_attempt: str = "barrel {attempt}"
    locked: str = "locked"
    passed: str = "pass"
    blind: str = "blind {amount}"
    play_trick: str = "Play · trick {no}/{of}"
    golden: str = "golden ×2"
    phase_dealing: str = "Dealing"
    phase_bidding: str = "Bidding"
    phase_talon: str = "Choosing a talon"
    phase_exchange: str = "Exchange"
    phase_contract: str = "Contract"
    phase_play: str = "Play"
    phase_match_over: str = "Match over"
    end_played: str = "Hand over"
    end_rospisat: str = "Rospisat"
    end_spisat: str = "Spisat"
    end_conceded: str = "Conceded"
    end_thrown_in: str = "Thrown in"
    end_redeal: str = "Redeal"
    talon_prikup: str = "prikup"
    talon_musik: str = "musik"
    talon_kitty: str = "kitty"
    talon_talon: str = "talon"
    rank_J: str = "J"
    rank_Q: str = "Q"
    rank_K: str = "K"
    rank_A: str = "A"
    rospisat_mark: str = "Р"
    your_turn: str = "Your turn"
    your_lead: str = "Your lead"
    your_bid: str = "Your bid"
    new: str = "new"
    marriage: str = "marriage"
    note_sitting_out: str = "You sit out this hand"
    note_talon: str = "Choose a talon"
    note_give: str = "Give a card to each"
    note_give_or_discard: str = "Give or lay away"
    note_discard: str = "Lay away cards"
    note_contract: str = "Set the contract or lead"
    note_free_play: str = "Any card (free play while the stock lasts)"
    follow_C: str = "Follow clubs"
    follow_D: str = "Follow diamonds"
    follow_H: str = "Follow hearts"
    follow_S: str = "Follow spades"
    sheet: str = "Score sheet"
    sheet_final: str = "Final score sheet"
    sheet_pages: str = "hands {first}–{last} of {total}"
    sat: str = "sat"
    match_over: str = "{title} · match over"
    winner: str = "Winner"
    shared_win: str = "Shared win"
    hands: str = "{count} {count|one:hand|other:hands}"
    minutes: str = "{count} min"
    contracts: str = "contracts {made}✓ {failed}✗"
    best: str = "best {contract}"
    rating_change: str = "rating {change}"
    no_hands: str = "no hands played"
    chart_hands: str = "hands 1–{count}"
    leaderboard: str = "Leaderboard"
    player: str = "Player"
    rating: str = "Rating"
    games: str = "Games"
    wins: str = "Wins"
    win_rate: str = "Win %"
    no_games: str = "No games yet"
    @classmethod
    def from_catalog(cls, lang: str, text: Callable[[str], str]) -> Labels:
        """Labels in ``lang`` from ``text(key)``, the catalog's raw template of ``key``."""
        return cls(lang, *(text(_key(f.name)) for f in fields(cls)[1:]))

    def say(self, template: str, **params: Any) -> str:
        """``template`` (one of the fields) filled in, its plural fields chosen for
        ``lang``."""

        def choose(m: re.Match[str]) -> str:
            value = params.get(m.group(1))
            if not isinstance(value, int):
                return m.group(0)
            pairs = dict(p.split(":", 1) for p in m.group(2).split("|")[1:])
            return pairs.get(str(_plural_rule(self.lang)(value)), pairs.get("other", ""))

        try:
            return _PLURAL.sub(choose, template).format(**params)
        except (KeyError, IndexError, ValueError):
            return template

    def rank(self, rank: str) -> str:
        """The letter printed for ``rank`` (``"A"`` -> ``"Т"`` in Russian); 9, 10... as
        they are."""
        return str(getattr(self, f"rank_{rank}", rank))

    def talon(self, name: str) -> str:
        """The community's word for the talon the preset calls ``name`` (prikup, musik...)."""
        return str(getattr(self, f"talon_{name}", name))


# fields named "<group>_<key>" come from "img.<group>.<key>" (img.phase.play, img.rank.A);
# the talon's words are the messages' own (word.talon.prikup), written once
_GROUPS = frozenset({"phase", "end", "rank", "note", "follow"})


def _key(field: str) -> str:
    """The catalog key of a label field."""
    group = field.split("_", maxsplit=1)[0]
    if group == "talon":
        return f"word.{field.replace('_', '.', 1)}"
    return f"img.{field.replace('_', '.', 1)}" if group in _GROUPS else f"img.{field}"

ENGLISH = Labels()

__all__ = ["ENGLISH", "Labels"]
