"""A combatant's sheet in words (core/view.py, ``CombatantView.sheet``): each ruleset writes its rows from the
combatant's detail, and the page draws them as they are. Golden rows at the start of one example per ruleset, what a
seat may not read left out, and, over a playout of every example, rows that read as words for every seat: no ids,
no JSON, no Python values."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.core.engine import GM, SPECTATOR
from affray.core.match import Match
from affray.core.rng import FastRNG
from tests.conformance.common import example_scenarios, random_step, scenario_id
from tests.sweep import sample

ROOT = Path(__file__).resolve().parents[2]


def rows(match: Match, seat: str, combatant: str) -> list[tuple[str, str]]:
    view = match.view(seat)
    found = next(c for c in view.combatants if c.id == combatant)
    return [(f.label, f.value) for f in found.sheet]


def start(example: str) -> Match:
    return affray.load_scenario(ROOT / "examples" / f"{example}.yaml").start(3)


def test_warp_sheet_words_and_a_gm_characters_numbers_kept_from_players() -> None:
    """WR-01 (traits as dice), WR-12 (weapons: melee factor, handiness), WR-19 (armour: "1 pt"), WR-27 (the
    recovery ceiling); a GM character's numbers are GM-level: a player's seat reads only what it wields."""
    m = start("warp/melee_brawl")
    dana = [
        ("Wields", "lead pipe (melee 2, handiness +2)"),
        ("Wears", "thick leathers"),
        ("Recovers towards", "21 HP"),
        ("Experience", "3"),
        (
            "Traits",
            "Fast on Their Feet 4 dice (agility); Street Brawler 3 dice (combat, fighting); "
            "Moves Like a Shadow 3 dice (agility)",
        ),
        ("Flaws", "Poor Eyesight"),
        ("Carries", "lead pipe (melee 2, handiness +2); bare hands (melee 1, handiness 0)"),
        ("Armour", "1 pt"),
    ]
    assert rows(m, GM, "dana") == rows(m, "dana", "dana") == rows(m, "theo", "dana") == dana  # a PC's sheet is open
    assert rows(m, "dana", "thug3") == [("Wields", "switchblade (melee 2, handiness +1)")]
    assert rows(m, GM, "thug3")[1:3] == [("Recovers towards", "21 HP"), ("Experience", "0")]
    rng = FastRNG(5)
    while not m.state.order:  # WR-05: the initiative rolls (this example rolls them on traits)
        assert random_step(m, rng)
    assert ("Initiative", str(m.state.fighters["dana"].initiative)) in rows(m, GM, "dana")
    assert m.state.fighters["dana"].initiative > 0


def test_hud_sheet_words_and_a_declared_plan_names_its_targets() -> None:
    """WL-B2 (weapons: attack, defense, damage, hands), armour's attack penalty and injury bonus, WL-10 (the
    declared plan, its target by name, never by id)."""
    m = start("hud/nerdified_night_widow")
    assert rows(m, "vesna", "widow") == [
        ("Agility", "5"),
        ("Strength", "4"),
        ("Armour", "Thick hide (attack +0, injury +2)"),
        ("Actions", "3"),
        ("Weapons", "Claws and fangs (melee, attack +1, defense +0, damage +2, 2 hands, in hand)"),
    ]
    assert rows(m, GM, "vesna")[2] == ("Armour", "Riveted brigandine (attack -1, injury +2)")
    rng = FastRNG(5)
    while not any(label == "Plan" for label, _ in rows(m, GM, "widow")):
        assert random_step(m, rng), "the fight ended before the Night-Widow declared"
    plan = dict(rows(m, GM, "widow"))["Plan"]
    assert plan.startswith("attack ") and "widow" not in plan
    names = {"Vesna of the Lynx", "Ilka Reedwhistle"}
    assert {item.removeprefix("attack ") for item in plan.split("; ")} <= names


def test_spellchrome_sheet_words() -> None:
    """SC-B1 (Defense), SC-15 (speed), SC-16 (initiative), SC-26 (attacks of opportunity left), the weapon in hand
    with its damage dice and range."""
    m = start("spellchrome/crossroads_2v2")
    assert (
        rows(m, "oriel", "oriel")
        == rows(m, GM, "oriel")
        == [
            ("Level", "3 (character)"),
            ("Defense", "15"),
            ("Speed", "30 ft"),
            ("Initiative", "15"),
            ("Attacks of opportunity left", "1"),
            ("Wields", "Longsword (melee, damage 1d8)"),
            ("Base attack", "+3"),
            (
                "Weapons",
                "Longsword (melee, damage 1d8); Hand crossbow (ranged, damage 1d6, range 6 squares); "
                "Unarmed strike (unarmed, damage 1d3)",
            ),
            ("Feats", "toughness"),
            ("Skills", "run +4, heal +1"),
        ]
    )


def test_witchhammer_sheet_words_and_skills_only_for_the_seats_that_see_them() -> None:
    """WH-11, WH-12, WH-06 (base Attack, Defense, Init), WH-B5 (Damage on a Solid Hit), WH-13 (aspect Defenses);
    the skills are the seat's own and the GM's, not another player's."""
    m = start("witchhammer/mill_ambush")
    common = [
        ("Attack", "+2"),
        ("Defense", "+3"),
        ("Init", "+1"),
        ("Damage on a Solid Hit", "1"),
        ("Size", "medium (player character)"),
        ("Aspect defenses", "agility +1, con +1"),
    ]
    skills = ("Skills", "perception +2, tracking +2, stealth +1")
    assert rows(m, GM, "ilse") == rows(m, "ilse", "ilse") == [*common, skills]
    assert rows(m, "tomas", "ilse") == common


def _ids(match: Match) -> set[str]:
    """What no row may show: every combatant's id and every content id of the setup with an underscore in it (a
    plain word such as ``wolf`` may also be a name)."""
    setup: Any = match.setup_data
    out = {c["id"] for c in setup.get("combatants", [])}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if isinstance(k, str) and "_" in k:
                    out.add(k)
                if k == "id" and isinstance(v, str) and "_" in v:
                    out.add(v)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(setup)
    names = " ".join(c.get("name", "") for c in setup.get("combatants", [])).lower()
    return {i for i in out if "_" in i or not re.search(rf"\b{re.escape(i.lower())}\b", names)}


@pytest.mark.parametrize("path", sample(example_scenarios()), ids=scenario_id)
def test_every_row_reads_as_words_for_every_seat_through_a_fight(path: Path) -> None:
    match = affray.load_scenario(path).start(11)
    ids = _ids(match)
    rng = FastRNG(11)
    seats = [GM, SPECTATOR, *match.controllers]
    for step in range(60):
        if step % 20 == 0:
            for seat in seats:
                for c in match.view(seat).combatants:
                    for fact in c.sheet:
                        text = f"{fact.label}: {fact.value}"
                        assert fact.label and fact.value, (seat, c.id, fact)
                        assert not re.search(r"[{}\[\]\"]|\b(True|False|None|true|false|null)\b", text), text
                        shown = [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
                        assert not shown, f"{path.stem}, {seat} reads {c.id}'s {text!r}: the id {shown[0]!r}"
        if not random_step(match, rng):
            break
