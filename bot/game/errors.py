"""The one error the engine raises for illegal input."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.game.actions import Action


class RuleError(Exception):
    """An illegal action: ``reason`` says which rule forbids it and what is allowed.

    ``message_for(names)`` gives the full sentence a player reads, e.g.
    "Cid cannot bid 105: bids go up in steps of 10, so the lowest bid now is 110".
    """

    def __init__(
        self, reason: str, action: Action | None = None, refs: Sequence[int] = ()
    ) -> None:
        super().__init__(reason)
        self.template = reason
        self.action = action
        self.refs = tuple(refs)

    def reason_for(self, names: Sequence[str] | None = None) -> str:
        """The reason alone, with the seats it mentions named."""
        if not self.refs:
            return self.template
        return self.template.format(*(_name(names, r) for r in self.refs))

    @property
    def reason(self) -> str:
        return self.reason_for()

    def message_for(self, names: Sequence[str] | None = None) -> str:
        reason = self.reason_for(names)
        if self.action is None or self.action.seat < 0:
            return reason[:1].upper() + reason[1:]
        who = _name(names, self.action.seat)
        who = who[:1].upper() + who[1:]
        return f"{who} cannot {self.action.describe(names)}: {reason}"

    def __str__(self) -> str:
        return self.message_for()


def _name(names: Sequence[str] | None, seat: int) -> str:
    return names[seat] if names and 0 <= seat < len(names) else f"seat {seat}"
