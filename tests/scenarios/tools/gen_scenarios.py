"""Build the scenario corpus of tests/scenarios/ (run by hand; not a test module).

    .venv/bin/python tests/scenarios/tools/gen_scenarios.py [NAME_FRAGMENT...]

Every builder returns a scenario (with its ``_note``) and ``md``: the numbers the worked example
itself states for it (taken / delta / totals / winner / counters). The script replays the scenario,
refuses to write the file unless the replay agrees with ``md`` (so the expectations come from
the rules, not from the engine), and then stores the complete replay output as ``_expect``, so
the tests also pin everything else (notes, counters, the other players' numbers).
Hands that an example describes only by their numbers are found by a seeded search
(``search.find_hand``), so the files are reproducible.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search import Spec, find_hand, fixed_exchange, random_exchange

from bot.game.scenario import run

OUT = Path(__file__).resolve().parents[1]
# Scenarios that end in a refused action (err_*) have their own folder, so that replaying
# tests/scenarios/*.json exits 0 and tests/scenarios/illegal/*.json exits 2.
ILLEGAL = OUT / "illegal"


def out_path(name: str) -> Path:
    """Where the scenario ``name`` is written."""
    return (ILLEGAL if name.startswith("err_") else OUT) / f"{name}.json"


Json = dict[str, Any]
BUILDERS: list[tuple[str, Callable[[], tuple[Json, Json]]]] = []


def scenario(name: str) -> Callable[[Callable[[], tuple[Json, Json]]], Callable[[], Any]]:
    def reg(fn: Callable[[], tuple[Json, Json]]) -> Callable[[], Any]:
        BUILDERS.append((name, fn))
        return fn

    return reg


def md_match(md: Any, got: Any, where: str = "") -> list[str]:
    """Differences between the example's numbers and the replay (dicts: listed keys only;
    lists: same length, element by element)."""
    if isinstance(md, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected an object, got {got!r}"]
        out = []
        for k, v in md.items():
            if k not in got:
                out.append(f"{where}.{k}: missing")
            else:
                out += md_match(v, got[k], f"{where}.{k}")
        return out
    if isinstance(md, list) and isinstance(got, list) and any(isinstance(x, dict) for x in md):
        if len(md) != len(got):
            return [f"{where}: {len(got)} entries, the example needs {len(md)}"]
        out = []
        for i, (a, b) in enumerate(zip(md, got, strict=True)):
            out += md_match(a, b, f"{where}[{i}]")
        return out
    return [] if md == got else [f"{where}: engine {got!r}, example {md!r}"]


def dumps(obj: Any) -> str:
    """JSON with short lists kept on one line."""
    text = json.dumps(obj, indent=2, ensure_ascii=False)

    def join(m: re.Match[str]) -> str:
        inner = re.sub(r"\s*\n\s*", " ", m.group(0))
        inner = inner.replace("[ ", "[").replace(" ]", "]").replace("{ ", "{").replace(" }", "}")
        return inner if len(inner) < 98 else m.group(0)

    for _ in range(2):
        text = re.sub(r"\[[^\[\]{}]*\]", join, text)
        text = re.sub(r"\{[^\[\]{}]*\}", join, text)
    return text + "\n"


def base(preset: str, players: str = "A B C", dealer: str = "A", **extra: Any) -> Json:
    data: Json = {"preset": preset}
    if "options" in extra:
        data["options"] = extra.pop("options")
    data["players"] = players.split()
    data["dealer"] = dealer
    if "start" in extra:
        data["start"] = extra.pop("start")
    data.update(extra)
    data["hands"] = []
    return data


def hand_of(data: Json, seed: int = 1, **kw: Any) -> Json:
    return find_hand(Spec(data, **kw), seed=seed)


def finish(name: str, data: Json, md: Json) -> None:
    data = {k: v for k, v in data.items() if k != "_expect"}
    result = run(data, str(out_path(name).relative_to(OUT.parents[1])))
    diff = md_match(md, result)
    if diff:
        raise SystemExit(f"{name}: the engine disagrees with the example:\n  " + "\n  ".join(diff)
                         + "\n" + json.dumps(result))
    expect = {k: v for k, v in result.items() if k != "file"}
    ordered = {"_note": data.pop("_note")}
    for k in ("_expect_error_contains",):
        if k in data:
            ordered[k] = data.pop(k)
    ordered.update(data)
    ordered["_expect"] = expect
    out_path(name).write_text(dumps(ordered), encoding="utf-8")
    print(f"wrote {name}.json ({'ok' if result['ok'] else 'error'})")


# BUILDERS-START
# ---------------------------------------------------------------- worked example W0 .. W12
def auction(decl: str, bid: int, *others: str, blind: bool = False) -> list[list[Any]]:
    first: list[Any] = [decl, "bid", bid] + (["blind"] if blind else [])
    return [first] + [[o, "pass"] for o in others]


@scenario("w00_russian_complete_hand")
def w00() -> tuple[Json, Json]:
    d = base("russian")
    d["_note"] = ("worked example W0: the complete russian test vector (auction 100-105-pass-120, "
                  "gifts, contract 140 with the ♥ marriage, eight tricks, A's dash).")
    d["hands"] = [{
        "deal": {"A": ["AC", "10C", "KC", "QC", "9H", "JH", "10S"],
                 "B": ["AH", "10H", "KH", "QH", "9C", "JC", "AS"],
                 "C": ["AD", "10D", "KD", "JD", "9S", "QS", "KS"], "talon": ["QD", "9D", "JS"]},
        "actions": [
            ["B", "bid", 100], ["C", "bid", 105], ["A", "pass"], ["B", "bid", 120],
            ["C", "pass"], ["B", "give", "9C", "C"], ["B", "give", "JC", "A"],
            ["B", "contract", 140],
            ["B", "play", "AH"], ["C", "play", "9C"], ["A", "play", "9H"],
            ["B", "play", "QH", "marriage"], ["C", "play", "9S"], ["A", "play", "JH"],
            ["B", "play", "KH"], ["C", "play", "JD"], ["A", "play", "JC"],
            ["B", "play", "10H"], ["C", "play", "QS"], ["A", "play", "KC"],
            ["B", "play", "AS"], ["C", "play", "KS"], ["A", "play", "10S"],
            ["B", "play", "JS"], ["C", "play", "KD"], ["A", "play", "QC"],
            ["B", "play", "9D"], ["C", "play", "AD"], ["A", "play", "10C"],
            ["C", "play", "10D"], ["A", "play", "AC"], ["B", "play", "QD"]]}]
    md = {"ok": True, "hands": [{"dealer": "A", "declarer": "B", "contract": 140,
                                 "complete": True, "taken": {"A": 0, "B": 175, "C": 45},
                                 "marriages": {"B": ["H"]},
                                 "delta": {"A": 0, "B": 140, "C": 45},
                                 "totals": {"A": 0, "B": 140, "C": 45}}],
          "totals": {"A": 0, "B": 140, "C": 45}, "dashes": {"A": 1}, "winner": None}
    return d, md


@scenario("w01_made_contract_defenders_rounded")
def w01() -> tuple[Json, Json]:
    d = base("russian")
    d["_note"] = ("worked example W1: B makes 120 with cards 95 + ♥ 100; defenders' 17 → 15 "
                  "and 8 → 10 (round to nearest 5, rounding).")
    d["hands"] = [hand_of(d, fixed={"B": "KH QH"}, auction=auction("B", 120, "C", "A"),
                          exchange=random_exchange("KH QH"),
                          points={"B": 95, "A": 17, "C": 8}, declare={"B": "H"})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 120,
                                 "taken": {"A": 17, "B": 195, "C": 8},
                                 "delta": {"A": 15, "B": 120, "C": 10}}],
          "totals": {"A": 15, "B": 120, "C": 10}, "winner": None}
    return d, md


def w02_03(points: dict[str, int], declare: str, md: Json, note: str) -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 200, "B": 300, "C": 150}})
    d["_note"] = note
    d["hands"] = [hand_of(d, fixed={"B": "KH QH KS QS"}, auction=auction("B", 130, "C", "A"),
                          exchange=random_exchange("KH QH KS QS"), contract=160,
                          points=points, declare={"B": declare})]
    return d, md


@scenario("w02_s0_example_made")
def w02() -> tuple[Json, Json]:
    return w02_03({"B": 75, "A": 28, "C": 17}, "HS", {
        "ok": True, "hands": [{"declarer": "B", "contract": 160,
                               "taken": {"A": 28, "B": 215, "C": 17},
                               "delta": {"A": 30, "B": 160, "C": 15}}],
        "totals": {"A": 230, "B": 460, "C": 165}},
        "worked example W2 (S0's example): won at 130, raised to 160 (bids above 120 need a "
        "marriage: B holds ♥ and ♠); raw 75 + 100 + 40 = 215 ≥ 160 → +160; A 28 → 30, "
        "C 17 → 15.")


@scenario("w03_s0_example_failed")
def w03() -> tuple[Json, Json]:
    return w02_03({"B": 55, "A": 41, "C": 24}, "H", {
        "ok": True, "hands": [{"declarer": "B", "contract": 160,
                               "taken": {"A": 41, "B": 155, "C": 24},
                               "delta": {"A": 40, "B": -160, "C": 25}}],
        "totals": {"A": 240, "B": 140, "C": 175}},
        "worked example W3 (S0's example): contract 160, raw 55 + ♥ 100 = 155 < 160 → −160; "
        "A 41 → 40, C 24 → 25.")


@scenario("w04a_jack_nine_nine_not_a_dash")
def w04a() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 240}, "dashes": {"A": 2}})
    d["_note"] = ("worked example W4 hand 1 and dashes: A (dashes 2), a defender, wins one trick "
                  "only, J+9+9 = 2 raw points → rounds to 0, but it is not a dash: A stays "
                  "240 with dashes 2.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"),
                          exchange=random_exchange(), points={"A": 2}, tricks={"A": 1})]
    md = {"ok": True, "hands": [{"taken": {"A": 2}, "delta": {"A": 0}, "totals": {"A": 240}}],
          "dashes": {"A": 2}}
    return d, md


@scenario("w04b_nine_nine_nine_third_dash")
def w04b() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 240}, "dashes": {"A": 2}})
    d["_note"] = ("worked example W4 hand 2 and dashes: A's only trick is 9+9+9, raw 0 → a true "
                  "zero, his third dash → −120 and dashes back to 0 → A 120.")
    d["hands"] = [hand_of(d, fixed={"A": "9S", "B": "KS QS", "C": "9D 9C"},
                          auction=auction("B", 100, "C", "A"), exchange=random_exchange("KS QS"),
                          points={"A": 0}, tricks={"A": 1}, allow_decl=True,
                          deal_ok=lambda dl: not any(c.endswith("C") for c in dl["A"]))]
    md = {"ok": True, "hands": [{"taken": {"A": 0}, "delta": {"A": -120},
                                 "totals": {"A": 120}}], "dashes": {}}
    return d, md


def rospisat_hand(d: Json, decl: str, bid: int, others: tuple[str, ...], seed: int = 1,
                  fixed: str = "", verb: str = "rospisat") -> Json:
    h = hand_of(d, seed=seed, fixed={decl: fixed} if fixed else {},
                prefix_hands=list(d["hands"]),
                auction=auction(decl, bid, *others), exchange=None, points={})
    h["actions"] = [*auction(decl, bid, *others), [decl, verb]]
    return h


@scenario("w05a_third_rospisat")
def w05a() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 100, "B": 300, "C": 50}, "rospisat": {"B": 2}})
    d["_note"] = ("worked example W5 and rospisat: B's third rospisat: defenders +60 each, B −120; "
                  "rospisat_calls B 3.")
    d["hands"] = [rospisat_hand(d, "B", 100, ("C", "A"))]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 100, "complete": True,
                                 "taken": {}, "delta": {"A": 60, "B": -120, "C": 60}}],
          "totals": {"A": 160, "B": 180, "C": 110}, "rospisat": {"B": 3}}
    return d, md


@scenario("w05b_first_rospisat")
def w05b() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 100, "B": 300, "C": 50}})
    d["_note"] = ("worked example W5 (\"had it been his 1st\"): a first rospisat costs B nothing; "
                  "defenders +60.")
    d["hands"] = [rospisat_hand(d, "B", 100, ("C", "A"))]
    md = {"ok": True, "hands": [{"delta": {"A": 60, "B": 0, "C": 60}}],
          "totals": {"A": 160, "B": 300, "C": 110}, "rospisat": {"B": 1}}
    return d, md


@scenario("w06_climbing_onto_the_barrel")
def w06() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 820}})
    d["_note"] = ("worked example W6 and the barrel: A 820, defender, cards 67 → 65 → 885 lies in "
                  "880..999 → set to 880, on the barrel with 0 barrel hands used.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"),
                          exchange=random_exchange(), points={"A": 67})]
    md = {"ok": True, "hands": [{"taken": {"A": 67}, "delta": {"A": 60},
                                 "totals": {"A": 880}}],
          "totals": {"A": 880}, "barrel": {}}
    return d, md


@scenario("w07_win_from_barrel")
def w07() -> tuple[Json, Json]:
    d = base("russian", dealer="C", start={"totals": {"A": 880, "B": 400, "C": 300},
                                           "barrel": {"A": 1}})
    d["_note"] = ("worked example W7 and the barrel case 1: A on the barrel declares 120, makes it "
                  "with cards 90 + ♠ 40 → 1000 → A wins; B 22 → 20, C 8 → 10. "
                  "A whole match played to its end.")
    d["hands"] = [hand_of(d, fixed={"A": "KS QS"}, auction=auction("A", 120, "B", "C"),
                          exchange=random_exchange("KS QS"),
                          points={"A": 90, "B": 22, "C": 8}, declare={"A": "S"})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 120,
                                 "taken": {"A": 130, "B": 22, "C": 8},
                                 "delta": {"A": 120, "B": 20, "C": 10}}],
          "totals": {"A": 1000, "B": 420, "C": 310}, "winner": "A"}
    return d, md


@scenario("w08_failing_on_the_barrel")
def w08() -> tuple[Json, Json]:
    d = base("russian", dealer="C", start={"totals": {"A": 880}, "barrel": {"A": 2}})
    d["_note"] = ("worked example W8 and the barrel case 3: A on the barrel (2 hands used) raises "
                  "to "
                  "125 (holds K♠ Q♠), takes 70 + ♠ 40 = 110 < 125 → 755, off the barrel, "
                  "barrel hands 0.")
    d["hands"] = [hand_of(d, fixed={"A": "KS QS"}, auction=auction("A", 100, "B", "C"),
                          exchange=random_exchange("KS QS"), contract=125,
                          points={"A": 70}, declare={"A": "S"})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 125, "taken": {"A": 110},
                                 "delta": {"A": -125}}],
          "totals": {"A": 755}, "barrel": {}}
    return d, md


@scenario("w09a_third_barrel_hand_falls")
def w09a() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 880}, "barrel": {"A": 2}})
    d["_note"] = ("worked example W9 part 1 and the barrel: A on the barrel with 2 hands used, "
                  "defender with raw 40 (counts nothing) → third barrel hand → falls to 760, "
                  "barrel hands 0; the fall is counted in barrel_falls.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"),
                          exchange=random_exchange(), points={"A": 40})]
    md = {"ok": True, "hands": [{"taken": {"A": 40}, "delta": {"A": -120}}],
          "totals": {"A": 760}, "barrel": {}, "barrel_falls": {"A": 1}}
    return d, md


@scenario("w09b_barrel_zero_no_dash")
def w09b() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 880}})
    d["_note"] = ("worked example W9 part 2 and dashes: A on the barrel (0 hands used), defender "
                  "with raw 0 → no dash on the barrel; stays 880 with barrel hands 1.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"),
                          exchange=random_exchange(), points={"A": 0})]
    md = {"ok": True, "hands": [{"taken": {"A": 0}, "delta": {"A": 0}}],
          "totals": {"A": 880}, "barrel": {"A": 1}, "dashes": {}}
    return d, md


@scenario("w10_barrel_declarer_small_contract")
def w10() -> tuple[Json, Json]:
    d = base("russian", dealer="C", start={"totals": {"A": 880}})
    d["_note"] = ("worked example W10, the barrel case 2 and decision D2: A on the barrel makes a "
                  "contract "
                  "of 100 with raw 115, but 880 + 100 < 1000 → stays 880; the hand counts as "
                  "a barrel hand (barrel hands 1).")
    d["hands"] = [hand_of(d, auction=auction("A", 100, "B", "C"),
                          exchange=random_exchange(), points={"A": 115})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 100, "taken": {"A": 115},
                                 "delta": {"A": 0}}],
          "totals": {"A": 880}, "barrel": {"A": 1}, "winner": None}
    return d, md


@scenario("w11_defender_wins_without_barrel")
def w11() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 845, "B": 500, "C": 200}})
    d["_note"] = ("worked example W11 and the barrel (S0's 845 + 155): B fails 105 with 50; A, a "
                  "defender, takes 55 + ♥ 100 = 155 → 1000 → A wins the match.")
    d["hands"] = [hand_of(d, fixed={"A": "KH QH"}, auction=auction("B", 105, "C", "A"),
                          exchange=random_exchange(),
                          points={"B": 50, "A": 55, "C": 15}, declare={"A": "H"})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 105,
                                 "taken": {"A": 155, "B": 50, "C": 15},
                                 "delta": {"A": 155, "B": -105, "C": 15}}],
          "totals": {"A": 1000, "B": 395, "C": 215}, "winner": "A"}
    return d, md


@scenario("w12_declarer_wins_ties")
def w12() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 870, "B": 880, "C": 100}})
    d["_note"] = ("worked example W12 and the end of the match: B (on the barrel) makes 120 → "
                  "1000; A (defender) "
                  "35 + ♥ 100 = 135 → 1005; both reach 1000 but the declarer wins.")
    d["hands"] = [hand_of(d, fixed={"A": "KH QH", "B": "KD QD"},
                          auction=auction("B", 120, "C", "A"),
                          exchange=random_exchange("KD QD"),
                          points={"B": 65, "A": 35, "C": 20}, declare={"A": "H", "B": "D"})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 120,
                                 "taken": {"A": 135, "B": 145, "C": 20}}],
          "totals": {"A": 1005, "B": 1000, "C": 120}, "winner": "B"}
    return d, md
# ---------------------------------------------------------------- worked example W13 .. W29
@scenario("w13a_golden_hand_made")
def w13a() -> tuple[Json, Json]:
    d = base("russian", options={"golden_round": True})
    d["_note"] = ("worked example W13 (golden_round, bidding options, D11): in a golden hand B "
                  "makes 130 "
                  "(63 + ♦ 80 = 143) → +260; A 37 → 35 × 2 = 70; C 20 → 40.")
    d["hands"] = [hand_of(d, fixed={"B": "KD QD"}, auction=auction("B", 130, "C", "A"),
                          exchange=random_exchange("KD QD"),
                          points={"B": 63, "A": 37, "C": 20}, declare={"B": "D"})]
    md = {"ok": True, "hands": [{"contract": 130, "taken": {"A": 37, "B": 143, "C": 20},
                                 "delta": {"A": 70, "B": 260, "C": 40}}]}
    return d, md


@scenario("w13b_golden_hand_failed")
def w13b() -> tuple[Json, Json]:
    d = base("russian", options={"golden_round": True})
    d["_note"] = ("worked example W13 (golden_round): golden hand, contract 120 (the golden "
                  "minimum), B raw 110 → −240.")
    d["hands"] = [hand_of(d, auction=auction("B", 120, "C", "A"),
                          exchange=random_exchange(), points={"B": 110, "A": 5, "C": 5})]
    md = {"ok": True, "hands": [{"contract": 120, "taken": {"B": 110},
                                 "delta": {"A": 10, "B": -240, "C": 10}}]}
    return d, md


@scenario("w13c_blind_bid_made")
def w13c() -> tuple[Json, Json]:
    d = base("russian", options={"blind_bidding": True})
    d["_note"] = ("worked example W13 (blind_bidding, bidding options, D11): not golden; B wins "
                  "with a blind "
                  "110 and makes it → +220; a defender with raw 25 → +50.")
    d["hands"] = [hand_of(d, fixed={"B": "KH QH"},
                          auction=auction("B", 110, "C", "A", blind=True),
                          exchange=random_exchange("KH QH"),
                          points={"B": 80, "A": 25, "C": 15}, declare={"B": "H"})]
    md = {"ok": True, "hands": [{"contract": 110, "taken": {"A": 25},
                                 "delta": {"A": 50, "B": 220, "C": 30}}]}
    return d, md


@scenario("w13d_blind_and_golden_times_four")
def w13d() -> tuple[Json, Json]:
    d = base("russian", options={"golden_round": True, "blind_bidding": True})
    d["_note"] = ("worked example W13 (\"Blind and golden together: ×4\"): a blind 120 in a golden "
                  "hand, made → +480; defenders 40 → 160 and 20 → 80.")
    d["hands"] = [hand_of(d, fixed={"B": "KH QH"},
                          auction=auction("B", 120, "C", "A", blind=True),
                          exchange=random_exchange("KH QH"),
                          points={"B": 60, "A": 40, "C": 20}, declare={"B": "H"})]
    md = {"ok": True, "hands": [{"contract": 120, "delta": {"A": 160, "B": 480, "C": 80}}]}
    return d, md


W14 = {"half_bid_up5": {100: 50, 105: 55, 145: 75, 150: 75, 155: 80},
       "half_bid_up10": {100: 50, 105: 60, 145: 80, 150: 80, 155: 80}}


def w14(mode: str) -> tuple[Json, Json]:
    d = base("russian", options={"rospisat_award": mode})
    d["_note"] = (f"worked example W14 and rospisat options (rospisat_award {mode}): five "
                  "rospisat hands with "
                  "winning bids 100, 105, 145, 150, 155; each defender gets half the winning "
                  "bid rounded up to a multiple of " + ("5" if mode.endswith("5") else "10")
                  + ": " + ", ".join(f"{b} → {v}" for b, v in W14[mode].items()) + ".")
    order = ["A", "B", "C"]
    hands_md = []
    for i, bid in enumerate(W14[mode]):
        dealer = order[i % 3]
        decl = order[(i + 1) % 3]
        others = (order[(i + 2) % 3], dealer)
        h = rospisat_hand(d, decl, bid, others, seed=i + 1, fixed="KH QH" if bid > 120 else "")
        d["hands"].append(h)
        hands_md.append({"declarer": decl, "contract": bid,
                         "delta": {decl: 0, others[0]: W14[mode][bid],
                                   others[1]: W14[mode][bid]}})
    return d, {"ok": True, "hands": hands_md}


@scenario("w14a_rospisat_half_bid_up5")
def w14a() -> tuple[Json, Json]:
    return w14("half_bid_up5")


@scenario("w14b_rospisat_half_bid_up10")
def w14b() -> tuple[Json, Json]:
    return w14("half_bid_up10")


@scenario("w15_polish_rounding_exact_contract")
def w15() -> tuple[Json, Json]:
    d = base("polish")
    d["_note"] = ("worked example W15 and rounding: polish; B's 108 does not make 110 (unrounded) "
                  "→ "
                  "−110; A 7 → 10, C 5 → 10 (halfway rounds up).")
    d["hands"] = [hand_of(d, auction=auction("B", 110, "C", "A"), exchange=random_exchange(),
                          points={"B": 108, "A": 7, "C": 5})]
    md = {"ok": True, "hands": [{"contract": 110, "taken": {"A": 7, "B": 108, "C": 5},
                                 "delta": {"A": 10, "B": -110, "C": 10}}],
          "totals": {"A": 10, "B": -110, "C": 10}}
    return d, md


@scenario("w16a_polish_locked_then_wins")
def w16a() -> tuple[Json, Json]:
    d = base("polish", dealer="B", start={"totals": {"A": 910, "B": 300, "C": 200}})
    d["_note"] = ("worked example W16 and the lock: A at 910 is locked: as a defender his 30 count "
                  "nothing (B makes 120 with 70 + ♥ 100, C 20 → +20); next hand A declares "
                  "100 and takes 104 → 1010 → A wins the match.")
    h1 = hand_of(d, fixed={"B": "KH QH"},
                 auction=[["C", "bid", 100], ["A", "pass"], ["B", "bid", 120], ["C", "pass"]],
                 exchange=random_exchange("KH QH"),
                 points={"B": 70, "A": 30, "C": 20}, declare={"B": "H"})
    d["hands"] = [h1]
    h2 = hand_of(d, prefix_hands=[h1], auction=auction("A", 100, "B", "C"),
                 exchange=random_exchange(), points={"A": 104})
    d["hands"] = [h1, h2]
    md = {"ok": True, "hands": [
        {"declarer": "B", "contract": 120, "taken": {"A": 30, "B": 170, "C": 20},
         "delta": {"A": 0, "B": 120, "C": 20}, "totals": {"A": 910, "B": 420, "C": 220}},
        {"declarer": "A", "contract": 100, "taken": {"A": 104}, "totals": {"A": 1010}}],
        "winner": "A"}
    return d, md


@scenario("w16b_lock_no_trick_penalty")
def w16b() -> tuple[Json, Json]:
    d = base("polish", options={"lock_no_trick_penalty": 100},
             start={"totals": {"A": 910, "B": 300, "C": 200}})
    d["_note"] = ("worked example W16 (lock_no_trick_penalty 100, barrel and lock options): A, "
                  "locked and a defender, "
                  "wins no trick → 910 − 100 = 810, no longer locked.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"A": 0}, tricks={"A": 0})]
    md = {"ok": True, "hands": [{"taken": {"A": 0}, "delta": {"A": -100}}],
          "totals": {"A": 810}}
    return d, md


SITTER_ROWS = ["AS KH QH", "AC AD AS", "9C JD KS"]
SITTER_MD = {"russian4": [140, 120, 0], "polish4": [150, 150, 0],
             "card_points_marriage": [120, 35, 5]}


def w17(col: str) -> tuple[Json, Json]:
    preset = "polish4" if col == "polish4" else "russian4"
    opts = {"sitter_bonus": "card_points_marriage"} if col == "card_points_marriage" else None
    d = base(preset, players="A B C D", **({"options": opts} if opts else {}))
    who = ("the dealer sits (polish4)" if preset == "polish4"
           else "the player right of the dealer sits (russian4)")
    d["_note"] = (f"worked example W17 column {col} (four-player options, the sitter bonus): "
                  f"{who}; three hands whose "
                  f"talons are {' / '.join(SITTER_ROWS)}, each scored by a rospisat, give the "
                  f"sitter {' / '.join(map(str, SITTER_MD[col]))}.")
    hands_md = []
    names = ["A", "B", "C", "D"]
    for i, talon in enumerate(SITTER_ROWS):
        dealer = i % 4
        sitter = dealer if preset == "polish4" else (dealer - 1) % 4
        active = [names[(dealer + k) % 4] for k in range(1, 5) if (dealer + k) % 4 != sitter]
        fixed = {"talon": talon}
        h = hand_of(d, seed=i + 1, fixed=fixed, prefix_hands=list(d["hands"]),
                    auction=auction(active[0], 100, active[1], active[2]), exchange=None)
        h["actions"] = [*auction(active[0], 100, active[1], active[2]), [active[0], "rospisat"]]
        d["hands"].append(h)
        hands_md.append({"dealer": names[dealer], "declarer": active[0],
                         "delta": {names[sitter]: SITTER_MD[col][i], active[0]: 0,
                                   active[1]: 60, active[2]: 60}})
    return d, {"ok": True, "hands": hands_md}


@scenario("w17a_sitter_bonus_russian4")
def w17a() -> tuple[Json, Json]:
    return w17("russian4")


@scenario("w17b_sitter_bonus_polish4")
def w17b() -> tuple[Json, Json]:
    return w17("polish4")


@scenario("w17c_sitter_bonus_card_points_marriage")
def w17c() -> tuple[Json, Json]:
    return w17("card_points_marriage")


@scenario("w17d_sitter_on_barrel_gets_nothing")
def w17d() -> tuple[Json, Json]:
    d = base("russian4", players="A B C D", start={"totals": {"D": 880}, "barrel": {"D": 1}})
    d["_note"] = ("worked example W17 (below the table), four-player options, D7: a russian4 "
                  "sitter on the "
                  "barrel gets nothing from a talon worth 140 (A♠ K♥ Q♥), and sitting out is "
                  "not a barrel hand (barrel hands stay 1). The hand is played out.")
    d["hands"] = [hand_of(d, fixed={"talon": "AS KH QH"}, auction=auction("B", 100, "C", "A"),
                          exchange=random_exchange(), points={})]
    md = {"ok": True, "hands": [{"dealer": "A", "delta": {"D": 0}, "totals": {"D": 880}}],
          "barrel": {"D": 1}}
    return d, md


@scenario("w17e_locked_sitter_gets_nothing")
def w17e() -> tuple[Json, Json]:
    d = base("polish4", players="A B C D", dealer="D", start={"totals": {"D": 910}})
    d["_note"] = ("worked example W17 (below the table), four-player options, the lock: a polish4 "
                  "sitter (the "
                  "dealer) who is locked gets nothing from a talon worth 150 (A♣ A♦ A♠). "
                  "The hand is played out.")
    d["hands"] = [hand_of(d, fixed={"talon": "AC AD AS"}, auction=auction("A", 100, "B", "C"),
                          exchange=random_exchange(), points={})]
    md = {"ok": True, "hands": [{"dealer": "D", "delta": {"D": 0}, "totals": {"D": 910}}]}
    return d, md


@scenario("w18a_three_hand_1001_discards_count")
def w18a() -> tuple[Json, Json]:
    d = base("german1001_3")
    d["_note"] = ("worked example W18, discards for the declarer, points-taken scoring: "
                  "german1001_3; B declares 100, lays away 10♠ J♠ "
                  "(12, counted for him), tricks 52 + ♥ 60 (1001 values) → raw 124 → scores "
                  "round(124) = 120; A 33 → 30, C 23 → 20.")
    d["hands"] = [hand_of(d, fixed={"B": "KH QH 10S JS"}, auction=auction("B", 100, "C", "A"),
                          exchange=fixed_exchange(["B", "discard", "10S"],
                                                  ["B", "discard", "JS"]),
                          points={"B": 52, "A": 33, "C": 23}, declare={"B": "H"})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 100,
                                 "taken": {"A": 33, "B": 124, "C": 23},
                                 "marriages": {"B": ["H"]},
                                 "delta": {"A": 30, "B": 120, "C": 20}}],
          "totals": {"A": 30, "B": 120, "C": 20}}
    return d, md


@scenario("w18b_three_hand_1001_failed")
def w18b() -> tuple[Json, Json]:
    d = base("german1001_3")
    d["_note"] = ("worked example W18 second part, rounding: B bid 100 and has raw 96 (tricks 84 + "
                  "discards J♠ J♣ 4): 96 < 100 → −100, although 96 would round to 100.")
    d["hands"] = [hand_of(d, fixed={"B": "JS JC"}, auction=auction("B", 100, "C", "A"),
                          exchange=fixed_exchange(["B", "discard", "JS"],
                                                  ["B", "discard", "JC"]),
                          points={"B": 92})]
    md = {"ok": True, "hands": [{"taken": {"B": 96}, "delta": {"B": -100}}]}
    return d, md


@scenario("w19a_russeln_made")
def w19a() -> tuple[Json, Json]:
    d = base("russeln")
    d["_note"] = ("worked example W19, no talon, points-taken scoring: russeln; B bid 70, raw 75 "
                  "→ scores "
                  "round(75) = 80 (5 rounds up); A 30 → 30, C 15 → 20.")
    d["hands"] = [hand_of(d, auction=auction("B", 70, "C", "A"),
                          points={"B": 75, "A": 30, "C": 15})]
    md = {"ok": True, "hands": [{"contract": 70, "taken": {"A": 30, "B": 75, "C": 15},
                                 "delta": {"A": 30, "B": 80, "C": 20}}]}
    return d, md


@scenario("w19b_russeln_failed")
def w19b() -> tuple[Json, Json]:
    d = base("russeln")
    d["_note"] = ("worked example W19 second part: russeln; B bid 90 with raw 85 → −90; the "
                  "defenders' 20 and 15 score 20 and 20.")
    d["hands"] = [hand_of(d, auction=auction("B", 90, "C", "A"),
                          points={"B": 85, "A": 20, "C": 15})]
    md = {"ok": True, "hands": [{"contract": 90, "taken": {"A": 20, "B": 85, "C": 15},
                                 "delta": {"A": 20, "B": -90, "C": 20}}]}
    return d, md


def w20(bid: int) -> Json:
    d = base("polish2_bidding", players="A B")
    d["hands"] = [hand_of(d, fixed={"B": "AC KC QC JC AD 10D KD QD JD 9D",
                                    "talon0": "KS JS", "talon1": "10C 9C"},
                          auction=[["B", "bid", bid], ["A", "pass"]],
                          exchange=fixed_exchange(["B", "talon", 0], ["B", "discard", "KS"],
                                                  ["B", "discard", "JS"]),
                          points={"B": 104, "A": 0})]
    return d


@scenario("w20a_polish2_slam_claims_talons")
def w20a() -> tuple[Json, Json]:
    d = w20(120)
    d["_note"] = ("worked example W20, option slam_claims_talons: polish2_bidding; B plays "
                  "120, "
                  "wins all 10 tricks (104) without a marriage; discards K♠ J♠ and the unused "
                  "talon 10♣ 9♣ make the rest → credited 120 → made → +120; A 0 → +0, no dash.")
    md = {"ok": True, "hands": [{"contract": 120, "taken": {"A": 0, "B": 120},
                                 "delta": {"A": 0, "B": 120}}], "dashes": {}}
    return d, md


@scenario("w20b_polish2_no_slam_exception_below_120")
def w20b() -> tuple[Json, Json]:
    d = w20(110)
    d["_note"] = ("worked example W20 second part: the same cards with contract 110: the slam "
                  "exception needs exactly 120, so B has 104 < 110 → −110.")
    md = {"ok": True, "hands": [{"contract": 110, "taken": {"A": 0, "B": 104},
                                 "delta": {"A": 0, "B": -110}}]}
    return d, md


def then_random(*moves: list[Any]) -> Any:
    """Some fixed exchange moves, then random gifts for the rest."""
    from bot.game.engine import apply_into

    def run_(s: Any, rng: Any) -> list[Any]:
        out = fixed_exchange(*moves)(s, rng)
        for a in out:
            s = apply_into(s, a, None)
        return out + random_exchange()(s, rng)

    return run_


@scenario("w21_elwood_out_of_play_cards")
def w21() -> tuple[Json, Json]:
    d = base("elwood2", players="A B")
    d["_note"] = ("worked example W21, two talons: elwood2; B contract 90, discards K♣; the "
                  "unused kitty "
                  "is A♠ 9♥ 9♦; those 15 points count for nobody: B's tricks 80 < 90 → −90, "
                  "A 25 → +25.")
    d["hands"] = [hand_of(d, fixed={"B": "KC", "talon1": "AS 9H 9D"},
                          auction=[["B", "bid", 90], ["A", "pass"]],
                          exchange=then_random(["B", "talon", 0], ["B", "discard", "KC"]),
                          points={"B": 80, "A": 25})]
    md = {"ok": True, "hands": [{"contract": 90, "taken": {"A": 25, "B": 80},
                                 "delta": {"A": 25, "B": -90}}]}
    return d, md


@scenario("w22_reset_at_555")
def w22() -> tuple[Json, Json]:
    d = base("russian", options={"reset_at_555": True}, start={"totals": {"A": 515}})
    d["_note"] = ("worked example W22, option reset_at_555, D34: A 515, defender, raw 38 "
                  "→ 40 → "
                  "exactly 555 → back to 0.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"A": 38})]
    md = {"ok": True, "hands": [{"taken": {"A": 38}, "delta": {"A": -515}}],
          "totals": {"A": 0}}
    return d, md


@scenario("w23a_target_exceed_barrel_120_not_enough")
def w23a() -> tuple[Json, Json]:
    d = base("russian", dealer="C", options={"target_exceed": True},
             start={"totals": {"A": 880}})
    d["_note"] = ("worked example W23, option target_exceed: A on the barrel makes 120 → "
                  "1000 is not "
                  "over 1000 → stays 880, barrel hands +1.")
    d["hands"] = [hand_of(d, auction=auction("A", 120, "B", "C"), exchange=random_exchange(),
                          points={"A": 120, "B": 0, "C": 0})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 120, "delta": {"A": 0}}],
          "totals": {"A": 880}, "barrel": {"A": 1}, "winner": None}
    return d, md


@scenario("w23b_target_exceed_barrel_125_wins")
def w23b() -> tuple[Json, Json]:
    d = base("russian", dealer="C", options={"target_exceed": True},
             start={"totals": {"A": 880}})
    d["_note"] = ("worked example W23, option target_exceed: A on the barrel makes a "
                  "contract of 125 "
                  "(raised with K♥ Q♥) → 1005 > 1000 → A wins.")
    d["hands"] = [hand_of(d, fixed={"A": "KH QH"}, auction=auction("A", 120, "B", "C"),
                          exchange=random_exchange("KH QH"), contract=125,
                          points={"A": 60}, declare={"A": "H"})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 125, "delta": {"A": 125}}],
          "totals": {"A": 1005}, "winner": "A"}
    return d, md


@scenario("w23c_target_exceed_exact_1000_is_barrel")
def w23c() -> tuple[Json, Json]:
    d = base("russian", options={"target_exceed": True}, start={"totals": {"C": 845}})
    d["_note"] = ("worked example W23, option target_exceed: C at 845 gains 155 (55 + ♥ "
                  "100) as a "
                  "defender → exactly 1000, inside the zone 880..1000 → set to 880.")
    d["hands"] = [hand_of(d, fixed={"C": "KH QH"}, auction=auction("B", 100, "C", "A"),
                          exchange=random_exchange(), points={"C": 55}, declare={"C": "H"})]
    md = {"ok": True, "hands": [{"taken": {"C": 155}, "delta": {"C": 35}}],
          "totals": {"C": 880}, "winner": None}
    return d, md


@scenario("w24_hundred_concede")
def w24() -> tuple[Json, Json]:
    d = base("russian", dealer="C", options={"hundred_concede": True},
             start={"totals": {"A": 300, "B": 100, "C": 0}})
    d["_note"] = ("worked example W24, option hundred_concede: A, forehand, bids the "
                  "forced 100, B "
                  "and C pass; A takes the talon unseen and concedes: A −100, B and C +50.")
    d["hands"] = [rospisat_hand(d, "A", 100, ("B", "C"), verb="concede")]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 100, "taken": {},
                                 "delta": {"A": -100, "B": 50, "C": 50}}],
          "totals": {"A": 200, "B": 150, "C": 50}}
    return d, md


@scenario("w25a_barrel_conflict_all_fall")
def w25a() -> tuple[Json, Json]:
    d = base("russian", options={"barrel_conflict": "all_fall"},
             start={"totals": {"A": 850, "B": 300, "C": 860}})
    d["_note"] = ("worked example W25, option barrel_conflict all_fall: B fails "
                  "100 with 50 → 200; "
                  "A 42 → 40 → 890 and C 28 → 30 → 890 would both climb on → both 760.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"B": 50, "A": 42, "C": 28})]
    md = {"ok": True, "hands": [{"taken": {"A": 42, "B": 50, "C": 28}}],
          "totals": {"A": 760, "B": 200, "C": 760}, "barrel": {}}
    return d, md


@scenario("w25b_barrel_conflict_newcomer_knocks_off")
def w25b() -> tuple[Json, Json]:
    d = base("russian", options={"barrel_conflict": "newcomer_knocks_off"},
             start={"totals": {"A": 850, "B": 300, "C": 880}})
    d["_note"] = ("worked example W25 second part (newcomer_knocks_off): same hand with C already "
                  "on the barrel at 880: A climbs on (880) and C is knocked off to 760.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"B": 50, "A": 42, "C": 28})]
    md = {"ok": True, "totals": {"A": 880, "B": 200, "C": 760}, "barrel": {}}
    return d, md


@scenario("w26a_polish2_stock_higher_total_wins")
def w26a() -> tuple[Json, Json]:
    d = base("polish2_stock", players="A B", start={"totals": {"A": 980, "B": 960}})
    d["_note"] = ("worked example W26, stock games: polish2_stock (exact points); A 980 + 45 = "
                  "1025, "
                  "B 960 + 75 = 1035: both reach 1000 → the higher total, B, wins the match.")
    d["hands"] = [hand_of(d, points={"A": 45, "B": 75})]
    md = {"ok": True, "hands": [{"declarer": None, "contract": None,
                                 "taken": {"A": 45, "B": 75}, "delta": {"A": 45, "B": 75}}],
          "totals": {"A": 1025, "B": 1035}, "winner": "B"}
    return d, md


@scenario("w26b_polish2_stock_equal_play_on")
def w26b() -> tuple[Json, Json]:
    d = base("polish2_stock", players="A B", start={"totals": {"A": 990, "B": 950}})
    d["_note"] = ("worked example W26 second part, final_tie play_on: A 990 + 40 = 1030, B 950 + "
                  "80 = 1030 → equal → no winner, another hand is played.")
    d["hands"] = [hand_of(d, points={"A": 40, "B": 80})]
    md = {"ok": True, "totals": {"A": 1030, "B": 1030}, "winner": None}
    return d, md


@scenario("w27_third_fall_resets_to_zero")
def w27() -> tuple[Json, Json]:
    d = base("russian", options={"barrel_third_fall_reset": True},
             start={"totals": {"A": 880}, "barrel": {"A": 2}, "barrel_falls": {"A": 2}})
    d["_note"] = ("worked example W27, option barrel_third_fall_reset, D8: A, on "
                  "the barrel with 2 "
                  "hands used and 2 earlier falls, defends a third barrel hand → third fall → "
                  "0 instead of 760.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={})]
    md = {"ok": True, "hands": [{"delta": {"A": -880}}], "totals": {"A": 0},
          "barrel_falls": {"A": 3}}
    return d, md


@scenario("w28_nines_redeal_dealer_penalty")
def w28() -> tuple[Json, Json]:
    d = base("russian", options={"nines_redeal_dealer_penalty": True},
             start={"totals": {"A": 300}})
    d["_note"] = ("worked example W28, option nines_redeal_dealer_penalty: dealer A's "
                  "hand is "
                  "annulled three times in a row by four-nines claims (after the exchange) → "
                  "A −120 → 180 and the deal passes to B (the fourth hand, dealt by B, is left "
                  "unplayed: an incomplete hand).")
    for i in range(3):
        h = hand_of(d, seed=i + 1, fixed={"C": "9C 9D 9H 9S"},
                    auction=auction("B", 100, "C", "A"), exchange=None, points={})
        h["actions"] = [*auction("B", 100, "C", "A")]
        deal = h["deal"]
        give = [c for c in deal["B"] if not c.startswith("9")][:2]
        h["actions"] += [["B", "give", give[0], "C"], ["B", "give", give[1], "A"],
                         ["C", "redeal"]]
        d["hands"].append(h)
    last = hand_of(d, seed=9, prefix_hands=list(d["hands"]), points={}, auction=[],
                   exchange=None)
    last["actions"] = []
    d["hands"].append(last)
    md = {"ok": True, "hands": [
        {"dealer": "A", "declarer": None, "delta": {"A": 0}, "totals": {"A": 300}},
        {"dealer": "A", "declarer": None, "delta": {"A": 0}},
        {"dealer": "A", "declarer": None, "delta": {"A": -120, "B": 0, "C": 0},
         "totals": {"A": 180}},
        {"dealer": "B", "complete": False}], "totals": {"A": 180}}
    return d, md


@scenario("w29_german_four_aces")
def w29() -> tuple[Json, Json]:
    d = base("german_house")
    d["_note"] = ("worked example W29, declaration options, D30, D31: german_house; B bids 200 "
                  "holding the four "
                  "aces and no marriage, leads A♠ with \"aces\" on trick 1: +200 and no trump "
                  "for the rest of the hand, even after C's later ♥ marriage; cards 70 → raw "
                  "270 ≥ 200 → +200.")

    def no_marriage(deal: Json) -> bool:
        hand = set(deal["B"])
        return not any(f"K{s}" in hand and f"Q{s}" in hand for s in "CDHS")

    d["hands"] = [hand_of(d, fixed={"B": "AC AD AH AS", "C": "KH QH"}, deal_ok=no_marriage,
                          auction=auction("B", 200, "C", "A"), exchange=random_exchange(),
                          points={"B": 70}, declare={"C": "H"}, aces="B",
                          final=lambda s: s.trump == -1)]
    first = d["hands"][0]["actions"][5]
    assert first[1] == "play" and first[3:] == ["aces"], first
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 200, "taken": {"B": 270},
                                 "delta": {"B": 200}}]}
    return d, md


# ---------------------------------------------------------------- illegal actions
DEAL2 = {"A": ["AC", "10C", "KC", "9H", "JH", "10S", "JD"],
         "B": ["AH", "10H", "KH", "QH", "9C", "JC", "AS"],
         "C": ["AD", "10D", "KD", "QC", "9S", "QS", "JS"], "talon": ["QD", "9D", "KS"]}
DEAL2_NOTE = ("Deal: A AC 10C KC 9H JH 10S JD, B AH 10H KH QH 9C JC AS (♥ marriage), "
              "C AD 10D KD QC 9S QS JS, talon QD 9D KS; only B holds a marriage.")
B_WINS_100 = [["B", "bid", 100], ["C", "pass"], ["A", "pass"]]


def err(name: str, preset: str, actions: list[list[Any]], action: int, error: str,
        fragment: str, note: str, hand: int = 0, **extra: Any) -> tuple[Json, Json]:
    d = base(preset, **extra)
    d["_note"] = note + " " + DEAL2_NOTE
    d["_expect_error_contains"] = fragment
    d["hands"] = [{"deal": DEAL2, "actions": actions}]
    return d, {"ok": False, "hand": hand, "action": action, "error": error}


@scenario("err_bid_step")
def e_step() -> tuple[Json, Json]:
    d = base("russian", players="Ann Bob Cid", dealer="Ann", options={"bid_step": 10})
    d["_note"] = ("The docs/scenarios.md error example (the auction rule (a), bid_step 10): Cid's "
                  "105 is not a "
                  "multiple of 10; exact message; hand and action are 0-based; exit status 2.")
    d["_expect_error_contains"] = "steps of 10"
    d["hands"] = [{"deal": {"Bob": ["AH", "10H", "KH", "QH", "9C", "JC", "AS"],
                            "Cid": ["AD", "10D", "KD", "9S", "QS", "KS", "JS"],
                            "Ann": ["AC", "10C", "KC", "QC", "9H", "JH", "QD"],
                            "talon": ["10S", "9D", "JD"]},
                   "actions": [["Bob", "bid", 100], ["Cid", "bid", 105], ["Ann", "pass"],
                               ["Bob", "bid", 120], ["Cid", "pass"]]}]
    return d, {"ok": False, "hand": 0, "action": 1,
               "error": "Cid cannot bid 105: bids go up in steps of 10, so the lowest bid now "
                        "is 110"}


@scenario("err_bid_above_120_without_marriage")
def e_mar() -> tuple[Json, Json]:
    return err("", "russian", [["B", "bid", 100], ["C", "bid", 125]], 1,
               "C cannot bid 125: a bid above 120 needs a marriage (king and queen of one "
               "suit) in hand", "needs a marriage",
               "the auction rule (d): C holds no marriage, so he may not bid above 120.")


@scenario("err_forced_opening_pass")
def e_forced() -> tuple[Json, Json]:
    return err("", "russian", [["B", "pass"]], 0,
               "B cannot pass: forehand must open the auction with at least 100",
               "must open", "the auction: forehand's first action MUST be a bid of at least "
               "100 (opening_bid_forced).")


TRICKS_TO_TRUMP = [*B_WINS_100, ["B", "give", "9C", "C"], ["B", "give", "JC", "A"],
                   ["B", "play", "AS"], ["C", "play", "JS"], ["A", "play", "10S"],
                   ["B", "play", "QH", "marriage"], ["C", "play", "9S"], ["A", "play", "JH"],
                   ["B", "play", "KS"], ["C", "play", "QS"]]


@scenario("err_not_following_suit")
def e_follow() -> tuple[Json, Json]:
    acts = [*B_WINS_100, ["B", "give", "9C", "C"], ["B", "give", "JC", "A"],
            ["B", "play", "AS"], ["C", "play", "AD"]]
    return err("", "russian", acts, 6,
               "C cannot play AD: he must follow suit (spades)", "must follow suit",
               "card play Following rule 1: C holds spades and must follow A♠.")


@scenario("err_not_trumping_when_void")
def e_trump() -> tuple[Json, Json]:
    acts = [*TRICKS_TO_TRUMP, ["A", "play", "AC"]]
    return err("", "russian", acts, len(acts) - 1,
               "A cannot play AC: without spades he must play a trump (hearts)",
               "must play a trump",
               "card play Following rule 2 (must_trump_when_void): ♥ is trump after B's "
               "marriage; A, void in spades, holds 9♥ and must trump K♠.")


HEAD = [["B", "give", "9D", "C"], ["B", "give", "9C", "A"], ["B", "play", "JC"],
        ["C", "play", "QC"], ["A", "play", "9C"]]


@scenario("err_polish_must_head_trick")
def e_polish_beat() -> tuple[Json, Json]:
    acts = [*B_WINS_100, *HEAD]
    return err("", "polish", acts, len(acts) - 1,
               "A cannot play 9C: he must follow suit (clubs) and beat the trick when he can",
               "beat the trick", "option must_beat always (polish, D20): after J♣ Q♣ "
               "A holds A♣ 10♣ K♣ and must head the trick; 9♣ is refused.")


@scenario("err_german_house_must_beat_when_following")
def e_german_beat() -> tuple[Json, Json]:
    acts = [*B_WINS_100, *HEAD]
    return err("", "german_house", acts, len(acts) - 1,
               "A cannot play 9C: he must follow suit (clubs) and beat the trick when he can",
               "beat the trick", "option must_beat follow (german_house, S1 "
               "Stichzwang): A follows clubs and must beat Q♣ with A♣, 10♣ or K♣.")


@scenario("err_marriage_on_first_lead")
def e_first_lead() -> tuple[Json, Json]:
    acts = [*B_WINS_100, ["B", "give", "9C", "C"], ["B", "give", "JC", "A"],
            ["B", "play", "QH", "marriage"]]
    return err("", "russian", acts, len(acts) - 1,
               "B cannot play QH with a marriage: nothing can be declared on the first lead "
               "of the hand; a marriage needs a lead after winning a trick", "first lead",
               "card play Leading and declaring rule 3: no marriage on trick 1 in "
               "russian (marriage_on_first_lead false).")


@scenario("err_rospisat_on_barrel")
def e_ros_barrel() -> tuple[Json, Json]:
    return err("", "russian", [*B_WINS_100, ["B", "rospisat"]], 3,
               "B cannot declare rospisat: a player on the barrel may not declare rospisat",
               "on the barrel", "rospisat and the barrel rule 5: B at 880 is on the barrel "
               "and may not declare rospisat.", start={"totals": {"B": 880}})


@scenario("err_polish_third_bomba")
def e_ros_max() -> tuple[Json, Json]:
    return err("", "polish", [*B_WINS_100, ["B", "rospisat"]], 3,
               "B cannot declare rospisat: each player may declare rospisat at most 2 times "
               "a match", "at most 2 times",
               "preset polish rospisat_max 2 (polish, D21): B has already made 2 bombs.",
               start={"rospisat": {"B": 2}})


@scenario("err_contract_raise_without_marriage")
def e_raise() -> tuple[Json, Json]:
    acts = [["A", "bid", 100], ["B", "pass"], ["C", "pass"], ["A", "give", "9D", "B"],
            ["A", "give", "9H", "C"], ["A", "contract", 125]]
    return err("", "russian", acts, 5,
               "A cannot set the contract at 125: a contract above 120 needs a marriage (king "
               "and queen of one suit) in hand", "needs a marriage",
               "the contract and D5: A (forehand, dealer C) holds no marriage after the "
               "talon, so he may not raise above 120.", dealer="C")


@scenario("err_play_out_of_turn")
def e_turn() -> tuple[Json, Json]:
    acts = [*B_WINS_100, ["B", "give", "9C", "C"], ["B", "give", "JC", "A"],
            ["C", "play", "AD"]]
    return err("", "russian", acts, 5, "C cannot play AD: it is B's turn to play",
               "turn", "card play and invariant 13: the declarer leads to trick 1; C "
               "may not play out of turn.")


@scenario("err_card_not_in_hand")
def e_card() -> tuple[Json, Json]:
    acts = [*B_WINS_100, ["B", "give", "9C", "C"], ["B", "give", "JC", "A"],
            ["B", "play", "AC"]]
    return err("", "russian", acts, 5, "B cannot play AC: that card is not in his hand",
               "not in his hand", "illegal actions and invariant 22: B does not hold A♣.")


@scenario("err_unknown_option")
def e_option() -> tuple[Json, Json]:
    d = base("russian", options={"bid_stepp": 10})
    d["_note"] = ("docs/scenarios.md: unknown option names are an error; the result has ok false "
                  "and "
                  "an error but no hand/action (nothing was replayed).")
    d["_expect_error_contains"] = "bid_stepp"
    d["hands"] = [{"deal": DEAL2, "actions": []}]
    res = run(d)
    return d, {"ok": False, "error": res["error"]}


@scenario("err_bid_above_max_400")
def e_max() -> tuple[Json, Json]:
    return err("", "russian", [["B", "bid", 405]], 0,
               "B cannot bid 405: no hand can produce more than 400 points", "400",
               "docs/rules-decisions.md (a), marriage values: 120 card points + 280 for the four "
               "marriages is the most a hand can produce, so bids above 400 are refused "
               "(B holds a marriage).")


@scenario("err_contract_raise_not_allowed")
def e_noraise() -> tuple[Json, Json]:
    d = base("german1001_3")
    d["_note"] = ("option contract_raise false (german1001_3, D42): after laying away, "
                  "B may not raise 100 to 110.")
    d["_expect_error_contains"] = "cannot be raised"
    h = hand_of(d, fixed={"B": "JS JC"}, auction=auction("B", 100, "C", "A"),
                exchange=fixed_exchange(["B", "discard", "JS"], ["B", "discard", "JC"]),
                points={})
    h["actions"] = [*h["actions"][:5], ["B", "contract", 110]]
    d["hands"] = [h]
    return d, {"ok": False, "hand": 0, "action": 5,
               "error": "B cannot set the contract at 110: the contract cannot be raised in "
                        "this rule set; it is 100"}


@scenario("err_deal_wrong_size")
def e_deal() -> tuple[Json, Json]:
    d = base("russian")
    d["_note"] = ("docs/rules-decisions.md (k): a deal that does not fit the rules (A gets 6 "
                  "cards, the talon 4) is reported with \"action\": null.")
    d["_expect_error_contains"] = "the deal is wrong"
    deal = {k: list(v) for k, v in DEAL2.items()}
    deal["talon"].append(deal["A"].pop())
    d["hands"] = [{"deal": deal, "actions": [["B", "bid", 100]]}]
    return d, {"ok": False, "hand": 0, "action": None,
               "error": "the deal is wrong: each active player gets 7 cards; A got 6"}


@scenario("err_hand_after_match_over")
def e_over() -> tuple[Json, Json]:
    d = base("russian", start={"totals": {"A": 845, "B": 500, "C": 200}})
    with open(OUT / "w11_defender_wins_without_barrel.json", encoding="utf-8") as f:
        w11 = json.load(f)
    d["hands"] = [w11["hands"][0], {"deal": DEAL2, "actions": []}]
    d["_note"] = ("the end of the match (\"once there is a winner, no further hand is dealt\"): "
                  "W11's "
                  "hand ends the match; a second hand is refused with hand 1, action null.")
    d["_expect_error_contains"] = "already over"
    return d, {"ok": False, "hand": 1, "action": None,
               "error": "the match is already over; no further hand is dealt"}
# ---------------------------------------------------------------- decisions and presets
@scenario("dec_max_bid_400_accepted")
def d_400() -> tuple[Json, Json]:
    d = base("russian")
    d["_note"] = ("docs/rules-decisions.md (a): 400 (120 + all four marriages, marriage values) "
                  "is the highest bid and is accepted (B holds a marriage); B then declares "
                  "rospisat. See err_bid_above_max_400 for 405. " + DEAL2_NOTE)
    d["hands"] = [{"deal": DEAL2, "actions": [["B", "bid", 400], ["C", "pass"], ["A", "pass"],
                                              ["B", "rospisat"]]}]
    return d, {"ok": True, "hands": [{"declarer": "B", "contract": 400,
                                      "delta": {"A": 60, "B": 0, "C": 60}}]}


@scenario("dec_contract_equal_bid_without_raise")
def d_confirm() -> tuple[Json, Json]:
    d = base("german1001_3")
    d["_note"] = ("docs/rules-decisions.md (b): with contract_raise false (german1001_3) an "
                  "explicit `contract` equal to the winning bid is accepted as a confirmation; "
                  "the hand is then played out. See err_contract_raise_not_allowed.")
    d["hands"] = [hand_of(d, fixed={"B": "JS JC"}, auction=auction("B", 100, "C", "A"),
                          exchange=fixed_exchange(["B", "discard", "JS"],
                                                  ["B", "discard", "JC"]),
                          contract=100, points={})]
    assert d["hands"][0]["actions"][5] == ["B", "contract", 100]
    return d, {"ok": True, "hands": [{"declarer": "B", "contract": 100, "complete": True}]}


@scenario("dec_lviv_barrel_clamp_and_climb")
def d_lviv() -> tuple[Json, Json]:
    d = base("russian", options={"barrel": "lviv", "barrel_at": 900},
             start={"totals": {"A": 850}})
    d["_note"] = ("docs/rules-decisions.md (c), the Lviv barrel (option barrel) and D10: A at "
                  "850 "
                  "takes 65 as a defender → 915 arrives from below → clamped to 900; next hand "
                  "A, on the Lviv barrel, declares ♥ (scores 0, still sets trump) and takes 30 "
                  "→ 930: no clamp inside the zone, he climbs normally.")
    h1 = hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                 points={"A": 65})
    d["hands"] = [h1]
    h2 = hand_of(d, prefix_hands=[h1], fixed={"A": "KH QH"},
                 auction=auction("C", 100, "A", "B"), exchange=random_exchange(),
                 points={"A": 30}, declare={"A": "H"})
    d["hands"].append(h2)
    md = {"ok": True, "hands": [{"taken": {"A": 65}, "totals": {"A": 900}},
                                {"taken": {"A": 30}, "marriages": {"A": ["H"]},
                                 "delta": {"A": 30}, "totals": {"A": 930}}],
          "totals": {"A": 930}}
    return d, md


def falls(n: int) -> tuple[Json, Json]:
    d = base("russian", options={"barrel_third_fall_reset": True},
             start={"totals": {"A": 880}, "barrel": {"A": 2}, "barrel_falls": {"A": n}})
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={})]
    to = 0 if (n + 1) % 3 == 0 else 760
    return d, {"ok": True, "totals": {"A": to}, "barrel_falls": {"A": n + 1}}


@scenario("dec_barrel_fourth_fall_no_reset")
def d_fall4() -> tuple[Json, Json]:
    d, md = falls(3)
    d["_note"] = ("docs/rules-decisions.md (d), option barrel_third_fall_reset, "
                  "D8: the "
                  "fourth fall is an ordinary fall to 760.")
    return d, md


@scenario("dec_barrel_sixth_fall_resets")
def d_fall6() -> tuple[Json, Json]:
    d, md = falls(5)
    d["_note"] = ("docs/rules-decisions.md (d), option barrel_third_fall_reset: "
                  "every "
                  "third fall (3rd, 6th, ...) resets to 0; here the 6th.")
    return d, md


def golden_reset_hands(d: Json) -> None:
    for dealer, decl, o1, o2 in (("A", "B", "C", "A"), ("B", "C", "A", "B"),
                                 ("C", "A", "B", "C")):
        d["hands"].append(rospisat_hand(d, decl, 120, (o1, o2)))
        assert dealer


@scenario("dec_golden_round_reset")
def d_golden_reset() -> tuple[Json, Json]:
    d = base("russian", options={"golden_round": True, "golden_round_reset": True},
             start={"totals": {"A": 100, "B": 200, "C": 300}})
    d["_note"] = ("docs/rules-decisions.md (f), option golden_round_reset, D36: three "
                  "golden hands, each ended by rospisat at 120 (awards doubled: +120 per "
                  "defender), so no contract is made; the reset to 0 happens in the last hand "
                  "of the failed round and its delta shows it.")
    golden_reset_hands(d)
    md = {"ok": True, "hands": [{"delta": {"A": 120, "B": 0, "C": 120}},
                                {"delta": {"A": 120, "B": 120, "C": 0}},
                                {"delta": {"A": -340, "B": -320, "C": -420},
                                 "totals": {"A": 0, "B": 0, "C": 0}}]}
    return d, md


@scenario("err_golden_round_repeats")
def e_golden_again() -> tuple[Json, Json]:
    d = base("russian", options={"golden_round": True, "golden_round_reset": True})
    d["_note"] = ("option golden_round: no contract was made in the first golden round "
                  "(three rospisats), so another golden round follows and forehand's 100 in "
                  "the fourth hand is refused (the golden minimum is 120).")
    d["_expect_error_contains"] = "the lowest bid now is 120"
    golden_reset_hands(d)
    h = rospisat_hand(d, "B", 120, ("C", "A"), seed=4)
    h["actions"] = [["B", "bid", 100]]
    d["hands"].append(h)
    return d, {"ok": False, "hand": 3, "action": 0,
               "error": "B cannot bid 100: bids go up in steps of 5, so the lowest bid now is "
                        "120"}


@scenario("dec_golden_thrown_in_counts")
def d_golden_thrown() -> tuple[Json, Json]:
    d = base("russian", options={"golden_round": True, "opening_bid_forced": False})
    d["_note"] = ("docs/rules-decisions.md (g), bidding options, D17, D36: a thrown-in hand (all "
                  "pass) during the golden round counts as one of its three hands: after it, "
                  "C's made 120 and A's rospisat, the fourth hand is not golden and B may "
                  "open at 100 (left unfinished).")
    h1 = {"deal": DEAL2, "actions": [["B", "pass"], ["C", "pass"], ["A", "pass"]]}
    d["hands"] = [h1]
    h2 = hand_of(d, prefix_hands=[h1], fixed={"C": "KH QH"},
                 auction=auction("C", 120, "A", "B"), exchange=random_exchange("KH QH"),
                 points={"C": 60}, declare={"C": "H"})
    d["hands"].append(h2)
    d["hands"].append(rospisat_hand(d, "A", 120, ("B", "C")))
    h4 = rospisat_hand(d, "B", 100, ("C", "A"), seed=5)
    h4["actions"] = [["B", "bid", 100]]
    d["hands"].append(h4)
    md = {"ok": True, "hands": [
        {"dealer": "A", "declarer": None, "delta": {"A": 0, "B": 0, "C": 0}},
        {"dealer": "B", "declarer": "C", "contract": 120, "delta": {"C": 240}},
        {"dealer": "C", "declarer": "A", "delta": {"B": 120, "C": 120}},
        {"dealer": "A", "complete": False}]}
    return d, md


@scenario("dec_predeal_redeal_out_of_turn")
def d_predeal() -> tuple[Json, Json]:
    d = base("polish", options={"predeal_low_redeal_below": 10})
    d["_note"] = ("docs/rules-decisions.md (h), option predeal_low_redeal_below, D22: "
                  "A (7 points, no marriage) claims a redeal while C is to bid, before his own "
                  "first bidding action: accepted out of turn; the hand is annulled and the "
                  "same dealer deals again (second hand left unfinished).")
    h1 = hand_of(d, fixed={"A": "9C 9D 9H 9S JC JD QS"}, auction=[["B", "bid", 100]],
                 exchange=None, points={})
    h1["actions"] = [["B", "bid", 100], ["A", "redeal"]]
    d["hands"] = [h1]
    h2 = hand_of(d, seed=2, prefix_hands=[h1], auction=[], exchange=None, points={})
    h2["actions"] = [["B", "bid", 100]]
    d["hands"].append(h2)
    md = {"ok": True, "hands": [{"dealer": "A", "declarer": None, "contract": None,
                                 "taken": {}, "delta": {"A": 0, "B": 0, "C": 0}},
                                {"dealer": "A", "complete": False}]}
    return d, md


@scenario("dec_incomplete_hand_mid_play")
def d_incomplete() -> tuple[Json, Json]:
    d, _ = w00()
    d["_note"] = ("docs/rules-decisions.md (j), docs/scenarios.md: W0 stopped after trick 2 "
                  "(worked example W0: B took 11 and 5 and declared ♥ 100): an incomplete hand "
                  "reports the raw points taken so far and delta 0 for everyone.")
    d["hands"][0]["actions"] = d["hands"][0]["actions"][:14]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 140, "complete": False,
                                 "taken": {"A": 0, "B": 116, "C": 0},
                                 "marriages": {"B": ["H"]},
                                 "delta": {"A": 0, "B": 0, "C": 0}}],
          "totals": {"A": 0, "B": 0, "C": 0}, "winner": None}
    return d, md


@scenario("german_house_all_pass_thrown_in")
def d_thrown() -> tuple[Json, Json]:
    d = base("german_house")
    d["_note"] = ("option opening_bid_forced false and D17 (german_house): everyone "
                  "passes → the hand is thrown in without score and the deal passes to the "
                  "left (the second hand, dealt by B, is left unfinished).")
    d["hands"] = [{"deal": DEAL2, "actions": [["B", "pass"], ["C", "pass"], ["A", "pass"]]}]
    h2 = hand_of(d, prefix_hands=list(d["hands"]), auction=[], exchange=None, points={})
    h2["actions"] = []
    d["hands"].append(h2)
    md = {"ok": True, "hands": [{"dealer": "A", "declarer": None, "complete": True,
                                 "taken": {}, "delta": {"A": 0, "B": 0, "C": 0}},
                                {"dealer": "B", "complete": False}]}
    return d, md


@scenario("german_house4_complete_hand")
def p_gh4() -> tuple[Json, Json]:
    d = base("german_house4", players="A B C D", dealer="D")
    d["_note"] = ("A complete german_house4 hand (preset german_house): the dealer D sits out; the "
                  "talon A♠ K♥ Q♥ gives him 50 + 100 = 150 (W17: the cap of 150 does not cut); "
                  "A plays 100 and the hand is played out.")
    d["hands"] = [hand_of(d, fixed={"talon": "AS KH QH"}, auction=auction("A", 100, "B", "C"),
                          exchange=random_exchange(), points={})]
    return d, {"ok": True, "hands": [{"dealer": "D", "declarer": "A", "complete": True,
                                      "delta": {"D": 150}}]}


@scenario("polish_marriage_on_first_lead")
def p_polish_first() -> tuple[Json, Json]:
    d = base("polish")
    d["_note"] = ("preset polish marriage_on_first_lead true (polish): B declares ♥ on the very "
                  "first lead of the hand; B makes 120 with it.")
    h = hand_of(d, fixed={"B": "KH QH"}, auction=auction("B", 120, "C", "A"),
                exchange=random_exchange("KH QH"), points={"B": 50}, declare={"B": "H"})
    first = h["actions"][5]
    assert first[0] == "B" and first[3:] == ["marriage"], first
    d["hands"] = [h]
    return d, {"ok": True, "hands": [{"taken": {"B": 150}, "marriages": {"B": ["H"]},
                                      "delta": {"B": 120}}]}


@scenario("tausendundeins2_complete_hand")
def p_t2() -> tuple[Json, Json]:
    d = base("tausendundeins2", players="A B")
    d["_note"] = ("A complete tausendundeins2 hand (stock games, preset tausendundeins2): B "
                  "(non-dealer) "
                  "leads, 4 free tricks with draws, then 8 strict tricks; B declares the ♣ "
                  "marriage (100 in this preset) after winning a trick; each adds his exact "
                  "raw points.")
    d["hands"] = [hand_of(d, fixed={"B": "KC QC"}, points={"A": 40},
                          declare={"B": "C"})]
    return d, {"ok": True, "hands": [{"declarer": None, "complete": True,
                                      "taken": {"A": 40, "B": 180},
                                      "marriages": {"B": ["C"]},
                                      "delta": {"A": 40, "B": 180}}]}

# ------------------------------------------------ house rules (docs/rules-decisions.md)
ALL_PASS = [["B", "pass"], ["C", "pass"], ["A", "pass"]]


@scenario("house01a_dealer_forced_100")
def h01a() -> tuple[Json, Json]:
    d = base("russian", options={"dealer_forced_bid": True})
    d["_note"] = ("dealer_forced_bid (бовт): B (forehand) may pass; everyone passes, so A, the "
                  "dealer, plays 100. A takes 104 ≥ 100 → +100; B 10 → 10; C 6 → 5.")
    d["hands"] = [hand_of(d, auction=ALL_PASS, exchange=random_exchange(),
                          points={"A": 104, "B": 10, "C": 6})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 100,
                                 "taken": {"A": 104, "B": 10, "C": 6},
                                 "delta": {"A": 100, "B": 10, "C": 5}}],
          "totals": {"A": 100, "B": 10, "C": 5}}
    return d, md


@scenario("house01b_dealer_forced_golden_on_barrel")
def h01b() -> tuple[Json, Json]:
    d = base("russian", options={"dealer_forced_bid": True, "golden_round": True},
             start={"totals": {"A": 880, "B": 300, "C": 200}})
    d["_note"] = ("dealer_forced_bid in a golden hand, the dealer on the barrel: everyone "
                  "passes, so A plays the golden opening 120. A takes 80 < 120 → −120 × 2 = "
                  "−240 → 640, off the barrel; B 25 × 2 = 50, C 15 × 2 = 30.")
    d["hands"] = [hand_of(d, auction=ALL_PASS, exchange=random_exchange(),
                          points={"A": 80, "B": 25, "C": 15})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 120,
                                 "delta": {"A": -240, "B": 50, "C": 30}}],
          "totals": {"A": 640, "B": 350, "C": 230}, "barrel": {}}
    return d, md


@scenario("house02_two_bid_steps")
def h02() -> tuple[Json, Json]:
    d = base("russian", options={"bid_step_high": 10, "bid_step_high_from": 200})
    d["_note"] = ("bid_step_high 10 from 200: B (♥ and ♦ marriages) wins at 195 and raises to "
                  "210 (200 and 210 are the next steps); he takes 40 + ♥ 100 + ♦ 80 = 220 ≥ 210 "
                  "→ +210; A 50, C 30.")
    d["hands"] = [hand_of(d, fixed={"B": "KH QH KD QD"}, auction=auction("B", 195, "C", "A"),
                          exchange=random_exchange("KH QH KD QD"), contract=210,
                          points={"B": 40, "A": 50, "C": 30}, declare={"B": "HD"})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 210,
                                 "taken": {"A": 50, "B": 220, "C": 30},
                                 "delta": {"A": 50, "B": 210, "C": 30}}],
          "totals": {"A": 50, "B": 210, "C": 30}}
    return d, md


@scenario("err_house02_bid_step_from_200")
def e_h02() -> tuple[Json, Json]:
    return err("", "russian", [["B", "bid", 200], ["C", "bid", 205]], 1,
               "C cannot bid 205: bids go up in steps of 5 below 200 and 10 from 200, so the "
               "lowest bid now is 210", "steps of 5 below 200 and 10 from 200",
               "bid_step_high 10 from 200: after B's 200 the next bid is 210; C's 205 is "
               "refused.", options={"bid_step_high": 10})


@scenario("err_house03_cap_before_talon")
def e_h03() -> tuple[Json, Json]:
    return err("", "russian", [["B", "bid", 125]], 0,
               "B cannot bid 125: no bid may go above 120 before the talon is seen",
               "above 120 before the talon",
               "bid_cap_before_talon 120: B holds the ♥ marriage, but no bid may pass 120 "
               "before the talon is seen.", options={"bid_cap_before_talon": 120})


@scenario("house03_raise_after_capped_auction")
def h03() -> tuple[Json, Json]:
    d = base("russian", options={"bid_cap_before_talon": 120})
    d["_note"] = ("bid_cap_before_talon 120: B wins at 120 (the cap) and raises to 160 after "
                  "the talon, which the cap does not limit; 60 + ♥ 100 = 160 ≥ 160 → +160; "
                  "A 40, C 20.")
    d["hands"] = [hand_of(d, fixed={"B": "KH QH"}, auction=auction("B", 120, "C", "A"),
                          exchange=random_exchange("KH QH"), contract=160,
                          points={"B": 60, "A": 40, "C": 20}, declare={"B": "H"})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 160,
                                 "delta": {"A": 40, "B": 160, "C": 20}}],
          "totals": {"A": 40, "B": 160, "C": 20}}
    return d, md


@scenario("house04a_rospisat_declarer_pays_half")
def h04a() -> tuple[Json, Json]:
    d = base("russian", options={"rospisat_award": "declarer_pays_half"},
             start={"totals": {"A": 100, "B": 300, "C": 50}, "rospisat": {"B": 2}})
    d["_note"] = ("rospisat_award declarer_pays_half: B gives up his 105: he loses 105, each "
                  "opponent gets half of it rounded up to 5 (52.5 → 55); it is B's third "
                  "rospisat, so rospisat_penalty takes another 120: B −225.")
    d["hands"] = [rospisat_hand(d, "B", 105, ("C", "A"))]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 105, "taken": {},
                                 "delta": {"A": 55, "B": -225, "C": 55}}],
          "totals": {"A": 155, "B": 75, "C": 105}, "rospisat": {"B": 3}}
    return d, md


@scenario("house04b_rospisat_split_golden")
def h04b() -> tuple[Json, Json]:
    d = base("russian", options={"rospisat_award": "declarer_pays_split",
                                 "golden_round": True})
    d["_note"] = ("rospisat_award declarer_pays_split in a golden hand: B gives up the golden "
                  "120: −120 × 2 = −240; the 120 is shared by the two opponents, 60 each, × 2 "
                  "= 120.")
    d["hands"] = [rospisat_hand(d, "B", 120, ("C", "A"))]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 120,
                                 "delta": {"A": 120, "B": -240, "C": 120}}],
          "totals": {"A": 120, "B": -240, "C": 120}, "rospisat": {"B": 1}}
    return d, md


@scenario("house05a_round_before_make")
def h05a() -> tuple[Json, Json]:
    d = base("russian", options={"round_before_make": True})
    d["_note"] = ("round_before_make: B's contract 120, he takes 78 + ♠ 40 = 118, rounded to "
                  "120 before the test → made, +120; A 25, C 17 → 15.")
    d["hands"] = [hand_of(d, fixed={"B": "KS QS"}, auction=auction("B", 120, "C", "A"),
                          exchange=random_exchange("KS QS"),
                          points={"B": 78, "A": 25, "C": 17}, declare={"B": "S"})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 120, "taken": {"B": 118},
                                 "delta": {"A": 25, "B": 120, "C": 15}}],
          "totals": {"A": 25, "B": 120, "C": 15}}
    return d, md


@scenario("house05b_round_before_make_wins_from_barrel")
def h05b() -> tuple[Json, Json]:
    d = base("russian", dealer="C", options={"round_before_make": True},
             start={"totals": {"A": 880, "B": 400, "C": 300}, "barrel": {"A": 1}})
    d["_note"] = ("round_before_make on the barrel: A (on the barrel) plays 120 and takes 78 + "
                  "♠ 40 = 118 → 120 → made: 880 + 120 = 1000, A wins; B and C score nothing "
                  "more than their points (B 27 → 25, C 15).")
    d["hands"] = [hand_of(d, fixed={"A": "KS QS"}, auction=auction("A", 120, "B", "C"),
                          exchange=random_exchange("KS QS"),
                          points={"A": 78, "B": 27, "C": 15}, declare={"A": "S"})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 120,
                                 "delta": {"A": 120, "B": 25, "C": 15}}],
          "totals": {"A": 1000, "B": 425, "C": 315}, "winner": "A"}
    return d, md


STICKS = {"sticks_penalty": 120}


@scenario("house06a_stick_and_dash")
def h06a() -> tuple[Json, Json]:
    d = base("russian", options=STICKS,
             start={"totals": {"A": 300}, "dashes": {"A": 2}, "sticks": {"A": 2}})
    d["_note"] = ("sticks_penalty 120 beside the dashes: A, a defender with 2 dashes and 2 "
                  "sticks, takes no trick: his third dash (−120) and his third stick (−120): "
                  "300 − 240 = 60. B 100 ≥ 100 → +100; C 20.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"A": 0, "B": 100, "C": 20}, tricks={"A": 0})]
    md = {"ok": True, "hands": [{"delta": {"A": -240, "B": 100, "C": 20}}],
          "totals": {"A": 60, "B": 100, "C": 20}, "dashes": {}, "sticks": {}}
    return d, md


@scenario("house06b_stick_declarer_not_on_barrel")
def h06b() -> tuple[Json, Json]:
    d = base("russian", options=STICKS,
             start={"totals": {"A": 880, "B": 300}, "sticks": {"A": 2, "B": 2}})
    d["_note"] = ("sticks and the barrel: B, the declarer, takes no trick: −100 for the failed "
                  "contract and −120 for his third stick → 80. A, on the barrel, takes no "
                  "trick either: no stick there (his count stays 2), no dash, one barrel hand "
                  "used. C takes all 120.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"C": 120}, tricks={"A": 0, "B": 0})]
    md = {"ok": True, "hands": [{"delta": {"A": 0, "B": -220, "C": 120}}],
          "totals": {"A": 880, "B": 80, "C": 120}, "barrel": {"A": 1},
          "sticks": {"A": 2}}
    return d, md


@scenario("house06c_sticks_in_a_row")
def h06c() -> tuple[Json, Json]:
    d = base("russian", options={**STICKS, "sticks_in_a_row": True},
             start={"sticks": {"A": 2}})
    d["_note"] = ("sticks_in_a_row: A (2 sticks in a row) takes one trick worth 10, so his "
                  "sticks are cleared; C takes none: a stick (1 of 3) and a dash. B 110 ≥ 100 → "
                  "+100.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"A": 10, "B": 110, "C": 0}, tricks={"A": 1, "C": 0})]
    md = {"ok": True, "hands": [{"delta": {"A": 10, "B": 100, "C": 0}}],
          "totals": {"A": 10, "B": 100, "C": 0}, "sticks": {"C": 1}, "dashes": {"C": 1}}
    return d, md


NO_WIN = {"no_win_penalty": 120}


@scenario("house07a_no_win_streak")
def h07a() -> tuple[Json, Json]:
    d = base("russian", options=NO_WIN, start={"no_win": {"A": 2, "C": 2}})
    d["_note"] = ("no_win_penalty 120 (any 3 hands): A's only points are J+9+9 = 2 → 0: no "
                  "win, his third → −120 and the count starts again. C takes 18 → 20, a win; "
                  "his count stays 2 (wins do not clear it). B makes 100, a win.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"A": 2, "B": 100, "C": 18}, tricks={"A": 1})]
    md = {"ok": True, "hands": [{"delta": {"A": -120, "B": 100, "C": 20}}],
          "totals": {"A": -120, "B": 100, "C": 20}, "no_win": {"C": 2}}
    return d, md


@scenario("house07b_no_win_in_a_row_rospisat_barrel")
def h07b() -> tuple[Json, Json]:
    d = base("russian", options={**NO_WIN, "no_win_in_a_row": True},
             start={"totals": {"A": 880, "B": 300}, "no_win": {"A": 2, "B": 2, "C": 2}})
    d["_note"] = ("no_win_in_a_row with a rospisat and the barrel: B gives up 100 (a hand he "
                  "did not win, his third in a row) → −120; C is paid 60, a win: his count is "
                  "cleared; A on the barrel is paid nothing and not counted (stays 2), one "
                  "barrel hand used.")
    d["hands"] = [rospisat_hand(d, "B", 100, ("C", "A"))]
    md = {"ok": True, "hands": [{"delta": {"A": 0, "B": -120, "C": 60}}],
          "totals": {"A": 880, "B": 180, "C": 60}, "no_win": {"A": 2}, "barrel": {"A": 1}}
    return d, md


@scenario("house08a_minus_555")
def h08a() -> tuple[Json, Json]:
    d = base("russian", options={"reset_at_555": True, "reset_negative": True},
             start={"totals": {"B": -455}})
    d["_note"] = ("reset_negative: B at −455 fails 100 (60 < 100) → −555 → back to 0 (delta "
                  "+455); A 40, C 20.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"A": 40, "B": 60, "C": 20})]
    md = {"ok": True, "hands": [{"delta": {"A": 40, "B": 455, "C": 20}}],
          "totals": {"A": 40, "B": 0, "C": 20}}
    return d, md


@scenario("house08b_reset_at_550")
def h08b() -> tuple[Json, Json]:
    d = base("russian", options={"reset_at_555": True, "reset_value": 550},
             start={"totals": {"A": 500, "C": 505}})
    d["_note"] = ("reset_value 550: A 500 + 50 = 550 → back to 0; C 505 + 50 = 555 stays (the "
                  "number is 550 now); B fails 100 with 20.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"A": 50, "B": 20, "C": 50})]
    md = {"ok": True, "hands": [{"delta": {"A": -500, "B": -100, "C": 50}}],
          "totals": {"A": 0, "B": -100, "C": 555}}
    return d, md


@scenario("russian_online_two_hands")
def h_online() -> tuple[Json, Json]:
    d = base("russian_online")
    d["_note"] = ("preset russian_online: hand 1, everyone passes and A (dealer) plays 100; he "
                  "takes 98, rounded to 100 before the test → made +100; B 12 → 10, C 10. "
                  "Hand 2 (dealer B): C wins at 100 and gives it up: C −100, A and B +50 each; "
                  "C's first hand without a win.")
    d["hands"] = [hand_of(d, auction=ALL_PASS, exchange=random_exchange(),
                          points={"A": 98, "B": 12, "C": 10})]
    d["hands"].append(rospisat_hand(d, "C", 100, ("A", "B")))
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 100,
                                 "delta": {"A": 100, "B": 10, "C": 10}},
                                {"declarer": "C", "delta": {"A": 50, "B": 50, "C": -100}}],
          "totals": {"A": 150, "B": 60, "C": -90}, "no_win": {"C": 1}, "sticks": {}}
    return d, md


@scenario("house10_fall_costs_240")
def h10() -> tuple[Json, Json]:
    d = base("russian", options={"barrel_fall_penalty": 240},
             start={"totals": {"A": 880}, "barrel": {"A": 2}})
    d["_note"] = ("barrel_fall_penalty 240: A's third barrel hand as a defender (40 counts "
                  "nothing) → he falls 240, to 640.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"),
                          exchange=random_exchange(), points={"A": 40})]
    md = {"ok": True, "hands": [{"delta": {"A": -240}}],
          "totals": {"A": 640}, "barrel": {}, "barrel_falls": {"A": 1}}
    return d, md


@scenario("house11_last_trick_bonus")
def h11() -> tuple[Json, Json]:
    d = base("russian", options={"last_trick_bonus": 10})
    d["_note"] = ("last_trick_bonus 10: B takes 95 card points and the last trick: 105 ≥ 100 "
                  "→ +100; A 17 → 15, C 8 → 10.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"), exchange=random_exchange(),
                          points={"A": 17, "B": 95, "C": 8},
                          final=lambda s: s.last_winner == 1)]
    md = {"ok": True, "hands": [{"taken": {"A": 17, "B": 105, "C": 8},
                                 "delta": {"A": 15, "B": 100, "C": 10}}],
          "totals": {"A": 15, "B": 100, "C": 10}}
    return d, md

# Trick 3 of this hand leads the ♥ marriage while ♦ is trump; C, void in ♥, holds the 9♦.
NEXT_TRICK_DEAL = {"B": ["AS", "AD", "10D", "KD", "QD", "KH", "QH"],
                   "C": ["9D", "JD", "9S", "JS", "QS", "KS", "9C"],
                   "A": ["AH", "10H", "JH", "9H", "10S", "AC", "10C"],
                   "talon": ["JC", "QC", "KC"]}
NEXT_TRICK_START = [["B", "bid", 100], ["C", "pass"], ["A", "pass"],
                    ["B", "give", "JC", "C"], ["B", "give", "QC", "A"],
                    ["B", "play", "AS"], ["C", "play", "9S"], ["A", "play", "10S"],
                    ["B", "play", "KD", "marriage"], ["C", "play", "JD"], ["A", "play", "QC"],
                    ["B", "play", "QH", "marriage"]]


@scenario("house13_marriage_trump_next_trick")
def h13() -> tuple[Json, Json]:
    d = base("russian", options={"marriage_trump": "next_trick"})
    d["_note"] = ("marriage_trump next_trick: B declares ♦ (80) on trick 2, so ♦ is trump from "
                  "trick 3; on trick 3 he leads the ♥ marriage (100), but ♦ is still trump for "
                  "that trick: C, void in ♥, must trump and wins it with the 9♦ (at once, Q♥ "
                  "would win). ♥ is trump from trick 4. B 21 + 9 + 10 = 40 + 180 = 220 → +100; "
                  "C 3 → 5; A 21 + 16 + 17 + 23 = 77 → 75.")
    d["hands"] = [{"deal": NEXT_TRICK_DEAL, "actions": [
        *NEXT_TRICK_START, ["C", "play", "9D"], ["A", "play", "9H"],
        ["C", "play", "KS"], ["A", "play", "JH"], ["B", "play", "KH"],
        ["B", "play", "AD"], ["C", "play", "9C"], ["A", "play", "10H"],
        ["A", "play", "AH"], ["B", "play", "QD"], ["C", "play", "JC"],
        ["A", "play", "AC"], ["B", "play", "KC"], ["C", "play", "JS"],
        ["A", "play", "10C"], ["B", "play", "10D"], ["C", "play", "QS"]]}]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 100,
                                 "taken": {"A": 77, "B": 220, "C": 3},
                                 "marriages": {"B": ["D", "H"]},
                                 "delta": {"A": 75, "B": 100, "C": 5}}],
          "totals": {"A": 75, "B": 100, "C": 5}}
    return d, md


@scenario("err_house13_old_trump_holds_for_the_marriage_trick")
def e_h13() -> tuple[Json, Json]:
    d = base("russian", options={"marriage_trump": "next_trick"})
    d["_note"] = ("marriage_trump next_trick: on the trick the ♥ marriage leads, ♦ is still "
                  "trump, so C (void in ♥, holding the 9♦) must trump; his J♠ is refused (at "
                  "once it would be allowed: ♥ would be trump and he has none).")
    d["_expect_error_contains"] = "must play a trump"
    d["hands"] = [{"deal": NEXT_TRICK_DEAL, "actions": [*NEXT_TRICK_START,
                                                         ["C", "play", "JS"]]}]
    return d, {"ok": False, "hand": 0, "action": 12,
               "error": "C cannot play JS: without hearts he must play a trump (diamonds)"}

FOUR_NINES_B = {"B": ["9C", "9D", "9H", "9S", "AC", "10C", "KC"],
                "C": ["JC", "QC", "AD", "10D", "KD", "QD", "JD"],
                "A": ["AH", "10H", "KH", "QH", "JH", "AS", "10S"], "talon": ["KS", "QS", "JS"]}
THREE_NINES_C = {"C": ["9C", "9D", "9H", "AC", "10C", "KC", "QC"],
                 "B": ["9S", "JC", "AD", "10D", "KD", "QD", "JD"],
                 "A": ["AH", "10H", "KH", "QH", "JH", "AS", "10S"], "talon": ["KS", "QS", "JS"]}
BOTH_NINES = {"dealt_four_nines": "mandatory", "dealt_three_nines": "optional"}


@scenario("house09a_four_nines_mandatory")
def h09a() -> tuple[Json, Json]:
    d = base("russian", options=BOTH_NINES, start={"totals": {"A": 880}, "barrel": {"A": 1}})
    d["_note"] = ("dealt_four_nines mandatory (with dealt_three_nines optional): B is dealt four "
                  "nines, so the hand is annulled as it is dealt, with no claim and no score; "
                  "A's barrel hands stay 1 (an annulled hand is not a barrel hand). The same "
                  "dealer, A, deals again (the second hand is only dealt).")
    d["hands"] = [{"deal": FOUR_NINES_B, "actions": []},
                  {"deal": THREE_NINES_C, "actions": []}]
    md = {"ok": True, "hands": [
        {"dealer": "A", "declarer": None, "complete": True, "delta": {"A": 0, "B": 0, "C": 0},
         "notes": ["B was dealt four nines: the hand is annulled"]},
        {"dealer": "A", "complete": False}],
        "totals": {"A": 880, "B": 0, "C": 0}, "barrel": {"A": 1}}
    return d, md


@scenario("house09b_three_nines_optional_out_of_turn")
def h09b() -> tuple[Json, Json]:
    d = base("russian", options=BOTH_NINES)
    d["_note"] = ("dealt_three_nines optional (with dealt_four_nines mandatory): C, dealt three "
                  "nines, claims the redeal before anyone bids, out of turn (B is to speak); "
                  "the hand is annulled and A deals again.")
    d["hands"] = [{"deal": THREE_NINES_C, "actions": [["C", "redeal"]]}]
    md = {"ok": True, "hands": [
        {"dealer": "A", "declarer": None, "delta": {"A": 0, "B": 0, "C": 0},
         "notes": ["C claimed a redeal (three nines): the hand is annulled"]}],
        "totals": {"A": 0, "B": 0, "C": 0}}
    return d, md


@scenario("err_house09_nines_claim_after_a_bid")
def e_h09() -> tuple[Json, Json]:
    d = base("russian", options=BOTH_NINES)
    d["_note"] = ("dealt_three_nines optional: the claim is open only before any bid; after B's "
                  "100, C's claim for his three nines is refused.")
    d["_expect_error_contains"] = "before anyone bids"
    d["hands"] = [{"deal": THREE_NINES_C, "actions": [["B", "bid", 100], ["C", "redeal"]]}]
    return d, {"ok": False, "hand": 0, "action": 1,
               "error": "C cannot claim a redeal: a redeal for nines must be claimed before "
                        "anyone bids"}


def exchange_then(protect: str, *extra: list[Any]) -> Any:
    """Random gifts (never the protected cards), then the given actions (contract, contra)."""
    gifts = random_exchange(protect)

    def run(s: Any, rng: Any) -> list[Any]:
        from search import s_names

        from bot.game.scenario import parse_action
        return [*gifts(s, rng), *(parse_action(m, s_names(s)) for m in extra)]

    return run


@scenario("house12a_contra_made")
def h12a() -> tuple[Json, Json]:
    d = base("russian", options={"contra": True})
    d["_note"] = ("contra: B fixes 100, C doubles, B does not redouble; B takes 105 ≥ 100 → "
                  "+100 × 2 = +200; the defenders' points are not doubled: A 10, C 5.")
    d["hands"] = [hand_of(d, auction=auction("B", 100, "C", "A"),
                          exchange=exchange_then("", ["B", "contract", 100], ["C", "contra"],
                                                 ["B", "pass"]),
                          points={"B": 105, "A": 10, "C": 5})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 100,
                                 "delta": {"A": 10, "B": 200, "C": 5}}],
          "totals": {"A": 10, "B": 200, "C": 5}}
    return d, md


@scenario("house12b_redouble_failed_golden_barrel")
def h12b() -> tuple[Json, Json]:
    d = base("russian", options={"contra": True, "golden_round": True}, dealer="C",
             start={"totals": {"A": 880, "B": 300, "C": 200}, "barrel": {"A": 1}})
    d["_note"] = ("contra and redouble in a golden hand, the declarer on the barrel: A fixes "
                  "120, B passes, C doubles, A redoubles; A takes 90 < 120 → −120 × 4 × 2 = "
                  "−960 → −80, off the barrel; B 20 × 2 = 40, C 10 × 2 = 20.")
    d["hands"] = [hand_of(d, auction=auction("A", 120, "B", "C"),
                          exchange=exchange_then("", ["A", "contract", 120], ["B", "pass"],
                                                 ["C", "contra"], ["A", "redouble"]),
                          points={"A": 90, "B": 20, "C": 10})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 120,
                                 "delta": {"A": -960, "B": 40, "C": 20}}],
          "totals": {"A": -80, "B": 340, "C": 220}, "barrel": {}}
    return d, md


@scenario("err_house12_lead_before_the_defenders_speak")
def e_h12() -> tuple[Json, Json]:
    return err("", "russian", [*B_WINS_100, ["B", "give", "9C", "C"], ["B", "give", "JC", "A"],
                               ["B", "contract", 100], ["B", "play", "AH"]], 6,
               "B cannot play AH: the defenders have not yet said whether they double",
               "not yet said whether they double",
               "contra: once B fixes his contract, C and A say whether they double before "
               "he may lead.", options={"contra": True})


MISERE_B = [["B", "bid", 120, "misere"], ["C", "pass"], ["A", "pass"]]


@scenario("house14a_misere_made")
def h14a() -> tuple[Json, Json]:
    d = base("russian", options={"misere": True})
    d["_note"] = ("misere: B bids a mizère (120), takes the talon and gives a card to each "
                  "opponent as usual, and takes no trick: made, +120. The defenders score "
                  "their points as in any played hand: A 70, C 50.")
    d["hands"] = [hand_of(d, auction=MISERE_B, exchange=random_exchange(),
                          points={"A": 70, "C": 50}, tricks={"B": 0})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 120,
                                 "taken": {"A": 70, "B": 0, "C": 50},
                                 "delta": {"A": 70, "B": 120, "C": 50}}],
          "totals": {"A": 70, "B": 120, "C": 50}}
    return d, md


@scenario("house14b_misere_failed_on_barrel")
def h14b() -> tuple[Json, Json]:
    d = base("russian", options={"misere": True},
             start={"totals": {"B": 880}, "barrel": {"B": 1}})
    d["_note"] = ("misere on the barrel: B (on the barrel) bids a mizère and takes one trick "
                  "(20 points): failed, 880 − 120 = 760, off the barrel; A 60, C 40.")
    d["hands"] = [hand_of(d, auction=MISERE_B, exchange=random_exchange(),
                          points={"A": 60, "B": 20, "C": 40}, tricks={"B": 1})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 120,
                                 "delta": {"A": 60, "B": -120, "C": 40}}],
          "totals": {"A": 60, "B": 760, "C": 40}, "barrel": {}}
    return d, md


@scenario("err_house14_misere_cannot_be_raised")
def e_h14() -> tuple[Json, Json]:
    return err("", "russian", [*MISERE_B, ["B", "give", "9C", "C"], ["B", "give", "JC", "A"],
                               ["B", "contract", 125]], 5,
               "B cannot set the contract at 125: a mizère cannot be raised; it is 120",
               "a mizère cannot be raised",
               "misere: a mizère is a fixed contract; B's raise to 125 is refused.",
               options={"misere": True})


PARTNERS_SITTING = {"partnerships": True, "sitter": "dealer", "sitter_bonus": "none"}
PARTNERS_FOUR = {"seats": 4, "partnerships": True, "hand_size": 6, "talons": [],
                 "exchange": "none"}


@scenario("house15a_partnerships_dealer_sits_out")
def h15a() -> tuple[Json, Json]:
    d = base("russian4", players="A B C D", options=PARTNERS_SITTING)
    d["_note"] = ("partnerships (A & C against B & D), the dealer A sits out: B wins at 100 and "
                  "plays with his partner D against C; B 60 + D 45 = 105 ≥ 100 → B & D +100; "
                  "C 15 → A & C +15. Partners show the same total.")
    d["hands"] = [hand_of(d, auction=[["B", "bid", 100], ["C", "pass"], ["D", "pass"]],
                          exchange=random_exchange(), points={"B": 60, "D": 45, "C": 15})]
    md = {"ok": True, "hands": [{"declarer": "B", "contract": 100,
                                 "taken": {"B": 60, "C": 15, "D": 45},
                                 "delta": {"A": 15, "B": 100, "C": 15, "D": 100}}],
          "totals": {"A": 15, "B": 100, "C": 15, "D": 100}}
    return d, md


@scenario("house15b_partnerships_four_play_win_from_barrel")
def h15b() -> tuple[Json, Json]:
    d = base("russian", players="A B C D", dealer="D", options=PARTNERS_FOUR,
             start={"totals": {"A": 880, "B": 300, "C": 880, "D": 300},
                    "barrel": {"A": 1, "C": 1}})
    d["_note"] = ("partnerships, all four play six cards with no talon; A & C are on the barrel "
                  "together. A plays 120 with his partner: A 50 + ♠ 40 + C 30 = 120 → made, "
                  "880 + 120 = 1000: A and C win. B and D hold the other 40 card points → "
                  "340.")
    d["hands"] = [hand_of(d, fixed={"A": "KS QS"},
                          auction=[["A", "bid", 120], ["B", "pass"], ["C", "pass"],
                                   ["D", "pass"]],
                          points={"A": 50, "C": 30}, declare={"A": "S"})]
    md = {"ok": True, "hands": [{"declarer": "A", "contract": 120,
                                 "taken": {"A": 90, "C": 30},
                                 "delta": {"A": 120, "B": 40, "C": 120, "D": 40}}],
          "totals": {"A": 1000, "B": 340, "C": 1000, "D": 340}, "winner": ["A", "C"]}
    return d, md


@scenario("err_house15_partners_start_equal")
def e_h15() -> tuple[Json, Json]:
    d = base("russian", players="A B C D", options=PARTNERS_FOUR,
             start={"totals": {"A": 100, "C": 50}})
    d["_note"] = ("partnerships: a partnership has one score, so partners cannot start with "
                  "different totals.")
    d["_expect_error_contains"] = "share one score"
    return d, {"ok": False,
               "error": "Partners share one score: the counters of A and C, and of B and D, "
                        "must be equal"}
# BUILDERS-END


def main(argv: list[str]) -> None:
    for name, fn in BUILDERS:
        if argv and not any(a in name for a in argv):
            continue
        data, md = fn()
        finish(name, data, md)


if __name__ == "__main__":
    main(sys.argv[1:])
