"""What a seat may do now, as it may be offered to the player (buttons, menus, autocomplete).

The engine's legal actions are what the rules allow. The offer adds what the bot knows and
the engine cannot: whether the player has looked at his cards. Under blind bidding a player
who has not looked sees his cards face down, and everything offered to him must not depend
on them: blind bids only up to the limit of a hand without a marriage (a higher limit would
tell him he holds one), Pass, and Look. A player who looked bids blind no more.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.actions import Action, Flag, Verb
from bot.game.limits import highest_allowed
from bot.game.observation import Observation
from bot.game.state import Phase, State


@dataclass(frozen=True, slots=True)
class Offer:
    """The actions a seat is offered now; ``face_down``: his cards are still hidden from him
    (blind bidding), ``blind_cap``: the highest blind bid he may make then."""

    seat: int
    actions: tuple[Action, ...] = ()
    face_down: bool = False
    blind_cap: int = 0
    looked: bool = False  # he looked at his cards in this hand

    def of(self, verb: Verb) -> list[Action]:
        """The offered actions with this verb."""
        return [a for a in self.actions if a.verb is verb]

    def refusal(self, action: Action) -> tuple[str, dict[str, int]] | None:
        """Why a blind bid is not offered (an i18n key and parameters), else None.

        Only the bot's own limits are judged here; the rules are the engine's."""
        if action.verb is not Verb.BID or action.flag is not Flag.BLIND:
            return None
        if self.looked:
            return "error.blind_after_look", {}
        if self.face_down and action.amount > self.blind_cap:
            return "error.blind_cap", {"cap": self.blind_cap}
        return None


def offer_for(state: State | None, obs: Observation | None, seat: int, *,
              looked: bool) -> Offer:
    """The offer of ``seat`` in ``state`` (``looked``: he has looked at his cards)."""
    if state is None or obs is None:
        return Offer(seat, looked=looked)
    legal = tuple(a for a in obs.legal if a.seat == seat)
    face_down = (state.rules.blind_bidding and state.phase is Phase.BIDDING
                 and bool(state.blind >> seat & 1) and not looked)
    if not face_down:  # who sees his cards bids blind no more
        return Offer(seat, tuple(a for a in legal
                                 if not (a.verb is Verb.BID and a.flag is Flag.BLIND)),
                     looked=looked)
    cap = highest_allowed(state, seat, 0)  # the limit of a hand without any marriage
    # A bid that is not blind is made looking at the cards (it counts as a look).
    shown = tuple(a for a in legal
                  if a.verb is Verb.PASS or (a.verb is Verb.BID and a.amount <= cap))
    return Offer(seat, shown, face_down=True, blind_cap=cap)
