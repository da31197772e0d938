"""Text of the table message, the hand and the hand results (pure: no Discord objects).

Everything a seat sees comes from an observation, so a public text can only show what the
public observation shows. Cards are written with suit symbols (``10♥``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.game.cards import SUIT_SYMBOLS, display_key, suit_of
from bot.game.notes import Note
from bot.game.observation import Observation, tally
from bot.game.state import HandEnd, HandResult, Phase
from bot.i18n import language, t
from bot.i18n.notes import note_text
from bot.i18n.values import card_text
from bot.tables import Table, TableStatus
from cogs._plain import plain, plain_names


def shown_order(cards: Iterable[int]) -> list[int]:
    """Cards in the order the hand image shows them (♠ ♥ ♣ ♦, high to low)."""
    return sorted(cards, key=display_key)


def card_word(card: int, loc: str | None = None) -> str:
    """One card as the reader sees it, with the rank letters of the images: ``Т♠`` in
    Russian."""
    return card_text(card, language(loc))


def cards_text(cards: Iterable[int], loc: str | None = None) -> str:
    """Cards grouped by suit, in the image's order: ``A♠ 10♠ · K♥ Q♥``."""
    groups: dict[int, list[str]] = {}
    for c in shown_order(cards):
        groups.setdefault(suit_of(c), []).append(card_word(c, loc))
    return " · ".join(" ".join(g) for g in groups.values()) or "—"


def trick_text(table: Table, trick: Iterable[tuple[int, int]], loc: str | None = None) -> str:
    names = plain_names(table.names())
    return ", ".join(f"{names[p]} {card_word(c, loc)}" for p, c in trick) or "—"


@dataclass(frozen=True, slots=True)
class TableText:
    title: str
    status: str
    fields: list[tuple[str, str]]
    footer: str


def table_text(table: Table, loc: str | None = None) -> TableText:
    """The public table: seats, dealer, turn, auction, prikup, contract, trump, tricks."""
    playing = table.status in (TableStatus.PLAYING, TableStatus.FINISHED)
    obs = table.observation(None) if playing else None
    title = t("table.title", loc, title=table.title_word())
    fields = [(t("table.seats", loc), _seats(table, obs, loc))]
    if table.status is TableStatus.SEATING:
        host = next((plain(s.name) for s in table.seats if s.user_id == table.host_id), "?")
        status = t("table.seating", loc, seated=len(table.seats), seats=table.size, host=host)
        if len(table.seats) >= table.size:
            status = t("table.full", loc, host=host)
    elif not table.live:
        status = t("table.closed", loc)
    elif obs is None:
        status = ""
    elif obs.phase is Phase.MATCH_OVER:
        names = plain_names(table.names())
        status = t("table.over", loc, names=", ".join(names[w] for w in obs.winners))
    else:
        status = _play_status(table, obs, loc)
        if table.paused:
            status += "\n" + t("table.pause", loc, seconds=table.pause,
                               names=", ".join(table.waiting_names()) or "—")
        fields += _play_fields(table, obs, loc)
    timer = (t("table.timer", loc, seconds=table.timer) if table.timer
             else t("table.timer_off", loc))
    footer = f"{timer} · #{table.id}"
    return TableText(title, status, fields, footer)


def _seats(table: Table, obs: Observation | None, loc: str | None) -> str:
    lines = []
    for i in range(table.size):
        if i >= len(table.seats):
            lines.append(f"{i + 1}. {t('table.seat_empty', loc)}")
            continue
        s = table.seats[i]
        tags = []
        if s.ai:
            tags.append(t("table.ai", loc))
        if s.away:
            tags.append(t("table.away", loc))
        line = f"{i + 1}. **{plain(s.name)}**"
        if obs is not None:
            if i == obs.dealer:
                tags.append(t("table.dealer", loc))
            if i == obs.sitter:
                tags.append(t("table.sitter", loc))
            marks = ""
            if obs.on_barrel[i]:
                marks += " 🛢️"
            if obs.dashes[i]:
                marks += " " + "—" * obs.dashes[i]
            line += f" — {obs.totals[i]}{marks}"
            if obs.to_act == i and obs.phase is not Phase.MATCH_OVER:
                line = "▶ " + line
        if tags:
            line += f" ({', '.join(tags)})"
        lines.append(line)
    return "\n".join(lines)


def _play_status(table: Table, obs: Observation, loc: str | None) -> str:
    phase = (t("word.phase.talon", loc, talon=table.talon_word()) if obs.phase is Phase.TALON
             else t(f"table.phase.{obs.phase.value}", loc))
    head = f"{t('table.hand_no', loc, no=obs.hand_no)} · {phase}"
    if 0 <= obs.to_act < len(table.seats):
        head += "\n" + t("table.turn", loc, name=plain(table.seats[obs.to_act].name))
    return head


def _play_fields(table: Table, obs: Observation, loc: str | None) -> list[tuple[str, str]]:
    names = plain_names(table.names())
    out: list[tuple[str, str]] = []
    if obs.phase is Phase.BIDDING or obs.bids:
        bids = [f"{names[p]} {a if a else t('table.pass', loc)}{' 🙈' if blind else ''}"
                for p, a, blind in obs.bids]
        out.append((t("table.auction", loc), ", ".join(bids) or t("table.no_bids", loc)))
    if obs.talon:
        out.append((t("word.talon_title", loc, talon=table.talon_word(capital=True)),
                    cards_text(obs.talon, loc)))
    if obs.declarer >= 0:
        amount = obs.contract or obs.winning_bid
        out.append((t("table.contract", loc), f"{names[obs.declarer]} {amount}"))
    if obs.phase in (Phase.PLAY, Phase.CONTRACT) or obs.trump >= 0:
        trump = SUIT_SYMBOLS[obs.trump] if obs.trump >= 0 else t("table.no_trump", loc)
        out.append((t("table.trump", loc), trump))
    if obs.trick:
        out.append((t("table.trick", loc), trick_text(table, obs.trick, loc)))
    if obs.last_trick:
        winner = names[obs.last_winner] if obs.last_winner >= 0 else "?"
        out.append((t("table.last_trick", loc),
                    f"{trick_text(table, obs.last_trick, loc)} → {winner}"))
    return out


_SAID_BY_HEADLINE = frozenset({"made", "failed", "rospisat", "spisat", "conceded"})
"""The engine's notes that repeat the headline (said once, there)."""


def _said_by_headline(note: str, declarer: int) -> bool:
    if not isinstance(note, Note) or note.key not in _SAID_BY_HEADLINE:
        return False
    who = note.params.get("who")
    return who == declarer or (isinstance(who, tuple) and declarer in who)
_HEADLINES = {
    HandEnd.ROSPISAT: "result.rospisat",
    HandEnd.SPISAT: "result.spisat",
    HandEnd.CONCEDE: "result.conceded",
}


def result_text(table: Table, result: HandResult, hand_no: int, loc: str | None = None) -> str:
    """One hand's result: the headline once (naming the declarer), what else happened,
    and per player the card points, marriages and the change of the total."""
    names = plain_names(table.names())
    d = result.declarer
    if 0 <= d < len(names) and result.end is HandEnd.PLAYED and result.made is not None:
        key = "result.made" if result.made else "result.failed"
        summary = t(key, loc, name=names[d], contract=result.contract)
    elif 0 <= d < len(names) and result.end in _HEADLINES:
        summary = t(_HEADLINES[result.end], loc, name=names[d], contract=result.contract)
    else:
        summary = t("result.no_declarer", loc)
    lines = [f"**{t('result.title', loc, no=hand_no, summary=summary)}**"]
    for note in result.notes:
        if not _said_by_headline(note, d):
            lines.append("· " + note_text(note, names, loc, preset=table.preset,
                                          talon=table.talon_name))
    for p, (delta, total) in enumerate(zip(result.delta, result.totals, strict=False)):
        if p >= len(names):
            continue
        parts = []
        if p in result.taken:
            parts.append(t("result.points", loc, points=result.taken[p]))
        suits = result.marriages.get(p, ())
        if suits:
            values = table.rules.marriage_values
            parts.append(t("result.marriages", loc, marriages=" ".join(
                f"{SUIT_SYMBOLS[s]}{values[s]}" for s in suits)))
        if p == result.sitter:
            parts.append(t("result.sat_out", loc))
        line = t("result.line", loc, name=names[p], delta=delta, total=total)
        lines.append(f"{line} ({', '.join(parts)})" if parts else line)
    return "\n".join(lines)


def taken_text(table: Table, obs: Observation) -> str:
    """The points taken so far in play: ``Ann 57 / 140 · Bob 20 · Cid 0``."""
    count = tally(obs)
    if count is None:
        return "—"
    names = plain_names(table.names())
    return " · ".join(
        f"{names[p]} {points} / {count.contract}" if p == count.declarer and count.contract
        else f"{names[p]} {points}" for p, points in count.taken)


def hand_text(table: Table, seat: int | None, loc: str | None = None,
              notice: str | None = None) -> str:
    """The ephemeral hand as text: cards with suit symbols, the trick, whose turn it is."""
    lines = [notice] if notice else []
    title = t("table.title", loc, title=table.title_word())
    lines.append(f"**{t('hand.title', loc)}** · {title}")
    if seat is None:
        lines.append(t("hand.spectator", loc))
        return "\n".join(lines)
    obs = table.observation(seat)
    if obs is None:
        lines.append(t("hand.not_dealt", loc))
        return "\n".join(lines)
    if obs.phase is Phase.MATCH_OVER:
        lines.append(t("hand.over", loc))
    elif table.paused:
        lines.append(t("hand.paused", loc))
    elif seat == obs.sitter:
        lines.append(t("hand.sitting_out", loc))
    if table.face_down(seat):  # blind bidding: not even the owner sees them before he looks
        lines.append(t("hand.face_down", loc, count=len(obs.hand),
                       cap=table.offer(seat).blind_cap))
    else:
        lines.append(t("hand.cards", loc, cards=cards_text(obs.hand, loc)) if obs.hand
                     else t("hand.no_cards", loc))
    if obs.talon and obs.phase in (Phase.TALON, Phase.EXCHANGE, Phase.CONTRACT):
        lines.append(t("word.talon_cards", loc, talon=table.talon_word(capital=True),
                       cards=cards_text(obs.talon, loc)))
    if obs.received:
        lines.append(t("hand.received", loc, cards=cards_text(obs.received, loc)))
    if obs.trump >= 0:
        lines.append(t("hand.trump", loc, suit=SUIT_SYMBOLS[obs.trump]))
    if obs.trick:
        lines.append(t("hand.trick", loc, cards=trick_text(table, obs.trick, loc)))
    if obs.phase is Phase.PLAY:
        lines.append(t("hand.taken", loc, points=taken_text(table, obs)))
    if obs.phase is not Phase.MATCH_OVER:
        if obs.to_act == seat:
            lines.append(t("hand.your_turn", loc))
        elif 0 <= obs.to_act < len(table.seats):
            lines.append(t("hand.waiting", loc, name=plain(table.seats[obs.to_act].name)))
    return "\n".join(lines)
