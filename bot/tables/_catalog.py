"""What a table can be: presets, options, AI levels (the service's answers about them)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.ai import LEVELS, Player, player
from bot.game.cards import SUIT_SYMBOLS
from bot.game.options import (
    OPTION_DOCS,
    OPTION_GROUPS,
    Barrel,
    DeclarerScores,
    MustBeat,
    Sitter,
)
from bot.game.presets import PRESETS
from bot.game.rules import OPTION_NAMES, Rules, RulesError
from bot.i18n import CATALOGS
from bot.i18n.values import Clauses, Joined, Msg, PresetTitle, TalonWord
from bot.tables._inputs import option_value, quote
from bot.tables._model import TableError

DEFAULT_LEVEL = "normal"


def presets() -> list[tuple[str, str]]:
    """(name, title) of every preset, the default first."""
    return [(name, p.title) for name, p in PRESETS.items()]


def ai_levels() -> tuple[str, ...]:
    return LEVELS


def ai_level(level: str) -> str:
    """A known AI level (a crafted request may name any)."""
    if level not in LEVELS:
        raise TableError("error.ai_level", text=quote(level), levels=Joined(
            tuple(Msg.of(f"choice.level.{name}") for name in LEVELS)))
    return level


def ai_player(level: str) -> Player:
    return player(level or DEFAULT_LEVEL)


DEFAULT_PRESET = "russian"
# The rule set each language's community plays, for a server that has chosen none
# (docs/rules.md: the presets and where they are played).
LANGUAGE_PRESETS = {"pl": "polish", "de": "german_house", "uk": "russian", "ru": "russian"}


def preset_of_language(locale: str | None) -> str:
    """The preset of a server whose preferred language is ``locale`` ("pl", "de", "en-US")."""
    base = (locale or "").replace("_", "-").split("-", 1)[0].lower()
    return LANGUAGE_PRESETS.get(base, DEFAULT_PRESET)


def preset_for(preset: str, players: int | None) -> str:
    """The preset to use for ``players``: russian + 4 players is russian4, and so on."""
    p = PRESETS.get(preset)
    if p is None or players is None or players == p.rules.seats:
        return preset
    stem = preset.rstrip("0123456789").removesuffix("_")
    for name in (f"{preset}{players}", f"{stem}{players}", f"{stem}_{players}", stem):
        q = PRESETS.get(name)
        if q is not None and q.rules.seats == players:
            return name
    return preset


def rules_for(preset: str, players: int | None) -> Rules:
    p = PRESETS.get(preset)
    if p is None:
        raise TableError("error.unknown_preset", name=quote(preset),
                         presets=", ".join(PRESETS))
    if players is None or players == p.rules.seats:
        return p.rules
    try:
        return p.rules.with_options(seats=players)
    except RulesError:
        raise TableError("error.players", preset=preset, seats=p.rules.seats,
                         players=players) from None


def with_option(rules: Rules, name: str, raw: str) -> tuple[Rules, str]:
    """``rules`` with one option set from its text, and the value as stored (JSON)."""
    try:
        new = rules.with_options(**{name: option_value(raw)})
    except (RulesError, TypeError) as exc:  # unknown names too, with a "did you mean"
        raise TableError("error.option", name=quote(name),
                         message=quote(str(exc), 300)) from None
    return new, json.dumps(new.to_json()[name])


LANGUAGE_OPTION = "language"
"""The option that is not a rule: the language of the table's public messages and images."""


PAUSE_OPTION = "pause"
"""The other option that is not a rule: seconds a finished hand stays on show before the
next deal, unless every person at the table presses "Next hand" sooner (0: no pause)."""
PAUSE_RANGE = range(61)


def pause_seconds(raw: str) -> int:
    """The pause ``raw`` names ("8", "8s"), in seconds; TableError naming the range."""
    text = raw.strip().lower().removesuffix("s").strip()
    if not text.isdigit() or int(text) not in PAUSE_RANGE:
        raise TableError("error.pause_range", text=quote(raw), low=PAUSE_RANGE.start,
                         high=PAUSE_RANGE.stop - 1)
    return int(text)


def table_languages() -> list[str]:
    """The languages a table may speak (those with a message catalog), English first."""
    return list(CATALOGS)


def table_language(raw: str) -> str:
    """The catalog code ``raw`` names ("PL", "pl-PL", "de"); TableError naming the five."""
    code = raw.strip().replace("_", "-")
    base = code.split("-", 1)[0].lower()
    if base not in CATALOGS:
        raise TableError("error.table_language", text=quote(code),
                         languages=", ".join(table_languages()))
    return base


def option_names(current: str) -> list[str]:
    cur = current.lower().strip()
    every = [*OPTION_NAMES, LANGUAGE_OPTION, PAUSE_OPTION]
    names = [n for n in every if cur in n] or every
    names.sort(key=lambda n: (n not in (LANGUAGE_OPTION, PAUSE_OPTION), not n.startswith(cur),
                              n))
    return names


def option_values(rules: Rules | None, name: str, current: str) -> list[str]:
    """The current value first, then the values the option's type allows."""
    if name not in OPTION_NAMES:
        return []
    rules = rules or Rules()
    now = json.dumps(rules.to_json()[name])
    default = {f.name: f.default for f in dataclasses.fields(Rules)}.get(name)
    values = [now]
    if isinstance(default, StrEnum):
        values += [e.value for e in type(default)]
    elif isinstance(default, bool) or now in ("true", "false"):
        values += ["true", "false"]
    if current and current not in values:
        values.insert(0, current)
    return list(dict.fromkeys(v for v in values if current.lower() in v.lower()))


# The phase of each group of options, as the key of its heading (``rules.phase.<key>``):
# headings are translated, the group titles of bot.game.options are not.
PHASE_KEYS: dict[str, str] = {
    "Table and deal": "table",
    "Deal and redeal": "redeal",
    "Bidding": "bidding",
    "Talon and exchange": "talon",
    "Giving up a hand: rospisat (bomba) and spisat": "giveup",
    "Declarations": "declarations",
    "Card play": "play",
    "Scoring and the end of a match": "scoring",
    "Sticks and no-win streaks": "sticks",
    "Barrel and lock": "barrel",
    "Four at the table": "four",
}
OTHER_PHASE = "other"  # an option no group lists yet still shows, last


def _phase_of() -> dict[str, str]:
    return {name: PHASE_KEYS.get(title, OTHER_PHASE)
            for title, names in OPTION_GROUPS for name in names}


def _phase_order() -> tuple[str, ...]:
    return (*dict.fromkeys(PHASE_KEYS.get(title, OTHER_PHASE) for title, _ in OPTION_GROUPS),
            OTHER_PHASE)


def _plain(value: str) -> str:
    """A stored (JSON) value as a reader writes it: ``none``, not ``"none"``."""
    decoded = json.loads(value)
    return decoded if isinstance(decoded, str) else value


@dataclass(frozen=True, slots=True)
class RulesSummary:
    """A table's rules: its preset and every option (``changed``: differs from the preset).

    ``digest``: the rules in five sentences, written from the table's own options.
    ``explained``: each changed option as (name, value, the sentence that explains it).
    ``by_phase``: the changed options as (phase key, ((name, plain value, sentence), ...)),
    in the order of play; ``options_by_phase``: every option as (phase key, ((name, plain
    value), ...)). A phase key names its heading, ``rules.phase.<key>``.
    """

    title: str
    digest: tuple[Clauses, ...]
    changed: tuple[tuple[str, str], ...]
    options: tuple[tuple[str, str], ...]
    explained: tuple[tuple[str, str, str], ...] = ()
    by_phase: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = ()
    options_by_phase: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()


def _grouped(rows: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """``rows`` (each starting with an option's name) under their phases, phases in order of
    play and rows in the order the phase lists them; empty phases left out."""
    phase_of = _phase_of()
    rank = {name: i for i, (_, names) in enumerate(OPTION_GROUPS) for name in names}
    ordered = sorted(rows, key=lambda r: rank.get(r[0], len(rank)))
    return tuple((phase, tuple(r for r in ordered
                               if phase_of.get(r[0], OTHER_PHASE) == phase))
                 for phase in _phase_order()
                 if any(phase_of.get(r[0], OTHER_PHASE) == phase for r in rows))


def rules_summary(preset: str, rules: Rules) -> RulesSummary:
    p = PRESETS.get(preset)
    options = rules.to_json()
    base = p.rules.to_json() if p else {}
    pairs = tuple((k, json.dumps(v)) for k, v in options.items())
    changed = tuple((k, v) for k, v in pairs if json.dumps(base.get(k)) != v)
    explained = tuple((k, v, OPTION_DOCS.get(k, "")) for k, v in changed)
    by_phase = _grouped(tuple((k, _plain(v), why) for k, v, why in explained))
    options_by_phase = _grouped(tuple((k, _plain(v)) for k, v in pairs))
    return RulesSummary(p.title if p else preset, rules_digest(preset, rules), changed, pairs,
                        explained, by_phase, options_by_phase)


def rules_digest(preset: str, rules: Rules) -> tuple[Clauses, ...]:
    """A table's rules in five sentences (the deal, the auction, the play, the score, the
    end of the match), each clause written from the value of ``rules`` it names."""
    p = PRESETS.get(preset)
    talon = TalonWord(preset, p.talon_name if p is not None else "talon")
    return (Clauses(_deal(rules, talon)), Clauses(_auction(rules)), Clauses(_play(rules)),
            Clauses(_score(rules, talon)), Clauses(_end(rules)))


def preset_digest(preset: str) -> tuple[tuple[Clauses, ...], PresetTitle]:
    """A preset's rules in five sentences, and its title (for a channel with no table)."""
    p = PRESETS.get(preset)
    if p is None:
        raise TableError("error.unknown_preset", name=quote(preset), presets=", ".join(PRESETS))
    return rules_digest(preset, p.rules), PresetTitle(preset, p.title)


def _deal(rules: Rules, talon: TalonWord) -> tuple[Msg, ...]:
    if rules.seats == 4 and rules.sitter is not Sitter.NONE:
        players = Msg.of("digest.players_sitter", cards=rules.hand_size)
    else:
        players = Msg.of("digest.players", players=rules.seats, cards=rules.hand_size)
    if rules.stock:
        stock = rules.deck_mask.bit_count() - rules.seats * rules.hand_size - sum(rules.talons)
        return players, Msg.of("digest.stock", size=stock)
    if not rules.talons:
        return players, Msg.of("digest.no_talon", talon=talon)
    if len(rules.talons) == 1:
        return players, Msg.of("digest.talon", talon=talon, size=rules.talons[0])
    return players, Msg.of("digest.talons", talon=talon, count=len(rules.talons),
                           size=rules.talons[0])


def _auction(rules: Rules) -> tuple[Msg, ...]:
    if not rules.bidding:
        return (Msg.of("digest.no_auction"),)
    out = [Msg.of("digest.bids", min=rules.min_bid, step=rules.bid_step),
           Msg.of("digest.opening_forced" if rules.opening_bid_forced else "digest.opening_free")]
    if rules.marriage_required_above is not None:
        out.append(Msg.of("digest.marriage_needed", cap=rules.marriage_required_above))
    return tuple(out)


def _play(rules: Rules) -> tuple[Msg, ...]:
    out = [Msg.of("digest.follow_trump" if rules.must_trump_when_void else "digest.follow_free")]
    if rules.must_beat is MustBeat.ALWAYS:
        out.append(Msg.of("digest.head_always"))
    elif rules.must_beat is MustBeat.FOLLOW:
        out.append(Msg.of("digest.head_follow"))
    values = ", ".join(f"{SUIT_SYMBOLS[s]} {v}" for s, v in sorted(
        enumerate(rules.marriage_values), key=lambda sv: -sv[1]))
    out.append(Msg.of("digest.marriages", values=values))
    out.append(Msg.of("digest.marriage_first_lead" if rules.marriage_on_first_lead
                      else "digest.marriage_after_trick"))
    return tuple(out)


def _score(rules: Rules, talon: TalonWord) -> tuple[Msg, ...]:
    if not rules.bidding:
        return (Msg.of("digest.score_own"),)
    made = ("digest.score_taken" if rules.declarer_scores is DeclarerScores.POINTS_TAKEN
            else "digest.score_contract")
    out = [Msg.of(made)]
    if rules.rounding > 1:
        out.append(Msg.of("digest.rounding", rounding=rules.rounding))
    if rules.rospisat:
        out.append(Msg.of("digest.rospisat", talon=talon) if rules.rospisat_max is None
                   else Msg.of("digest.rospisat_max", talon=talon, count=rules.rospisat_max))
    return tuple(out)


def _end(rules: Rules) -> tuple[Msg, ...]:
    out = [Msg.of("digest.target", target=rules.target)]
    if rules.barrel is not Barrel.NONE:
        out.append(Msg.of("digest.barrel", at=rules.barrel_at, hands=rules.barrel_hands)
                   if rules.barrel is Barrel.CLASSIC else
                   Msg.of("digest.barrel_lviv", at=rules.barrel_at))
    elif rules.lock_at is not None:
        out.append(Msg.of("digest.lock", at=rules.lock_at))
    return tuple(out)
