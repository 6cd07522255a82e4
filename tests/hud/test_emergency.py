"""Emergency additional actions after the declarations. Rules: WL-17, WL-B6 (option emergency_actions)."""

from __future__ import annotations

from typing import Any

from affray.rulesets.hud.state import HudState
from tests.hud.helpers import DEFENSE, attack, combatant, declare, hud_match, kinds, ok, rejected, totals

ANY = {"emergency_actions": "any"}


def plain(cid: str, **extra: Any) -> dict[str, Any]:
    return combatant(cid, name=cid.upper(), endurance=10, **extra)


def state_of(match: object) -> HudState:
    return match.state  # type: ignore[attr-defined, no-any-return]


def test_wl17_emergency_attack_at_the_initiative_step_costs_minus_two_next_round() -> None:
    """WL-17: the additional action can be added at any time, even after the declarations: an emergency attack
    at the end of one's initiative step, whose -2 falls on every roll of the whole next round (not this one)."""
    dice = [9, 3, 10, 4, 9, 5, 8, 2, 7, 3, 6, 5]
    m = hud_match("nerdified", plain("a"), plain("b"), dice, options=ANY)
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), DEFENSE))
    ok(m.act("b", {"type": "defend"}))  # 10 vs 4: a hits
    ok(m.act("a", {"type": "damage"}))  # 9 vs 5: b at 6
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("emergency", ("a",))
    assert [x.action for x in m.legal("a")] == [
        {"type": "emergency_attack", "target": "b"},
        {"type": "emergency_complex", "text": "an emergency complex activity"},
        {"type": "carry_on"},
    ]
    events = ok(m.act("a", {"type": "emergency_attack", "target": "b"}))
    assert kinds(events) == ["emergency_action"]
    events = ok(m.act("b", {"type": "defend"}))  # b's second defense: 8 vs 2, a hits; no -2 yet
    assert totals(events, "attack") == [8] and totals(events, "defense") == [2]
    events = ok(m.act("a", {"type": "damage"}))
    assert totals(events, "damage") == [7] and state_of(m).fighters["b"].hp == 2
    assert m.pending().actors == ("b",)  # type: ignore[union-attr]
    ok(m.act("b", {"type": "carry_on"}))
    s = state_of(m)
    assert s.round == 2 and (s.fighters["a"].penalty, s.fighters["b"].penalty) == (-2, 0)
    assert [e.roll.total for e in events if e.kind == "rolled"] == [7, 3]  # type: ignore[attr-defined]
    assert s.fighters["a"].initiative == 6  # WL-17: the Initiative roll is never penalised


def test_wl17_emergency_complex_activity_takes_free_text() -> None:
    """WL-17: an emergency complex activity (free text) also costs the additional action."""
    m = hud_match("nerdified", plain("a"), plain("b"), [9, 3], options=ANY)
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", DEFENSE, DEFENSE))
    events = ok(m.act("a", {"type": "emergency_complex", "text": "kicks the brazier over"}))
    assert [e.describe({"a": "A"}) for e in events if e.kind == "emergency_action"] == [
        "A takes an emergency additional action: a complex activity (kicks the brazier over) (-2 to every roll "
        "next round)."
    ]
    assert state_of(m).fighters["a"].additional_used == 1


def test_wl_b6_no_emergency_prompt_after_a_declared_additional_action() -> None:
    """WL-B6: at most one additional action a round: after a declared one there is no emergency prompt, and an
    emergency attack on a foe out of reach is refused."""
    m = hud_match("nerdified", plain("a"), plain("b", band="far"), [9, 3, 5, 6], options=ANY)
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", DEFENSE, DEFENSE, DEFENSE, additional=True))
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("emergency", ("b",))
    assert rejected(m, "b", {"type": "emergency_attack", "target": "a"}).code == "out_of_reach"
    assert rejected(m, "b", {"type": "emergency_attack", "target": "b"}).code == "bad_target"
    ok(m.act("b", {"type": "carry_on"}))
    assert state_of(m).round == 2


def test_wl17_option_defense_only_asks_nothing() -> None:
    """Option emergency_actions='defense': the emergency additional action is only a defense; no prompt."""
    m = hud_match("nerdified", plain("a"), plain("b"), [9, 3, 4, 5], options={"emergency_actions": "defense"})
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", DEFENSE, DEFENSE))
    assert state_of(m).round == 2 and m.pending().phase == "declare"  # type: ignore[union-attr]
