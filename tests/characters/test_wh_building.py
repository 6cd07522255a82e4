"""WitchHammer character creation and spending: WH-31 to WH-34, WH-36, WH-38, WH-B17, WH-B22 and the builder's
rulings WH-C1..WH-C3, WH-C7, with the exact numbers of the rules text."""

from __future__ import annotations

import pytest

from affray.characters.sheet import Refused, parse_sheet
from affray.core.content import ContentError
from affray.rulesets.witchhammer.characters import advancement as adv
from affray.rulesets.witchhammer.characters import build as wh
from affray.rulesets.witchhammer.characters.sheet import ATTRIBUTE_COST, SKILL_COST, WitchHammerSheet
from tests.characters.helpers import hilde, lib


def fresh() -> WitchHammerSheet:
    return adv.new_sheet("Test")


def left(sheet: WitchHammerSheet) -> tuple[int, int, int, int]:
    p = wh.points_left(sheet, lib())
    return p.attribute, p.school, p.technique, p.trait


def test_wh31_a_new_pc_has_15_attribute_1_school_7_technique_2_trait_points() -> None:
    """WH-31: 15 Attribute, 1 School, 7 Technique and 2 Trait points, all unspent on a new sheet."""
    assert left(fresh()) == (15, 1, 7, 2)


def test_wh32_attribute_costs_per_purchase() -> None:
    """WH-32: Attack 4; Defense 3; Max Poise 2; Initiative 1; Damage on Solid Hit 2; Con, Agility, Will and Fear
    Defense 2 each; +1 to a skill 2."""
    assert ATTRIBUTE_COST == {
        "attack": 4,
        "defense": 3,
        "max_poise": 2,
        "init": 1,
        "solid_damage": 2,
        "con_defense": 2,
        "agility_defense": 2,
        "will_defense": 2,
        "fear_defense": 2,
    }
    assert SKILL_COST == 2
    for name, cost in ATTRIBUTE_COST.items():
        assert left(adv.buy_attribute(fresh(), name, lib()))[0] == 15 - cost, name
    assert left(adv.buy_skill(fresh(), "stealth", lib()))[0] == 13
    assert left(adv.buy_attribute(fresh(), "Stealth", lib()))[0] == 13  # a skill named as an attribute


def test_wh32_a_purchase_beyond_the_points_left_is_refused() -> None:
    """WH-32: three Attack purchases cost 12 of 15; a fourth (4 more) is refused with 3 left."""
    s = fresh()
    for _ in range(3):
        s = adv.buy_attribute(s, "attack", lib())
    assert left(s)[0] == 3
    with pytest.raises(Refused, match="costs 4 Attribute points; 3 left"):
        adv.buy_attribute(s, "attack", lib())
    assert left(adv.buy_attribute(s, "defense", lib()))[0] == 0


def test_whb17_base_line_poise_20_health_12_and_5_max_poise_per_purchase() -> None:
    """WH-B17: a new PC has Poise 20, Health 12, everything else 0; each Max Poise purchase is +5."""
    d = wh.derived(fresh(), lib())
    assert (d.poise, d.health, d.attack, d.defense, d.init, d.solid_damage) == (20, 12, 0, 0, 0, 0)
    s = adv.buy_attribute(adv.buy_attribute(fresh(), "max_poise", lib()), "poise", lib())
    assert wh.derived(s, lib()).poise == 30 and left(s)[0] == 11


def test_wh38_a_starting_witchhammer_reaches_about_30_poise() -> None:
    """WH-38/WH-B17: the example PC (two Max Poise purchases and the Thick Neck passive, +5) has 35 Poise and 12
    Health, in the 10-15 human range."""
    d = wh.derived(hilde(), lib())
    assert (d.poise, d.health) == (35, 12)
    assert (d.attack, d.defense, d.init) == (2, 1, 2)  # the purchases, and Bull's Temper: +1 Attack


@pytest.mark.parametrize("name", ["ranged_defense", "fire_defense", "ice_defense", "Ranged Defense", "fire", "ice"])
def test_whb22_ranged_fire_and_ice_defense_cannot_be_bought(name: str) -> None:
    """WH-B22: Ranged, Fire and Ice Defense come only from techniques, traits or armour."""
    with pytest.raises(Refused, match=r"cannot be bought with Attribute points \(WH-B22\)"):
        adv.buy_attribute(fresh(), name, lib())


def test_whb22_a_sheet_that_bought_fire_defense_is_refused_naming_the_field() -> None:
    data = {"format": "affray-sheet/1", "ruleset": "witchhammer", "name": "X", "attributes": {"fire_defense": 1}}
    with pytest.raises(ContentError) as err:
        parse_sheet(data, "x.yaml")
    assert "x.yaml: attributes: Fire Defense cannot be bought with Attribute points (WH-B22)" in str(err.value)


def test_wh33_a_school_point_learns_a_school_and_each_level_needs_the_one_before() -> None:
    """WH-33: one School point per level. Raging Bull L1 costs the creation point; L2 needs another one."""
    s = adv.learn_school(fresh(), "raging_bull", lib())
    assert s.schools == {"raging_bull": 1} and left(s)[1] == 0
    with pytest.raises(Refused, match="Raging Bull School level 2 costs 1 School point; 0 left"):
        adv.learn_school(s, "raging_bull", lib())
    s = adv.grant_reward(s, "witch")
    s = adv.learn_school(s, "raging_bull", lib())
    assert s.schools == {"raging_bull": 2}


def test_wh33_a_school_has_no_level_past_its_last() -> None:
    s = fresh()
    for _ in range(3):
        s = adv.grant_reward(s, "witch")
    for _ in range(3):
        s = adv.learn_school(s, "raging_bull", lib())
    with pytest.raises(Refused, match="has 3 level"):
        adv.learn_school(s, "raging_bull", lib())


def test_wh33_every_pc_knows_the_general_school_without_spending() -> None:
    """WH-33: the General Combat School is known from the start; it costs no School point and has no level 2."""
    s = fresh()
    assert wh.known_schools(s) == {"general": 1}
    assert left(adv.learn_technique(s, "sword_swing", lib())) == (15, 1, 6, 2)
    with pytest.raises(Refused, match="General Combat School has 1 level"):
        adv.learn_school(s, "general", lib())


def test_wh33_incompatible_schools_are_refused_both_ways() -> None:
    """WH-33: Raging Bull and Still Water cannot both be learned, whichever comes first; a hand-written sheet
    with both is refused too."""
    s = adv.grant_reward(fresh(), "witch")
    bull = adv.learn_school(s, "raging_bull", lib())
    with pytest.raises(Refused, match="Still Water School cannot be learned by someone who knows Raging Bull"):
        adv.learn_school(bull, "still_water", lib())
    water = adv.learn_school(s, "still_water", lib())
    with pytest.raises(Refused, match="Raging Bull School cannot be learned by someone who knows Still Water"):
        adv.learn_school(water, "raging_bull", lib())
    both = WitchHammerSheet.model_validate({**s.model_dump(), "schools": {"raging_bull": 1, "still_water": 1}})
    problems = wh.problems(both, lib())
    assert [(p.field, p.expected) for p in problems] == [
        ("schools", "Raging Bull School and Still Water School cannot both be learned (WH-33)")
    ]


def test_wh33_a_school_point_trades_for_five_technique_points() -> None:
    """WH-33: the creation School point traded gives 7 + 5 = 12 Technique points and 0 School points."""
    s = adv.trade_school_point(fresh(), lib())
    assert left(s) == (15, 0, 12, 2) and s.traded_school_points == 1
    with pytest.raises(Refused, match="costs 1 School point; 0 left"):
        adv.trade_school_point(s, lib())
    for tech in (
        "sword_swing",
        "advance",
        "retreat",
        "haymaker",
        "full_defense",
        "dodge_away",
        "snap_shot",
        "shield_block",
        "pommel_strike",
        "war_cry",
        "steel_yourself",
        "cutting_insult",
    ):
        s = adv.learn_technique(s, tech, lib())
    assert left(s) == (15, 0, 0, 2) and len(s.techniques) == 12


def test_wh34_techniques_are_learned_one_by_one_from_known_schools_at_a_known_level() -> None:
    """WH-34: knowing a school makes its techniques available; each costs a Technique point; a level-2 technique
    needs level 2; an unknown school's technique is refused."""
    s = adv.learn_school(fresh(), "raging_bull", lib())
    with pytest.raises(Refused, match=r"'trample' .* needs raging_bull level 2; level 1 is known"):
        adv.learn_technique(s, "trample", lib())
    with pytest.raises(Refused, match="still_water school, which is not known"):
        adv.learn_technique(s, "flowing_parry", lib())
    s = adv.learn_technique(s, "bull_rush", lib())
    assert s.techniques == ["bull_rush"] and left(s)[2] == 6
    with pytest.raises(Refused, match="'bull_rush' is learned already"):
        adv.learn_technique(s, "bull_rush", lib())
    with pytest.raises(Refused, match="belongs to no school"):
        adv.learn_technique(s, "hesitate", lib())
    with pytest.raises(Refused, match="a card or passive of the content; got 'fireball'"):
        adv.learn_technique(s, "fireball", lib())


def test_wh34_the_eighth_technique_is_refused_with_seven_points() -> None:
    s = hilde()
    assert left(s) == (0, 0, 0, 0)
    with pytest.raises(Refused, match="costs 1 Technique point; 0 left"):
        adv.learn_technique(s, "haymaker", lib())


def test_whc3_general_techniques_can_be_free_by_house_rule() -> None:
    """Ruling WH-C3: with general_techniques 'free', General techniques cost nothing (as the fight's WH-A5 'all')."""
    s = adv.new_sheet("Free", house_rules={"general_techniques": "free"})
    s = adv.learn_technique(adv.learn_technique(s, "sword_swing", lib()), "haymaker", lib())
    assert left(s)[2] == 7


def test_whc1_trait_points_buy_chrome_traits_not_monster_templates() -> None:
    """Ruling WH-C1: a Trait point per trait; Sickly (Health -10) is a monster template and is refused."""
    s = adv.take_trait(fresh(), "trapper", lib())
    assert left(s)[3] == 1 and wh.derived(s, lib()).skills == {"tracking": 2, "stealth": 1}
    with pytest.raises(Refused, match="monster template"):
        adv.take_trait(s, "sickly", lib())
    with pytest.raises(Refused, match="taken already"):
        adv.take_trait(s, "trapper", lib())
    s = adv.take_trait(s, "menacing", lib())
    with pytest.raises(Refused, match="costs 1 Trait point; 0 left"):
        adv.take_trait(s, "sharp_eyed", lib())
    anything = adv.new_sheet("Any", house_rules={"pc_traits": "any"})
    assert adv.take_trait(anything, "sickly", lib()).traits == ["sickly"]


def test_wh36_equipment_is_one_weapon_one_armour_and_five_misc_items() -> None:
    """WH-36: 1 weapon, 1 armour set (an armour of the content) and at most 5 misc items."""
    s = adv.equip(
        fresh(), lib(), weapon="arming sword", armour="mail_shirt", misc=["oil", "trap", "salt", "mirror", "cage"]
    )
    assert s.equipment.armour == "mail_shirt" and len(s.equipment.misc) == 5
    assert wh.derived(s, lib()).defense == 2 and wh.derived(s, lib()).init == -1  # the mail shirt's trade-off
    with pytest.raises(Refused, match=r"at most 5 misc items \(WH-36\); got 6"):
        adv.equip(s, lib(), misc=["a", "b", "c", "d", "e", "f"])
    with pytest.raises(Refused, match="no armour 'chainmail'"):
        adv.equip(s, lib(), armour="chainmail")
    data = {**s.model_dump(), "equipment": {"weapon": "sword", "misc": list("abcdef")}}
    with pytest.raises(ContentError, match=r"equipment\.misc: at most 5 misc items \(WH-36\), got 6"):
        parse_sheet(data, "x.yaml")


def test_whc7_points_may_be_kept_and_are_reported() -> None:
    """Ruling WH-C7: unspent points are legal; check reports them as a note."""
    notes = wh.notes(fresh(), lib())
    assert "points left to spend: 15 Attribute, 1 School, 7 Technique, 2 Trait" in notes


def test_an_overspent_sheet_is_refused_naming_each_kind() -> None:
    """WH-31/WH-32: a sheet written by hand with 19 Attribute points and 8 techniques is refused field by field."""
    data = hilde().model_dump()
    data["attributes"]["attack"] = 2
    data["techniques"] = [*data["techniques"], "haymaker"]
    sheet = WitchHammerSheet.model_validate(data)
    found = {p.field: p.expected for p in wh.problems(sheet, lib())}
    assert found["attributes"].startswith("19 Attribute points spent but 15 granted")
    assert found["techniques"].startswith("8 Technique points spent but 7 granted")
