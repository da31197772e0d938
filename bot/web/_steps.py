"""A replayed hand as the viewer's steps: a caption and the table after each move.

Each step is rendered server-side (``templates/hand.html``) into one block; the viewer's
script shows one block at a time, and without a script all are listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from bot.game.actions import Action
from bot.game.cards import SUIT_SYMBOLS, card_pretty, cards_of, display_key, is_red
from bot.game.events import (
    AllPassed,
    AuctionWon,
    BidMade,
    CardDiscarded,
    CardDrawn,
    CardGiven,
    CardPlayed,
    ClimbedBarrel,
    ContractSet,
    DashGiven,
    DealerPenalized,
    Doubled,
    Event,
    FourAcesDeclared,
    GaveUp,
    HandAnnulled,
    HandScored,
    HandStarted,
    LeftBarrel,
    MarriageDeclared,
    MatchWon,
    Passed,
    RedealClaimed,
    TalonTaken,
    TrickWon,
)
from bot.i18n import language, t
from bot.i18n.rule_text import action_phrase
from bot.tables import PublicHand, Step, StepMark

CardUrl = Callable[[int | None], str]  # a card's picture (None: the back)


@dataclass(frozen=True, slots=True)
class Pic:
    url: str
    alt: str


@dataclass(frozen=True, slots=True)
class SeatBox:
    name: str
    tags: str  # dealer, declarer, the contract
    points: int
    cards: tuple[Pic, ...]
    active: bool  # moved in this step


@dataclass(frozen=True, slots=True)
class StepView:
    caption: Markup
    seats: tuple[SeatBox, ...]
    middle: tuple[tuple[str, Pic], ...]  # (whose, card) on the table
    middle_label: str
    trump: str  # suit symbol or ""
    score: tuple[tuple[str, int, int], ...]  # last step: (name, change, total) per seat


def card_html(c: int) -> Markup:
    """A card in running text: ``Q♥`` in red or black."""
    cls = "red" if is_red(c) else "black"
    return Markup('<b class="{}">{}</b>').format(cls, card_pretty(c))


def _cards_html(cards: Sequence[int]) -> Markup:
    return Markup(" ").join(card_html(c) for c in sorted(cards, key=display_key))


@dataclass(frozen=True, slots=True)
class _Words:
    """How a step's caption names players and fills the catalog's sentences."""

    hand: PublicHand
    loc: str | None

    def n(self, seat: int) -> str:
        names = self.hand.names
        return names[seat] if 0 <= seat < len(names) else "?"

    def say(self, key: str, **kw: object) -> Markup:
        # the catalog's text is plain (escaped here); names are escaped, cards are markup
        safe = {k: v if isinstance(v, Markup) else escape(str(v)) for k, v in kw.items()}
        return _fill(t(key, self.loc, **{k: "{" + k + "}" for k in safe}), safe)


def _caption(ev: Event, hand: PublicHand, loc: str | None) -> Markup | None:
    words = _Words(hand, loc)
    for caption in (_auction_caption, _talon_caption, _play_caption, _score_caption):
        got = caption(ev, words)
        if got is not None:
            return got
    return None  # CardsDealt, TrumpChanged: shown by the table itself


def _auction_caption(ev: Event, w: _Words) -> Markup | None:
    """The deal and the auction."""
    if isinstance(ev, HandStarted):
        return w.say("web.step.deal", name=w.n(ev.dealer), no=ev.hand_no)
    if isinstance(ev, BidMade):
        key = "web.step.bid_blind" if ev.blind else "web.step.bid"
        return w.say(key, name=w.n(ev.seat), amount=ev.amount)
    if isinstance(ev, Passed):
        return w.say("web.step.pass", name=w.n(ev.seat))
    if isinstance(ev, AuctionWon):
        return w.say("web.step.auction_won", name=w.n(ev.seat), amount=ev.amount)
    if isinstance(ev, AllPassed):
        return w.say("web.step.all_passed")
    if isinstance(ev, (RedealClaimed, HandAnnulled)):
        return w.say("web.step.redeal")
    return None


def _talon_caption(ev: Event, w: _Words) -> Markup | None:
    """The talon taken, the cards given and discarded, the contract set, doubled or given
    up."""
    loc = w.loc
    if isinstance(ev, TalonTaken):
        cards = _cards_html(ev.cards) if ev.cards else Markup("—")
        return w.say("web.step.talon", name=w.n(ev.seat), cards=cards,
                     talon=w.hand.talon_word().localize(language(loc)))
    if isinstance(ev, CardGiven):
        card = card_html(ev.card) if ev.card is not None else Markup("🂠")
        return w.say("web.step.give", name=w.n(ev.giver), card=card, to=w.n(ev.receiver))
    if isinstance(ev, CardDiscarded):
        card = card_html(ev.card) if ev.card is not None else Markup("🂠")
        return w.say("web.step.discard", name=w.n(ev.seat), card=card)
    if isinstance(ev, ContractSet):
        return w.say("web.step.contract", name=w.n(ev.seat), amount=ev.amount)
    if isinstance(ev, Doubled):
        return w.say("web.step.doubled" if ev.level else "web.step.not_doubled",
                     name=w.n(ev.seat))
    if isinstance(ev, GaveUp):
        return w.say("web.step.gave_up", name=w.n(ev.seat),
                     kind=t(f"web.end.{ev.kind.value}", loc))
    return None


def _play_caption(ev: Event, w: _Words) -> Markup | None:
    """The play: cards, marriages and aces declared, tricks won, cards drawn."""
    if isinstance(ev, CardPlayed):
        return w.say("web.step.play", name=w.n(ev.seat), card=card_html(ev.card))
    if isinstance(ev, MarriageDeclared):
        suit = Markup('<b class="{}">{}</b>').format(
            "red" if ev.suit in (1, 2) else "black", SUIT_SYMBOLS[ev.suit])
        return w.say("web.step.marriage", name=w.n(ev.seat), suit=suit, value=ev.value)
    if isinstance(ev, FourAcesDeclared):
        return w.say("web.step.aces", name=w.n(ev.seat), value=ev.value)
    if isinstance(ev, TrickWon):
        return w.say("web.step.trick", name=w.n(ev.seat), no=ev.trick_no + 1,
                     points=ev.points)
    if isinstance(ev, CardDrawn):
        return w.say("web.step.drawn", name=w.n(ev.seat))
    return None


def _score_caption(ev: Event, w: _Words) -> Markup | None:
    """The scoring: penalties, dashes, the barrel, the hand's result, the match won."""
    if isinstance(ev, DealerPenalized):
        return w.say("web.step.penalty", name=w.n(ev.seat), amount=ev.amount)
    if isinstance(ev, DashGiven):
        return w.say("web.step.dash", name=w.n(ev.seat))
    if isinstance(ev, ClimbedBarrel):
        return w.say("web.step.barrel", name=w.n(ev.seat))
    if isinstance(ev, LeftBarrel):
        return w.say("web.step.left_barrel", name=w.n(ev.seat))
    if isinstance(ev, HandScored):
        r = ev.result
        if r.made is not None and 0 <= r.declarer < len(w.hand.names):
            return w.say("web.step.made" if r.made else "web.step.failed",
                         name=w.n(r.declarer), contract=r.contract)
        return w.say("web.step.scored")
    if isinstance(ev, MatchWon):
        return w.say("web.step.match_won", names=", ".join(w.n(s) for s in ev.winners))
    return None


def _fill(template: str, values: dict[str, Markup]) -> Markup:
    """The catalog's text escaped, with the (already safe) values put in."""
    out = Markup("")
    rest = template
    while rest:
        start = rest.find("{")
        end = rest.find("}", start)
        if start < 0 or end < 0:
            out += escape(rest)
            break
        key = rest[start + 1:end]
        out += escape(rest[:start])
        out += values.get(key, escape(rest[start:end + 1]))
        rest = rest[end + 1:]
    return out


def steps_of(hand: PublicHand, card_url: CardUrl, loc: str | None) -> list[StepView]:
    """The viewer's steps of a replayed hand."""
    names = hand.names
    seats = len(names)
    replay = hand.replay
    out: list[StepView] = []
    dealer = -1
    for i, step in enumerate(replay.steps):
        for ev in step.events:
            if isinstance(ev, HandStarted):
                dealer = ev.dealer
        captions = [c for c in (_caption(e, hand, loc) for e in step.events) if c]
        caption = Markup(" · ").join(captions) if captions else Markup("")
        actor = getattr(step.move, "seat", -1)
        boxes = tuple(_seat(step, s, names, dealer, actor, card_url, loc)
                      for s in range(seats))
        middle, label = _middle(step, hand, card_url, loc)
        trump = SUIT_SYMBOLS[step.trump] if step.trump >= 0 else ""
        score: tuple[tuple[str, int, int], ...] = ()
        if i == len(replay.steps) - 1:
            r = replay.result
            score = tuple((names[s], r.delta[s], r.totals[s]) for s in range(seats)
                          if s < len(r.delta))
        out.append(StepView(caption, boxes, middle, label, trump, score))
    return out


def _seat(step: Step, s: int, names: Sequence[str], dealer: int, actor: int,
          card_url: CardUrl, loc: str | None) -> SeatBox:
    tags = []
    if s == dealer:
        tags.append(t("table.dealer", loc))
    if s == step.declarer and step.contract:
        tags.append(t("web.declarer", loc, contract=step.contract))
    held = sorted(cards_of(step.held[s]) if s < len(step.held) else [], key=display_key)
    pics = tuple(Pic(card_url(c), card_pretty(c)) for c in held)
    points = step.points[s] if s < len(step.points) else 0
    return SeatBox(names[s], " · ".join(tags), points, pics, s == actor)


def _middle(step: Step, hand: PublicHand, card_url: CardUrl,
            loc: str | None) -> tuple[tuple[tuple[str, Pic], ...], str]:
    """What lies in the middle: the trick, the talon being taken, or the closed talon."""
    names, talons = hand.names, hand.replay.talons
    talon = t("word.talon_title", loc, talon=hand.talon_word(capital=True))
    if step.trick:
        return (tuple((names[s], Pic(card_url(c), card_pretty(c))) for s, c in step.trick),
                t("table.trick", loc))
    taken = next((e for e in step.events if isinstance(e, TalonTaken) and e.cards), None)
    if taken is not None and taken.cards:
        return (tuple(("", Pic(card_url(c), card_pretty(c))) for c in taken.cards),
                talon)
    if step.declarer < 0 and talons:
        return (tuple(("", Pic(card_url(None), "🂠")) for m in talons for _ in cards_of(m)),
                talon)
    if 0 <= step.declarer < len(names) and step.contract:
        return (), t("web.contract", loc, name=names[step.declarer], amount=step.contract)
    return (), ""


@dataclass(frozen=True, slots=True)
class MarkView:
    """A decision's analysis beside its step: the mark (empty: none), and on demand the
    best move and the points lost."""

    mark: str
    level: str  # the mark's style: blunder, mistake, dubious, fine
    best: str
    loss: int
    real_loss: int | None
    was_best: bool


_LEVELS = {"??": "blunder", "?": "mistake", "?!": "dubious", "": "fine"}


def marks_of(hand: PublicHand, marks: dict[int, StepMark] | None,
             loc: str | None) -> list[MarkView | None]:
    """Each step's decision analysis (None: the step is no decision, or no analysis)."""
    out: list[MarkView | None] = []
    index = 0
    names = list(hand.names)
    talon = hand.talon_word()
    for step in hand.replay.steps:
        if not isinstance(step.move, Action):
            out.append(None)
            continue
        m = (marks or {}).get(index)
        index += 1
        if m is None:
            out.append(None)
            continue
        phrase = action_phrase(m.best, names, talon)
        out.append(MarkView(m.mark, _LEVELS.get(m.mark, "fine"),
                            t(phrase.key, loc, **phrase.params), m.loss, m.real_loss,
                            m.best == m.action))
    return out
