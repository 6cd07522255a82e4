"""Built-in content, options and the documentation of both.

Rules: WR-03 (traits), WR-12/WR-15 (weapons), WR-19/WR-22 (the armour table), WR-B1..WR-B15 (every
ruling is a named option at its documented default), WR-B9 (sample PCs).
"""

from __future__ import annotations

from pathlib import Path

from affray.core.options import describe
from affray.rulesets.warp.options import WarpOptions
from affray.rulesets.warp.ruleset import builtin_content
from affray.rulesets.warp.setup import protection

DOCS = Path(__file__).parents[2] / "docs" / "warp.md"


def test_trait_library_has_every_tag() -> None:
    """WR-03, WR-09, WR-20, WR-31: combat and non-combat traits, agility-related ones, fighting ones, flaws."""
    traits = builtin_content().sections["traits"]
    assert any(t.combat for t in traits.values()) and any(not t.combat and not t.flaw for t in traits.values())
    assert any(t.agility for t in traits.values()) and any(t.fighting for t in traits.values())
    flaws = [t for t in traits.values() if t.flaw]
    assert len(flaws) >= 3 and traits["clumsy"].dodge_dice == 1


def test_wr31_every_melee_combat_trait_is_fighting_ability() -> None:
    """WR-31, WR-B17: the seed's fighting traits ("Good with a Baseball Bat", "Good Brawler", "Good Knife-Fighter",
    "Martial Artist") set a defender's ganging-up capacity: every combat trait with a melee use is tagged
    fighting, and no trait without one is."""
    traits = builtin_content().sections["traits"]
    fighting = {tid for tid, t in traits.items() if t.fighting}
    assert fighting == {tid for tid, t in traits.items() if t.combat and "melee" in t.uses}
    assert {"good_with_a_bat", "street_brawler", "knife_fighter", "martial_artist"} <= fighting


def test_weapons_have_factor_row_and_handiness() -> None:
    """WR-12, WR-15, WR-31: every weapon has a use with a factor, missiles a known row, all a handiness."""
    for weapon in builtin_content().sections["weapons"].values():
        assert weapon.melee is not None or weapon.ranged is not None
        assert 0 <= weapon.handiness <= 5


def test_armour_table() -> None:
    """WR-19, WR-22, WR-B1: leathers 1 pt, jacket 1 die, plate 2 dice with a penalty; vest 1b, suit 2b,
    military body armour 3 dice + 2b with a penalty."""
    armour = builtin_content().sections["armour"]
    expect = {
        "leathers": (0, 1, 0, 0),
        "armoured_jacket": (1, 0, 0, 0),
        "plate_mail": (2, 0, 0, 1),
        "bulletproof_vest": (0, 0, 1, 0),
        "bulletproof_suit": (0, 0, 2, 0),
        "military_body_armour": (3, 0, 2, 1),
    }
    for aid, numbers in expect.items():
        a = armour[aid]
        worn = protection([{"name": a.name, "rating": a.rating, "penalty": a.penalty}], WarpOptions())
        assert (worn.dice, worn.flat, worn.bullet_dice, worn.penalty_dice) == numbers, aid
    points = protection([{"name": "x", "rating": "2", "penalty": False}], WarpOptions(armour_bare_number="points"))
    assert (points.dice, points.flat) == (0, 2)  # the WR-B1 alternative reading


def test_gm_characters_and_sample_pcs() -> None:
    """WR-B9, 3c: at least three PCs and several GM stat blocks; PC traits follow character creation
    (one superior trait at 4 dice, side traits at 3, one flaw)."""
    chars = builtin_content().sections["characters"]
    pcs = [c for c in chars.values() if c.pc]
    gmcs = [c for c in chars.values() if not c.pc]
    assert len(pcs) >= 3 and len(gmcs) >= 3
    for c in pcs:
        assert sorted(c.traits.values()) == [3, 3, 4] and len(c.flaws) == 1


def test_every_ruling_is_a_named_option_with_its_rule_id() -> None:
    """WR-B1..WR-B15: each spec ruling has at least one option citing it; every option cites a rule."""
    infos = describe(WarpOptions)
    rules = {i.rule for i in infos}
    assert all(i.rule and i.doc for i in infos)
    assert {f"WR-B{n}" for n in range(1, 16)} <= rules


def test_documented_defaults() -> None:
    """WR-B2, WR-B8, WR-B9, WR-B10, WR-B12, WR-B15 (as revised), WR-20, WR-24, WR-30, WR-32..WR-35: the
    defaults the spec and the seed give."""
    o = WarpOptions()
    assert o.cancel_bonus_penalty and o.armour_bare_number == "dice" and o.armour_after_factor
    assert not o.reroll_initiative_each_round and o.initiative_ties == "pool_pc_rolloff"
    assert o.default_hp == 21 and o.half_hp_is_messed_up and o.minus_max_is_death
    assert not (o.botch or o.blow_the_top_off or o.unstoppable_six)
    assert o.trait_lock == "until_next_round" and o.damage_rounding == "down" and o.recovery_rounding == "up"
    assert not (o.desperate_defense or o.alternate_damage or o.serious_wounds or o.half_dice)
    assert o.initiative == "trait" and o.bulletproof_gap == "all_ones" and o.beyond_range == "refuse"
    assert o.agility_rolls == "attack_and_defense" and o.special_half == "before_armour"
    assert not o.passive_defense_standing and o.desperate_defense_span == "round"


def test_the_user_guide_lists_every_option() -> None:
    """docs/warp.md names every option with its rule ID."""
    text = DOCS.read_text(encoding="utf-8")
    for info in describe(WarpOptions):
        assert f"`{info.name}`" in text, info.name
        assert info.rule in text, info.rule
