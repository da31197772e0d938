"""The hand-made sample views: tables in every layout and phase, hands with their marks,
a leaderboard and an analysis, with names in many scripts (Latin with Polish, German and
Lithuanian letters, Cyrillic, Persian, CJK, emoji)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from render.analysis import AnalysisRow, AnalysisView
from render.labels import ENGLISH, Labels
from render.model import HandView, LeaderboardRow, LeaderboardView, SeatView, TableView

NAMES = (
    "Zażółć Gęślą Jaźń",  # Polish
    "Алексей Иванов",  # Cyrillic
    "علی رضایی",  # Persian
    "李小龙",  # CJK
    "🎉 Party 🇵🇱 👍🏽",  # emoji
    "Ünterwäßer Müller-Lüdenscheidt",  # German, too long
    "Žemaitė Ąžuolaitytė",  # Lithuanian
    "さくら 김민준",  # Japanese + Korean
)


def _seats(n: int, over: Mapping[str, Mapping[str, object]] | None = None) -> tuple[SeatView, ...]:
    base = [SeatView(NAMES[i], total=(120, 340, -40, 880)[i], hand_count=7) for i in range(n)]
    out = []
    for i, s in enumerate(base):
        kw = dict(s.__dict__)
        kw.update((over or {}).get(str(i), {}))
        out.append(SeatView(**kw))  # type: ignore[arg-type,unused-ignore]
    return tuple(out)


def _three_bidding(lab: Labels) -> TableView:
    """Three players bidding: two calls made, the third to call."""
    return TableView(
        seats=_seats(
            3,
            {
                "0": {"bid": "100", "is_dealer": True},
                "1": {"bid": lab.passed},
                "2": {"bid": "115", "is_turn": True},
            },
        ),
        talon_backs=3,
        phase=lab.phase_bidding,
        hand_number=4,
        high_bid=115,
        title="Russian 1000",
    )


def _three_talon_taken(lab: Labels) -> TableView:
    """Three players: the declarer has taken the talon up and is to give two cards."""
    return TableView(
        seats=_seats(
            3,
            {
                "1": {"is_declarer": True, "is_turn": True, "hand_count": 10},
                "2": {"is_dealer": True},
            },
        ),
        talon=("AS", "QD", "KD"),
        declarer=1,
        high_bid=120,
        phase=lab.phase_exchange,
        hand_number=4,
    )


def _three_playing_each_trump(lab: Labels) -> dict[str, TableView]:
    """Three players mid-trick, once with each suit as trump (on a barrel, with dashes)."""
    out: dict[str, TableView] = {}
    for i, suit in enumerate("CDHS"):
        trick = ((1, f"K{suit}"), (2, f"10{suit}"), (0, f"A{'CDHS'[(i + 1) % 4]}"))
        out[f"table3_trump_{suit}"] = TableView(
            seats=_seats(
                3,
                {
                    "1": {
                        "is_declarer": True,
                        "on_barrel": True,
                        "barrel_hands": 1,
                        "total": 880,
                        "hand_count": 5,
                        "taken": 57,
                    },
                    "0": {"dashes": 2, "hand_count": 5, "is_dealer": True, "taken": 0},
                    "2": {"hand_count": 5, "taken": 24},
                },
            ),
            trick=trick,
            last_trick_winner=2 if i % 2 else None,
            trump=suit,
            contract=140,
            declarer=1,
            phase=lab.phase_play,
            hand_number=12,
            title="Russian 1000",
        )
    return out


def _two_playing(lab: Labels) -> TableView:
    """Two players mid-trick without a trump."""
    return TableView(
        seats=_seats(
            2,
            {
                "0": {"is_turn": True, "hand_count": 9},
                "1": {"is_declarer": True, "is_dealer": True, "hand_count": 8},
            },
        ),
        trick=((1, "QH"),),
        trump=None,
        contract=110,
        declarer=1,
        phase=lab.phase_play,
        hand_number=2,
        title="Tysiąc for two",
    )


def _four_playing(lab: Labels) -> TableView:
    """Four players mid-trick, with a sitter on a barrel and a locked seat."""
    return TableView(
        seats=_seats(
            4,
            {
                "3": {"is_sitter": True, "hand_count": 0, "on_barrel": True, "barrel_hands": 2},
                "2": {"is_dealer": True, "is_turn": True, "locked": True, "taken": 31},
                "0": {"is_declarer": True, "taken": 108},
                "1": {"taken": 0},
            },
        ),
        trick=((0, "AD"), (1, "9D")),
        trump="D",
        contract=160,
        declarer=0,
        phase=lab.phase_play,
        hand_number=31,
        title="Polish 4",
    )


def _four_bidding(lab: Labels) -> TableView:
    """Four players bidding, one of them blind, the dealer sitting out."""
    return TableView(
        seats=_seats(
            4,
            {
                "0": {"bid": lab.passed},
                "1": {"bid": lab.say(lab.blind, amount=120)},
                "2": {"bid": "125", "is_turn": True},
                "3": {"is_sitter": True, "is_dealer": True, "hand_count": 0},
            },
        ),
        talon_backs=3,
        phase=lab.phase_bidding,
        hand_number=7,
        high_bid=125,
    )


def tables(lab: Labels = ENGLISH) -> dict[str, TableView]:
    """Named table views: every layout and phase, each suit as trump, in ``lab``'s words."""
    t: dict[str, TableView] = {
        "table3_bidding": _three_bidding(lab),
        "table3_prikup": _three_talon_taken(lab),
        **_three_playing_each_trump(lab),
        "table2_play": _two_playing(lab),
        "table4_play": _four_playing(lab),
        "table4_bidding": _four_bidding(lab),
    }
    talon = lab.talon("prikup")
    return {k: replace(v, labels=lab, talon_label=talon) for k, v in t.items()}


def hands(lab: Labels = ENGLISH) -> dict[str, HandView]:
    h: dict[str, HandView] = {}
    h["hand_lead"] = HandView(
        cards=("9C", "AC", "KH", "QH", "10S", "JD", "KD", "QD", "AH", "9S"),
        legal=None,
        new_cards=frozenset({"AC", "9S"}),
        marriages=frozenset({"H", "D"}),
        marriage_values=(("H", 100), ("D", 80)),
        name=NAMES[1],
        note=lab.note_give,
    )
    h["hand_follow"] = HandView(
        cards=("9C", "AC", "KH", "QH", "10S", "JD", "KD", "AH"),
        legal=frozenset({"KH", "QH", "AH"}),
        new_cards=frozenset({"AC"}),
        marriages=frozenset({"H"}),
        marriage_values=(("H", 100),),
        trump="D",
        name=NAMES[2],
        note=lab.follow_H,
    )
    h["hand_32"] = HandView(
        cards=("7S", "8S", "AS", "7H", "10H", "8C", "KC", "QC", "AD", "7D", "8D", "JD"),
        legal=frozenset({"7S", "8S", "AS"}),
        marriages=frozenset({"C"}),
        trump="S",
        name=NAMES[4],
        note=lab.your_turn,
    )
    return {k: replace(v, labels=lab) for k, v in h.items()}


def leaderboard(lab: Labels = ENGLISH) -> LeaderboardView:
    rows = tuple(
        LeaderboardRow(
            rank=i + 1,
            name=NAMES[i % len(NAMES)],
            rating=1720 - 37 * i,
            games=40 + 7 * i,
            wins=max(0, 22 - 2 * i),
        )
        for i in range(10)
    )
    return LeaderboardView(rows=rows, title=f"{lab.leaderboard} · #card-room", highlight=4,
                           labels=lab)


def analysis(lab: Labels = ENGLISH) -> AnalysisView:
    """A declarer's analysis: a marriage led without declaring it, and smaller slips."""
    rows = (AnalysisRow(1, "", "bid 100", "", 0),
            AnalysisRow(4, "?", "give 9♠ to Zofia Wąsowska", "give J♦ to Zofia Wąsowska", 28),
            AnalysisRow(6, "?!", "set the contract at 125", "set the contract at 115", 9),
            AnalysisRow(7, "", "play A♦", "", 0),
            AnalysisRow(10, "??", "play Q♦", "play Q♦ with a marriage", 250),
            AnalysisRow(13, "", "play A♠", "", 0))
    return AnalysisView(title="Analysis · Олександра Ковальчук · hand 7",
                        cards=("9D", "JD", "KD", "AD", "10H", "JS", "AS"), rows=rows,
                        summary="Points lost — auction: 0, exchange: 37, play: 250.",
                        footer="?! 5+ points lost · ? 15+ · ?? 40+", labels=lab)
