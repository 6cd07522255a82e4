"""Sheets of every ruleset: the examples are legal, and a broken sheet is refused with its file, the field and the
reason. Rules: WR-03, WR-B9 (WaRP), SC-01, SC-12, SC-14, SC-B2, SC-B8 (Spellchrome), WL-03, WL-08, WL-B2, WL-20
(Sim HuD), WH-31..WH-37 (WitchHammer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from affray.characters import dump, load, read_sheet, rules_for
from affray.characters.sheet import check, library, parse_sheet
from affray.core.content import ContentError
from affray.rulesets.spellchrome import sheet as sc
from affray.rulesets.warp import sheet as warp
from tests.characters.helpers import EXAMPLES, lib

SHEETS = sorted(EXAMPLES.glob("*.yaml"))


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())
    return data


def refusal(data: dict[str, Any]) -> list[str]:
    """The lines of the ContentError a broken sheet raises (schema, then rules)."""
    with pytest.raises(ContentError) as err:
        rules, sheet = parse_sheet(data, "broken.yaml")
        check(rules, sheet, library(rules.ruleset), "broken.yaml")
    return str(err.value).splitlines()


def test_there_is_an_example_sheet_for_every_ruleset() -> None:
    assert {read_sheet(p)[0].ruleset for p in SHEETS} == {"hud", "warp", "spellchrome", "witchhammer"}


@pytest.mark.parametrize("path", SHEETS, ids=lambda p: p.name)
def test_example_sheets_are_legal_and_survive_a_round_trip(path: Path) -> None:
    rules, sheet, content, _ = load(path)
    again = parse_sheet(yaml.safe_load(dump(sheet)), path)[1]
    assert again == sheet and rules.summary(sheet, content).sections


def test_a_file_that_is_not_a_sheet_or_names_an_unknown_ruleset_is_refused() -> None:
    assert refusal({"ruleset": "warp", "name": "x"}) == ["broken.yaml: format: 'affray-sheet/1' (a character sheet)"]
    lines = refusal({"format": "affray-sheet/1", "ruleset": "gurps", "name": "x"})
    assert lines[0].startswith("broken.yaml: ruleset: no character rules for 'gurps'")
    assert refusal({**example("dana"), "colour": "red"}) == [
        "broken.yaml: colour: Extra inputs are not permitted (got 'red')"
    ]


# -- WaRP ---------------------------------------------------------------------------------------------------------


def test_wr03_dice_are_3_superior_4_narrow_4_narrow_superior_6() -> None:
    """WR-03: typical traits 3 dice, 4 when superior; narrow traits 4, or 6 when superior."""
    sheet = warp.WarpSheet.model_validate(example("dana"))
    assert [sheet.dice(t) for t in sheet.traits()] == [4, 3, 3]
    narrow = warp.WarpSheet.model_validate({**example("dana"), "narrow": ["fast_on_feet", "shadow"]})
    assert [narrow.dice(t) for t in narrow.traits()] == [6, 3, 4]
    fighter = warp.character(sheet)
    assert fighter.traits == {"fast_on_feet": 4, "street_brawler": 3, "shadow": 3}
    assert fighter.flaws == ["poor_eyesight"]


def test_wrb9_hit_points_default_to_21() -> None:
    data = {k: v for k, v in example("dana").items() if k != "hp"}
    assert warp.WarpSheet.model_validate(data).hp == 21


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"side": ["street_brawler"]}, "broken.yaml: side: exactly two side traits (WR-03), got 1"),
        (
            {"side": ["fast_on_feet", "shadow"]},
            "broken.yaml: side: the central trait and the two side traits are three",
        ),
        (
            {"superior": "strong"},
            "broken.yaml: superior: one of the three traits (fast_on_feet, street_brawler, shadow)",
        ),
        ({"narrow": ["strong"]}, "broken.yaml: narrow: the character's own traits; not strong"),
        ({"flaw": "shadow"}, "broken.yaml: flaw: a flaw of the content; got 'shadow'"),
        ({"central": "clumsy"}, "broken.yaml: central: a trait, not a flaw ('clumsy' is a flaw: it belongs in 'flaw')"),
        ({"central": "telepath"}, "broken.yaml: central: a trait of the content; got 'telepath'"),
        ({"hp": 0}, "broken.yaml: hp: Input should be greater than or equal to 1 (got 0)"),
        ({"weapons": ["bazooka"]}, "broken.yaml: weapons[0]: a weapon of the content; got 'bazooka'"),
        ({"wielding": "knife"}, "broken.yaml: wielding: a weapon in 'weapons'; got 'knife'"),
    ],
)
def test_a_broken_warp_sheet_names_the_field_and_the_reason(change: dict[str, Any], line: str) -> None:
    assert any(line in got for got in refusal({**example("dana"), **change}))


# -- Spellchrome ----------------------------------------------------------------------------------------------------


def test_sc14_scb8_saves_and_hit_points_come_from_the_sign_and_level() -> None:
    """SC-14: Armoes level 3 base saves +3/+1/+1; SC-12 adds Con +2, Dex +1, Wis +0; SC-B8/SC-01: 3 × (7 + 2) + 3
    (Toughness) = 30 HP; SC-B2: Str 16 -> +3, Cha 11 -> +0."""
    sheet = sc.SpellchromeSheet.model_validate(example("oriel"))
    assert sc.base_saves(sheet, lib("spellchrome")) == (3, 1, 1)
    assert sc.save_totals(sheet, lib("spellchrome")) == {"fortitude": 5, "reflex": 2, "will": 1}
    assert sc.max_hp(sheet, lib("spellchrome")) == 30
    assert (sc.modifier(sheet, "strength"), sc.modifier(sheet, "charisma")) == (3, 0)
    level1 = sc.SpellchromeSheet.model_validate({**example("oriel"), "level": 1, "max_hp": None, "saves": None})
    assert sc.base_saves(level1, lib("spellchrome")) == (2, 0, 0) and sc.max_hp(level1, lib("spellchrome")) == 12


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"sign": "zodiac"}, "broken.yaml: sign: an Ancient Sign of the content"),
        ({"modifiers": {"strength": 2}}, "broken.yaml: modifiers.strength: +3 for a score of 16 (SC-B2); got +2"),
        (
            {"max_hp": 27},
            "broken.yaml: max_hp: 30 = level 3 × (HP per level + Con modifier) + feats (SC-01, SC-B8); got 27",
        ),
        (
            {"saves": {"fortitude": 3, "reflex": 2, "will": 1}},
            "broken.yaml: saves.fortitude: +5 = base from Armoes at level 3 + constitution modifier"
            " (SC-12, SC-14); got +3",
        ),
        ({"level": 21}, "broken.yaml: level: Input should be less than or equal to 20 (got 21)"),
        ({"feats": ["toughness", "toughness"]}, "broken.yaml: feats: a feat is taken once"),
        ({"feats": ["cleave"]}, "broken.yaml: feats[0]: a feat of the content"),
        ({"skills": {"juggling": 3}}, "broken.yaml: skills.juggling.[key]: Input should be"),
        (
            {"gear": {"weapons": ["longsword"], "wielding": "axe"}},
            "broken.yaml: gear: wielding names 'axe', which is not in 'weapons'",
        ),
    ],
)
def test_a_broken_spellchrome_sheet_names_the_field_and_the_reason(change: dict[str, Any], line: str) -> None:
    assert any(line in got for got in refusal({**example("oriel"), **change}))


# -- Sim HuD -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"stats": {"endurance": 11}}, "broken.yaml: stats.endurance: Input should be less than or equal to 10"),
        (
            {"stats": {"endurance": 8, "agility": 6}},
            "broken.yaml: stats.agility: Input should be less than or equal to 5",
        ),
        ({"stats": {"agility": 2}}, "broken.yaml: stats.endurance: Field required"),
        ({"armour": "mithril"}, "broken.yaml: armour: an armour of the content"),
        (
            {"weapons": ["halberd", "round_shield"], "in_hand": ["halberd", "round_shield"]},
            "broken.yaml: in_hand: what fits in two hands (WL-20); these need 3",
        ),
        ({"in_hand": ["halberd"]}, "broken.yaml: in_hand: weapons that are carried; not halberd"),
    ],
)
def test_a_broken_hud_sheet_names_the_field_and_the_reason(change: dict[str, Any], line: str) -> None:
    assert any(line in got for got in refusal({**example("vesna"), **change}))


def test_wl08_a_hud_sheet_fights_with_endurance_as_hp() -> None:
    rules, sheet, content, _ = load(EXAMPLES / "vesna.yaml")
    fighter = rules.for_fight(sheet, content).character
    assert (fighter.endurance, fighter.tags) == (8, ["trained_witcher"])


# -- WitchHammer ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"schools": {"raging_bull": 4}}, "broken.yaml: schools.raging_bull: at most level 3"),
        (
            {"schools": {"raging_bull": 0}},
            "broken.yaml: schools: school 'raging_bull' needs a level from 1 to 5 (a level "
            "needs every level below it, WH-33); got 0",
        ),
        ({"schools": {"dragon_style": 1}}, "broken.yaml: schools.dragon_style: a school of the content"),
        (
            {"techniques": ["bull_rush", "trample"]},
            "broken.yaml: techniques[1]: 'trample' (Trample) needs raging_bull level 2; level 1 is known (WH-34)",
        ),
        ({"traits": ["sickly"]}, "broken.yaml: traits[0]: 'sickly' (Sickly) changes combat statistics"),
        ({"traits": ["menacing", "menacing"]}, "a trait is taken once (menacing twice)"),
        ({"equipment": {"armour": "chainmail"}}, "broken.yaml: equipment.armour: an armour id of the content"),
        (
            {"afflictions": ["Hangnail"]},
            "broken.yaml: afflictions: entries of the affliction table (WH-23), e.g. 'Eye "
            "Scar' or 'Broken leg'; 'Hangnail' is not one (got ['Hangnail'])",
        ),
        (
            {"house_rules": {"base_poise": "lots"}},
            "broken.yaml: house_rules: option 'base_poise' expects a whole number",
        ),
        (
            {"skills": {"stealth": -1}},
            "broken.yaml: skills: skill 'stealth' needs a whole number of purchases from 0 to 20; got -1",
        ),
        (
            {"traded_school_points": 1, "techniques": ["bull_rush"]},
            "broken.yaml: schools: 2 School points spent but 1 granted",
        ),
        (
            {"rewards": [{"reward": "loot"}]},
            "broken.yaml: rewards[0].reward: Input should be 'hunt', 'defeat' or 'witch'",
        ),
    ],
)
def test_a_broken_witchhammer_sheet_names_the_field_and_the_reason(change: dict[str, Any], line: str) -> None:
    assert any(line in got for got in refusal({**example("hilde"), **change}))


def test_the_witchhammer_example_is_built_from_15_1_7_2_points() -> None:
    """WH-31/WH-32: examples/characters/hilde.yaml spends exactly 15 Attribute (4+3+2+2+1+1+2), 1 School,
    7 Technique and 2 Trait points, and is the same sheet the helper builds step by step."""
    rules, sheet, content, notes = load(EXAMPLES / "hilde.yaml")
    from affray.rulesets.witchhammer.characters import build as wh
    from affray.rulesets.witchhammer.characters.sheet import WitchHammerSheet

    assert isinstance(sheet, WitchHammerSheet)
    assert wh.spent(sheet, content, wh.build_rules(sheet)).items() == [
        ("Attribute", 15),
        ("School", 1),
        ("Technique", 7),
        ("Trait", 2),
    ]
    assert wh.points_left(sheet, content).items() == [("Attribute", 0), ("School", 0), ("Technique", 0), ("Trait", 0)]
    assert notes == [] and rules_for("witchhammer") is rules
