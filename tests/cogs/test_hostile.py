"""Hostile input through the emulator: the longest strings Discord allows, crafted buttons
and values, unknown ids, and a hand message of an earlier hand."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.game.actions import Verb
from bot.game.state import Phase
from tests.fakediscord.models import walk_components
from tests.helpers.cogs import hand_id, hand_of, open_table, play_turn, short_match

LONGEST = 6000  # characters Discord allows in a string option


def _string_options(cmd: dict) -> list[tuple[str, str, list[dict]]]:
    """(command words, option name, the other required options) of every string option."""
    out = []

    def walk(words: str, options: list[dict]) -> None:
        leaves = [o for o in options if o["type"] not in (1, 2)]
        for o in options:
            if o["type"] in (1, 2):
                walk(f"{words} {o['name']}", o.get("options", []))
        for o in leaves:
            if o["type"] == 3 and not o.get("choices"):
                out.append((words, o["name"], [x for x in leaves if x is not o]))

    walk(cmd["name"], cmd.get("options", []))
    return out


async def test_the_longest_input_gets_a_short_clear_answer_everywhere(world):
    """Every free-text option, filled with 6,000 characters: a reply under Discord's 2,000
    characters that quotes at most a short prefix, and nothing changes."""
    w = world
    fd, alice = w.fd, w.users[0]
    fd.set_permissions(w.guild, alice, ["manage_channels", "manage_guild"])  # sees /admin too
    await open_table(w)
    table = w.table()
    seq, version = table.seq, table.version
    commands = fd.store.commands_for(w.guild.id)
    tried = []
    for cmd in commands:
        for words, name, others in _string_options(cmd):
            values = {name: "Q" * LONGEST}
            for o in others:
                if o.get("required"):
                    values[o["name"]] = "x" * LONGEST if o["type"] == 3 else 1
            r = await fd.slash(alice, w.channel, words, **values)
            assert r.ephemeral, (words, name)
            assert 0 < len(r.content) <= 2000 and "Q" * 40 not in r.content, (words, r.content)
            assert "Something went wrong" not in r.content, (words, r.content)
            tried.append(f"/{words} {name}")
    assert {"/play card", "/give card", "/table option name",
            "/admin defaults language"} <= set(tried), tried
    assert table.seq == seq and table.version == version


async def test_a_button_of_another_channels_table_is_refused(world):
    """Crafted ids pointing at a table in another channel or server: no seat, no ending, no
    rewritten message; the table there is untouched."""
    w = world
    fd, alice, bob, eve = w.fd, w.users[0], w.users[1], w.users[4]
    r = await fd.slash(alice, w.channel, "table new")
    tid = w.table().id
    other = fd.add_text_channel(w.guild, "elsewhere")
    guild2 = fd.add_guild("Other", members=w.users)
    fd.set_permissions(guild2, eve, ["manage_channels"])
    chan2 = fd.add_text_channel(guild2, "lobby")
    await w.settle()
    src = w.table_message()
    for user, channel in ((bob, other), (eve, chan2)):
        r = await fd.forge(user, channel, f"t1000:{tid}:join:", src)
        assert r.ephemeral and "another channel" in r.content, r.content
    assert w.table().names() == ["Alice"]
    # eve manages channels in her own server: that gives her no say over this table
    for verb in ("endyes", "endno"):
        r = await fd.forge(eve, chan2, f"t1000:{tid}:{verb}:", src)
        assert r.ephemeral and "another channel" in r.content, r.content
    # endno in the right channel needs the right to end the table
    r = await fd.forge(bob, w.channel, f"t1000:{tid}:endno:", src)
    assert r.ephemeral and "Only the host" in r.content, r.content
    assert w.table().live and w.table().id == tid


async def test_malformed_values_are_refused_politely(world):
    w = world
    fd = w.fd
    await open_table(w)
    table = w.table()
    seat = table.to_act()
    user = w.user(table.seats[seat].user_id)
    seq = table.seq
    key = table.hand_key
    crafted = [
        (f"t1000:{table.id}:talon:x:{key}", None),
        (f"t1000:{table.id}:choose:bid:{key}", ["abc"]),
        (f"t1000:{table.id}:choose:bid:{key}", [""]),
        (f"t1000:{table.id}:choose:contract:{key}", ["x"]),
        (f"t1000:{table.id}:choose:givezz:{key}", ["AS"]),
        (f"t1000:{table.id}:choose:bid:{key}", []),
        (f"t1000:{table.id}:play:ZZ:{key}", None),
    ]
    src = w.table_message()
    for cid, values in crafted:
        r = await fd.forge(user, w.channel, cid, src, values=values,
                           component_type=3 if values is not None else 2)
        assert r.ephemeral, cid
        assert "Something went wrong" not in r.content and r.content, (cid, r.content)
    assert table.seq == seq


async def test_unknown_and_stale_ids_are_answered(world):
    w = world
    fd, alice = w.fd, w.users[0]
    await open_table(w)
    tid = w.table().id
    for cid in ("t1000:abc:join:", f"t1000:{tid}:frobnicate:", "something-else",
                f"t1000:{tid}:play:{'A' * 40}"):
        r = await fd.forge(alice, w.channel, cid, w.table_message())
        assert r.ephemeral and "no longer active" in r.content and "/table show" in r.content


async def test_a_hand_message_of_an_earlier_hand_cannot_move(world):
    """A hand message from hand 1 pressed during hand 2: refused, with the current hand shown
    in its place; the newer hand message keeps refreshing."""
    w = world
    fd = w.fd
    await open_table(w)
    table = w.table()
    rng = random.Random(3)
    first = table.hand_key
    user = w.user(table.seats[table.to_act()].user_id)
    r = await fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")
    old = r.message
    old_ids = list(old.custom_ids)
    for _ in range(400):
        await w.service.settle()
        if table.hand_key != first and table.state.phase is Phase.BIDDING:
            break
        assert await play_turn(w, rng)
    seat = table.seat_of(user.id)
    while table.to_act() != seat:
        await w.service.settle()
        assert await play_turn(w, rng)
    await w.settle()
    legal = [a for a in table.offer(seat).actions if a.verb is Verb.BID]
    assert legal
    stale = next(c for c in old_ids if ":choose:bid:" in c or ":pass:" in c)
    assert stale.endswith(":" + first)
    seq = table.seq
    r = await fd.forge(user, w.channel, stale, old,
                       values=[str(legal[0].amount)] if ":choose:" in stale else None,
                       component_type=3 if ":choose:" in stale else 2)
    assert f"This is hand {table.hand_no}" in r.content, r.content
    assert table.seq == seq
    # the answer shows the current hand, whose buttons name it
    now = hand_of(w, user)
    assert now is not None and any(c.endswith(":" + table.hand_key) for c in now.custom_ids)
    assert hand_id(table, "pass") in now.custom_ids or any(
        ":choose:bid:" in c for c in now.custom_ids)


# Display names that are markup: a masked link, pings, bold, a heading, a quote, a spoiler.
HOSTILE = ("[claim prize](https://evil.example)", "@everyone **free** <@123456789012345678>",
           "__Cid__ ||s|| ](https://x.example)", "# Dot", "> Eve")
MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")
PING = re.compile(r"@(everyone|here)|(?<!\\)<@!?\d+>")


def _texts(revision: Any) -> list[str]:
    """Every piece of markdown a revision shows: content, embed title, text, fields, footer."""
    out = [revision.content or ""]
    for e in revision.embeds:
        out += [e.get("title", ""), e.get("description", ""),
                (e.get("footer") or {}).get("text", "")]
        for f in e.get("fields", []):
            out += [f["name"], f["value"]]
    return [x for x in out if x]


async def test_names_are_shown_as_text_in_every_message(world):
    """Players whose names are markdown: the table message at every stage, hands, moves,
    refusals, notices, hand results, the score sheet, history and profiles show each name as
    the characters it is (escaped), never as a link, a ping or formatting; the menus that
    name a player show the name as typed (labels are not markdown)."""
    w = world
    fd = w.fd
    for user, name in zip(w.users, HOSTILE, strict=True):
        user.display_name = name
    alice, bob, cid = w.users[:3]
    await short_match(w, humans=3)
    for who in (alice, bob, cid):
        await fd.slash(who, w.channel, "sheet", post=True)
        await fd.slash(who, w.channel, "history")
        await fd.slash(who, w.channel, "stats", post=True)
    await fd.slash(alice, w.channel, "leaderboard", post=True)
    # a second table, hosted by Bob: joining, a refusal naming the host, one naming the turn
    other = fd.add_text_channel(w.guild, "more")
    await fd.slash(bob, other, "table new", preset="russian")
    r = await fd.slash(alice, other, "table join")
    assert "joined" in r.content, r.content
    r = await fd.slash(alice, other, "table start")
    assert "Only the host" in r.content, r.content
    await fd.slash(bob, other, "table ai")
    await fd.slash(bob, other, "table start")
    await w.settle()
    second = w.service.in_channel(other.id)
    idle = next(u for u in (alice, bob) if second.seat_of(u.id) != second.to_act())
    r = await fd.slash(idle, other, "pass")
    assert "turn" in r.content and "You cannot pass" in r.content, r.content
    placeholders = [c.get("placeholder", "") for ch in (w.channel, other)
                    for m in fd.store.channel_messages(ch)
                    for rev in m.history for c in walk_components(rev.components)]
    await w.settle()
    seen: list[str] = []
    for ch in (w.channel, other):
        for m in fd.store.channel_messages(ch):
            for rev in m.history:
                seen += _texts(rev)
    assert len(seen) > 50
    everything = "\n".join(seen)
    for name in HOSTILE:
        assert name not in everything, name
    assert not MASKED_LINK.search(everything), MASKED_LINK.search(everything)
    assert not PING.search(everything), PING.search(everything)
    # each name is there, escaped: the seats, the turn, the results, the sheet
    assert r"\[claim prize\](https://evil.example)" in everything
    assert "@\u200beveryone \\*\\*free\\*\\*" in everything
    assert r"\_\_Cid\_\_ \|\|s\|\| \](https://x.example)" in everything
    assert any("Give a card to" in p and any(n in p for n in HOSTILE) for p in placeholders)


async def test_a_command_of_before_a_change_is_told_it_is_out_of_date(world, caplog):
    """A client with an older copy of the commands: a string where a number is now, an
    option that is gone or missing, a subcommand or command that no longer exists. Each
    gets a polite "out of date" answer and one warning; nothing changes, nothing is an
    error."""
    w = world
    fd, alice = w.fd, w.users[0]
    await open_table(w)
    table = w.table()
    seq, version = table.seq, table.version
    bidder = w.user(table.seats[table.to_act()].user_id)
    stale = [
        (bidder, "bid", [{"name": "amount", "type": 3, "value": "120"}]),
        (bidder, "bid", [{"name": "amount", "type": 4, "value": "120"}]),
        (bidder, "bid", [{"name": "amount", "type": 4, "value": True}]),
        (bidder, "bid", []),
        (bidder, "bid", [{"name": "amount", "type": 4, "value": 120},
                         {"name": "colour", "type": 3, "value": "red"}]),
        (alice, "table", [{"name": "option", "type": 1, "options": [
            {"name": "value", "type": 3, "value": "1000"}]}]),
        (alice, "table", [{"name": "frobnicate", "type": 1, "options": []}]),
        (alice, "table", [{"name": "new", "type": 1, "options": [
            {"name": "timer", "type": 4, "value": 10 ** 12}]}]),
        (alice, "oldcommand", []),
    ]
    caplog.set_level("WARNING")
    for user, name, options in stale:
        caplog.clear()
        r = await fd.stale_slash(user, w.channel, name, options)
        assert r.ephemeral and "out of date" in r.content, (name, options, r.content)
        assert "Something went wrong" not in r.content
        mine = [rec for rec in caplog.records if rec.name.startswith("tysiac")]
        assert [rec.levelname for rec in mine] == ["WARNING"], (options, mine)
        assert not [rec for rec in caplog.records if rec.levelname == "ERROR"]
    assert table.seq == seq and table.version == version and w.table() is table


async def test_numeric_options_are_refused_outside_their_range(world):
    """A target of 99999999999 or 1e30, a hand of 1,000 cards, a talon of 99: refused with
    the range the option takes; the table keeps its rules."""
    w = world
    fd, alice = w.fd, w.users[0]
    await fd.slash(alice, w.channel, "table new", preset="russian")
    await w.settle()
    rules = w.table().rules
    for name, value, said in (("target", "99999999999", "from 100 to 10000"),
                              ("target", "1e30", "from 100 to 10000"),
                              ("target", "-1000", "from 100 to 10000"),
                              ("hand_size", "1000", "from 1 to 16"),
                              ("misere_value", str(10 ** 40), "from 0 to 1000"),
                              ("talons", "[99]", "1 to 8 cards"),
                              ("marriage_values", '{"H": 1e9, "D": 80, "C": 60, "S": 40}',
                               "marriage_values")):
        r = await fd.slash(alice, w.channel, "table option", name=name, value=value)
        assert r.ephemeral and "cannot be set" in r.content and said in r.content, r.content
    assert w.table().rules == rules
    r = await fd.slash(alice, w.channel, "table option", name="target", value="10000")
    assert "is now" in r.content and w.table().rules.target == 10_000


async def test_forged_numbers_take_ascii_digits_only(world):
    """Digits of other scripts in a forged id or value (``١`` reads as 1 to ``int``): the id
    is not this bot's, the bid is no amount; nothing changes."""
    w = world
    fd, bob = w.fd, w.users[1]
    await fd.slash(w.users[0], w.channel, "table new", preset="russian")
    await w.settle()
    table = w.table()
    arabic = str(table.id).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    r = await fd.forge(bob, w.channel, f"t1000:{arabic}:join:", w.table_message())
    assert r.ephemeral and "no longer active" in r.content, r.content
    assert w.table().names() == ["Alice"]
    await fd.click(bob, w.table_message(), f"t1000:{table.id}:join:")
    await fd.click(w.users[2], w.table_message(), f"t1000:{table.id}:join:")
    await fd.click(w.users[0], w.table_message(), f"t1000:{table.id}:start:")
    await w.settle()
    user = w.user(table.seats[table.to_act()].user_id)
    seq = table.seq
    for value in ("١٢٠", "¹²⁰", "１２０"):  # Arabic-Indic, superscript, full-width 120
        r = await fd.forge(user, w.channel, hand_id(table, "choose", "bid"), w.table_message(),
                           values=[value], component_type=3)
        assert r.ephemeral and "is not an amount" in r.content, r.content
    assert table.seq == seq
