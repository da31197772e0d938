"""Tournaments through the service, on SQLite and PostgreSQL, with a fake clock: sign-up,
check-in and a no-show, rounds at real tables, strikes, a restart mid-round, standings."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from zoneinfo import ZoneInfo

import pytest

from bot.store import StoreAPI, open_store
from bot.tables import (
    Actor,
    EventStatus,
    EventTable,
    EventView,
    FakeClock,
    RoundReport,
    TableError,
    TableService,
    TableStatus,
    Tournaments,
    timezones,
)
from tests.helpers.tables import play_human_turn

GUILD, CHANNEL = 5 << 22, 77
ORG = Actor(100, "Org", can_manage_guild=True, guild_id=GUILD, channel_id=CHANNEL)
PLAYERS = [Actor(u, f"P{u}", guild_id=GUILD, channel_id=CHANNEL) for u in range(1, 6)]
START = dt.datetime.fromtimestamp(FakeClock().now(), dt.UTC) + dt.timedelta(minutes=47)


@dataclass
class Port:
    """The Discord side, as calls kept in order (survives a restart, as Discord would)."""

    calls: list[tuple[str, object]] = field(default_factory=list)
    threads: int = 1000

    async def entrants_changed(self, event: EventView) -> None:
        self.calls.append(("entrants", event.status))

    async def checkin_opened(self, event: EventView) -> None:
        self.calls.append(("checkin", event.id))

    async def dropped(self, event: EventView, user_ids: Sequence[int]) -> None:
        self.calls.append(("dropped", tuple(user_ids)))

    async def open_table(self, event: EventView, table: EventTable) -> int:
        self.threads += 1
        self.calls.append(("open", (table.round_no, table.table_no, table.user_ids)))
        return self.threads

    async def struck(self, event: EventView, user_id: int, strikes: int,
                     withdrawn: bool) -> None:
        self.calls.append(("struck", (user_id, strikes, withdrawn)))

    async def round_ended(self, report: RoundReport) -> None:
        self.calls.append(("round", report))

    async def finished(self, report: RoundReport) -> None:
        self.calls.append(("finished", report))

    async def cancelled(self, event: EventView) -> None:
        self.calls.append(("cancelled", event.id))

    def of(self, kind: str) -> list[object]:
        return [v for k, v in self.calls if k == kind]


@dataclass
class Event:
    database: str
    clock: FakeClock
    port: Port
    store: StoreAPI = None  # type: ignore[assignment]
    tables: TableService = None  # type: ignore[assignment]
    cups: Tournaments = None  # type: ignore[assignment]

    async def open(self) -> Event:
        self.store = await open_store(self.database)
        self.tables = TableService(self.store, clock=self.clock, seed=7, ai_delay=0.0)
        self.cups = Tournaments(self.store, self.tables, clock=self.clock, par_level="easy",
                                board_gap=0.0, timer=60)
        self.cups.attach(self.port)
        await self.tables.restore()
        await self.cups.restore()
        return self

    async def close(self) -> None:
        await self.cups.close()
        await self.tables.close()
        await self.store.close()

    async def play(self, rng: random.Random, *, idle: int | None = None,
                   until: int = 10_000) -> int:
        """People move (the simple policy) until no person is to act; ``idle``: a player
        who never moves. How many moves."""
        moves = 0
        while moves < until:
            await self.cups.settle()
            acted = False
            for table in list(self.tables.tables):
                seat = table.to_act()
                if seat < 0 or table.seats[seat].automatic or (
                        table.seats[seat].user_id == idle):
                    continue
                actors = {a.user_id: replace(a, channel_id=table.channel_id) for a in PLAYERS}
                if await play_human_turn(self.tables, table.id, actors, rng):
                    moves += 1
                    acted = True
            if not acted:
                return moves
        return moves


@pytest.fixture(params=["sqlite", "postgresql"])
async def event(request, tmp_path):
    if request.param == "sqlite":
        database = str(tmp_path / "cup.db")
    else:
        database = str(await request.getfixturevalue("pg_server").new_database())
    ev = await Event(database, FakeClock(), Port()).open()
    yield ev
    await ev.close()


async def _signed_up(ev: Event, **kw) -> EventView:
    view = await ev.cups.create(ORG, name="Friday cup", preset="russian", boards=3, rounds=2,
                                start=START.strftime("%Y-%m-%d %H:%M"), **kw)
    for p in PLAYERS:
        view = await ev.cups.join(view.id, p)
    return view


async def _checked_in(ev: Event) -> EventView:
    view = await _signed_up(ev)
    await ev.clock.advance(33 * 60)  # 14 minutes before the start: check-in is open
    await ev.cups.tick()
    for p in PLAYERS[:4]:  # P5 does not check in
        view = await ev.cups.check_in(view.id, p)
    return view


async def _round_one(ev: Event, view: EventView | None = None) -> EventView:
    view = view or await _checked_in(ev)
    await ev.clock.advance(14 * 60)
    await ev.cups.tick()
    got = await ev.cups.get(view.id)
    assert got is not None
    return got


async def test_signup_checkin_and_the_start(event: Event) -> None:
    view = await _checked_in(event)
    assert view.status is EventStatus.CHECKIN
    assert event.port.of("checkin") == [view.id]
    assert [e.checked_in for e in view.entrants] == [True, True, True, True, False]
    view = await _round_one(event, view)
    assert view.status is EventStatus.RUNNING and view.round_no == 1
    assert event.port.of("dropped") == [(5,)]
    assert [e.dropped for e in view.entrants] == [False] * 4 + [True]
    # ratings all 0: the snake by id over tables of 3 and 1 (two AI players fill it)
    assert event.port.of("open") == [(1, 1, (1, 3, 4)), (1, 2, (2, -6, -7))]
    assert [t.channel_id for t in view.tables] == [1001, 1002]
    tables = {t.channel_id: t for t in event.tables.tables}
    assert all(t.plan is not None and t.match_no == 1 for t in tables.values())
    # the same first board at both tables, from zero totals
    deals = [(await event.store.moves(tables[c].id, 1))[0].move for c in (1001, 1002)]
    assert deals[0] == deals[1] and "deal" in deals[0]
    a = tables[1001].state
    assert a is not None and a.match.totals == (0, 0, 0)


async def test_two_rounds_to_the_podium(event: Event) -> None:
    await event.cups.set_settings(ORG, rated=True)
    view = await _round_one(event)
    await event.play(random.Random(1))
    rounds = event.port.of("round")
    assert len(rounds) == 2 and event.port.of("finished")
    r1, r2 = rounds
    assert isinstance(r1, RoundReport) and isinstance(r2, RoundReport)
    assert [len(b.results) for b in r1.boards] == [2, 2, 2] and all(b.par for b in r1.boards)
    assert sorted(x.user_id for x in r2.standings) == [1, 2, 3, 4]
    assert all(x.boards == 6 for x in r2.standings if x.user_id in (1, 3, 4))
    assert r2.standings[0].rank == 1
    # round 2 seated by round 1's standings: the leader's table of three
    opened = [v for v in event.port.of("open") if v[0] == 2]  # type: ignore[index]
    assert len(opened) == 2
    done = await event.cups.get(view.id)
    assert done is not None and done.status is EventStatus.FINISHED
    assert not event.tables.tables  # every table of the event is closed
    best = min(x.rank or 99 for x in r2.standings if x.user_id == 1)
    assert await event.cups.history(GUILD, 1) == (1, best)
    assert await event.cups.history(GUILD, 5) == (0, None)  # dropped
    report = await event.cups.report(view.id, 1)
    assert report is not None and report.standings == r1.standings
    # the server rates its events: one result of the four, by final place
    for u in (1, 2, 3, 4):
        profile = await event.store.profile(GUILD, u)
        assert profile is not None and profile.ratings[0][2] == 1


async def test_two_strikes_withdraw_a_player_whose_boards_the_ai_finishes(event: Event) -> None:
    await _round_one(event)
    rng = random.Random(2)
    for _ in range(2):
        await event.play(rng, idle=1)
        table = next(t for t in event.tables.tables if t.seat_of(1) is not None)
        assert table.seats[table.to_act()].user_id == 1
        await event.clock.advance(61)  # his turn timer runs out
        await event.cups.settle()
    assert event.port.of("struck") == [(1, 1, False), (1, 2, True)]
    assert all(t.seat_of(1) is None for t in event.tables.tables)
    await event.play(rng)
    final = event.port.of("round")[-1]
    assert isinstance(final, RoundReport)
    line = next(x for x in final.standings if x.user_id == 1)
    assert line.rank is None and line.boards == 3  # his round 1 stands, not ranked
    assert all(1 not in v[2] for v in event.port.of("open")[2:])  # type: ignore[index]
    profile = await event.store.profile(GUILD, 2)
    assert profile is None or not profile.ratings  # the server does not rate its events


async def test_a_restart_mid_round_loses_no_move_and_posts_nothing_twice(event: Event) -> None:
    view = await _round_one(event)
    rng = random.Random(3)
    await event.play(rng, until=12)
    await event.cups.settle()
    people = next(t for t in event.tables.tables if t.seat_of(3) is not None)
    before = {t.id: (t.match_no, await event.store.moves(t.id, t.match_no))
              for t in event.tables.tables}
    seq = people.seq
    await event.close()
    again = await Event(event.database, event.clock, event.port).open()
    event.store, event.tables, event.cups = again.store, again.tables, again.cups
    for t in event.tables.tables:  # every stored move replayed (the AI table moves on)
        match_no, moves = before[t.id]
        assert t.match_no >= match_no
        assert (await event.store.moves(t.id, match_no))[:len(moves)] == moves
    assert event.tables.get(people.id).seq == seq  # people's table: where it was
    assert all(t.plan is not None for t in event.tables.tables)
    await event.play(rng)
    assert len(event.port.of("round")) == 2 and len(event.port.of("finished")) == 1
    assert len(event.port.of("open")) == 4 and len(event.port.of("checkin")) == 1
    results = await event.store.tournament_results(view.id)
    assert len(results) == 2 * 2 * 3  # two rounds, two tables, three boards


async def test_the_round_deadline_lets_the_ai_play_the_boards_out(event: Event) -> None:
    view = await _round_one(event)
    await event.clock.advance(60 * 60 + 1)  # nobody moved for the whole round
    await event.cups.tick()
    await event.cups.settle()
    await event.play(random.Random(4), until=0)
    assert event.port.of("round")  # round 1 ended without a move by a person
    got = await event.cups.get(view.id)
    assert got is not None and got.round_no == 2


@pytest.mark.parametrize(("changes", "key"), [
    ({"start": "2020-01-01 10:00"}, "tournament.error.start_past"),
    ({"start": "tomorrow"}, "tournament.error.start_format"),
    ({"boards": 4}, "tournament.error.boards"),
    ({"boards": 27}, "tournament.error.boards"),
    ({"rounds": 11}, "tournament.error.rounds"),
    ({"rounds": 0}, "tournament.error.rounds"),
    ({"name": " "}, "tournament.error.name"),
    ({"checkin_minutes": 0}, "tournament.error.checkin_minutes"),
])
async def test_bad_settings_are_refused(event: Event, changes, key) -> None:
    args = {"name": "Cup", "preset": "russian", "boards": 6, "rounds": 2, "start": "now"}
    args.update(changes)
    with pytest.raises(TableError) as err:
        await event.cups.create(ORG, **args)
    assert err.value.key == key
    assert await event.cups.find(GUILD) is None


async def test_who_may_organise_and_what_entrants_may_not_do(event: Event) -> None:
    with pytest.raises(TableError) as err:
        await event.cups.create(PLAYERS[0], name="Cup", preset="russian", boards=3, rounds=1,
                                start="now")
    assert err.value.key == "tournament.error.no_right"
    await event.cups.set_settings(ORG, role_id=55)
    member = Actor(9, "Nine", guild_id=GUILD, channel_id=CHANNEL, role_ids=frozenset({55}))
    view = await event.cups.create(member, name="Cup", preset="russian", boards=3, rounds=1,
                                   start=START.strftime("%Y-%m-%d %H:%M"))
    with pytest.raises(TableError) as err:
        await event.cups.create(ORG, name="cup", preset="russian", boards=3, rounds=1,
                                start="now")
    assert err.value.key == "tournament.error.name_taken"
    await event.cups.join(view.id, PLAYERS[0])
    with pytest.raises(TableError) as err:
        await event.cups.join(view.id, PLAYERS[0])
    assert err.value.key == "tournament.error.joined"
    with pytest.raises(TableError) as err:
        await event.cups.check_in(view.id, PLAYERS[0])
    assert err.value.key == "tournament.error.not_checkin"
    with pytest.raises(TableError) as err:
        await event.cups.edit(view.id, PLAYERS[1], rounds=2)
    assert err.value.key == "tournament.error.no_right"
    edited = await event.cups.edit(view.id, member, rounds=2)
    assert edited.rounds == 2
    await event.cups.leave(view.id, PLAYERS[0])
    assert (await event.cups.find(GUILD, "CUP")) == await event.cups.get(view.id)
    assert await event.cups.names(GUILD, "u") == ["Cup"]


async def test_leaving_after_the_start_is_refused_and_late_entry_ends_with_round_one(
        event: Event) -> None:
    view = await _round_one(event)
    with pytest.raises(TableError) as err:
        await event.cups.leave(view.id, PLAYERS[0])
    assert err.value.key == "tournament.error.started"
    late = Actor(6, "Late", guild_id=GUILD, channel_id=CHANNEL)
    got = await event.cups.join(view.id, late)
    assert got.entrants[-1].checked_in
    with pytest.raises(TableError) as err:
        await event.cups.cancel(view.id, ORG)
    assert err.value.key == "tournament.error.started_edit"


async def test_a_restart_during_check_in_posts_it_once_and_starts_on_time(
        event: Event) -> None:
    view = await _checked_in(event)
    await event.close()
    again = await Event(event.database, event.clock, event.port).open()
    event.store, event.tables, event.cups = again.store, again.tables, again.cups
    await event.cups.tick()
    assert event.port.of("checkin") == [view.id]
    view = await _round_one(event, view)
    assert view.status is EventStatus.RUNNING and event.port.of("dropped") == [(5,)]


async def test_only_the_process_of_the_servers_shard_runs_its_events(event: Event) -> None:
    view = await _signed_up(event)
    other = Tournaments(event.store, event.tables, clock=event.clock,
                        owned=lambda guild_id: guild_id != GUILD)
    port = Port()
    other.attach(port)
    await event.clock.advance(33 * 60)
    await other.tick()
    assert await other.restore() == 0
    assert port.calls == []  # another process's server: not touched
    got = await event.cups.get(view.id)
    assert got is not None and got.status is EventStatus.SIGNUP
    await event.cups.tick()  # the owner opens the check-in
    assert event.port.of("checkin") == [view.id]
    await other.close()


async def test_a_restart_mid_round_two_resumes_it(event: Event) -> None:
    view = await _round_one(event)
    rng = random.Random(7)
    for _ in range(2000):  # round 1 to its end, and a few moves of round 2
        got = await event.cups.get(view.id)
        assert got is not None
        if got.round_no == 2 and all(t.match_no >= 1 for t in event.tables.tables):
            break
        await event.play(rng, until=1)
    await event.play(rng, until=5)
    assert len(event.port.of("round")) == 1
    await event.close()
    again = await Event(event.database, event.clock, event.port).open()
    event.store, event.tables, event.cups = again.store, again.tables, again.cups
    assert {t.channel_id for t in event.tables.tables} == {1003, 1004}  # round 2's threads
    await event.play(rng)
    assert len(event.port.of("round")) == 2 and len(event.port.of("finished")) == 1
    assert len(event.port.of("open")) == 4
    assert len(await event.store.tournament_results(view.id)) == 12


async def test_a_late_next_board_does_not_close_a_table_playing_its_last_board(
        event: Event) -> None:
    """The scheduler may ask for a table's next board after the board's end already dealt
    it: a table playing its last board is not "done" and stays open until it is played."""
    view = await _round_one(event)
    rng = random.Random(3)
    last = None
    for _ in range(2_000):
        await event.cups.settle()
        last = next((t for t in event.tables.tables
                     if t.match_no == 3 and t.status is TableStatus.PLAYING), None)
        if last is not None:
            break
        table = next(t for t in event.tables.tables if t.to_act() >= 0
                     and not t.seats[t.to_act()].automatic)
        actors = {a.user_id: replace(a, channel_id=table.channel_id) for a in PLAYERS}
        await play_human_turn(event.tables, table.id, actors, rng)
    assert last is not None
    await event.cups.rounds.next_board(view.id, last)
    await event.cups.settle()
    assert last.live and last.status is TableStatus.PLAYING and last.match_no == 3


async def test_start_times_are_read_in_the_servers_time_zone(event: Event) -> None:
    with pytest.raises(TableError) as err:
        await event.cups.set_settings(ORG, timezone="Mars/Olympus")
    assert err.value.key == "tournament.error.timezone"
    with pytest.raises(TableError) as err:
        await event.cups.set_settings(PLAYERS[0], timezone="Europe/Warsaw")
    assert err.value.key == "error.not_admin"
    assert (await event.cups.set_settings(ORG, timezone=" Europe/Warsaw ")).timezone == (
        "Europe/Warsaw")
    local = START.astimezone(ZoneInfo("Europe/Warsaw")).strftime("%Y-%m-%d %H:%M")
    view = await event.cups.create(ORG, name="Warsaw cup", preset="russian", boards=3,
                                   rounds=1, start=local)
    assert view.start_at == START.replace(second=0, microsecond=0).timestamp()
    # the same wall-clock time in UTC is an hour or two later than in Warsaw
    view = await event.cups.edit(view.id, ORG, start=START.strftime("%Y-%m-%d %H:%M"),
                                 timezone="UTC")
    assert view.start_at == START.replace(second=0, microsecond=0).timestamp()
    assert (await event.cups.set_settings(ORG, timezone="utc")).timezone == ""
    assert timezones("warsaw") == ["Europe/Warsaw"] and timezones("")[0] == "UTC"
