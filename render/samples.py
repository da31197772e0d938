"""Sample views of every image kind, for people to look at and for the benchmark.

``write_samples(outdir)`` writes every table layout (2/3/4 players, every phase, every suit
as trump), hands with legal/illegal/new/marriage marks, a 45-hand score sheet, a
leaderboard and a match summary, with names in Latin (Polish/German/Lithuanian), Cyrillic,
Persian, CJK and emoji; and ``engine_<preset>_*`` images of a seeded game of every preset,
built from the engine's own observations and results through ``render.adapter``.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from PIL import Image

from bot.game.observation import observe, observe_public
from bot.game.presets import PRESETS
from render import cards
from render.adapter import hand_view, sheet_view, summary_view, table_view
from render.analysis import AnalysisRow, AnalysisView, render_analysis
from render.display import display_scale
from render.hand import render_hand
from render.labels import ENGLISH, Labels
from render.leaderboard import render_leaderboard
from render.model import (
    HandView,
    LeaderboardRow,
    LeaderboardView,
    SeatView,
    SheetCell,
    SheetRow,
    SheetView,
    SummaryPlayer,
    SummaryView,
    TableView,
)
from render.playthrough import match_results, snapshots
from render.sheet import render_sheet
from render.summary import render_summary
from render.table import render_table

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


def tables(lab: Labels = ENGLISH) -> dict[str, TableView]:
    """Named table views: every layout and phase, each suit as trump, in ``lab``'s words."""
    t: dict[str, TableView] = {}
    t["table3_bidding"] = TableView(
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
    t["table3_prikup"] = TableView(
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
    for i, suit in enumerate("CDHS"):
        trick = ((1, f"K{suit}"), (2, f"10{suit}"), (0, f"A{'CDHS'[(i + 1) % 4]}"))
        t[f"table3_trump_{suit}"] = TableView(
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
    t["table2_play"] = TableView(
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
    t["table4_play"] = TableView(
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
    t["table4_bidding"] = TableView(
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


def match_sheet(
    hands_count: int = 45, players: tuple[str, ...] = NAMES[:4], seed: int = 7
) -> tuple[SheetView, SummaryView]:
    """A possible Russian match (totals and barrel as the rules allow, not every detail):
    it ends, with a winner, on the hand a declarer reaches 1000; a shorter sample is a
    match still going on, without a winner."""
    rng = random.Random(seed)
    n = len(players)
    tot, dashes, barrel = [0] * n, [0] * n, [0] * n
    made_c, fail_c, best = [0] * n, [0] * n, [0] * n
    rows, history = [], []
    for hnum in range(1, hands_count + 1):
        dec = rng.randrange(n)
        sitter = (hnum % n) if n == 4 else None
        if dec == sitter:
            dec = (dec + 1) % n
        ros = rng.random() < 0.06
        contract = rng.choice((100, 105, 110, 120, 130, 140, 160))
        made = rng.random() < 0.7
        cells = []
        for p in range(n):
            pen, fell = 0, False
            if p == sitter:
                delta = 0
            elif p == dec:
                delta = 0 if ros else (contract if made else -contract)
                if not ros:
                    made_c[p] += made
                    fail_c[p] += not made
                    best[p] = max(best[p], contract if made else 0)
            else:
                delta = 60 if ros else rng.choice((0, 5, 15, 20, 35, 40, 55, 70))
            dash = p not in (dec, sitter) and delta == 0 and not barrel[p]
            if dash:
                dashes[p] += 1
                if dashes[p] == 3:
                    dashes[p], pen = 0, -120
            if barrel[p] and p != dec:
                delta = 0
            tot[p] += delta + pen
            if tot[p] >= 1000 and p != dec:
                tot[p] = 880  # only the declarer can go out; a defender stops at 880
            if 880 <= tot[p] < 1000:
                tot[p] = 880
                barrel[p] += 1
                if barrel[p] > 3:
                    tot[p], barrel[p], fell = 760, 0, True
            else:
                barrel[p] = 0
            cells.append(
                SheetCell(
                    total=tot[p],
                    delta=delta,
                    contract=contract if p == dec else None,
                    made=(None if ros else made) if p == dec else None,
                    barrel=barrel[p],
                    barrel_fell=fell,
                    dash=dash,
                    rospisat=ros and p == dec,
                    penalty=pen,
                    sitter=p == sitter,
                )
            )
        rows.append(SheetRow(hand=hnum, cells=tuple(cells), dealer=(hnum - 1) % n))
        history.append(tuple(tot))
        if max(tot) >= 1000:
            break  # the match is won: no hand after it
    best_p = max(range(n), key=lambda p: tot[p])
    winners = frozenset({best_p}) if tot[best_p] >= 1000 else frozenset()
    sheet = SheetView(
        players=players,
        rows=tuple(rows),
        winner=winners,
        title="Russian 1000 · #card-room · score sheet",
    )
    summary = SummaryView(
        players=tuple(
            SummaryPlayer(
                players[p],
                tot[p],
                made_c[p],
                fail_c[p],
                best[p] or None,
                (24 if p == best_p else -8),
            )
            for p in range(n)
        ),
        winner=winners,
        history=tuple(history),
        title="Russian 1000 · match over",
        hands=len(rows),
        duration_minutes=hands_count * 2,
    )
    return sheet, summary


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


TALON_LABELS = {
    "russian": "prikup",
    "russian4": "prikup",
    "polish": "musik",
    "polish4": "musik",
    "polish2_bidding": "musik",
    "elwood2": "kitty",
}
"""What players of each preset call the talon (the adapter's ``talon_label``)."""
SHEET_PRESETS = ("russian", "russian4", "polish2_bidding")
PHASE_PRESETS = ("russian", "russian4", "polish2_bidding", "german1001_3", "polish2_stock")
"""Presets whose sample game is also drawn at the other moments of a hand (bidding, talon,
exchange, between tricks, hand over): one of each form (3, 4 with a sitter, two talons, a
dark talon, a stock). The tests draw every preset at every moment."""
_ENGINE_POINTS = {
    "table": "mid_trick",
    "bidding": "bidding",
    "talon": "talon",
    "exchange": "exchange",
    "lead": "lead",
    "after": "after_hand",
}


def engine_names(preset: str) -> tuple[str, ...]:
    """Seat names for a preset's sample game (a different mix of scripts per preset)."""
    n = PRESETS[preset].rules.seats
    start = list(PRESETS).index(preset) % len(NAMES)
    return tuple(NAMES[(start + i) % len(NAMES)] for i in range(n))


def engine_samples(preset: str, seed: int = 1, lab: Labels = ENGLISH,
                   title: str | None = None) -> dict[str, Callable[[], bytes]]:
    """Images of a seeded greedy game of ``preset``, built by the adapter from the engine's
    own observations: the public table at several moments (``table`` is mid-trick) and the
    hand of the seat to act mid-trick; with a whole match's sheet and summary for
    ``SHEET_PRESETS``."""
    p = PRESETS[preset]
    title = title or p.title
    names = engine_names(preset)
    label = TALON_LABELS.get(preset, "talon")
    snaps = snapshots(p.rules, seed)
    out: dict[str, Callable[[], bytes]] = {}
    for kind, point in _ENGINE_POINTS.items():
        state = snaps.get(point)
        if state is None or (kind != "table" and preset not in PHASE_PRESETS):
            continue
        tv = table_view(observe_public(state), names, title=title, talon_label=label,
                        labels=lab)
        out[f"engine_{preset}_{kind}"] = lambda tv=tv: render_table(tv)  # type: ignore[misc]
    mid = snaps["mid_trick"]
    seat = mid.to_act
    hv = hand_view(observe(mid, seat), names[seat], lab)
    out[f"engine_{preset}_hand"] = lambda: render_hand(hv)
    if preset in SHEET_PRESETS:
        results = match_results(p.rules, seed)
        sv = sheet_view(results, names, p.rules, title=f"{title} · {lab.sheet}", labels=lab)
        su = summary_view(results, names, p.rules, labels=lab,
                          title=lab.say(lab.match_over, title=title))
        out[f"engine_{preset}_sheet"] = lambda: render_sheet(sv)
        out[f"engine_{preset}_summary"] = lambda: render_summary(su)
    return out


def renderers(lab: Labels = ENGLISH,
              titles: Mapping[str, str] | None = None) -> dict[str, Callable[[], bytes]]:
    """Every sample as ``name -> zero-argument renderer`` (used by the samples and bench),
    drawn in ``lab``'s words, with the presets' ``titles`` in that language (else
    English)."""
    titles = titles or {}
    russian = titles.get("russian", "Russian 1000")
    out: dict[str, Callable[[], bytes]] = {}
    for name, tv in tables(lab).items():
        out[name] = lambda tv=tv: render_table(tv)  # type: ignore[misc]
    for name, hv in hands(lab).items():
        out[name] = lambda hv=hv: render_hand(hv)  # type: ignore[misc]
    sheet45, summary4 = _localized(match_sheet(45), lab, russian)
    sheet12, _ = _localized(match_sheet(12, NAMES[4:7], seed=3), lab, russian)
    sheet2, _ = _localized(match_sheet(8, NAMES[1:3], seed=5), lab, russian)
    _, summary3 = _localized(match_sheet(200, NAMES[4:7], seed=3), lab, russian)
    _, summary2 = _localized(match_sheet(200, NAMES[1:3], seed=5), lab, russian)
    out["sheet4_45_hands"] = lambda: render_sheet(sheet45)
    out["sheet3_12_hands"] = lambda: render_sheet(sheet12)
    out["sheet2_8_hands"] = lambda: render_sheet(sheet2)
    out["summary4"] = lambda: render_summary(summary4)
    out["summary3"] = lambda: render_summary(summary3)
    out["summary2"] = lambda: render_summary(summary2)
    lb = leaderboard(lab)
    out["leaderboard"] = lambda: render_leaderboard(lb)
    av = analysis(lab)
    out["analysis"] = lambda: render_analysis(av)
    for preset in PRESETS:
        out.update(engine_samples(preset, lab=lab, title=titles.get(preset)))
    return out


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


def _localized(pair: tuple[SheetView, SummaryView], lab: Labels,
               title: str) -> tuple[SheetView, SummaryView]:
    sheet, summary = pair
    return (replace(sheet, labels=lab, title=f"{title} · #card-room · {lab.sheet}"),
            replace(summary, labels=lab, title=lab.say(lab.match_over, title=title)))


def sample_kind(name: str) -> str:
    """The display kind (``render.display``) of a sample image, from its name."""
    for kind in ("analysis", "hand", "sheet", "summary", "leaderboard", "help"):
        if kind in name:
            return kind
    return "table"


def as_displayed(data: bytes, kind: str, *, phone: bool) -> Image.Image:
    """The image at the size Discord shows it (desktop 400 px or phone 360 px wide)."""
    im = Image.open(io.BytesIO(data)).convert("RGB")
    k = display_scale(kind, im.width, phone=phone)
    size = (round(im.width * k), round(im.height * k))
    return im if size == im.size else im.resize(size, Image.Resampling.LANCZOS)


def write_samples(outdir: Path, lab: Labels = ENGLISH,
                  titles: Mapping[str, str] | None = None) -> list[Path]:
    """Write every sample PNG in ``lab``'s language, each also as displayed
    (``*_at_400.png``, ``*_at_360.png``), and the card faces into ``outdir``; return the
    paths."""
    outdir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, fn in renderers(lab, titles).items():
        path = outdir / f"{name}.png"
        data = fn()
        path.write_bytes(data)
        paths.append(path)
        for width, phone in ((400, False), (360, True)):
            shown = outdir / f"{name}_at_{width}.png"
            as_displayed(data, sample_kind(name), phone=phone).save(shown, "PNG")
            paths.append(shown)
    for label, size, deck in (
        ("cards_hand_32", cards.HAND, 32),
        ("cards_table_24", cards.TABLE, 24),
    ):
        path = outdir / f"{label}.png"
        cards.sheet(size, deck, lab).save(path, "PNG", compress_level=3)
        paths.append(path)
    return paths
