"""The HuD's warnings as codes: the additional action's penalty (WL-17) is noted in words and
carried as the code ``penalty`` (``ActionSpec.warnings``, core/actions.py ``WARNING_CODES``), in the wire JSON too."""

from __future__ import annotations

from tests.hud.helpers import DEFENSE, attack, combatant, declare, hud_match, ok


def test_wl17_the_emergency_action_warns_with_the_code_penalty() -> None:
    """WL-17: an emergency attack or complex activity costs -2 to all rolls next round: the note says so and its
    code is ``penalty``; carrying on warns of nothing."""
    m = hud_match(
        "nerdified",
        combatant("a", name="A", endurance=10),
        combatant("b", name="B", endurance=10),
        [9, 3, 10, 4, 9, 5],
        options={"emergency_actions": "any"},
    )
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), DEFENSE))
    ok(m.act("b", {"type": "defend"}))
    ok(m.act("a", {"type": "damage"}))
    legal = m.legal("a")
    assert [(s.action["type"], s.notes, s.warnings) for s in legal] == [
        ("emergency_attack", ("-2 to all rolls next round",), ("penalty",)),
        ("emergency_complex", ("-2 to all rolls next round",), ("penalty",)),
        ("carry_on", (), ()),
    ]
    assert legal[0].to_dict()["warnings"] == ["penalty"] and "warnings" not in legal[2].to_dict()


def test_wl17_an_additional_action_s_plan_warns_with_the_code_penalty() -> None:
    """WL-17: a declaration with the additional action (-2 to all rolls this round) carries the code ``penalty``;
    a plain declaration none (B, the lower Chance roll, declares first: 2 actions of attack or defense, or 3)."""
    m = hud_match("nerdified", combatant("a", name="A", endurance=10), combatant("b", name="B", endurance=10), [9, 3])
    plans = [s for s in m.legal("b") if s.action["type"] == "declare"]
    extra = [s for s in plans if s.action["additional"]]
    plain = [s for s in plans if not s.action["additional"]]
    assert (len(plain), len(extra)) == (2**2, 2**3)
    assert all(s.warnings == ("penalty",) and s.notes == ("-2 to all rolls this round",) for s in extra)
    assert all(s.warnings == () and s.notes == () for s in plain)
