"""The lines of a hand's result and the reasons of redeal claims: English text plus a key.

A ``Note`` is the English line the replay output and the stored results have always held
("{0} took nothing: a dash (1 of 3)", seats as ``{p}`` for the caller to fill with names),
and it also carries a message key and its parameters, so a reader's language can say the
same line in its own words. ``who`` is the seat (or, in a partnership, the seats) a line is
about; ``reason`` is a nested ``Note`` (why a hand was annulled). No words of other
languages live here: ``bot.i18n`` holds them.
"""

from __future__ import annotations

from typing import Any

NoteParam = int | str | tuple[int, ...]

# key -> the English line; ``{who}`` is written as the seat's ``{p}`` placeholder
ENGLISH: dict[str, str] = {
    # the headline of a played hand
    "made": "{who} made {contract}",
    "failed": "{who} failed {contract}",
    "made_misere": "{who} made the mizère ({contract})",
    "failed_misere": "{who} failed the mizère ({contract})",
    "dealer_forced": "everyone passed: {who} deals and must play {contract}",
    "doubled": "the contract was doubled: it counts {factor} times",
    "redoubled": "the contract was redoubled: it counts {factor} times",
    "last_trick": "{who} took the last trick: +{bonus}",
    # counters and penalties
    "dash": "{who} took nothing: a dash ({count} of 3)",
    "dash_penalty": "{who} loses {penalty} for a third dash",
    "locked_no_trick": "{who} is locked and took no trick: −{penalty}",
    "stick": "{who} took no trick: a stick ({count} of {of})",
    "sticks_penalty": "{who} loses {penalty} for {of} sticks",
    "no_win_penalty": "{who} loses {penalty}: {hands} hands without a win",
    # give-ups
    "rospisat": "{who} declared rospisat",
    "rospisat_penalty": "{who} loses {penalty} for a third rospisat",
    "spisat": "{who} declared spisat",
    "conceded": "{who} conceded the forced {contract}",
    "multiplier": "every amount of this hand counts {factor} times",
    # the barrel and the 555
    "climbed": "{who} climbed onto the barrel",
    "off_barrel": "{who} is off the barrel",
    "fell": "{who} fell off the barrel to {total}",
    "reset": "{who} hit exactly {value} and goes back to 0",
    # the end of the match and golden rounds
    "wins": "{who} wins the match",
    "shares": "{who} shares the win",
    "golden_again": "no golden contract was made: another golden round follows",
    "golden_reset": "all totals go back to 0 for the new golden round",
    # hands without a score
    "thrown_in": "everyone passed: the hand is thrown in",
    "dealt_annulled": "{who} was dealt {reason}: the hand is annulled",
    "claimed_annulled": "{who} claimed a redeal ({reason}): the hand is annulled",
    "dealer_penalty": "{who} loses 120: three nines redeals in a row; the deal passes on",
    # why a hand may be annulled (the ``reason`` of the two above, and of redeal claims)
    "why.nines": "{nines} nines",
    "why.talon_low": "the talon holds fewer than {below} points",
    "why.talon_nines": "two nines in the talon",
    "why.hand_low": "fewer than {below} points in hand",
    "why.dealt_low": "fewer than {below} points in the dealt hand",
    "why.dealt_nines": "four nines in the dealt hand",
    "why.dealer_penalty": "three nines redeals in a row",
    "why.jacks": "three jacks at the bottom in a row",
}

NINE_WORDS = {3: "three", 4: "four"}


def _english(value: object) -> str:
    if isinstance(value, tuple):  # a partnership: its seats as placeholders
        return " & ".join(f"{{{p}}}" for p in value)
    return str(value)


class Note(str):
    """An English result line that also knows its message ``key`` and ``params``."""

    key: str
    params: dict[str, Any]

    def __new__(cls, text: str, key: str, params: dict[str, Any] | None = None) -> Note:
        self = super().__new__(cls, text)
        self.key = key
        self.params = dict(params or {})
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # the AI's process pool pickles states and results: keep the key across
        return (Note, (str(self), self.key, self.params))

    def __repr__(self) -> str:
        return f"Note({str(self)!r}, {self.key!r}, {self.params!r})"


def note(key: str, /, **params: Any) -> Note:
    """The note ``key`` with ``params``; ``who`` (a seat) is written ``{seat}``."""
    # Scoring writes a few notes every hand from a small set of values: the English
    # line is kept per (key, params), the Note itself is new each time.
    memo = (key, *params.items())
    text = _TEXTS.get(memo)
    if text is None:
        if len(_TEXTS) >= _TEXTS_MAX:
            _TEXTS.clear()
        text = _TEXTS[memo] = _text(key, params)
    return Note(text, key, params)


_TEXTS: dict[tuple[Any, ...], str] = {}
_TEXTS_MAX = 4096


def _text(key: str, params: dict[str, Any]) -> str:
    shown = {k: (f"{{{v}}}" if k == "who" and isinstance(v, int) else _english(v))
             for k, v in params.items()}
    if key == "why.nines":
        shown["nines"] = NINE_WORDS.get(params["nines"], str(params["nines"]))
    return ENGLISH[key].format(**shown)


def for_team(line: str, text: str) -> str:
    """``text`` (the partnership's wording of ``line``) keeping ``line``'s key, ``who`` the
    seats of the partnership (seat ``k`` of the two-seat view is seats ``k`` and ``k + 2``)."""
    if not isinstance(line, Note):
        return text
    params = line.params
    who = params.get("who")
    if isinstance(who, int) and who in (0, 1):
        params = {**params, "who": (who, who + 2)}  # ``who`` keeps its place
    return Note(text, line.key, params)  # Note copies ``params``


__all__ = ["ENGLISH", "NINE_WORDS", "Note", "NoteParam", "for_team", "note"]
