"""Out-of-combat rules: rest, EX-HP refill, treat injury, Precise Healing, knockouts
(SC-06, SC-07, SC-08, SC-09, SC-10)."""

from __future__ import annotations

from typing import Any

from affray.core.engine import Rejected
from affray.core.events import Event
from affray.core.plugin import get_ruleset
from affray.rulesets.spellchrome import downtime
from affray.rulesets.spellchrome.content_model import SpellchromeScenario
from affray.rulesets.spellchrome.options import SpellchromeOptions
from affray.rulesets.spellchrome.setup import build_state, spellchrome_setup
from affray.rulesets.spellchrome.state import SpellchromeState

from .support import ScriptedRNG, fighter

OPEN = "\n".join(["." * 6] * 3)


def _camp(**fields: Any) -> SpellchromeState:
    """A state before any fight (round 0): the party ``a`` and ``h`` (a healer), and ``m`` (a sentry)."""
    data = {
        "ruleset": "spellchrome",
        "map": OPEN,
        "sides": [
            {
                "name": "party",
                "combatants": [
                    fighter("a", (0, 0), **fields),
                    fighter(
                        "h", (1, 0), level=3, skills={"heal": 6}, spells={"precise_healing": 1}, weapons=["war_hammer"]
                    ),
                ],
            },
            {"name": "foes", "combatants": [fighter("m", (5, 2), level=2)]},
        ],
    }
    ruleset = get_ruleset("spellchrome")
    setup = ruleset.prepare(SpellchromeScenario.model_validate(data), ruleset.content())
    return build_state(spellchrome_setup(setup), SpellchromeOptions())


def test_sc07_ex_hp_refills_at_the_hourly_rate_up_to_full() -> None:
    """SC-07: empowered plate (10 EX-HP, 5 an hour) refills 5 per hour passed, never beyond 10."""
    state = _camp(armour="empowered_plate")
    a = state.combatants["a"]
    a.ex_hp = 1
    events: list[Event] = []
    assert downtime.pass_hours(state, 1, events) is None and a.ex_hp == 6
    downtime.pass_hours(state, 3, events)
    assert a.ex_hp == 10 and state.hour == 4


def test_sc09_a_day_of_rest_heals_1d3_harsh_or_1d4_plus_con_comfortable() -> None:
    """SC-09: harsh 1d3 = ⌈d6/2⌉ (a 5 heals 3); comfortable 1d4 + Con modifier (3 + 2); never above max."""
    state = _camp(hp=5, abilities={"constitution": 14})
    a = state.combatants["a"]
    downtime.rest_day(state, ScriptedRNG([5]), a, False, [])
    assert a.hp == 8 and state.hour == 24
    downtime.rest_day(state, ScriptedRNG([3]), a, True, [])
    assert a.hp == 13
    a.hp = a.max_hp - 1
    downtime.rest_day(state, ScriptedRNG([4]), a, True, [])
    assert a.hp == a.max_hp


def test_sc06_a_stable_character_regains_1d3_a_day_while_unconscious() -> None:
    """SC-06: stable at −4, a day brings back ⌈d6/2⌉ (a 6 gives 3: −1, still unconscious)."""
    state = _camp(hp=-4)
    a = state.combatants["a"]
    assert isinstance(downtime.rest_day(state, ScriptedRNG([6]), a, True, []), Rejected)  # dying: no rest
    a.stable = True
    downtime.rest_day(state, ScriptedRNG([6]), a, True, [])
    assert a.hp == -1 and a.status == "stable"
    downtime.rest_day(state, ScriptedRNG([4]), a, True, [])
    assert a.hp == 1 and a.status == "normal"


def test_sc08_treat_injury_heals_1d10_once_per_24_hours() -> None:
    """SC-08: a Heal check against the GM's DC heals 1d10; the same patient waits 24 h; self-treatment is harder."""
    state = _camp(hp=4)
    a, h = state.combatants["a"], state.combatants["h"]
    assert downtime.treat_injury(state, ScriptedRNG([9, 7]), h, a, 15, []) is None
    assert a.hp == 11
    again = downtime.treat_injury(state, ScriptedRNG([20, 7]), h, a, 15, [])
    assert isinstance(again, Rejected) and again.code == "treated_today" and a.hp == 11
    downtime.pass_hours(state, 24, [])
    downtime.treat_injury(state, ScriptedRNG([9, 7]), h, a, 15, [])  # 9 + 6 = 15: fine for a, 20 for self
    assert a.hp == 18
    h.hp = 10
    downtime.treat_injury(state, ScriptedRNG([9, 7]), h, h, 15, [])  # DC 20 for treating yourself: fails
    assert h.hp == 10


def test_sc08_a_failed_treatment_may_be_tried_again() -> None:
    """SC-08: the patient "needs 24 hours before they can be healed again": a failed check (4 + 6 < 15) heals
    nothing and starts no clock, so the healer tries again at once (9 + 6: 1d10 = 5); option
    ``failed_treatment_waits`` makes the failure count as the day's treatment."""
    state = _camp(hp=4)
    a, h = state.combatants["a"], state.combatants["h"]
    assert downtime.treat_injury(state, ScriptedRNG([4]), h, a, 15, []) is None and a.hp == 4
    assert downtime.treat_injury(state, ScriptedRNG([9, 5]), h, a, 15, []) is None and a.hp == 9
    strict = build_state_with(hp=4, failed_treatment_waits=True)
    a, h = strict.combatants["a"], strict.combatants["h"]
    downtime.treat_injury(strict, ScriptedRNG([4]), h, a, 15, [])
    again = downtime.treat_injury(strict, ScriptedRNG([9, 5]), h, a, 15, [])
    assert isinstance(again, Rejected) and again.code == "treated_today" and a.hp == 4


def build_state_with(hp: int, **options: Any) -> SpellchromeState:
    state = _camp(hp=hp)
    state.options = SpellchromeOptions(**options)
    return state


def test_sc08_precise_healing_takes_minutes_and_is_magical() -> None:
    """SC-08/SC-06: Precise Healing is cast outside combat; as magic it stabilises the dying."""
    state = _camp(hp=-8)
    a, h = state.combatants["a"], state.combatants["h"]
    downtime.precise_healing(state, ScriptedRNG([1, 1, 1]), h, a, [])  # 3d8 + 3 (level) + 3 (half of Heal 6)
    assert a.hp == 1 and a.status == "normal"
    assert isinstance(downtime.precise_healing(state, ScriptedRNG([]), h, a, []), Rejected)  # no casts left


def test_sc10_knockouts_need_a_blunt_object_and_deal_its_damage() -> None:
    """SC-10: the war hammer's 1d8 lethal damage (a 3), a Fortitude save DC 20 if the GM allows it, never
    against a higher level."""
    state = _camp()
    h, m = state.combatants["h"], state.combatants["m"]
    assert downtime.knockout(state, ScriptedRNG([3, 5]), h, m, "war_hammer", []) is None
    assert m.hp == 17 and m.status == "unconscious" and not m.able
    downtime.wake(m, [])
    assert m.able
    downtime.knockout(state, ScriptedRNG([2, 20]), h, m, "war_hammer", [])  # natural 20: stays awake
    assert m.hp == 15 and m.able
    a = state.combatants["a"]
    refused = downtime.knockout(state, ScriptedRNG([]), a, m, "longsword", [])
    assert isinstance(refused, Rejected) and refused.code == "no_knockout"  # not blunt, and m is level 2


def test_sc10_the_blow_is_the_weapons_damage_and_never_less_than_1d4() -> None:
    """SC-10: "the minimum damage from any blunt object is 1d4 lethal damage": a Str 14 healer's war hammer
    deals 1d8 + 2 (7 + 2 = 9: 20 → 11); a blunt 1d2 rolls 1d4 instead (a 3, + 2); option ``knockout_damage:
    d4`` always deals 1d4 (a 3: 20 → 17)."""
    from affray.rulesets.spellchrome.state import Arm

    state = _camp()
    h, m = state.combatants["h"], state.combatants["m"]
    h.mods["strength"] = 2
    downtime.knockout(state, ScriptedRNG([7, 20]), h, m, "war_hammer", [])
    assert m.hp == 11 and m.able  # natural 20 on the DC 20 save: awake
    sap = Arm("sap", "Sap", "melee", "1d2", 0, 0, True)
    assert downtime._knockout_blow(state, ScriptedRNG([3]), h, sap, []) == 5
    state = _camp()
    state.options = SpellchromeOptions(knockout_damage="d4")
    h, m = state.combatants["h"], state.combatants["m"]
    downtime.knockout(state, ScriptedRNG([3, 5]), h, m, "war_hammer", [])
    assert m.hp == 17 and not m.able


def test_sc10_no_downtime_rules_once_initiative_is_rolled() -> None:
    """SC-10: 'if initiative has been rolled ... the normal combat rules' apply."""
    state = _camp()
    state.round = 1
    result = downtime.knockout(state, ScriptedRNG([]), state.combatants["h"], state.combatants["m"], "war_hammer", [])
    assert isinstance(result, Rejected) and result.code == "in_combat"
