"""Every WaRP example plays to the end unattended, replays exactly and verifies; views keep the GM's
secrets. Rules: WR-35 (hidden gestalt total), WR-X1 (the GM at the table), and DESIGN.md contracts 4, 6, 9."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import affray
from affray.ai.base import RandomPolicy, get_policy
from affray.core.engine import GM, SPECTATOR
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.rulesets.warp.ruleset import WarpRuleset
from affray.rulesets.warp.state import WarpState

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "warp").glob("*.yaml"))


def test_there_are_examples_for_melee_ranged_taser_and_gestalt() -> None:
    names = " ".join(p.stem for p in EXAMPLES)
    assert all(word in names for word in ("melee", "ranged", "taser", "gestalt"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seeded_playouts_terminate_and_verify(path: Path, seed: int) -> None:
    """Heuristic and random playouts end; the exported log replays and verifies."""
    scenario = affray.load_scenario(path)
    for policies in ("heuristic", "random"):
        match = scenario.start(seed)
        chosen = scenario.policies(match) if policies == "heuristic" else {a: RandomPolicy() for a in match.controllers}
        assert affray.play(match, chosen, FastRNG(seed)) is not None
        report = affray.verify(json.loads(json.dumps(affray.export_log(match))))
        assert report.ok, report.problems
        assert report.actions_checked == len(match.log)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_with_the_gm_at_the_table(path: Path) -> None:
    """WR-X1: with gm_decisions 'table' the GM seat answers its windows; a GM policy plays it."""
    scenario = affray.load_scenario(path)
    options = {**scenario.options, "gm_decisions": "table", "serious_wounds": True}
    for name in ("heuristic", "random"):
        match = Match(
            scenario.plugin,
            scenario.setup,
            options,
            seed=b"x" * 32,
            seats=scenario.seats,
            controllers=scenario.controllers,
        )
        policies = {**scenario.policies(match), GM: get_policy("warp", name)}
        assert affray.play(match, policies, FastRNG(5)) is not None
        assert any(entry.actor == GM for entry in match.log) or scenario.model.mode == "gestalt"


def test_players_do_not_see_gm_character_stats() -> None:
    """GM characters' HP and traits are GM-only; PC sheets are open to the table."""
    match = affray.load_scenario(EXAMPLES[0].parent / "melee_brawl.yaml").start(4)
    rules = WarpRuleset()
    player = rules.view(match.state, match.viewer("dana"))
    assert player.combatant("thug1").detail.sheet is None and player.combatant("theo").detail.sheet is not None
    assert player.combatant("thug1").bars == () and player.combatant("theo").bars[0].name == "HP"
    sheet = rules.view(match.state, match.viewer(GM)).combatant("thug1").detail.sheet
    assert sheet is not None and sheet.hp == 21
    assert rules.view(match.state, match.viewer(SPECTATOR)).combatant("thug1").detail.sheet is None
    affray.play(match, affray.load_scenario(EXAMPLES[0].parent / "melee_brawl.yaml").policies(match))
    state = match.state
    assert isinstance(state, WarpState)
    wounds = [e for entry in match.redacted_log("dana") for e in entry["events"] if e["type"] == "wounded"]
    assert wounds, "the fight has wounds"
    for e in wounds:
        assert ("hp" in e) == state.fighters[e["target"]].pc  # GM characters' HP left stay GM-only


def test_the_random_policy_explores_every_window() -> None:
    """Random playouts at the table with every option on reach the rarer windows without errors."""
    path = EXAMPLES[0].parent / "melee_brawl.yaml"
    scenario = affray.load_scenario(path)
    options = {
        "gm_decisions": "table",
        "desperate_defense": True,
        "serious_wounds": True,
        "half_dice": True,
        "alternate_damage": True,
        "reroll_initiative_each_round": True,
        "botch": True,
        "blow_the_top_off": True,
        "unstoppable_six": True,
        "surprise_check": True,
        "round_limit": 30,
    }
    phases: set[str] = set()
    for seed in range(12):
        match = Match(scenario.plugin, scenario.setup, options, rng=FastRNG(seed), seats=scenario.seats)
        policies = {a: RandomPolicy() for a in [*match.controllers, GM]}
        rng = FastRNG(seed)
        for _ in range(3000):
            window = match.pending()
            if window is None:
                break
            phases.add(window.phase)
            actor = next(a for a in window.actors if a in policies)
            assert match.act(actor, policies[actor].choose(match.observe(actor), match.choices(actor), rng)).ok
    assert {"turn", "defend", "ruling", "initiative"} <= phases
