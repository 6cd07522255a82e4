"""GM rulings on a WitchHammer fight (rulesets/witchhammer/adjust.py; docs/witchhammer.md, "GM rulings"): every
change form seen in every seat's view, each refusal with its code and nothing changed, who a ruling takes out told
(Defeated), a combatant taken out while the cards are chosen (its face-down cards set aside unrevealed; the last one
choosing taken out ends the phase with the match's dice, in the ruling's record, which verifies, replays and is
rewound, not taken back), brought back, the outcome following at once, and fights with rulings played to their end,
verified and replayed."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import affray
from affray.ai.base import RandomPolicy
from affray.ai.runner import policy_action
from affray.core.adjust import Change
from affray.core.engine import GM, Accepted, Rejected
from affray.core.events import Defeated, Event, Revealed, Rolled
from affray.core.fields import texts
from affray.core.log import export_log, verify
from affray.core.match import Match
from affray.core.rng import FastRNG, seed_from_int
from affray.rulesets.witchhammer.adjust import ADJUSTER
from affray.rulesets.witchhammer.state import WitchHammerState
from tests.conformance.common import ROOT
from tests.witchhammer.helpers import PLUGIN, fighter, setup_of

SEATS = ("h1", "h2", "m1", "spectator", GM)


def match(*, second_dummy: bool = False, **options: Any) -> Match:
    """Two heroes (h1 at (1, 1), h2 at (1, 3), side A) against a dummy (m1 at (3, 1), side B; with ``second_dummy``
    another, m2 at (3, 5)), seeded (a ruling needs a seed to replay from); nobody holds a Psych card but Hero 1
    (calm), so the first window is Psych for h1."""
    a = [fighter("h1", (1, 1), name="Hero One"), fighter("h2", (1, 3), name="Hero Two", deck=["jab", "wait"])]
    b = [fighter("m1", (3, 1), use="dummy", name="Dummy", deck=["jab", "wait", "guard"])]
    if second_dummy:
        b.append(fighter("m2", (3, 5), use="dummy", name="Second Dummy", deck=["jab", "wait", "guard"]))
    return Match(PLUGIN, setup_of(a, b), {"general_school_deck": "learned", **options}, seed=seed_from_int(3))


def state(m: Match) -> WitchHammerState:
    assert isinstance(m.state, WitchHammerState)
    return m.state


def rule(m: Match, *changes: dict[str, Any]) -> Any:
    return m.rule(GM, {"type": "ruling", "reason": "the GM says so", "changes": list(changes)}, version=m.version)


def accepted(m: Match, *changes: dict[str, Any]) -> None:
    result = rule(m, *changes)
    assert isinstance(result, Accepted), result


def act(m: Match, actor: str, action: dict[str, Any]) -> Accepted:
    result = m.act(actor, action, version=m.version)
    assert isinstance(result, Accepted), result
    return result


def to_planning(m: Match) -> None:
    """Hero One lets the Psych phase go."""
    assert m.pending().phase == "psych"  # type: ignore[union-attr]
    act(m, "h1", {"type": "ready"})
    assert m.pending().phase == "planning"  # type: ignore[union-attr]


def seen(m: Match, seat: str, cid: str) -> dict[str, Any]:
    return next(c for c in m.view_json(seat)["combatants"] if c["id"] == cid)


def ruled(m: Match, *changes: dict[str, Any]) -> list[Event]:
    """The events of an accepted ruling (its record's)."""
    result = rule(m, *changes)
    assert isinstance(result, Accepted), result
    assert m.records[-1].events == result.events
    return list(result.events)


def told(m: Match, seat: str = "spectator") -> list[str]:
    """The sentences of the last record, as ``seat`` reads them."""
    [entry] = m.events_since(m.version - 1, seat, narrate=True)
    return [e["text"] for e in entry["events"]]


def revealed_seals(m: Match) -> set[str]:
    return {e["seal"] for r in m.events_since(0, "spectator") for e in r["events"] if e["type"] == "revealed"}


def test_wh19_bars_are_set_and_every_seat_sees_them_and_reads_the_ruling() -> None:
    """Rules: WH-19 (Poise, Health and Wounds, Wounds being the Health lost): setting Wounds sets Health."""
    m = match()
    accepted(m, {"combatant": "h1", "bar": "Poise", "value": 4}, {"combatant": "h1", "bar": "Wounds", "value": 3})
    for seat in SEATS:
        assert seen(m, seat, "h1")["bars"] == [
            {"name": "Poise", "value": 4, "max": 10},
            {"name": "Health", "value": 11, "max": 14},
            {"name": "Wounds", "value": 3, "max": 14},
        ]
        [entry] = m.events_since(m.version - 1, seat, narrate=True)
        assert [e["text"] for e in entry["events"]] == [
            "GM ruling (the GM says so): Hero One's Poise 4 (was 10); Hero One's Wounds 3 (was 0)."
        ]
    accepted(m, {"combatant": "h1", "bar": "Health", "value": 12})
    assert seen(m, "m1", "h1")["bars"][2] == {"name": "Wounds", "value": 2, "max": 14}


def test_wh22_wh_b9_health_at_zero_downs_and_above_zero_stands_again() -> None:
    """Rules: WH-22 (a PC at 0 Health or less is down), WH-B9 (a monster is defeated, off the map), each told as a
    blow's (Defeated): raised above 0 by a ruling, each stands again; a defeated monster on its own square, which
    must be free."""
    m = match(second_dummy=True)
    events = ruled(
        m, {"combatant": "h2", "bar": "Health", "value": 0}, {"combatant": "m1", "bar": "Health", "value": -2}
    )
    assert [(e.actor, e.how) for e in events if isinstance(e, Defeated)] == [
        ("h2", "down at death's door"),
        ("m1", "defeated"),
    ]
    assert told(m)[1:] == ["Hero Two is down at death's door.", "Dummy is defeated."]
    # the Second Dummy still stands for side B: the fight goes on, in the Psych window it was in
    assert m.outcome() is None and m.pending().actors == ("h1",)  # type: ignore[union-attr]
    assert [seen(m, "spectator", c)["down"] for c in ("h2", "m1")] == [True, True]
    assert state(m).fighters["m1"].out == "defeated"
    accepted(m, {"combatant": "h1", "position": [3, 1]})  # onto the defeated monster's square
    refused = rule(m, {"combatant": "m1", "bar": "Health", "value": 4})
    assert isinstance(refused, Rejected) and refused.code == "occupied"
    accepted(m, {"combatant": "h1", "position": [1, 1]}, {"combatant": "m1", "bar": "Health", "value": 4})
    assert state(m).fighters["m1"].up
    assert not [
        e
        for e in ruled(
            m, {"combatant": "h2", "bar": "Health", "value": 5}, {"combatant": "h2", "bar": "Wounds", "value": 20}
        )
        if isinstance(e, Defeated)
    ]
    assert seen(m, GM, "h2")["down"]  # down again by the Wounds set after the Health: it was down before the ruling
    accepted(m, {"combatant": "h2", "bar": "Health", "value": 5})
    assert not seen(m, GM, "h2")["down"] and m.outcome() is None


def test_wh24_statuses_and_wh23_afflictions_given_and_ended_in_every_view() -> None:
    """Rules: WH-24 (a status for N of the bearer's turns), WH-02 (for the rest of the vignette: rounds null),
    WH-A7 (given again, it replaces the one it had), WH-23/WH-B23 (afflictions are lasting tags)."""
    m = match()
    accepted(
        m,
        {"combatant": "m1", "status": "Bleeding", "rounds": 2},
        {"combatant": "h1", "status": "Steeled", "rounds": None},
        {"combatant": "h2", "status": "Eye Scar", "rounds": None},
    )
    for seat in SEATS:
        assert seen(m, seat, "m1")["statuses"] == [{"name": "Bleeding", "rounds": 2}]
        assert seen(m, seat, "h1")["statuses"] == [{"name": "Steeled", "rounds": None}]
        assert seen(m, seat, "h2")["statuses"] == [{"name": "Eye Scar", "rounds": None}]
    h1 = state(m).fighters["h1"]
    assert (h1.mod_defense, h1.mod_defenses) == (2, {"fear": 2})  # Steeled's modifiers are in force
    accepted(m, {"combatant": "m1", "status": "Bleeding", "rounds": 3})
    assert seen(m, "h1", "m1")["statuses"] == [{"name": "Bleeding", "rounds": 3}]
    accepted(
        m,
        {"combatant": "m1", "remove_status": "Bleeding"},
        {"combatant": "h1", "remove_status": "Steeled"},
        {"combatant": "h2", "remove_status": "Eye Scar"},
    )
    assert all(seen(m, "spectator", c)["statuses"] == [] for c in ("h1", "h2", "m1"))
    assert (h1.mod_defense, h1.mod_defenses) == (0, {})


def test_wh_b13_position_moves_the_token_and_every_seat_sees_it() -> None:
    """Rule: WH-B13 (the grid: a free, open square); the facing stays."""
    m = match()
    facing = seen(m, "spectator", "m1")["position"]["facing"]
    accepted(m, {"combatant": "m1", "position": [5, 6]})
    for seat in SEATS:
        assert seen(m, seat, "m1")["position"] == {"kind": "square", "x": 5, "y": 6, "facing": facing}


def test_refused_rulings_say_why_and_change_nothing() -> None:
    """Rules: WH-19/WH-22 (the bars' bounds), WH-24 (the content's statuses), WH-B23 (afflictions take no rounds),
    WH-B13 (free squares on the map), WH-22 (standing needs Health above 0)."""
    m = match()
    accepted(m, {"combatant": "h2", "bar": "Health", "value": -1})
    cases: list[tuple[dict[str, Any], str]] = [
        ({"combatant": "h1", "bar": "HP", "value": 1}, "unknown_bar"),
        ({"combatant": "h1", "bar": "Poise", "value": 11}, "bad_value"),
        ({"combatant": "h1", "bar": "Poise", "value": -1}, "bad_value"),
        ({"combatant": "h1", "bar": "Health", "value": 15}, "bad_value"),
        ({"combatant": "h1", "bar": "Health", "value": -15}, "bad_value"),
        ({"combatant": "h1", "bar": "Wounds", "value": 29}, "bad_value"),
        ({"combatant": "h1", "status": "bleeding", "rounds": 2}, "unknown_status"),  # the id, not the name
        ({"combatant": "h1", "status": "Eye Scar", "rounds": 2}, "bad_value"),
        ({"combatant": "h2", "status": "Bleeding", "rounds": 2}, "bad_status"),  # down: it would do nothing
        ({"combatant": "h1", "remove_status": "Stunned"}, "not_there"),
        ({"combatant": "h1", "position": [12, 0]}, "bad_position"),
        ({"combatant": "h1", "position": "a1"}, "bad_position"),
        ({"combatant": "h1", "position": [3, 1]}, "occupied"),
        ({"combatant": "h1", "out": False}, "not_out"),
        ({"combatant": "h2", "out": True}, "already_out"),
        ({"combatant": "h2", "out": False}, "cannot_stand"),
    ]
    before, version = m.ruleset.snapshot(m.state), m.version
    for change, code in cases:
        result = rule(m, change)
        assert isinstance(result, Rejected) and result.code == code, (change, result)
        assert result.message.endswith(".")
        assert (m.version, m.ruleset.snapshot(m.state)) == (version, before)


def test_wh03_taken_out_while_planning_leaves_the_window_and_its_cards_are_never_turned_over() -> None:
    """WH-03, contract 6: Hero One places a card face down and the GM takes it out; it leaves the Planning window
    (told: it is taken out of the fight), its card is set aside unrevealed, and the phase ends when the others are
    ready."""
    m = match()
    to_planning(m)
    act(m, "h1", {"type": "place", "card": "jab"})
    seal = state(m).fighters["h1"].slots[0].seal
    events = ruled(m, {"combatant": "h1", "out": True})
    assert [e.kind for e in events] == ["ruled", "defeated"]
    assert told(m) == [
        "GM ruling (the GM says so): Hero One is out of the fight.",
        "Hero One is taken out of the fight.",
    ]
    assert m.pending().actors == ("h2", "m1")  # type: ignore[union-attr]
    assert seen(m, "h1", "h1")["detail"]["slots"] == [] and seen(m, "spectator", "h1")["statuses"] == []
    assert all(s[0] != "h1" for s in m.ruleset.secrets(m.state))
    act(m, "h2", {"type": "commit", "cards": ["jab", "wait"]})
    act(m, "m1", {"type": "commit", "cards": ["wait", "guard"]})
    assert seal not in revealed_seals(m) and revealed_seals(m)
    assert state(m).fighters["h1"].out == "removed"


def test_wh02_the_last_one_choosing_taken_out_ends_the_psych_phase_at_once() -> None:
    """WH-02: Hero One, the only one holding a Psych card, plays it face down and the GM takes it out. Its card is
    set aside unrevealed, and with nobody left choosing the phase ends with the ruling as the last "ready" ends it:
    the Planning phase opens (the rules' own window, without Hero One)."""
    m = match()
    act(m, "h1", {"type": "psych", "card": "calm"})
    seal = state(m).fighters["h1"].psych.seal  # type: ignore[union-attr]
    events = ruled(m, {"combatant": "h1", "out": True})
    assert [e.kind for e in events] == ["ruled", "defeated", "phase_started"]
    assert state(m).fighters["h1"].psych is None and seal not in revealed_seals(m)
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("planning", ("h2", "m1"))
    assert {s.action["type"] for s in m.legal("h2")} >= {"ready", "place", "commit"}


def _last_planner_out() -> tuple[Match, list[Event], str, int]:
    """Hero One and the Dummy commit their cards; Hero Two places one face down and the GM takes it out, the last one
    still planning. Returns the match, the ruling's events, Hero Two's seal and the RNG's draws before it."""
    m = match()
    to_planning(m)
    act(m, "h1", {"type": "commit", "cards": ["jab", "lunge"]})
    act(m, "m1", {"type": "commit", "cards": ["jab", "guard"]})
    act(m, "h2", {"type": "place", "card": "jab"})
    seal, before = state(m).fighters["h2"].slots[0].seal, m.rng.index
    return m, ruled(m, {"combatant": "h2", "out": True}), seal, before


def test_wh03_wh04_the_last_one_planning_taken_out_ends_the_phase_with_the_match_dice() -> None:
    """WH-03, WH-04 (two rounds, slot 1 then slot 2), WH-01: with Hero Two taken out nobody is left planning, so the
    phase ends with the ruling as the last "ready" ends it: the Violence phase is played with the match's dice, in
    the ruling's record (Hero Two's face-down card never turned over), and the next vignette opens its own window."""
    m, events, seal, before = _last_planner_out()
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["ruled", "defeated", "phase_started"] and events[2].phase == "violence"  # type: ignore
    rolled = [e for e in events if isinstance(e, Rolled)]
    assert rolled and m.rng.index == before + sum(len(e.roll.dice) for e in rolled)
    assert {e.seal for e in events if isinstance(e, Revealed)} == {
        "v1.h1.slot1",
        "v1.h1.slot2",
        "v1.m1.slot1",
        "v1.m1.slot2",
    }
    assert seal not in revealed_seals(m)
    assert kinds[-2:] == ["vignette", "phase_started"] and state(m).vignette == 2
    window = m.pending()
    assert window is not None and window.phase in ("psych", "planning") and "h2" not in window.actors
    assert "h1" in window.actors


def test_a_ruling_that_rolled_dice_verifies_replays_and_is_rewound_not_taken_back() -> None:
    """WH-04 (the Violence phase a ruling's settle played): the log verifies and replays to the same state; the GM's
    own take back is refused (the ruling turned cards and rolled dice: revealed_since), a rewind to before it works
    and puts the Planning phase back as it was (Hero Two still planning, its card still face down)."""
    m, _, seal, _ = _last_planner_out()
    report = verify(export_log(m, reveal_seed=True))
    assert report.ok, report.problems
    again = m.replayed()
    assert again.ruleset.snapshot(again.state) == m.ruleset.snapshot(m.state)
    refused = m.take_back(GM, version=m.version)
    assert isinstance(refused, Rejected) and refused.code == "revealed_since"
    assert isinstance(m.rewind(m.version - 1, GM, version=m.version), Accepted)
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("planning", ("h2",))
    assert state(m).fighters["h2"].slots[0].seal == seal and state(m).vignette == 1
    assert verify(export_log(m, reveal_seed=True)).ok


def test_wh01_the_last_foe_taken_out_ends_the_fight_at_once() -> None:
    """WH-01: with the dummy taken out no side is left to fight; nobody is down, so no death's-door save is due
    (WH-29) and the fight ends with the ruling, its Ended event in the ruling's record. Hero One's card, face down,
    is set aside unrevealed (WH-03)."""
    m = match()
    to_planning(m)
    act(m, "h1", {"type": "place", "card": "jab"})
    seal = state(m).fighters["h1"].slots[0].seal
    events = ruled(m, {"combatant": "m1", "out": True})
    assert [e.kind for e in events] == ["ruled", "defeated", "ended"]
    outcome = m.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("A", "the other side is down")
    assert told(m)[-1] == "The fight is over. Hero One and Hero Two win: the other side is down."
    assert m.pending() is None and seal not in revealed_seals(m) and not m.ruleset.secrets(m.state)
    assert rule(m, {"combatant": "m1", "out": False}).code == "match_over"


def test_wh29_a_fight_decided_with_a_pc_down_ends_at_once_with_its_deaths_door_save() -> None:
    """WH-29, WH-B8: Hero Two is down and the dummy taken out: the fight ends with the ruling, and Hero Two's
    death's-door save is rolled with the match's die, in the ruling's record."""
    m = match()
    to_planning(m)
    before = m.rng.index
    events = ruled(m, {"combatant": "h2", "bar": "Health", "value": 0}, {"combatant": "m1", "out": True})
    [save] = [e for e in events if isinstance(e, Rolled)]
    assert (save.actor, save.purpose, m.rng.index) == ("h2", "death's-door save", before + 1)
    assert [e.kind for e in events][-1] == "ended" and m.outcome() is not None


def test_brought_back_it_plays_from_the_next_phase() -> None:
    """Taken out in Psych (the phase ends with it, nobody else holding a Psych card) and brought back in Planning,
    Hero One sits this vignette out and plans the next."""
    m = match()
    accepted(m, {"combatant": "h1", "out": True})
    assert m.pending().phase == "planning"  # type: ignore[union-attr]
    accepted(m, {"combatant": "h1", "out": False})
    assert "h1" not in m.pending().actors  # type: ignore[union-attr]
    act(m, "h2", {"type": "commit", "cards": ["wait"]})
    act(m, "m1", {"type": "commit", "cards": ["wait", "guard"]})
    window = m.pending()
    assert window is not None and "h1" in window.actors and state(m).vignette == 2


def test_no_ruling_once_only_the_fates_remain() -> None:
    """WH-29, WH-B8: after the fight (the death's-door phase) the GM rules on each fate instead."""
    m = match()
    s = copy.deepcopy(state(m))
    s.phase = "deaths_door"
    refused = ADJUSTER.check(s, Change("h1", "bar", "Poise", 3))
    assert isinstance(refused, Rejected) and refused.code == "fight_over"


def test_forms_offer_the_bars_statuses_and_squares() -> None:
    form = ADJUSTER.forms(state(match()))["h1"]
    assert form["bars"] == [
        {"name": "Poise", "min": 0, "max": 10},
        {"name": "Health", "min": -14, "max": 14},
        {"name": "Wounds", "min": 0, "max": 28},
    ]
    assert {"Bleeding", "Stunned", "Steeled", "Enraged"} <= set(texts(form, "statuses"))  # every status of the content
    assert (form["position"], form["out"]) == ("square", False)


def _play_with_rulings(path: str, seed: int, kind: str) -> Match:
    """Play ``path`` with ``kind`` policies; the GM takes out whoever must choose at step 2 and brings it back (its
    square free, Health above 0) at step 8."""
    scenario = affray.load_scenario(ROOT / path)
    m = scenario.start(seed)
    policies = (
        {a: RandomPolicy() for a in m.controllers}
        if kind == "random"
        else {**scenario.policies(m, {a: "heuristic" for a in m.controllers if a != GM}), GM: RandomPolicy()}
    )
    rng, taken = FastRNG(seed), ""
    first = next(iter(m.names()))
    accepted(
        m, {"combatant": first, "bar": "Wounds", "value": 2}, {"combatant": first, "status": "Bleeding", "rounds": 1}
    )
    for step in range(2_000):
        window = m.pending()
        if window is None:
            break
        actor = next(a for a in window.actors if a != GM) if window.phase != "deaths_door" else GM
        if step == 2 and not taken and actor != GM:
            taken = actor
            accepted(m, {"combatant": actor, "out": True})
            continue
        f = state(m).fighters.get(taken)
        if (
            step >= 8
            and f is not None
            and f.out == "removed"
            and window.phase != "deaths_door"
            and f.pos not in state(m).occupied(f)
            and f.health > 0
        ):
            accepted(m, {"combatant": taken, "out": False})
            continue
        result = m.act(actor, policy_action(m, policies[actor], actor, rng), version=m.version)
        assert isinstance(result, Accepted), result
    return m


@pytest.mark.parametrize("kind", ["random", "heuristic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fights_with_rulings_end_verify_and_replay(kind: str, seed: int) -> None:
    """A ruling at the start, a combatant taken out mid-window and brought back: the fight ends, its log verifies
    and replays to the same state."""
    m = _play_with_rulings("examples/witchhammer/cinder_ford.yaml", seed, kind)
    assert m.outcome() is not None
    assert [r.kind for r in m.records].count("gm") == 3
    report = verify(export_log(m))
    assert report.ok, report.problems
    again = m.replayed()
    assert again.ruleset.snapshot(again.state) == m.ruleset.snapshot(m.state)
    assert not m.ruleset.invariants(m.state)
