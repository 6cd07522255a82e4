"""GM rulings on a Spellchrome fight (rulesets/spellchrome/adjust.py; docs/spellchrome.md, "GM rulings"): every
change form seen in every seat's view, each refusal with its code and nothing changed, the hit-point states and
the outcome following the rules, a combatant taken out on its turn and while it decides on an attack of
opportunity, brought back, and fights with rulings played to their end, verified and replayed."""

from __future__ import annotations

from typing import Any

import pytest

import affray
from affray.ai.base import RandomPolicy
from affray.ai.runner import policy_action
from affray.core.engine import GM, Accepted, Rejected
from affray.core.log import export_log, verify
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.rulesets.spellchrome.adjust import ADJUSTER
from tests.conformance.common import ROOT
from tests.spellchrome.support import fighter, seeded, state_of, who

SEATS = ("a", "b", "c", "d", "spectator", GM)


def duel() -> Match:
    """Ayla (a, red, at (1, 1)) against Bram (b, blue, at (2, 1)); Ayla acts first."""
    return seeded({"red": [fighter("a", (1, 1), name="Ayla")], "blue": [fighter("b", (2, 1), name="Bram")]}, "ab")


def four() -> Match:
    """Ayla and Dara (red) against Bram and Cora (blue) in the corners; the order is Bram, Cora, Dara, Ayla."""
    return seeded({"red": [fighter("a", (0, 0), name="Ayla"), fighter("d", (0, 2), name="Dara")],
                  "blue": [fighter("b", (5, 0), name="Bram"), fighter("c", (5, 2), name="Cora")]}, "bcda")


def rule(m: Match, *changes: dict[str, Any], reason: str = "the GM says so") -> Any:
    return m.rule(GM, {"type": "ruling", "reason": reason, "changes": list(changes)}, version=m.version)


def accepted(m: Match, *changes: dict[str, Any]) -> None:
    result = rule(m, *changes)
    assert isinstance(result, Accepted), result


def seen(m: Match, seat: str, cid: str) -> dict[str, Any]:
    return next(c for c in m.view_json(seat)["combatants"] if c["id"] == cid)


def everywhere(m: Match, cid: str) -> list[dict[str, Any]]:
    return [seen(m, seat, cid) for seat in SEATS if seat in m.seats.values() or seat == "spectator"]


def test_sc01_sc07_bars_are_set_and_every_seat_sees_them_and_reads_the_ruling() -> None:
    """Rules: SC-01 (HP current / max), SC-07 (EX-HP): the bars as the view names them."""
    m = seeded({"red": [fighter("a", (1, 1), name="Ayla", armour="shimmer_vest")],
               "blue": [fighter("b", (2, 1), name="Bram")]}, "ab")
    ex_max = who(m, "a").ex_hp_max
    assert ex_max > 0
    accepted(m, {"combatant": "a", "bar": "HP", "value": 7}, {"combatant": "a", "bar": "EX-HP", "value": 1})
    for c in everywhere(m, "a"):
        assert c["bars"] == [{"name": "HP", "value": 7, "max": 20}, {"name": "EX-HP", "value": 1, "max": ex_max}]
    for seat in ("a", "b", "spectator", GM):
        [entry] = m.events_since(m.version - 1, seat, narrate=True)
        assert [e["text"] for e in entry["events"]] == [
            f"GM ruling (the GM says so): Ayla's HP 7 (was 20); Ayla's EX-HP 1 (was {ex_max})."]


def test_sc03_sc04_sc05_hp_sets_the_hit_point_state() -> None:
    """Rules: SC-03 (0 unconscious), SC-04 (−1..−29 dying, from this round: SC-B3), SC-05 (−30 dead), SC-02 (1 or
    more: normal again, and a stable character healed to 0 or more is no longer stable, SC-06)."""
    m = four()
    accepted(m, {"combatant": "c", "bar": "HP", "value": 0})
    assert [s["name"] for s in seen(m, "spectator", "c")["statuses"]] == ["unconscious"]
    accepted(m, {"combatant": "c", "bar": "HP", "value": -4})
    c = who(m, "c")
    assert (c.status, c.dropped_round) == ("dying", 1)
    accepted(m, {"combatant": "c", "status": "stable", "rounds": None})
    assert seen(m, "b", "c")["statuses"] == [{"name": "stable", "rounds": None}]
    accepted(m, {"combatant": "c", "bar": "HP", "value": 3})
    assert (c.status, c.stable, c.able) == ("normal", False, True)
    accepted(m, {"combatant": "c", "bar": "HP", "value": -30})
    assert seen(m, "spectator", "c")["dead"] and seen(m, "spectator", "c")["statuses"] == [
        {"name": "dead", "rounds": None}]


def test_sc02_sc10_statuses_given_and_ended_in_every_view() -> None:
    """Rules: SC-10 (a knockout: unconscious at 1 HP or more, until the GM ends it), SC-02 (giving up)."""
    m = four()
    accepted(m, {"combatant": "c", "status": "unconscious", "rounds": None},
             {"combatant": "d", "status": "surrendered", "rounds": None})
    for c in everywhere(m, "c"):
        assert c["statuses"] == [{"name": "unconscious", "rounds": None}] and c["down"]
    assert all(c["statuses"] == [{"name": "surrendered", "rounds": None}] for c in everywhere(m, "d"))
    accepted(m, {"combatant": "c", "remove_status": "unconscious"}, {"combatant": "d", "remove_status": "surrendered"})
    assert all(c["statuses"] == [] and not c["down"] for cid in "cd" for c in everywhere(m, cid))


def test_sc24_position_moves_the_token_and_every_seat_sees_it() -> None:
    """Rule: SC-24 (a move ends on a square nobody able stands on): the GM drags Bram to (4, 2)."""
    m = duel()
    accepted(m, {"combatant": "b", "position": [4, 2]})
    assert all(c["position"]["x"] == 4 and c["position"]["y"] == 2 for c in everywhere(m, "b"))
    [entry] = m.events_since(m.version - 1, "a", narrate=True)
    assert entry["events"][0]["text"] == "GM ruling (the GM says so): Bram is moved to (4, 2)."


def test_refused_rulings_say_why_and_change_nothing() -> None:
    """Rules: SC-05/SC-08 (HP from −30 to max), SC-07 (EX-HP up to the armour's), SC-06 (only the dying are
    stable), SC-04/SC-05 (dying and dead follow from HP), SC-24 (occupied squares), SC-03 (standing needs 1 HP)."""
    m = duel()
    accepted(m, {"combatant": "b", "bar": "HP", "value": 5})
    cases: list[tuple[dict[str, Any], str]] = [
        ({"combatant": "a", "bar": "Grit", "value": 1}, "unknown_bar"),
        ({"combatant": "a", "bar": "HP", "value": 21}, "bad_value"),
        ({"combatant": "a", "bar": "HP", "value": -31}, "bad_value"),
        ({"combatant": "a", "bar": "EX-HP", "value": 1}, "bad_value"),
        ({"combatant": "a", "status": "Bleeding", "rounds": None}, "unknown_status"),
        ({"combatant": "a", "status": "unconscious", "rounds": 2}, "bad_value"),
        ({"combatant": "a", "status": "dying", "rounds": None}, "derived_status"),
        ({"combatant": "a", "status": "stable", "rounds": None}, "bad_status"),
        ({"combatant": "a", "remove_status": "surrendered"}, "not_there"),
        ({"combatant": "a", "position": [9, 9]}, "bad_position"),
        ({"combatant": "a", "position": [1, 2]}, "bad_position"),  # the wall
        ({"combatant": "a", "position": [2, 1, 0]}, "bad_position"),
        ({"combatant": "a", "position": [2, 1]}, "occupied"),
        ({"combatant": "a", "out": False}, "not_out"),
        ({"combatant": "zed", "out": True}, "unknown_combatant"),
    ]
    before, version = m.ruleset.snapshot(m.state), m.version
    for change, code in cases:
        result = rule(m, change)
        assert isinstance(result, Rejected) and result.code == code, (change, result)
        assert result.message.endswith(".")
        assert (m.version, m.ruleset.snapshot(m.state)) == (version, before)
    accepted(m, {"combatant": "b", "out": True})
    outcome = m.outcome()
    assert outcome is not None and outcome.winner == "red"  # SC-R12: the last foe taken out ends the fight
    assert rule(m, {"combatant": "b", "out": False}).code == "match_over"


def test_taken_out_and_brought_back() -> None:
    """Out of the fight: no turn, not a target, off the board; back only on its feet (SC-03) and on a free square
    (SC-24), at its initiative count."""
    m = four()
    accepted(m, {"combatant": "c", "out": True})
    assert all(c["statuses"] == [{"name": "out", "rounds": None}] and c["down"] for c in everywhere(m, "c"))
    assert ADJUSTER.forms(state_of(m))["c"]["out"] is True
    assert rule(m, {"combatant": "c", "out": True}).code == "already_out"
    accepted(m, {"combatant": "c", "bar": "HP", "value": 0})
    assert rule(m, {"combatant": "c", "out": False}).code == "cannot_stand"
    accepted(m, {"combatant": "c", "bar": "HP", "value": 9}, {"combatant": "d", "position": [5, 2]})
    assert rule(m, {"combatant": "c", "out": False}).code == "occupied"
    accepted(m, {"combatant": "c", "position": [4, 2]}, {"combatant": "c", "out": False})
    assert who(m, "c").able and seen(m, "d", "c")["statuses"] == []


def test_taken_out_on_its_turn_the_turn_passes_at_once() -> None:
    """SC-15, SC-16: Bram's turn passes to Cora, next in the initiative order, when the GM takes Bram out; he is
    back for round 2 and acts at his count."""
    m = four()
    assert m.pending().actors == ("b",)  # type: ignore[union-attr]
    accepted(m, {"combatant": "b", "out": True})
    assert m.pending().actors == ("c",)  # type: ignore[union-attr]
    accepted(m, {"combatant": "b", "out": False})
    for actor in ("c", "d", "a"):
        assert m.act(actor, {"type": "end_turn"}, version=m.version)
    assert (state_of(m).round, m.pending().actors) == (2, ("b",))  # type: ignore[union-attr]


def test_sc04_a_turn_that_cannot_pass_without_dice_waits_for_its_end() -> None:
    """SC-04, SC-B3: Ayla is last in the round; the GM leaves Cora dying and takes Ayla out, so the round's end
    rolls Cora's 1d4. A ruling draws no die: Ayla keeps her turn, with one choice, to end it, and that step rolls."""
    m = four()
    for actor in ("b", "c", "d"):
        assert isinstance(m.act(actor, {"type": "end_turn"}, version=m.version), Accepted)
    accepted(m, {"combatant": "c", "bar": "HP", "value": -5}, {"combatant": "a", "out": True})
    assert m.pending().actors == ("a",)  # type: ignore[union-attr]
    assert [s.action for s in m.legal("a")] == [{"type": "end_turn"}]
    refused = m.act("a", {"type": "move", "to": [1, 0]}, version=m.version)
    assert isinstance(refused, Rejected) and refused.code == "out_of_the_fight"
    result = m.act("a", {"type": "end_turn"}, version=m.version)
    assert isinstance(result, Accepted)
    assert [e.purpose for e in result.events if e.kind == "rolled"] == ["dying (1d4 lost)"]  # type: ignore[attr-defined]
    assert m.pending().actors == ("b",)  # type: ignore[union-attr]


def test_sc27_a_foe_taken_out_while_deciding_on_an_attack_of_opportunity() -> None:
    """SC-27 (a): Ayla leaves Bram's reach and provokes; the GM takes Bram out while he decides. The move goes on
    (no die needed) and Ayla's turn with it."""
    m = duel()
    m.act("a", {"type": "move", "to": [0, 1]}, version=m.version)
    assert m.pending().phase == "attack_of_opportunity"  # type: ignore[union-attr]
    accepted(m, {"combatant": "b", "out": True})
    outcome = m.outcome()
    assert outcome is not None and outcome.winner == "red"  # and with him the last foe
    m = seeded({"red": [fighter("a", (1, 1), name="Ayla")],
               "blue": [fighter("b", (2, 1), name="Bram"), fighter("c", (5, 0), name="Cora")]}, "abc")
    m.act("a", {"type": "move", "to": [0, 1]}, version=m.version)
    accepted(m, {"combatant": "b", "out": True})
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("turn", ("a",))
    assert who(m, "a").pos == (0, 1) and state_of(m).opportunity is None


def test_sc27_a_foe_moved_away_lets_the_provoked_attack_go_on_when_it_passes() -> None:
    """SC-27 (d): Ayla shoots at Bram beside her, and he may punish it; the GM drags him out of reach. Going on
    would roll the shot, so Bram keeps the window with one choice, to let her go; then the shot is rolled."""
    m = seeded({"red": [fighter("a", (1, 1), name="Ayla", weapons=["hand_crossbow"])],
               "blue": [fighter("b", (2, 1), name="Bram")]}, "ab")
    m.act("a", {"type": "attack", "target": "b", "weapon": "hand_crossbow"}, version=m.version)
    assert m.pending().actors == ("b",)  # type: ignore[union-attr]
    accepted(m, {"combatant": "b", "position": [4, 1]})
    assert [s.action for s in m.legal("b")] == [{"type": "decline"}]
    refused = m.act("b", {"type": "attack_of_opportunity"}, version=m.version)
    assert isinstance(refused, Rejected) and refused.code == "no_opportunity"
    result = m.act("b", {"type": "decline"}, version=m.version)
    assert isinstance(result, Accepted)
    assert [e.kind for e in result.events][:2] == ["opportunity_declined", "rolled"]


def test_sc04_sc_r12_a_fight_decided_while_the_dying_bleed_reopens_when_a_foe_stands_again() -> None:
    """SC-04, ruling SC-R12: the GM drops Bram to −5: the fight is decided and he bleeds on (the aftermath); healed
    to 10 HP by a ruling he stands, so the fight goes on."""
    m = duel()
    accepted(m, {"combatant": "b", "bar": "HP", "value": -5})
    assert state_of(m).decided is not None and m.pending().phase == "aftermath"  # type: ignore[union-attr]
    accepted(m, {"combatant": "b", "bar": "HP", "value": 10})
    assert state_of(m).decided is None and m.pending().phase == "turn"  # type: ignore[union-attr]
    assert m.outcome() is None


def test_forms_offer_the_bars_statuses_and_squares() -> None:
    m = duel()
    assert ADJUSTER.forms(state_of(m))["a"] == {
        "bars": [{"name": "HP", "min": -30, "max": 20}, {"name": "EX-HP", "min": 0, "max": 0}],
        "statuses": ["stable", "unconscious", "surrendered", "out"], "position": "square", "out": False}


def _play_with_rulings(path: str, seed: int, kind: str) -> Match:
    """Play ``path`` with ``kind`` policies, the GM taking out whoever must act at step 4 and bringing it back (on
    its feet, on a free square) at step 12."""
    scenario = affray.load_scenario(ROOT / path)
    m = scenario.start(seed)
    policies = ({a: RandomPolicy() for a in m.controllers} if kind == "random" else
                scenario.policies(m, {a: "heuristic" for a in m.controllers if a != GM}))
    rng, taken = FastRNG(seed), ""
    accepted(m, {"combatant": next(iter(m.names())), "bar": "HP", "value": 5})
    for step in range(2_000):
        window = m.pending()
        if window is None:
            break
        actor = window.actors[0]
        if step == 4 and not taken:
            taken = actor
            accepted(m, {"combatant": actor, "out": True})
            continue
        if step == 12 and taken and m.outcome() is None:
            state = state_of(m)
            free = next((x, y) for y in range(state.grid.height) for x in range(state.grid.width)
                        if state.grid.passable((x, y)) and not state.at((x, y)))
            accepted(m, {"combatant": taken, "bar": "HP", "value": 3}, {"combatant": taken, "position": list(free)},
                     {"combatant": taken, "out": False})
            continue
        result = m.act(actor, policy_action(m, policies[actor], actor, rng), version=m.version)
        assert isinstance(result, Accepted), result
    return m


@pytest.mark.parametrize("kind", ["random", "heuristic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fights_with_rulings_end_verify_and_replay(kind: str, seed: int) -> None:
    """A ruling at the start, a combatant taken out mid-fight and brought back: the fight ends, its log verifies
    and replays to the same state."""
    m = _play_with_rulings("examples/spellchrome/crossroads_2v2.yaml", seed, kind)
    assert m.outcome() is not None
    assert [r.kind for r in m.records].count("gm") == 3
    report = verify(export_log(m))
    assert report.ok, report.problems
    again = m.replayed()
    assert again.ruleset.snapshot(again.state) == m.ruleset.snapshot(m.state)
    assert not m.ruleset.invariants(m.state)
