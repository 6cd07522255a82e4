"""Distance bands in the heuristic's choices, and escapes in the reports. Rules: WL-B13, WL-B14, WL-22."""

from __future__ import annotations

from typing import Any

from affray.core.engine import Outcome, Viewer
from affray.core.rng import FastRNG
from affray.rulesets.hud.policies import HudHeuristic
from affray.sim.stats import Tally, summary
from tests.hud.helpers import RULESET, combatant, hud_match


def heuristic_plan(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    m = hud_match("nerdified", a, b, [2, 8])
    view = RULESET.view(m.state, Viewer("x", frozenset({a["id"]})))
    view["acting"] = a["id"]
    action = HudHeuristic().choose(view, m.legal(a["id"]), FastRNG(1))
    plan: list[dict[str, Any]] = action["plan"]
    return plan


def test_wl_b13_heuristic_attacks_an_engaged_foe_closes_on_a_near_one_charges_a_far_one() -> None:
    """WL-B13: the heuristic never charges a foe it is engaged with; it closes in on a near foe with the free move
    and charges a far one (WL-18)."""
    hald = combatant("hald", "sergeant")
    assert heuristic_plan(combatant("vesna", "vesna"), hald) == [{"type": "attack", "target": "hald"},
                                                                  {"type": "defense"}]
    assert heuristic_plan(combatant("vesna", "vesna", band="near"), hald) == [
        {"type": "close", "target": "hald"}, {"type": "attack", "target": "hald"}, {"type": "defense"}]
    assert heuristic_plan(combatant("vesna", "vesna", band="far"), hald) == [{"type": "charge", "target": "hald"}]


def test_wl_b14_escapes_are_counted_apart_from_wins_and_draws() -> None:
    """WL-B14: a fight that ends as *escaped* is neither a win nor a draw in the simulation's tally."""
    tally = Tally()
    tally.add(Outcome(None, "escaped", {"escaped": ["a"], "held_the_field": "B", "down": []}), 3, {})
    tally.add(Outcome("B", "every foe is down"), 4, {})
    tally.add(Outcome(None, "round limit of 200 reached"), 200, {})
    other = Tally()
    other.add(Outcome(None, "escaped"), 2, {})
    tally.merge(other)
    report = summary(tally, ["A", "B"], {})
    assert (tally.escapes, tally.draws, tally.wins) == (2, 1, {"B": 1})
    assert report["escapes"]["count"] == 2 and report["escapes"]["rate"] == 0.5
    assert report["draws"]["count"] == 1 and report["sides"]["B"]["wins"] == 1
