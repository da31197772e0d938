"""Types of the compiled double-dummy search (bot/ai/_dds.c)."""

from collections.abc import Sequence

class Search:
    """The double-dummy search of one deal for one side (bot.ai.solver.Solver)."""

    nodes: int
    node_limit: int
    @property
    def entries(self) -> int: ...
    def __init__(self, seats: int, order: Sequence[int], maxside: int,
                 marriage_values: Sequence[Sequence[int]], top_marriage: Sequence[int],
                 by_order: bool, trump_locked: bool, must_beat: int,
                 must_trump: bool) -> None: ...
    def after(self, hands: Sequence[int], trick: Sequence[tuple[int, int]], seat: int,
              trump: int, ndecl: int, declare: bool, card: int, suit: int, alpha: int,
              beta: int, seconds_left: float, /) -> int | None: ...
    def value(self, hands: Sequence[int], trick: Sequence[tuple[int, int]], seat: int,
              trump: int, ndecl: int, declare: bool, alpha: int, beta: int,
              seconds_left: float, /) -> int | None: ...
    def legal(self, hand: int, trick: Sequence[tuple[int, int]], trump: int, /) -> int: ...
    def moves(self, hand: int, trick: Sequence[tuple[int, int]], trump: int,
              declare: bool, /) -> list[tuple[int, int]]: ...
