"""Scenarios that name character sheets: they fight, a sheet's Wounds carry into the fight, and an invalid sheet is
refused before the fight starts, naming the scenario field, the sheet file, its field and the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import affray
from affray.ai.base import RandomPolicy
from affray.characters import write_sheet
from affray.core.content import ContentError
from affray.core.rng import FastRNG
from affray.rulesets.witchhammer.characters import advancement as adv
from tests.characters.helpers import EXAMPLES, ROOT, hilde, lib

SHEET_SCENARIOS = [
    ROOT / "examples" / r / f
    for r, f in (
        ("witchhammer", "sheet_hunters.yaml"),
        ("warp", "sheet_alley.yaml"),
        ("spellchrome", "sheet_guard.yaml"),
        ("hud", "sheet_duel.yaml"),
    )
]


@pytest.mark.parametrize("path", SHEET_SCENARIOS, ids=lambda p: p.parent.name)
def test_a_scenario_with_character_sheets_fights_to_the_end(path: Path) -> None:
    scenario = affray.load_scenario(path)
    match = scenario.start(seed=5)
    affray.play(match, {actor: RandomPolicy() for actor in match.controllers}, FastRNG(5))
    assert match.outcome() is not None


def test_a_witchhammer_sheet_becomes_the_fighter_it_describes() -> None:
    """WH-B17 + purchases + content modifiers: Hilde fights with Poise 35, Health 12, Attack 2 (1 + Bull's Temper),
    Defense 2 (1 + leather), Init 2; her learned cards are her deck; Wendel starts with his 3 Wounds (12 - 3)."""
    setup = affray.load_scenario(ROOT / "examples" / "witchhammer" / "sheet_hunters.yaml").setup
    hilde_c, wendel_c = setup["combatants"][:2]
    assert (hilde_c["poise"], hilde_c["health"], hilde_c["attack"], hilde_c["defense"], hilde_c["init"]) == (
        35,
        12,
        2,
        2,
        2,
    )
    assert sorted(hilde_c["deck"]) == ["bull_rush", "dodge_away", "horn_swing", "remember_why", "sword_swing"]
    assert hilde_c["start_health"] is None and (wendel_c["health"], wendel_c["start_health"]) == (12, 9)


def scenario(tmp_path: Path, sheet: Path, **combatant: Any) -> Path:
    data = {
        "ruleset": "witchhammer",
        "sides": [
            {"name": "hunters", "combatants": [{"id": "pc", "sheet": str(sheet), "at": [1, 1], **combatant}]},
            {"name": "hounds", "combatants": [{"id": "dog", "use": "bog_hound", "at": [5, 5]}]},
        ],
    }
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_a_sheet_path_is_relative_to_the_scenario(tmp_path: Path) -> None:
    (tmp_path / "pcs").mkdir()
    write_sheet(hilde(), tmp_path / "pcs" / "hilde.yaml")
    path = scenario(tmp_path, Path("pcs/hilde.yaml"))
    assert affray.load_scenario(path).setup["combatants"][0]["name"] == "Hilde Brandt"


def test_an_invalid_sheet_is_refused_before_the_fight(tmp_path: Path) -> None:
    """An overspent sheet (19 Attribute points of 15) stops the scenario from loading at all."""
    data = hilde().model_dump(mode="json")
    data["attributes"]["attack"] = 2
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(ContentError) as err:
        affray.load_scenario(scenario(tmp_path, Path("bad.yaml")))
    message = str(err.value)
    assert message.startswith(f"{tmp_path / 'scenario.yaml'}: sides[0].combatants[0].sheet: a valid character sheet")
    assert f"{tmp_path / 'bad.yaml'}: attributes: 19 Attribute points spent but 15 granted" in message


def test_a_missing_or_foreign_sheet_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match=r"sheet: a valid character sheet, but .*nowhere\.yaml: \(file\)"):
        affray.load_scenario(scenario(tmp_path, Path("nowhere.yaml")))
    with pytest.raises(ContentError, match=r"dana\.yaml: ruleset: 'witchhammer', the scenario's ruleset; got 'warp'"):
        affray.load_scenario(scenario(tmp_path, EXAMPLES / "dana.yaml"))


def test_use_and_sheet_together_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="names both 'use' and 'sheet'"):
        affray.load_scenario(scenario(tmp_path, EXAMPLES / "hilde.yaml", use="bruna"))


def test_a_scenario_may_still_set_starting_health_over_the_sheet(tmp_path: Path) -> None:
    write_sheet(adv.wound(hilde(), 4, lib()), tmp_path / "hurt.yaml")
    assert affray.load_scenario(scenario(tmp_path, Path("hurt.yaml"))).setup["combatants"][0]["start_health"] == 8
    chosen = affray.load_scenario(scenario(tmp_path, Path("hurt.yaml"), health=5))
    assert chosen.setup["combatants"][0]["start_health"] == 5
