"""WR-12: the weapon an attack uses is one field, declared once (:data:`affray.rulesets.warp.actions.WEAPON`): the
attack's type holds it, the attack's check accepts exactly its type's fields, the listing writes it in every attack,
and an attack that leaves it out uses the weapon in hand (:func:`~affray.rulesets.warp.actions.weapon_of`)."""

from __future__ import annotations

from affray.core.fields import text
from affray.rulesets.warp.actions import ACTION_TYPES, ATTACK, WEAPON, weapon_of
from affray.rulesets.warp.attack import ATTACK_FIELDS
from affray.rulesets.warp.events import AttackDeclared
from tests.warp.helpers import RULESET, attack, fighter, ok, state, thug, warp_match


def test_wr12_the_attack_s_weapon_field_is_declared_once_and_its_fields_are_the_type_s() -> None:
    assert [t for t in ACTION_TYPES if t.type == "attack"] == [ATTACK]
    assert [f for f in ATTACK.fields if f.name == "weapon"] == [WEAPON] and not WEAPON.required
    assert {"type", "target", "weapon", "mode", "trait", "maneuver", "experience", "claim", "move"} == ATTACK_FIELDS


def test_wr12_an_attack_without_a_weapon_uses_the_one_in_hand() -> None:
    """The lead pipe in hand strikes when the attack names no weapon; the knife when it is named."""
    assert weapon_of({"type": "attack"}, "lead_pipe") == "lead_pipe"
    assert weapon_of({"type": "attack", "weapon": "knife"}, "lead_pipe") == "knife"
    a = fighter("a", traits={"street_brawler": 3}, weapons=["lead_pipe", "knife"], wielding="lead_pipe", position=0)
    m = warp_match([a], [thug("b", position=1)], [1] * 20)
    declared = [e for e in ok(m.act("a", attack("b"))) if isinstance(e, AttackDeclared)]
    assert [(d.weapon, d.mode) for d in declared] == [("lead pipe", "melee")]


def test_wr04_wr30_every_listed_attack_names_its_weapon_and_its_free_fields() -> None:
    """Each listed attack names a carried weapon; its free fields are those of the attack's type it carries: the
    maneuver always (WR-30), the Experience Pool dice when it spends one (WR-04)."""
    a = fighter("a", traits={"street_brawler": 3}, weapons=["lead_pipe", "knife"], experience=1, position=0)
    m = warp_match([a], [thug("b", position=1)], [6] * 6)
    attacks = [s for s in RULESET.legal(state(m), "a") if s.action["type"] == "attack"]
    assert {text(s.action, "weapon") for s in attacks} == {"lead_pipe", "knife", "unarmed"}
    assert {(s.free, "experience" in s.action) for s in attacks} == {
        (("maneuver",), False),
        (("maneuver", "experience"), True),
    }
