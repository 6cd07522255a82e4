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


def scenario_id(path: Path) -> str:
    return str(path.relative_to(ROOT / "examples"))


def random_playout(path: Path, seed: int, max_steps: int = 20_000) -> Match:
    """Play ``path`` to the end with every seat on the random policy."""
    scenario = affray.load_scenario(path)
    match = scenario.start(seed)
    policies = {actor: RandomPolicy() for actor in match.controllers}
    affray.play(match, policies, FastRNG(seed), max_steps=max_steps)
    return match


def secrets(match: Match) -> list[tuple[str, Any]]:
    return match.ruleset.secrets(match.state)


def invariants(match: Match) -> list[str]:
    return match.ruleset.invariants(match.state)


def leaks(match: Match) -> list[str]:
    """Secrets of one seat visible in another seat's view or redacted log (the GM may see all)."""
    problems: list[str] = []
    hidden = secrets(match)
    if not hidden:
        return problems
    for seat in [*match.seat_names(), SPECTATOR]:
        if seat == GM:
            continue
        viewer = match.viewer(seat)
        text = json.dumps(match.view(seat), sort_keys=True) + json.dumps(match.redacted_log(seat), sort_keys=True)
        for owner, secret in hidden:
            if viewer.may_see(owner):
                continue
            needle = json.dumps(secret, sort_keys=True)
            if needle in text:
                problems.append(f"seat {seat} can see {owner}'s secret {needle}")
    return problems
