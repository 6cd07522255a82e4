"""The starter content as data, and its checks. Rules: WH-02, WH-05, WH-13, WH-14, WH-33, WH-34, WH-B17,
WH-B18, WH-B22; DESIGN.md contract 7."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.core.content import ContentError, ReferenceProblem, load_pack
from affray.core.scenario import validate_scenario
from affray.rulesets.witchhammer.content_model import Character, WitchHammerContent
from affray.rulesets.witchhammer.ruleset import builtin_content
from affray.rulesets.witchhammer.setup import prepare
from tests.witchhammer.helpers import RULESET, fighter, setup_of


def section(name: str) -> dict[str, object]:
    return builtin_content().sections.get(name, {})


def test_general_school_has_the_seeds_cards() -> None:
    """The General Combat School: at least twelve Action cards, among them the seed's sword swing (+2 Init,
    +1 Defense, +8 Attack), and at least five Psych cards (WH-02, WH-05)."""
    cards = builtin_content().sections["cards"]
    general = {k: c for k, c in cards.items() if c.school == "general"}
    actions = [k for k, c in general.items() if c.kind == "action"]
    assert len(actions) >= 12 and len([k for k, c in general.items() if c.kind == "psych"]) >= 5
    swing = cards["sword_swing"]
    attack = next(n for n in swing.below if n.type == "attack")
    assert (swing.init, swing.defense, attack.attack) == (2, 1, 8)
    for wanted in (
        "aimed_crossbow_shot",
        "shield_block",
        "dodge_away",
        "full_defense",
        "advance",
        "retreat",
        "catch_your_breath",
        "haymaker",
        "searing_sign",
    ):
        assert wanted in actions
    haymaker = next(n for n in cards["haymaker"].below if n.type == "attack")
    assert haymaker.attack < swing.below[1].attack and haymaker.on_solid_hit[0].type == "damage"


def test_wh33_wh34_raging_bull_has_three_levels_and_an_incompatible_rival() -> None:
    """WH-33/WH-34: Raging Bull L1-L3 with at least nine techniques including passives; Still Water is
    incompatible with it, and a PC who knows both is refused."""
    techniques = [c for c in section("cards").values() if getattr(c, "school", None) == "raging_bull"]
    passives = [p for p in section("passives").values() if getattr(p, "school", None) == "raging_bull"]
    assert len(techniques) + len(passives) >= 9 and len(passives) >= 3
    assert {getattr(t, "level", 0) for t in techniques + passives} == {1, 2, 3}
    assert "raging_bull" in section("schools")["still_water"].incompatible  # type: ignore[attr-defined]
    lib = builtin_content().copy()
    lib.add_file(
        WitchHammerContent.model_validate(
            {
                "ruleset": "witchhammer",
                "characters": {"greedy": {"name": "Greedy", "schools": {"raging_bull": 1, "still_water": 1}}},
            }
        ),
        "x.yaml",
    )
    data = {
        "ruleset": "witchhammer",
        "sides": [
            {"name": "A", "combatants": [{"id": "g", "use": "greedy", "at": [0, 0]}]},
            {"name": "B", "combatants": [fighter("b", (3, 3), use="dummy")]},
        ],
    }
    with pytest.raises(ReferenceProblem, match="incompatible"):
        prepare(validate_scenario(RULESET.scenario_type, data, "x.yaml"), lib)


def test_monsters_from_a_farmer_to_a_witch_each_with_a_deck() -> None:
    """At least eight monsters with their own decks, among them the crossbow peasant, the fire-spitting
    lizard (WH-13: breath + Fire + Agility), the swamp thing's poison fog (half Defense + Con) and a fire
    creature with +10..+15 Fire Defense (WH-14)."""
    monsters = section("monsters")
    cards = builtin_content().sections["cards"]
    assert len(monsters) >= 8
    assert {m.tier for m in monsters.values()} >= {"farmer", "witch"}  # type: ignore[attr-defined]
    for m in monsters.values():
        assert all(card in cards for card in m.deck)  # type: ignore[attr-defined]
    assert cards["peasant_crossbow"].below[0].aspects == ["ranged"]
    assert set(cards["gout_of_fire"].below[0].aspects) >= {"fire", "agility"}
    fog = cards["miasma_fog"].below[0]
    assert fog.aspects == ["gas", "con"] and fog.target == "each_enemy"
    assert 10 <= monsters["ember_wight"].defenses["fire"] <= 15  # type: ignore[attr-defined]


def test_wh_b17_wh_b22_a_pc_sheet_defaults_and_bought_defenses() -> None:
    """WH-B17: an unlisted stat takes the base line Poise 20, Health 12, the rest 0. WH-B22: Ranged, Fire and
    Ice Defense are not bought; the example PCs get none on their sheet (only techniques, traits, armour)."""
    pc = Character(name="Fresh")
    assert (pc.poise, pc.health, pc.attack, pc.defense, pc.init, pc.defenses) == (20, 12, 0, 0, 0, {})
    for c in section("characters").values():
        assert not set(c.defenses) & {"ranged", "fire", "ice"}  # type: ignore[attr-defined]


def test_prepare_resolves_passives_traits_and_armour() -> None:
    """WH-34: passives add to the base stats; armour gives Defense at a cost (WH-36)."""
    setup = setup_of([fighter("o", (0, 0), use="odo", deck=None)], [fighter("b", (5, 5), use="dummy")])
    odo = setup["combatants"][0]
    # sheet 30 Poise + Thick Neck 5; Attack 3; Defense 1 + mail 2; Init 0 - mail 1 + Horns of Iron 1
    assert (odo["poise"], odo["attack"], odo["defense"], odo["init"], odo["solid_damage"]) == (35, 3, 3, 0, 3)
    assert odo["defenses"] == {"fear": 3, "will": 1} and "bellow" in odo["deck"]


def test_wh_b18_copies_beyond_the_content_limit_are_refused() -> None:
    """WH-B18: duplicates in a deck only where the card allows copies."""
    with pytest.raises(ReferenceProblem, match="WH-B18"):
        setup_of([fighter("a", (0, 0), deck=["jab", "jab"])], [fighter("b", (5, 5), use="dummy")])


def test_a_broken_content_file_names_the_file_and_field(tmp_path: Path) -> None:
    """Content is validated at the edge: the error names the file and the field path."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: witchhammer\ncards:\n  oops:\n    name: Oops\n    below:\n      - {type: attack}\n")
    with pytest.raises(ContentError) as err:
        load_pack(WitchHammerContent, "witchhammer", [bad])
    assert "bad.yaml" in str(err.value) and "cards.oops.below[0]" in str(err.value) and "attack" in str(err.value)


def test_wh31_wh33_wh34_wh35_every_starter_character_paid_for_its_schools_and_deck() -> None:
    """WH-31: 1 School and 7 Technique points at creation; WH-35: a hunt gives 1 Technique point, a witch 1 School
    and 2 Technique points; WH-33: a traded School point gives 5 Technique points; WH-34: one technique (card or
    passive) per Technique point, the General school's too. Each starter's schools and techniques fit exactly."""
    budgets = {}
    for cid, pc in section("characters").items():
        assert isinstance(pc, Character)
        witches, hunts = pc.rewards.count("witch"), pc.rewards.count("hunt")
        schools = 1 + witches - pc.traded_school_points
        techniques = 7 + hunts + 2 * witches + 5 * pc.traded_school_points
        assert sum(pc.schools.values()) == schools, cid
        assert len(pc.techniques) == techniques, cid
        budgets[cid] = (schools, techniques)
    assert budgets == {"bruna": (2, 10), "tomas": (2, 10), "ilse": (0, 12), "odo": (3, 14)}


def test_wh34_wh_a5_a_pc_deck_is_its_learned_cards_by_default() -> None:
    """WH-34, ruling WH-A5 (default 'learned'): Ilse's deck is the twelve General cards she learned (she knows no
    passive), nothing more; 'all' adds the other nine General cards for quick play."""
    from affray.rulesets.witchhammer.options import WitchHammerOptions
    from affray.rulesets.witchhammer.setup import build_state

    setup = setup_of([fighter("i", (0, 0), use="ilse", deck=None)], [fighter("b", (5, 5), use="dummy")])
    learned = build_state(setup, WitchHammerOptions()).fighters["i"].deck
    ilse = section("characters")["ilse"]
    assert isinstance(ilse, Character)
    assert WitchHammerOptions().general_school_deck == "learned"
    assert sorted(learned) == sorted(ilse.techniques) and len(learned) == 12
    everything = build_state(setup, WitchHammerOptions(general_school_deck="all")).fighters["i"].deck
    assert set(everything) - set(learned) == {
        "shield_block",
        "full_defense",
        "advance",
        "haymaker",
        "searing_sign",
        "running_slash",
        "remember_why",
        "cutting_insult",
        "war_cry",
    }
