"""What the conformance suite runs over: every registered ruleset and every example scenario."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

import affray
from affray.ai.base import RandomPolicy
from affray.core.engine import GM, SPECTATOR
from affray.core.match import Match
from affray.core.policy import exposed
from affray.core.rng import FastRNG

ROOT = Path(__file__).parents[2]


def example_scenarios() -> list[Path]:
    """Every YAML file under examples/ that is a scenario (has ``sides``)."""
    out = []
    for path in sorted((ROOT / "examples").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        if isinstance(data, dict) and "sides" in data:
            out.append(path)
    return out


def scenario_id(path: Path | str) -> str:
    return str(path) if isinstance(path, str) else str(path.relative_to(ROOT / "examples"))


def toy_registered() -> None:
    """Register the toy ruleset of ``tests/core/toy.py`` through its plug-in record (as a fifth ruleset would be)."""
    from affray.core.plugin import register
    from tests.core.toy import PLUGIN

    register(PLUGIN)


def load(case: Path | str) -> affray.Scenario:
    """An example scenario file, or ``"toy"``: the toy ruleset's scenario (registering the toy first)."""
    if isinstance(case, Path):
        return affray.load_scenario(case)
    from affray.api import scenario_from_data
    from tests.core.toy import SCENARIO

    toy_registered()
    return scenario_from_data(dict(SCENARIO), "toy.yaml")


def cases() -> list[Path | str]:
    """What the conformance suite runs over: every example scenario and the toy ruleset."""
    return [*example_scenarios(), "toy"]


def random_playout(path: Path | str, seed: int, max_steps: int = 20_000) -> Match:
    """Play ``path`` to the end with every seat on the random policy."""
    scenario = load(path)
    match = scenario.start(seed)
    policies = {actor: RandomPolicy() for actor in match.controllers}
    affray.play(match, policies, FastRNG(seed), max_steps=max_steps)
    return match


def secrets(match: Match) -> list[tuple[str, Any]]:
    return match.ruleset.secrets(match.state)


def invariants(match: Match) -> list[str]:
    return match.ruleset.invariants(match.state)


def leaks(match: Match) -> list[str]:
    """Secrets of one seat visible in another seat's view or redacted log — the GM's included: only the seat that
    plays an actor opens its face-down choices (``Viewer.may_open``); GM-level information opens to the GM too."""
    problems: list[str] = []
    hidden = [(owner, secret, True) for owner, secret in secrets(match)]
    hidden += [(owner, secret, False) for owner, secret in match.ruleset.gm_secrets(match.state)]
    if not hidden:
        return problems
    for seat in {*match.seat_names(), SPECTATOR, GM}:
        viewer = match.viewer(seat)
        text = json.dumps(match.view_json(seat), sort_keys=True) + json.dumps(match.redacted_log(seat), sort_keys=True)
        # What each of the seat's policies would see (core/policy.py): the same redaction as the view.
        for actor in sorted(a for a, s in match.seats.items() if s == seat and a in match.controllers):
            text += json.dumps(exposed(match.observe(actor)), sort_keys=True, default=repr)
        for owner, secret, sealed in hidden:
            if viewer.may_open(owner) if sealed else viewer.may_see(owner):
                continue
            needle = json.dumps(secret, sort_keys=True)
            if needle in text:
                problems.append(f"seat {seat} can see {owner}'s secret {needle}")
    return problems
