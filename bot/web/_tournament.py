"""A tournament's pages (docs/tournaments.md): ``/g/{guild}/t/{event}`` shows the standings
after each ended round and every board at every table with par; each result and each par
opens in the replay viewer. A part of ``WebServer``."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from bot.i18n import t
from bot.tables import PublicRecords, PublicTournaments
from bot.web._pictures import Pictures
from bot.web._steps import steps_of

ROUNDS = "public, max-age=30"  # a round's end adds to the page


class TournamentPages:
    """The handlers of a tournament's pages (a mixin of ``WebServer``)."""

    public: PublicRecords
    pictures: Pictures
    assets: dict[str, Any]

    async def _context(self, request: web.Request) -> dict[str, Any]:
        raise NotImplementedError

    def _page(self, name: str, ctx: dict[str, Any], cache: str = ROUNDS) -> web.Response:
        raise NotImplementedError

    def add_tournament_routes(self, app: web.Application, guild: str, ids: str) -> None:
        """The pages' routes under ``guild`` (the guild's path pattern)."""
        base = f"{guild}/t/{{event:{ids}}}"
        app.router.add_get(base, self.tournament)
        app.router.add_get(f"{base}/{{round:[1-9][0-9]?}}/{{board:[1-9][0-9]?}}"
                           f"/{{who:par|[1-9][0-9]?}}", self.tournament_hand)

    async def tournament(self, request: web.Request) -> web.Response:
        """An event: the standings and boards of each ended round."""
        ctx = await self._context(request)
        got = await PublicTournaments(self.public).page(ctx["gid"],
                                                        int(request.match_info["event"]))
        ctx.update(title=t("web.tournament", ctx["loc"], name=got.event.name), page=got,
                   rounds=list(reversed(got.rounds)))
        return self._page("tournament.html", ctx, ROUNDS)

    async def tournament_hand(self, request: web.Request) -> web.Response:
        """One board of an ended round at one table, or its par, in the replay viewer."""
        ctx = await self._context(request)
        event_id = int(request.match_info["event"])
        round_no, board_no = int(request.match_info["round"]), int(request.match_info["board"])
        who = request.match_info["who"]
        got = await PublicTournaments(self.public).hand(ctx["gid"], event_id, round_no,
                                                        board_no, who, ctx["loc"])
        await self.pictures.ready()
        page = await PublicTournaments(self.public).page(ctx["gid"], event_id)
        ctx.update(title=t("web.tournament", ctx["loc"], name=page.event.name),
                   event_id=event_id, round_no=round_no, board_no=board_no,
                   who=t("web.tournament_par", ctx["loc"]) if who == "par"
                   else t("web.tournament_table", ctx["loc"], table=who),
                   steps=steps_of(got, self.pictures.url, ctx["loc"]),
                   script=self.assets["replay.js"].url)
        return self._page("tournament_hand.html", ctx, ROUNDS)
