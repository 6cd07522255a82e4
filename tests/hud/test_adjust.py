"""GM rulings on Sim HuD fights (core/adjust.py; rulesets/hud/adjust.py, leave.py): every change form seen in every
seat's view, every refusal with its code and nothing changed, a combatant taken out in the middle of a turn or a
window and brought back, the fight going on at once from there (settle: its dice and events in the ruling's record,
the next window the rules' own), and fights that go on to their end, replay and verify. Rules cited per test."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.ai.base import RandomPolicy, get_policy
from affray.ai.runner import policy_action
from affray.core.engine import GM, SPECTATOR, Accepted, Action, Rejected
from affray.core.events import Rolled
from affray.core.json import Json
from affray.core.log import export_log, verify
from affray.core.match import Match
from affray.core.rng import FastRNG, seed_from_int
from affray.rulesets.hud.adjust import ADJUSTER
from affray.rulesets.hud.content_model import HudScenario
from affray.rulesets.hud.ruleset import builtin_content
from affray.rulesets.hud.state import HudState
from tests.hud.helpers import DEFENSE, PLUGIN, RULESET, attack, combatant

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "hud").glob("*.yaml"))


def example(name: str, seed: int = 3) -> Match:
    return affray.load_scenario(next(p for p in EXAMPLES if p.stem == name)).start(seed=seed)


def one(cid: str) -> dict[str, Any]:
    return combatant(cid, name=cid.upper(), endurance=10)


def duel(mode: str = "nerdified", seed: int = 1, a: tuple[str, ...] = ("a",), b: tuple[str, ...] = ("b",)) -> Match:
    """Side A against side B (10 HP each in Combat Nerdified), on verifiable dice, no emergency prompt."""
    sides = [{"name": "A", "combatants": [one(c) for c in a]}, {"name": "B", "combatants": [one(c) for c in b]}]
    options = {"emergency_actions": "defense"}
    scenario = HudScenario.model_validate({"ruleset": "hud", "mode": mode, "options": options, "sides": sides})
    return Match(PLUGIN, RULESET.prepare(scenario, builtin_content()), options, seed=seed_from_int(seed))


def state(match: Match) -> HudState:
    assert isinstance(match.state, HudState)
    return match.state


def rule(match: Match, *changes: dict[str, Any], reason: str = "") -> Accepted:
    result = match.rule(GM, {"type": "ruling", "reason": reason, "changes": list(changes)}, version=match.version)
    assert isinstance(result, Accepted), result
    return result


def seen(match: Match, cid: str) -> list[dict[str, Any]]:
    """``cid`` as every seat's view shows it (each seat's combatant entry)."""
    seats = sorted({*match.seats.values(), GM, SPECTATOR})
    return [next(c for c in match.view_json(seat)["combatants"] if c["id"] == cid) for seat in seats]


def told(match: Match) -> list[str]:
    """The last record's events as the story tells them (the spectator's narrated log)."""
    return [e["text"] for e in match.events_since(match.version - 1, SPECTATOR, narrate=True)[-1]["events"]]


def act_as_planned(match: Match, plans: Mapping[str, Sequence[Action]]) -> None:
    """Declare each pending combatant's plan until the declarations are over."""
    while (window := match.pending()) is not None and window.phase == "declare":
        actor = window.actors[0]
        assert isinstance(match.act(actor, {"type": "declare", "plan": [*plans[actor]]}), Accepted)


def advance(match: Match, steps: int, policy: str = "random", seed: int = 0) -> None:
    """Let the policies take up to ``steps`` actions (fewer if the fight ends)."""
    policies = {a: RandomPolicy() if policy == "random" else get_policy("hud", policy) for a in match.names()}
    rng = FastRNG(seed)
    for _ in range(steps):
        window = match.pending()
        if window is None:
            return
        actor = window.actors[0]
        assert isinstance(match.act(actor, policy_action(match, policies[actor], actor, rng)), Accepted)


def finish(match: Match, policy: str = "random", seed: int = 0) -> None:
    """Play the fight to its end with one policy for every combatant, then check replay and verification."""
    policies = {a: RandomPolicy() if policy == "random" else get_policy("hud", policy) for a in match.names()}
    affray.play(match, policies, FastRNG(seed))
    assert match.outcome() is not None
    report = verify(export_log(match))
    assert report.ok, report.problems
    again = match.replayed()
    assert again.ruleset.snapshot(again.state) == match.ruleset.snapshot(match.state)


def test_wl04_wl17_wl_b13_every_change_form_is_seen_in_every_seats_view() -> None:
    """WL-04/WL-08: the HP bar, 0 to Endurance; WL-17: the additional-action penalties as the view names them, with
    the rounds it counts; WL-B13: a place where someone stands (engaging them) or a new place; out and back."""
    m = example("nerdified_night_widow")
    rule(
        m,
        {"combatant": "widow", "bar": "HP", "value": 4},
        {"combatant": "vesna", "status": "-2 to every roll", "rounds": 1},
        {"combatant": "vesna", "status": "-2 to every roll next round", "rounds": None},
        {"combatant": "ilka", "position": 0},
        reason="a beam falls",
    )
    assert {c["bars"][0]["value"] for c in seen(m, "widow")} == {4}
    assert all(
        c["statuses"]
        == [{"name": "-2 to every roll", "rounds": 1}, {"name": "-2 to every roll next round", "rounds": 2}]
        for c in seen(m, "vesna")
    )
    assert all((c["position"]["x"], c["detail"]["band"]) == (0, "engaged") for c in seen(m, "ilka"))
    rule(
        m,
        {"combatant": "vesna", "remove_status": "-2 to every roll"},
        {"combatant": "ilka", "position": "far"},
        {"combatant": "widow", "status": "charged", "rounds": 1},
    )
    assert all(c["statuses"] == [{"name": "-2 to every roll next round", "rounds": 2}] for c in seen(m, "vesna"))
    assert all(c["detail"]["band"] == "far" and c["position"]["x"] not in (0, 2) for c in seen(m, "ilka"))
    assert all(c["statuses"] == [{"name": "charged", "rounds": 1}] for c in seen(m, "widow"))
    rule(m, {"combatant": "ilka", "out": True})
    assert all(c["statuses"] == [{"name": "out of the fight", "rounds": None}] for c in seen(m, "ilka"))
    rule(m, {"combatant": "ilka", "out": False})
    assert all(c["statuses"] == [] and not c["down"] for c in seen(m, "ilka"))
    finish(m)


def test_a_refused_change_says_why_and_changes_nothing() -> None:
    """Every refusal has its code and a sentence; the state, the version and the dice are as they were (WL-04,
    WL-08: HP 0 to the maximum; WL-17: the penalties' rounds; WL-B13: places)."""
    m = example("nerdified_night_widow")
    cases: list[tuple[Json, str]] = [
        ({"combatant": "vesna", "bar": "Poise", "value": 3}, "unknown_bar"),
        ({"combatant": "vesna", "bar": "HP", "value": 9}, "bad_value"),  # Endurance 8
        ({"combatant": "vesna", "bar": "HP", "value": -1}, "bad_value"),
        ({"combatant": "vesna", "status": "stunned", "rounds": None}, "unknown_status"),
        ({"combatant": "vesna", "status": "-2 to every roll", "rounds": 3}, "bad_value"),
        ({"combatant": "vesna", "status": "-2 to every roll next round", "rounds": 1}, "bad_value"),
        ({"combatant": "vesna", "remove_status": "charged"}, "not_there"),
        ({"combatant": "vesna", "position": 7}, "bad_position"),
        ({"combatant": "vesna", "position": 0}, "bad_position"),  # where it stands already
        ({"combatant": "vesna", "position": "behind the mill"}, "bad_position"),
        ({"combatant": "vesna", "position": True}, "bad_position"),
        ({"combatant": "vesna", "out": False}, "not_out"),
        ({"combatant": "nobody", "out": True}, "unknown_combatant"),
    ]
    before, version = RULESET.snapshot(m.state), m.version
    for change, code in cases:
        result = m.rule(GM, {"type": "ruling", "reason": "", "changes": [change]}, version=version)
        assert isinstance(result, Rejected) and result.code == code and result.message, (change, result)
        assert RULESET.snapshot(m.state) == before and m.version == version
    rule(m, {"combatant": "vesna", "bar": "HP", "value": 0})
    before, version = RULESET.snapshot(m.state), m.version
    stand_cases: list[tuple[Json, str]] = [
        ({"combatant": "vesna", "out": False}, "cannot_stand"),
        ({"combatant": "vesna", "out": True}, "already_out"),
    ]
    for change, code in stand_cases:
        result = m.rule(GM, {"type": "ruling", "reason": "", "changes": [change]}, version=version)
        assert isinstance(result, Rejected) and result.code == code, result
        assert RULESET.snapshot(m.state) == before
    simple = example("simplified_ambush")
    simple_cases: list[tuple[Json, str]] = [
        ({"combatant": "ilka", "position": 0}, "not_adjustable"),
        ({"combatant": "ilka", "status": "charged", "rounds": None}, "unknown_status"),
        ({"combatant": "ilka", "bar": "HP", "value": 4}, "bad_value"),
    ]  # 3 HP (WL-04)
    for change, code in simple_cases:
        result = simple.rule(GM, {"type": "ruling", "reason": "", "changes": [change]}, version=0)
        assert isinstance(result, Rejected) and result.code == code, result


def test_wl08_hp_to_zero_puts_the_last_foe_down_and_ends_the_fight() -> None:
    """WL-08: a combatant at 0 HP has lost; the last foe down ends the fight at once for the side left standing, and
    the ruling's record tells it (the fall, then the end); a later change of the same ruling is refused
    (match_over) with the whole ruling undone."""
    m = example("nerdified_duel")
    refused = m.rule(
        GM,
        {
            "type": "ruling",
            "reason": "",
            "changes": [
                {"combatant": "hald", "bar": "HP", "value": 0},
                {"combatant": "vesna", "bar": "HP", "value": 1},
            ],
        },
        version=0,
    )
    assert isinstance(refused, Rejected) and refused.code == "match_over" and m.outcome() is None
    rule(m, {"combatant": "hald", "bar": "HP", "value": 0}, reason="the bridge gives way")
    outcome = m.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("witcher", "every foe is down")
    assert m.pending() is None and state(m).phase == "over"
    assert state(m).fighters["hald"].out == "down" and all(c["down"] for c in seen(m, "hald"))
    assert [e["text"] for e in m.events_since(0, SPECTATOR, narrate=True)[-1]["events"]] == [
        "GM ruling (the bridge gives way): Watch Sergeant Hald's HP 0 (was 8).",
        "Watch Sergeant Hald is down, out of the fight.",
        "Victory for the witcher (Vesna of the Lynx): every foe is down.",
    ]
    assert [e.kind for e in m.records[-1].events] == ["ruled", "defeated", "ended"]
    assert verify(export_log(m)).ok


def test_wl11_a_defender_taken_out_mid_exchange_ends_it_and_the_round_goes_on_at_once() -> None:
    """WL-11: an exchange whose defender leaves ends unresolved; the round goes on at once, in the ruling's record:
    A's second attack on B comes to nothing, the round ends and round 2 starts with its initiative (WL-09), rolled
    with the match's dice. The next window is the rules' own: the lowest roll declares first."""
    m = duel(b=("b", "c"))
    act_as_planned(m, {"a": [attack("b"), attack("b")], "b": [DEFENSE, DEFENSE], "c": [DEFENSE, DEFENSE]})
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("defend", ("b",))
    draws = m.rng.index
    rule(m, {"combatant": "b", "out": True})
    s = state(m)
    assert s.exchange is None and s.fighters["b"].out == "out" and not s.leaving
    assert told(m) == [
        "GM ruling: B is out of the fight.",
        "B is out of the fight.",
        "A's attack comes to nothing: B is already out of the fight.",
        "— Round 2 —",
        "A rolls Chance for initiative: 1d11 [8] = 8",
        "C rolls Chance for initiative: 1d11 [4] = 4",
        "A acts first, then C.",
    ]
    rolled = [e for e in m.records[-1].events if isinstance(e, Rolled)]
    assert [d.draw for r in rolled for d in r.roll.dice] == [draws, draws + 1] and m.rng.index == draws + 2
    assert (s.round, s.phase, s.order) == (2, "declare", ["a", "c"])
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("declare", ("c",))
    rule(m, {"combatant": "b", "out": False})  # back from the next round: its declaration is not awaited now
    assert "b" not in s.declare_queue
    for actor in list(s.declare_queue):
        assert isinstance(m.act(actor, {"type": "declare", "plan": [DEFENSE, DEFENSE]}), Accepted)
    assert s.round == 3 and "b" in s.declare_queue
    finish(m, "heuristic")


def test_a_ruling_whose_settle_rolled_dice_verifies_replays_and_is_rewound_not_taken_back() -> None:
    """WL-09: the initiative the ruling's settle rolled is a roll of the fight: the log verifies (the dice re-derived
    from the seed), a replay reaches the same state, the GM's own take back is refused (revealed_since: the dice
    were seen), and a rewind to before the ruling works; the same ruling again rolls the same dice."""
    m = duel(b=("b", "c"))
    act_as_planned(m, {"a": [attack("b"), attack("b")], "b": [DEFENSE, DEFENSE], "c": [DEFENSE, DEFENSE]})
    before, version = RULESET.snapshot(m.state), m.version
    rule(m, {"combatant": "b", "out": True})
    ruled = [e.to_dict() for e in m.records[-1].events]
    assert verify(export_log(m, reveal_seed=True)).ok
    again = m.replayed()
    assert again.ruleset.snapshot(again.state) == RULESET.snapshot(m.state)
    refused = m.take_back(GM)
    assert isinstance(refused, Rejected) and refused.code == "revealed_since"
    assert isinstance(m.rewind(version), Accepted) and RULESET.snapshot(m.state) == before
    rule(m, {"combatant": "b", "out": True})
    assert [e.to_dict() for e in m.records[-1].events] == ruled
    assert verify(export_log(m, reveal_seed=True)).ok


def test_wl09_a_combatant_taken_out_before_it_declares_is_not_awaited() -> None:
    """WL-09: declarations go from the lowest roll up; one taken out is skipped, and when it was the last to
    declare the round's actions begin at once: A's attack opens an exchange and B is asked to defend (WL-11)."""
    m = duel(b=("b", "c"))
    queue = list(state(m).declare_queue)
    assert queue == ["b", "a", "c"]
    plans = {"a": [attack("b"), DEFENSE], "b": [DEFENSE, DEFENSE]}
    for actor in queue[:-1]:
        assert isinstance(m.act(actor, {"type": "declare", "plan": [*plans[actor]]}), Accepted)
    rule(m, {"combatant": "c", "out": True})
    assert [e.kind for e in m.records[-1].events] == ["ruled", "defeated"]
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("defend", ("b",)) and state(m).phase == "act"
    finish(m)


def _disengaged(a: tuple[str, ...], b: tuple[str, ...], plans: Mapping[str, Sequence[Action]]) -> Match:
    """A fight in which A hit B and disengaged: the pursuit's choices are due (WL-21)."""
    for seed in range(1, 60):
        m = duel(seed=seed, a=a, b=b)
        act_as_planned(m, plans)
        m.act("b", {"type": "defend"})
        if (w := m.pending()) is not None and w.phase == "follow":
            break
    else:
        pytest.fail("no seed gives a hit to disengage from")
    assert isinstance(m.act("a", {"type": "disengage"}), Accepted)
    return m


def test_wl22_the_last_pursuer_to_choose_taken_out_lets_the_pursuit_resolve() -> None:
    """WL-21/WL-22: a pursuit replaces combat; a pursuer yet to choose who leaves is not awaited, and when the last
    one leaves the pursuit resolves at once in the ruling's record: B chases, the pursuit rolls are rolled with the
    match's dice, A gets away and the fight ends as escaped (WL-B14)."""
    m = _disengaged(
        ("a",),
        ("b", "c", "d"),
        {"a": [attack("b"), attack("b")], "b": [DEFENSE, DEFENSE], "c": [DEFENSE, DEFENSE], "d": [DEFENSE, DEFENSE]},
    )
    window = m.pending()
    assert window is not None and window.phase == "pursuit" and window.actors == ("b", "c", "d")
    assert isinstance(m.act("b", {"type": "chase"}), Accepted)
    rule(m, {"combatant": "c", "out": True})
    assert m.pending().actors == ("d",) and [e.kind for e in m.records[-1].events] == [  # type: ignore[union-attr]
        "ruled",
        "defeated",
    ]
    draws = m.rng.index
    rule(m, {"combatant": "d", "out": True})
    assert told(m) == [
        "GM ruling: D is out of the fight.",
        "D is out of the fight.",
        "A rolls Chance for the pursuit: 1d11 [11] = 11",
        "B rolls Chance for the pursuit: 1d11 [1] = 1",
        "Pursuit: A runs 11 against the pursuers' 1; the gap is 10 m: the chase goes on.",
        "A rolls Chance for the pursuit: 1d11 [9] = 9",
        "B rolls Chance for the pursuit: 1d11 [1] = 1",
        "Pursuit: A runs 9 against the pursuers' 1; the gap is 18 m: A gets away.",
        "A has escaped.",
        "The fight is over: A escaped; nobody was defeated.",
    ]
    outcome = m.outcome()
    assert outcome is not None and outcome.reason == "escaped" and m.rng.index == draws + 4 and m.pending() is None


def test_wl22_the_fleeing_combatant_taken_out_ends_the_pursuit_and_the_round() -> None:
    """WL-21/WL-22: the pursuit ends with its fleeing combatant; the round ends with it and round 2 starts at once
    (its initiative rolled in the ruling's record), its declarations the next window; the one fleeing being the
    last of its side, the fight ends instead with its Ended event."""
    m = _disengaged(
        ("a", "a2"), ("b",), {"a": [attack("b"), attack("b")], "b": [DEFENSE, DEFENSE], "a2": [DEFENSE, DEFENSE]}
    )
    draws = m.rng.index
    rule(m, {"combatant": "a", "out": True})
    s = state(m)
    kinds = [e.kind for e in m.records[-1].events]
    assert s.pursuit is None and s.round == 2 and kinds[:3] == ["ruled", "defeated", "round_started"]
    assert kinds.count("rolled") == m.rng.index - draws == 2 and kinds[-1] == "initiative"
    assert m.pending().phase == "declare"  # type: ignore[union-attr]
    m = _disengaged(("a",), ("b",), {"a": [attack("b"), attack("b")], "b": [DEFENSE, DEFENSE]})
    rule(m, {"combatant": "a", "out": True})
    assert m.outcome().winner == "B" and m.pending() is None  # type: ignore[union-attr]
    assert [e.kind for e in m.records[-1].events] == ["ruled", "defeated", "ended"]


def test_wl05_wl06_in_dice_simplified_a_turn_passes_at_once() -> None:
    """WL-05: the post order goes on past one taken out; WL-06: a duel whose defender leaves ends unresolved, and
    the attacker's turn passes; the last foe taken out ends the fight at once with its Ended event."""
    m = duel("simplified")
    attacker = m.pending().actors[0]  # type: ignore[union-attr]
    other = "b" if attacker == "a" else "a"
    m.act(attacker, {"type": "attack", "target": other, "die": "attack"})
    assert m.pending().phase == "respond"  # type: ignore[union-attr]
    rule(m, {"combatant": other, "bar": "HP", "value": 0})
    assert m.outcome() is not None and m.outcome().winner == ("A" if attacker == "a" else "B")  # type: ignore[union-attr]
    assert [e.kind for e in m.records[-1].events] == ["ruled", "defeated", "ended"] and state(m).duel is None
    m = example("simplified_ambush")
    while (window := m.pending()) is not None and not (window.phase == "attack" and window.actors[0] != "ilka"):
        advance(m, 1)
    assert window is not None, "the drowners never attacked"
    current = window.actors[0]
    rule(m, {"combatant": current, "out": True})
    window = m.pending()
    assert window is not None and window.phase == "attack" and window.actors != (current,)
    assert [e.kind for e in m.records[-1].events][:2] == ["ruled", "defeated"]
    finish(m)


def test_wl05_the_last_in_the_post_order_taken_out_starts_the_next_round() -> None:
    """WL-05: when the one taken out is the last in the post order, its turn passes to the first, and the next
    round starts: the ruling's record tells it ("— Round 2 —"); no dice are needed."""
    m = duel("simplified", a=("a", "a2"), b=("b", "b2"))
    s = state(m)
    assert s.order == ["b", "a", "a2", "b2"]
    while (window := m.pending()) is not None and not (s.turn == 3 and window.phase == "attack"):
        advance(m, 1)
    assert window is not None and window.actors == ("b2",) and s.round == 1
    draws = m.rng.index
    rule(m, {"combatant": "b2", "out": True})
    assert told(m) == ["GM ruling: B2 is out of the fight.", "B2 is out of the fight.", "— Round 2 —"]
    assert s.round == 2 and m.pending().actors == ("b",) and m.rng.index == draws  # type: ignore[union-attr]
    finish(m)


def test_wl04_raising_hp_brings_a_downed_combatant_back_from_the_next_round() -> None:
    """WL-04/WL-08: down at 0 HP; raised above 0 it stands again, taking part from the next round (this project's
    ruling, docs/hud.md 'GM rulings')."""
    m = example("nerdified_night_widow")
    rule(m, {"combatant": "ilka", "bar": "HP", "value": 0})
    assert state(m).fighters["ilka"].out == "down" and "ilka" not in state(m).declare_queue
    rule(m, {"combatant": "ilka", "bar": "HP", "value": 2})
    assert state(m).fighters["ilka"].out == "" and "ilka" not in state(m).declare_queue
    assert all(c["bars"][0]["value"] == 2 and not c["down"] for c in seen(m, "ilka"))
    finish(m, "heuristic")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_rulings_at_any_moment_then_the_fight_plays_to_its_end(path: Path, policy: str) -> None:
    """A ruling before the first move and another part-way (whoever is due to act taken out, in whatever window
    it is: a declaration, an exchange, a pursuit, an emergency prompt, a Dice Simplified or Free Form turn), then
    one brought back: the fight ends, replays the same and verifies (WL-04, WL-08, WL-B14: the outcome as the rules
    decide it)."""
    for seed in (1, 2, 3):
        scenario = affray.load_scenario(path)
        m = scenario.start(seed=seed)
        first = sorted(m.names())[0]
        hp = next(c["bars"][0]["max"] for c in m.view_json(GM)["combatants"] if c["id"] == first)
        rule(m, {"combatant": first, "bar": "HP", "value": max(1, hp - 1)})
        advance(m, random.Random(seed).randint(1, 12), policy, seed)
        window = m.pending()
        if window is not None:
            gone = window.actors[0]
            rule(m, {"combatant": gone, "out": True})
            advance(m, 3, policy, seed)
            if m.outcome() is None:
                rule(m, {"combatant": gone, "out": False})
        finish(m, policy, seed)


def test_forms_offer_what_the_gm_can_change_now() -> None:
    """What the GM's page offers: the HP bar's bounds (WL-04, WL-08), the penalties (WL-17, no rounds box: each
    says how long it lasts), the places someone stands at, named by who stands there, and a new place near or far
    (WL-B13), and whether each combatant is out."""
    m = example("nerdified_night_widow")
    forms = ADJUSTER.forms(m.state)
    assert forms["vesna"] == {
        "bars": [{"name": "HP", "min": 0, "max": 8}],
        "statuses": ["-2 to every roll", "-4 to every roll", "-2 to every roll next round", "charged"],
        "position": "place",
        "places": [0, 2, "near", "far"],
        "place_labels": [
            "where it stands now (with Night-Widow)",
            "with Ilka Reedwhistle",
            "a place of its own near the fight",
            "a place of its own far from the fight",
        ],
        "out": False,
    }
    simple = example("simplified_ambush")
    assert ADJUSTER.forms(simple.state)["ilka"] == {
        "bars": [{"name": "HP", "min": 0, "max": 3}],
        "statuses": [],
        "position": None,
        "places": [],
        "place_labels": [],
        "out": False,
    }


def test_a_ruling_reads_in_the_huds_words() -> None:
    """A ruling's line at every seat: HP with what it was (WL-04), a penalty this round (WL-17), a place (WL-B13),
    out of the fight; then what follows from it, told in the same record: Ilka was the free round's only archer
    still to declare (WL-16), so the free round ends, the closers reach the melee and round 2's initiative is rolled
    (WL-09)."""
    m = example("nerdified_night_widow")
    rule(
        m,
        {"combatant": "widow", "bar": "HP", "value": 4},
        {"combatant": "vesna", "status": "-2 to every roll", "rounds": 1},
        {"combatant": "ilka", "position": "near"},
        {"combatant": "ilka", "out": True},
        reason="a beam falls",
    )
    for seat in sorted({*m.seats.values(), GM, SPECTATOR}):
        [entry] = m.events_since(0, seat, narrate=True)
        assert [e["text"] for e in entry["events"]] == [
            "GM ruling (a beam falls): Night-Widow's HP 4 (was 10); Vesna of the Lynx takes -2 to every roll this "
            "round; Ilka Reedwhistle is moved to a place of its own near the fight (from place 2); Ilka Reedwhistle "
            "is out of the fight.",
            "Ilka Reedwhistle is out of the fight.",
            "Vesna of the Lynx is in the melee as the distance closes.",
            "Night-Widow is in the melee as the distance closes.",
            "— Round 2 —",
            "Vesna of the Lynx rolls Chance for initiative: 1d11 [4] = 4",
            "Night-Widow rolls Chance for initiative: 1d11 [2] = 2",
            "Vesna of the Lynx acts first, then Night-Widow.",
        ]
    assert m.pending().actors == ("widow",)  # type: ignore[union-attr]


def test_wl_b13_place_0_from_the_pages_list_is_place_0() -> None:
    """WL-B13: place 0 sent as a page's select sends it ("0") is the place 0 where the Night-Widow stands: the GM
    page's "Place 0" was refused as no place of the list."""
    m = example("nerdified_night_widow")
    ilka = state(m).fighters["ilka"]
    assert ilka.place == 2
    rule(m, {"combatant": "ilka", "position": "0"})
    assert (ilka.place, ilka.band) == (0, state(m).fighters["widow"].band)
    assert told(m)[-1] == "GM ruling: Ilka Reedwhistle is moved to place 0 (from place 2)."
