"""Every example plays to the end on random and heuristic policies, replays exactly and verifies; rule options
are documented. Rules: WH-01 (until one side is down), WH-B20 (options carry the timer); DESIGN.md 4, 8."""

from __future__ import annotations

from pathlib import Path

import pytest

import affray
from affray.ai.base import RandomPolicy
from affray.core.options import describe
from affray.core.rng import FastRNG
from affray.rulesets.witchhammer.options import WitchHammerOptions

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted((ROOT / "examples" / "witchhammer").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("seed", [1, 2])
def test_wh01_seeded_random_playouts_end_and_verify(path: Path, seed: int) -> None:
    """WH-01: vignettes until one side is down (or the vignette limit); the log verifies."""
    scenario = affray.load_scenario(path)
    match = scenario.start(seed)
    outcome = affray.play(match, {a: RandomPolicy() for a in match.controllers}, FastRNG(seed))
    assert outcome is not None and match.state.vignette >= 1
    assert affray.verify(affray.export_log(match)).ok


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_wh01_heuristic_playouts_end_with_a_winner_and_verify(path: Path) -> None:
    scenario = affray.load_scenario(path)
    match = scenario.start(3)
    outcome = affray.play(match, scenario.policies(match), FastRNG(3))
    assert outcome is not None and outcome.winner in {s.name for s in scenario.model.sides}
    assert affray.verify(affray.export_log(match)).ok


def test_wh_b_every_option_names_its_rule_and_is_documented() -> None:
    """Contract 8: every option cites a rule ID and appears, with its default, in docs/witchhammer.md."""
    doc = (ROOT / "docs" / "witchhammer.md").read_text()
    for info in describe(WitchHammerOptions):
        assert info.rule.startswith(("WH-", "engine")), info.name
        assert f"`{info.name}`" in doc and info.rule in doc, info.name
