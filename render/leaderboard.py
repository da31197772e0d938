"""The leaderboard image: rank, name, rating, games, wins and win rate, on felt."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import _draw, fonts
from render._draw import GOLD, INK, INK_DIM
from render.model import LeaderboardRow, LeaderboardView

WIDTH = 720
"""At a phone's 360 px the smallest letters (22 px) show 11 px tall."""
_MEDALS = {1: (247, 197, 72), 2: (200, 206, 214), 3: (205, 127, 50)}
_COLS = (("rating", 0.6), ("games", 0.74), ("wins", 0.85), ("win_rate", 0.975))
"""Each value column: its Labels field and where its right edge is (a share of the width)."""
_EXTRA = (0.54, 0.70, 0.975)
"""The right edges of the three columns of a view with an ``extra_label``."""
GAP = 14
"""Space kept between two columns' headings (px at scale 1)."""


def render_leaderboard(view: LeaderboardView, *, scale: float = 1.0) -> bytes:
    """Render the leaderboard as PNG bytes (RGB, 720 px wide times ``scale``)."""
    return _draw.to_png(draw_leaderboard(view, scale=scale))


def draw_leaderboard(view: LeaderboardView, *, scale: float = 1.0) -> Image.Image:
    """The leaderboard image: the title, the headings, then a row per player."""
    k = scale
    row_h, head_h, title_h, margin = round(50 * k), round(40 * k), round(60 * k), round(22 * k)
    width = round(WIDTH * k)
    height = title_h + head_h + max(1, len(view.rows)) * row_h + margin
    img = _draw.felt(width, height)
    fonts.draw_text(
        img,
        (margin, title_h / 2 + 4 * k),
        view.title or view.labels.leaderboard,
        round(28 * k),
        fill=GOLD,
        bold=True,
        max_width=width - 2 * margin,
    )
    _headings(img, view, k, margin, title_h + head_h / 2)
    if not view.rows:
        fonts.draw_text(
            img,
            (width / 2, title_h + head_h + row_h / 2),
            view.labels.no_games,
            round(22 * k),
            fill=INK_DIM,
            anchor="mm",
        )
    for i, row in enumerate(view.rows):
        _row(img, view, row, i, k, margin, (title_h + head_h + i * row_h, row_h))
    return img


def _headings(img: Image.Image, view: LeaderboardView, k: float, margin: int,
              y: float) -> None:
    """The columns' headings: rank, player, then the values."""
    width = img.width
    fonts.draw_text(img, (margin + 8 * k, y), "#", round(22 * k), fill=INK_DIM, bold=True)
    fonts.draw_text(img, (margin + 52 * k, y), view.labels.player, round(22 * k), fill=INK_DIM,
                    bold=True)
    for (label, fx), room in zip(_columns(view), heading_room(view, width, k), strict=True):
        fonts.draw_text(
            img, (width * fx, y), label, round(22 * k), fill=INK_DIM, bold=True, anchor="rm",
            max_width=room,
        )


def _row(img: Image.Image, view: LeaderboardView, row: LeaderboardRow, i: int, k: float,
         margin: int, band: tuple[int, int]) -> None:
    """Row ``i``: its band (the highlighted player's framed), rank, name and values;
    ``band`` is the row's top and height."""
    width = img.width
    y0, row_h = band
    y = y0 + row_h / 2
    d = ImageDraw.Draw(img)
    if row.rank == view.highlight:
        d.rounded_rectangle(
            (margin / 2, y0 + 2 * k, width - margin / 2, y0 + row_h - 2 * k),
            radius=round(10 * k),
            fill=(40, 66, 40),
            outline=GOLD,
            width=max(1, round(2 * k)),
        )
    elif i % 2 == 0:
        d.rounded_rectangle(
            (margin / 2, y0 + 2 * k, width - margin / 2, y0 + row_h - 2 * k),
            radius=round(10 * k),
            fill=(16, 74, 49),
        )
    _rank(img, row.rank, (margin + 22 * k, y), k)
    cols = _columns(view)
    fonts.draw_text(
        img,
        (margin + 52 * k, y),
        row.name,
        round(22 * k),
        fill=INK,
        bold=True,
        max_width=round(width * cols[0][1] - 52 * k - margin - 84 * k),
    )
    values = ((row.value_text or str(row.rating), str(row.games), row.extra_text)
              if view.extra_label else
              (row.value_text or str(row.rating), str(row.games), str(row.wins),
               f"{row.win_rate:.0%}")[: len(cols)])
    for c, ((_label, fx), text) in enumerate(zip(cols, values, strict=True)):
        fonts.draw_text(
            img,
            (width * fx, y),
            text,
            round(22 * k),
            fill=GOLD if c == 0 else INK,
            bold=c == 0,
            anchor="rm",
        )


def _rank(img: Image.Image, rank: int, centre: tuple[float, float], k: float) -> None:
    """The rank: on a medal for the first three."""
    cx, y = centre
    medal = _MEDALS.get(rank)
    if medal is not None:
        r = 18 * k
        ImageDraw.Draw(img).ellipse((cx - r, y - r, cx + r, y + r), fill=medal)
        fonts.draw_text(
            img,
            (cx, y),
            str(rank),
            round(22 * k),
            fill=(40, 30, 10),
            bold=True,
            anchor="mm",
        )
    else:
        fonts.draw_text(
            img, (cx, y), str(rank), round(22 * k), fill=INK_DIM, bold=True, anchor="mm"
        )


def _columns(view: LeaderboardView) -> tuple[tuple[str, float], ...]:
    """The value columns' headings and places: the metric, games, and (if known) wins and
    win rate."""
    lab = view.labels
    games = view.games_label or lab.games
    if view.extra_label:
        return tuple(zip((view.value_label or lab.rating, games, view.extra_label), _EXTRA,
                         strict=True))
    first = ((view.value_label or lab.rating, _COLS[0][1]),)
    rest = tuple((str(getattr(lab, name)) if name != "games" else games, fx)
                 for name, fx in _COLS[1:])
    if view.show_wins:
        return first + rest
    return (*first, (rest[0][0], _COLS[3][1]))


def heading_room(view: LeaderboardView, width: int, k: float = 1.0) -> list[int]:
    """How wide each value column's heading may be: up to the previous heading (the first
    one: up to the "Player" heading's word), less a gap."""
    cols = _columns(view)
    player = 52 * k + 22 * k + fonts.text_width(view.labels.player, round(22 * k), bold=True)
    lefts = [player] + [width * fx for _, fx in cols[:-1]]
    return [round(width * fx - left - GAP * k) for (_, fx), left in zip(cols, lefts, strict=True)]
