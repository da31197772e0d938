"""The adapter from engine observations and results to render views, on real seeded games.

Every preset is played with ``greedy_policy`` and drawn at several moments of a hand
(bidding, talon, exchange, contract, mid-trick, between tricks, hand over); the public
table must show nothing hidden, and a seat's hand exactly that seat's cards.
"""

from __future__ import annotations

import functools
import io
import random

import pytest
from PIL import Image, ImageStat

from bot.game.actions import Verb
from bot.game.cards import card_str, cards_of
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into, legal_actions
from bot.game.observation import observe, observe_public
from bot.game.presets import PRESETS
from bot.game.simulate import greedy_policy, play_hand
from bot.game.state import HandEnd, HandResult, Phase, State
from render.adapter import hand_view, sheet_view, summary_view, table_view
from render.hand import render_hand
from render.model import TableView
from render.playthrough import POINTS, match_results, snapshots
from render.sheet import render_sheet
from render.summary import render_summary
from render.table import render_table

NAMES = ("Ola", "Алексей Иванов", "علی رضایی", "李小龙 🎉")
PRESET_NAMES = sorted(PRESETS)
CASES = [(p, point) for p in PRESET_NAMES for point in POINTS]


@functools.cache
def _snaps(preset: str, seed: int = 3) -> dict[str, State]:
    return snapshots(PRESETS[preset].rules, seed)


@functools.cache
def _results(preset: str, seed: int = 3) -> tuple[HandResult, ...]:
    return tuple(match_results(PRESETS[preset].rules, seed))


def _names(state: State) -> tuple[str, ...]:
    return NAMES[: state.rules.seats]


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def _not_blank(im: Image.Image) -> None:
    rgb = im.convert("RGB")
    bands: tuple[tuple[int, int], ...] = rgb.getextrema()  # type: ignore[assignment]
    assert any(hi - lo > 100 for lo, hi in bands)
    assert max(ImageStat.Stat(rgb).stddev) > 10


def _table_cards(view: TableView) -> set[str]:
    out = {c for _, c in view.trick} | set(view.talon or ())
    if view.stock_bottom is not None:
        out.add(view.stock_bottom)
    return out - {"??"}


def _public_cards(state: State) -> set[str]:
    """Cards the rules make public: the trick, the last trick, a shown talon, the exposed
    bottom of the stock (option `stock_bottom_exposed`)."""
    pub = {c for _, c in state.trick} | {c for _, c in state.last_trick}
    if state.talon_index >= 0 and state.talon_shown:
        pub |= set(cards_of(state.talons[state.talon_index]))
    obs = observe_public(state)
    if obs.stock_bottom >= 0:
        pub.add(obs.stock_bottom)
    return {card_str(c) for c in pub}


def _hidden_cards(state: State) -> set[str]:
    held = 0
    for mask in state.held:
        held |= mask
    held |= state.discards
    if state.talon_index < 0:
        for t in state.talons:
            held |= t
    held_cards = {card_str(c) for c in cards_of(held)}
    held_cards |= {card_str(c) for c in state.stock[state.stock_pos :]}
    return held_cards - _public_cards(state)


def _check_private(state: State, view: TableView) -> None:
    shown = _table_cards(view)
    leaked = shown & _hidden_cards(state)
    assert not leaked, f"{state!r} shows hidden cards {sorted(leaked)}"
    assert shown <= _public_cards(state)


@pytest.mark.parametrize(("preset", "point"), CASES)
@pytest.mark.slow
def test_every_preset_at_every_point(preset: str, point: str) -> None:
    state = _snaps(preset).get(point)
    if state is None:
        pytest.skip(f"{preset} has no {point}")
    names = _names(state)
    tv = table_view(observe_public(state), names, title=PRESETS[preset].title)
    _check_private(state, tv)
    im = _png(render_table(tv))
    assert im.mode == "RGB" and im.size == (900, 600)
    _not_blank(im)
    n = state.rules.seats
    assert len(tv.seats) == n
    for p in range(n):
        hv = hand_view(observe(state, p), names[p])
        assert sorted(hv.cards) == sorted(card_str(c) for c in cards_of(state.held[p]))
        assert hv.new_cards <= set(hv.cards)
        assert hv.legal is None or hv.legal <= set(hv.cards)
    seat = state.to_act if state.to_act >= 0 else state.active[0]
    hv = hand_view(observe(state, seat), names[seat])
    im = _png(render_hand(hv))
    assert im.mode == "RGB" and 300 <= im.width <= 1400 and 150 <= im.height <= 400
    _not_blank(im)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_same_inputs_same_bytes(preset: str) -> None:
    a = snapshots(PRESETS[preset].rules, 5)["mid_trick"]
    b = snapshots(PRESETS[preset].rules, 5)["mid_trick"]
    names = _names(a)
    ta = render_table(table_view(observe_public(a), names))
    tb = render_table(table_view(observe_public(b), names))
    assert ta == tb
    ha = render_hand(hand_view(observe(a, a.to_act), names[a.to_act]))
    hb = render_hand(hand_view(observe(b, b.to_act), names[b.to_act]))
    assert ha == hb


def _every_state(preset: str, seed: int, hands: int = 2) -> list[State]:
    rng = random.Random(seed)
    rules = PRESETS[preset].rules
    s = new_match(rules, dealer=rng.randrange(rules.seats))
    s, _ = play_hand(s, rng, policy=greedy_policy)
    out: list[State] = []
    for _ in range(hands):
        if s.phase is Phase.MATCH_OVER:
            break
        for move in random_deal(s, rng):
            s = apply_into(s, move, None)
        while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            out.append(s)
            s = apply_into(s, greedy_policy(s, legal_actions(s), rng), None)
        out.append(s)
    return out


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_public_table_never_shows_hidden_cards(preset: str) -> None:
    """At every single state of a few hands, for the public and each seat's observation:
    the table shows only public cards (a seat's own observation must not leak its hand,
    its dark talon or its discards onto the public table)."""
    for seed in (11, 12):
        for state in _every_state(preset, seed):
            names = _names(state)
            _check_private(state, table_view(observe_public(state), names))
            for p in range(state.rules.seats):
                _check_private(state, table_view(observe(state, p), names))


def test_markers_follow_the_observation() -> None:
    snaps = _snaps("russian4")
    state = snaps["mid_trick"]
    obs = observe_public(state)
    tv = table_view(obs, NAMES)
    assert [s.is_dealer for s in tv.seats] == [p == obs.dealer for p in range(4)]
    assert [s.is_sitter for s in tv.seats] == [p == obs.sitter for p in range(4)]
    assert [s.is_turn for s in tv.seats] == [p == obs.to_act for p in range(4)]
    assert [s.is_declarer for s in tv.seats] == [p == obs.declarer for p in range(4)]
    assert [s.hand_count for s in tv.seats] == list(obs.hand_sizes)
    assert tv.seats[obs.sitter].hand_count == 0
    assert tv.contract == obs.contract and tv.declarer == obs.declarer
    assert tv.trump == ("CDHS"[obs.trump] if obs.trump >= 0 else None)
    assert [p for p, _ in tv.trick] == [p for p, _ in obs.trick]
    assert tv.last_trick_winner is None
    assert tv.phase.startswith("Play")
    assert all(s.bid is None for s in tv.seats)


def test_bidding_shows_each_seats_last_call() -> None:
    state = _snaps("russian")["bidding"]
    obs = observe_public(state)
    tv = table_view(obs, NAMES)
    last: dict[int, str] = {}
    for seat, amount, blind in obs.bids:
        last[seat] = "pass" if amount == 0 else (f"blind {amount}" if blind else str(amount))
    assert {p: s.bid for p, s in enumerate(tv.seats) if s.bid is not None} == last
    assert tv.high_bid == obs.high and tv.contract is None
    assert tv.talon is None and tv.talon_backs == 3


def test_talon_shown_after_taken_and_piles_before() -> None:
    ex = _snaps("russian")["exchange"]
    tv = table_view(observe_public(ex), NAMES)
    assert ex.talon_shown
    assert set(tv.talon or ()) == {card_str(c) for c in cards_of(ex.talons[0])}
    two = _snaps("polish2_bidding")["talon"]
    tv2 = table_view(observe_public(two), NAMES)
    assert tv2.talon_piles == (2, 2) and tv2.talon is None
    dark = _snaps("german1001_3")["exchange"]
    assert not dark.talon_shown
    for p in range(3):  # not even from the declarer's own observation
        assert table_view(observe(dark, p), NAMES).talon is None


def test_between_tricks_shows_the_won_trick() -> None:
    state = _snaps("polish")["lead"]
    tv = table_view(observe_public(state), NAMES)
    assert not state.trick
    assert tv.trick == tuple((p, card_str(c)) for p, c in state.last_trick)
    assert tv.last_trick_winner == state.last_winner


def test_after_the_hand() -> None:
    state = _snaps("russian4")["after_hand"]
    res = state.last_result
    assert res is not None and res.end is HandEnd.PLAYED
    tv = table_view(observe_public(state), NAMES)
    assert [s.delta for s in tv.seats] == list(res.delta)
    assert tv.made == res.made
    assert [s.is_dealer for s in tv.seats] == [p == res.dealer for p in range(4)]
    assert tv.last_trick_winner == state.last_winner
    assert all(s.hand_count == 0 for s in tv.seats)


def test_stock_game_shows_the_stock() -> None:
    state = _snaps("polish2_stock")["mid_trick"]
    tv = table_view(observe_public(state), NAMES)
    assert tv.stock == len(state.stock) - state.stock_pos > 0
    assert tv.contract is None and tv.declarer is None


def test_hand_view_marks() -> None:
    state = _snaps("russian")["mid_trick"]
    me = state.to_act
    hv = hand_view(observe(state, me), "Ola")
    legal = {card_str(a.card) for a in legal_actions(state, me) if a.verb is Verb.PLAY}
    assert hv.legal == frozenset(legal)
    other = next(p for p in state.active if p != me)
    assert hand_view(observe(state, other), "x").legal is None
    ex = _snaps("russian")["contract"]
    d = ex.declarer
    dv = hand_view(observe(ex, d), "d")
    talon = {card_str(c) for c in cards_of(ex.talons[0])}
    assert dv.new_cards == talon & set(dv.cards)
    assert dv.legal is not None  # the declarer leads in the contract phase
    for p in ex.active:
        if p == d:
            continue
        got = {card_str(c) for c, to in ex.gifts if to == p}
        assert hand_view(observe(ex, p), "o").new_cards == got
    for p in range(3):
        hv = hand_view(observe(ex, p), "o")
        held = set(hv.cards)
        want = {s for s in "CDHS" if f"K{s}" in held and f"Q{s}" in held}
        assert hv.marriages == want


def test_sitter_and_spectator_hands() -> None:
    state = _snaps("russian4")["mid_trick"]
    hv = hand_view(observe(state, state.sitter), "s")
    assert hv.cards == () and "sit out" in hv.note
    _not_blank(_png(render_hand(hv)))
    assert hand_view(observe_public(state), "spectator").cards == ()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_sheet_and_summary_of_a_whole_match(preset: str) -> None:
    rules = PRESETS[preset].rules
    results = _results(preset)
    assert results and results[-1].winners
    written = [r for r in results if r.end not in (HandEnd.THROWN_IN, HandEnd.ANNULLED)]
    sv = sheet_view(results, NAMES, rules)
    assert len(sv.rows) == len(written)
    assert [r.hand for r in sv.rows] == list(range(1, len(written) + 1))
    assert tuple(c.total for c in sv.rows[-1].cells) == results[-1].totals
    assert sv.winner == frozenset(results[-1].winners)
    for row, res in zip(sv.rows, written, strict=True):
        declared = [p for p, c in enumerate(row.cells) if c.contract is not None]
        assert declared == ([res.declarer] if res.declarer >= 0 else [])
        if res.declarer >= 0 and res.end is HandEnd.PLAYED:
            assert row.cells[res.declarer].made == res.made
        assert all(0 <= c.barrel <= rules.barrel_hands for c in row.cells)
    su = summary_view(results, NAMES, rules)
    assert [p.total for p in su.players] == list(results[-1].totals)
    assert su.hands == len(written) == len(su.history)
    made = sum(1 for r in written if r.declarer >= 0 and r.made)
    assert sum(p.contracts_made for p in su.players) == made
    assert su.target == rules.target
    assert su.barrel_at == (None if rules.barrel.value == "none" else rules.barrel_at)
    if preset in ("russian", "russian4", "polish2_bidding"):
        im = _png(render_sheet(sv))
        assert im.mode == "P" and im.width <= 1500 and im.height <= 1000
        _not_blank(im)
        im = _png(render_summary(su))
        assert im.size == (720, 600)
        _not_blank(im)


def test_summary_chart_follows_the_target_and_the_barrel() -> None:
    """A short match (target 300, no barrel) is charted to its own target, not to 1000."""
    rules = PRESETS["russian"].rules.with_options(barrel="none", target=300)
    results = match_results(rules, 2)
    assert results and results[-1].winners
    su = summary_view(results, NAMES[:3], rules)
    assert (su.target, su.barrel_at) == (300, None)
    short, default = render_summary(su), render_summary(
        summary_view(results, NAMES[:3], PRESETS["russian"].rules))
    assert short != default
    _not_blank(_png(short))


def _result(
    delta: tuple[int, ...],
    totals: tuple[int, ...],
    *,
    end: HandEnd = HandEnd.PLAYED,
    declarer: int = 0,
    contract: int = 100,
    made: bool | None = True,
    taken: dict[int, int] | None = None,
    notes: tuple[str, ...] = (),
    dealer: int = 0,
    penalties: tuple[int, ...] = (0, 0, 0),
    fell: tuple[int, ...] = (),
) -> HandResult:
    return HandResult(
        end=end,
        dealer=dealer,
        declarer=declarer,
        contract=contract,
        complete=True,
        taken=taken if taken is not None else {0: 100, 1: 10, 2: 10},
        marriages={},
        delta=delta,
        totals=totals,
        notes=notes,
        made=made,
        penalties=penalties,
        fell=fell,
    )


def test_sheet_rules_by_hand() -> None:
    rules = PRESETS["russian"].rules
    results = [
        _result((100, 10, 10), (100, 10, 10)),
        _result(
            (0, 0, 0),
            (100, 10, 10),
            end=HandEnd.THROWN_IN,
            declarer=-1,
            contract=0,
            made=None,
        ),
        _result((0, 20, 0), (100, 30, 10), taken={0: 100, 1: 20, 2: 0}),
        _result((0, 60, 60), (100, 90, 70), end=HandEnd.ROSPISAT, made=None, taken={}, declarer=0),
        _result((760, 0, 0), (860, 90, 70), contract=760),
        _result(
            (20, 0, 0),
            (880, 90, 70),
            declarer=1,
            contract=120,
            made=False,
            taken={0: 40, 1: 80, 2: 0},
        ),
        _result((0, 0, 0), (880, 90, 70), declarer=2, made=False),
        _result((0, 0, 0), (880, 90, 70), declarer=2, made=False),
        _result(
            (-120, 0, 0),
            (760, 90, 70),
            declarer=2,
            made=False,
            notes=("{0} fell off the barrel to 760",),
            fell=(0,),
        ),
        _result(
            (0, -120, 0),
            (760, -30, 70),
            declarer=2,
            taken={0: 5, 1: 0, 2: 100},
            notes=("{1} took nothing: a dash (3 of 3)", "{1} loses 120 for a third dash"),
            penalties=(0, -120, 0),
        ),
    ]
    sv = sheet_view(results, NAMES, rules)
    assert len(sv.rows) == 9  # the thrown-in hand is not written
    assert sv.rows[1].cells[2].dash and not sv.rows[1].cells[1].dash
    assert sv.rows[2].cells[0].rospisat and sv.rows[2].cells[0].made is None
    assert [r.cells[0].barrel for r in sv.rows[4:8]] == [1, 2, 3, 0]
    assert sv.rows[7].cells[0].barrel_fell
    assert sv.rows[4].cells[1].contract == 120 and sv.rows[4].cells[1].made is False
    assert sv.rows[8].cells[1].penalty == -120 and sv.rows[8].cells[1].dash
    _not_blank(_png(render_sheet(sv)))


def test_four_player_sheet_marks_the_sitter() -> None:
    rules = PRESETS["russian4"].rules
    results = _results("russian4")
    sv = sheet_view(results, NAMES, rules)
    for row in sv.rows:
        sitters = [p for p, c in enumerate(row.cells) if c.sitter]
        assert len(sitters) == 1
        assert row.dealer is not None and sitters == [(row.dealer - 1) % 4]
