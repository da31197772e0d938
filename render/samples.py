"""Sample views of every image kind, for people to look at and for the benchmark.

``write_samples(outdir)`` writes every table layout (2/3/4 players, every phase, every suit
as trump), hands with legal/illegal/new/marriage marks, a 45-hand score sheet, a
leaderboard and a match summary, with names in Latin (Polish/German/Lithuanian), Cyrillic,
Persian, CJK and emoji; and ``engine_<preset>_*`` images of a seeded game of every preset,
built from the engine's own observations and results through ``render.adapter``. The
hand-made views are ``render.sample_views``, the sample match ``render._sample_match``.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from PIL import Image

from bot.game.observation import observe, observe_public
from bot.game.presets import PRESETS
from render import cards
from render._sample_match import match_sheet
from render.adapter import hand_view, sheet_view, summary_view, table_view
from render.analysis import render_analysis
from render.display import display_scale
from render.hand import render_hand
from render.labels import ENGLISH, Labels
from render.leaderboard import render_leaderboard
from render.model import SheetView, SummaryView
from render.playthrough import match_results, snapshots
from render.sample_views import NAMES, analysis, hands, leaderboard, tables
from render.sheet import render_sheet
from render.summary import render_summary
from render.table import render_table

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
    sheet45, summary4 = _localized(match_sheet(NAMES[:4], 45), lab, russian)
    sheet12, _ = _localized(match_sheet(NAMES[4:7], 12, seed=3), lab, russian)
    sheet2, _ = _localized(match_sheet(NAMES[1:3], 8, seed=5), lab, russian)
    _, summary3 = _localized(match_sheet(NAMES[4:7], 200, seed=3), lab, russian)
    _, summary2 = _localized(match_sheet(NAMES[1:3], 200, seed=5), lab, russian)
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
