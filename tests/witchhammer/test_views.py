"""Typed views, declared actions and the one memo (docs/architecture.md) for WitchHammer: every view validates against
its JSON Schema, every legal action is an instance of a declared action type, views and legal lists built through a
match's memo equal ones built from scratch, and the bars, statuses and positions carry the rules' numbers.
Rules: WH-02, WH-03, WH-05, WH-19, WH-20, WH-22, WH-24; DESIGN.md contract 6."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

import affray
from affray.core.actions import actions_schema, check_action
from affray.core.engine import GM, SPECTATOR
from affray.core.json import as_object
from affray.core.match import Match
from affray.core.memo import Memo
from affray.core.rng import FastRNG
from affray.core.view import Bar, Position, Status, View, view_schema
from affray.rulesets.witchhammer.actions import ACTION_TYPES
from affray.rulesets.witchhammer.hints import hints
from affray.rulesets.witchhammer.odds import attack_odds
from affray.rulesets.witchhammer.state import Status as Held
from affray.rulesets.witchhammer.state import WitchHammerState
from affray.rulesets.witchhammer.view_types import WitchHammerCombatantDetail, WitchHammerDetail
from affray.rulesets.witchhammer.views import WitchHammerView
from tests.witchhammer.helpers import RULESET, fighter, new_match, ok

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples" / "witchhammer").glob("*.yaml"))
ADAPTER: TypeAdapter[WitchHammerView] = TypeAdapter(View[WitchHammerDetail, WitchHammerCombatantDetail])


def state_of(m: Match) -> WitchHammerState:
    assert isinstance(m.state, WitchHammerState)
    return m.state


def seats(m: Match) -> list[str]:
    return [*m.seat_names(), SPECTATOR, GM]


def test_view_types_are_declared_and_the_schema_names_them() -> None:
    assert RULESET.view_types == (WitchHammerDetail, WitchHammerCombatantDetail)
    schema = view_schema(*RULESET.view_types)
    assert schema["title"] == "View (WitchHammerDetail)"
    defs = as_object(schema["$defs"])
    assert {"WitchHammerDetail", "WitchHammerCombatantDetail", "FaceDown", "CardInfo"} <= set(defs)
    actions: dict[str, Any] = actions_schema("witchhammer", RULESET.action_types())
    assert [t["properties"]["type"]["const"] for t in actions["oneOf"]] == [
        "psych",
        "place",
        "ready",
        "commit",
        "withdraw",
        "timeout",
        "fate",
    ]
    assert actions["oneOf"][3]["properties"]["cards"]["x-free"] is True


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_random_playout_views_validate_legal_actions_are_declared_and_the_memo_changes_nothing(path: Path) -> None:
    """Over a random playout of every example: each seat's view (JSON) validates against the view schema and
    reads back equal; each legal action passes ``check_action``; a view and a legal list built through one memo
    (advanced with the log) equal ones built from scratch."""
    scenario = affray.load_scenario(path)
    match = scenario.start(3)
    rng, memo = FastRNG(3), Memo()
    for step in range(150):
        state = state_of(match)
        window = match.pending()
        for seat in seats(match) if step % 6 == 0 or window is None else [match.seats[window.actors[0]]]:
            viewer = match.viewer(seat)
            cached = RULESET.view(state, viewer, memo)
            assert cached == RULESET.view(state, viewer)
            if step % 6 == 0:
                assert ADAPTER.validate_python(json.loads(json.dumps(cached.to_json()))) == cached
        if window is None:
            break
        for actor in window.actors:
            legal = RULESET.legal(state, actor, memo)
            assert legal == RULESET.legal(state, actor)
            for spec in legal:
                assert check_action(spec.action, ACTION_TYPES) == [], spec
        actor = window.actors[rng.die(len(window.actors)) - 1]
        legal = RULESET.legal(state, actor, memo)
        ok(match.act(actor, legal[rng.die(len(legal)) - 1].action))
        memo.advance(len(match.log))


def test_wh19_wh20_wh24_bars_statuses_and_position_carry_the_rules_numbers() -> None:
    """WH-19: 12 damage on Poise 5 / Health 14 leaves Poise 0, Health 7 and 7 Wounds; WH-20: the Malus for 7
    Wounds of 14 is -3; WH-24: a bleed for 2 rounds shows its 2 rounds left; the square and facing are the
    fighter's (WH-B14)."""
    m = new_match([fighter("a", (1, 1))], [fighter("b", (2, 1), use="dummy")])
    s = state_of(m)
    a = s.fighters["a"]
    a.poise, a.health = 0, 7
    a.statuses.append(Held(s.statuses["bleeding"], 2, "test"))
    s.board += 1  # a change outside a step: the board moved
    c = RULESET.view(s, m.viewer(SPECTATOR)).combatant("a")
    assert c.bars == (Bar("Poise", 0, 10), Bar("Health", 7, 14), Bar("Wounds", 7, 14))
    assert c.statuses == (Status("Bleeding", 2),)
    assert c.detail.combat.malus == -3 and c.position == Position("square", 1, 1, "e")
    assert (c.down, c.dead, c.controlled) == (False, False, False)


def test_wh22_a_combatant_starting_at_0_health_shows_down_to_everyone() -> None:
    """WH-22: Health 0 at the start: down, with its Health bar at 0 of 14 and 14 Wounds."""
    m = new_match([fighter("a", (1, 1), health=0), fighter("c", (3, 3))], [fighter("b", (2, 1), use="dummy")])
    for seat in seats(m):
        a = RULESET.view(state_of(m), m.viewer(seat)).combatant("a")
        assert a.down and not a.dead and a.bars[1:] == (Bar("Health", 0, 14), Bar("Wounds", 14, 14))


def test_wh11_wh12_hints_read_the_typed_view_and_the_targets_malus() -> None:
    """WH-11..WH-16 and WH-12: Jab (Attack 0) + the hero's Attack 0 against the dummy's Defense 0 less its Malus:
    the dummy at 6 Health of 10 (4 Wounds: Malus -4 by WH-20/WH-B6) is hit on a d20 of 7 or more."""
    m = new_match([fighter("a", (1, 1))], [fighter("b", (2, 1), use="dummy")])
    for actor in ("a", "b"):
        ok(m.act(actor, {"type": "ready"}))
    s = state_of(m)
    s.fighters["b"].health = 6
    s.board += 1
    view = RULESET.view(s, m.viewer("a"))
    assert view.combatant("b").detail.combat.malus == -4
    specs = RULESET.legal(s, "a")
    shown = dict(zip((sp.label for sp in specs), hints(view, "a", specs), strict=True))
    odds = attack_odds(0, 0, target_malus=-4)
    assert odds.p_hit == attack_odds(0, -4).p_hit
    assert shown["place Jab face down"] == (
        f"Jab hit {float(odds.p_hit):.0%} · solid {float(odds.p_solid_hit):.0%} (vs Dummy)"
    )
    assert shown["place Guard face down"] == ""
