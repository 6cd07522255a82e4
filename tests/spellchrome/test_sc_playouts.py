"""Conformance for Spellchrome (OpenSpiel-style): seeded random and heuristic playouts of every example
terminate; logs verify and replay exactly; every listed legal action is accepted; refused actions change
nothing; and the map invariants hold after every action (SC-24: no move ends in an occupied square)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.ai.base import RandomPolicy, get_policy
from affray.core.engine import Accepted, Rejected
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.rulesets.spellchrome.state import SpellchromeState
from tests.sweep import rounds, sample

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "spellchrome").glob("*.yaml"))
JUNK: list[dict[str, Any]] = [
    {"type": "move", "to": [99, 99]},
    {"type": "move", "to": [0]},
    {"type": "attack", "target": "nobody"},
    {"type": "step", "to": [-1, 0]},
    {"type": "run", "to": [0, 0], "path": "x"},
    {"type": "cast"},
    {"type": "attack_of_opportunity"},
    {"type": "first_aid", "target": 3},
    {"type": "warp"},
]


def _invariants(state: SpellchromeState) -> None:
    """SC-24: no two able combatants share a square (except a mover paused mid-path on an ally's square,
    waiting for an attack of opportunity); nobody stands in a wall or off the map."""
    standing: dict[tuple[int, int], str] = {}
    for c in state.combatants.values():
        assert state.grid.passable(c.pos), f"{c.id} in a wall at {c.pos}"
        assert c.hp <= c.max_hp and 0 <= c.ex_hp <= c.ex_hp_max
        moving = state.motion is not None and state.motion.actor == c.id  # may pause on an ally's square
        if c.able and not moving:
            assert c.pos not in standing, f"{c.id} and {standing[c.pos]} share {c.pos}"
            standing[c.pos] = c.id


def _play(match: Match, kind: str, seed: int, check_every: int = 0) -> Iterator[None]:
    rng = FastRNG(seed)
    policy = RandomPolicy() if kind == "random" else get_policy("spellchrome", "heuristic")
    steps = 0
    while (window := match.pending()) is not None:
        actor = window.actors[0]
        legal = match.legal(actor)
        assert legal, f"{actor} has no legal action in {window.phase}"
        if check_every and steps % check_every == 0:
            _every_legal_action_is_accepted(match, actor)
        action = policy.choose(match.observe(actor), match.choices(actor), rng)
        assert isinstance(match.act(actor, action), Accepted)
        assert isinstance(match.state, SpellchromeState)
        _invariants(match.state)
        assert match.ruleset.invariants(match.state) == []
        steps += 1
        yield


def _every_legal_action_is_accepted(match: Match, actor: str) -> None:
    for spec in match.legal(actor):
        state, rng = copy.deepcopy(match.state), copy.deepcopy(match.rng)
        result = match.ruleset.step(state, actor, spec.action, rng)
        assert isinstance(result, Accepted), (spec.action, result)
    allowed = {spec.action["type"] for spec in match.legal(actor)}
    for junk in [j for j in JUNK if j["type"] not in allowed or j["type"] != "attack_of_opportunity"]:
        before, index = copy.deepcopy(match.ruleset.snapshot(match.state)), match.rng.index
        result = match.act(actor, junk)
        assert isinstance(result, Rejected) and result.code and result.message
        assert match.ruleset.snapshot(match.state) == before and match.rng.index == index


@pytest.mark.parametrize("path", sample(EXAMPLES), ids=lambda p: p.stem)
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_seeded_playouts_terminate_verify_and_replay(path: Path, kind: str) -> None:
    scenario = affray.load_scenario(path)
    for seed in range(rounds(3, 1)):  # make test-quick: seed 0, the one whose invariants are checked as it goes
        match = scenario.start(seed)
        for _ in _play(match, kind, seed, check_every=20 if seed == 0 else 0):
            pass
        assert match.outcome() is not None
        log = affray.export_log(match)
        report = affray.verify(log)
        assert report.ok, report.problems
        replay = affray.import_log(log)
        assert replay.ruleset.snapshot(replay.state) == match.ruleset.snapshot(match.state)


def test_undo_replays_one_action_fewer() -> None:
    """Contract 4 (undo is a record): the GM's rewind replays one action fewer, and the same action then rolls the same
    dice; a player may not take back an action that rolled dice (it revealed them)."""
    scenario = affray.load_scenario(EXAMPLES[0])
    match = scenario.start(11)
    play = _play(match, "heuristic", 11)
    for _ in range(12):
        next(play)
    while not any(e.kind == "rolled" for e in match.log[-1].events):
        next(play)
    last = match.log[-1]
    events = [e.to_dict() for e in last.events]
    refused = match.take_back(last.seat)
    assert isinstance(refused, Rejected) and refused.code == "revealed_since"
    assert isinstance(match.rewind(match.version - 1), Accepted)
    result = match.submit(last.seat, last.actor, last.action)
    assert isinstance(result, Accepted) and [e.to_dict() for e in result.events] == events


def test_views_hold_no_secrets_and_name_the_acting_choices() -> None:
    """Contract 6: nothing on the battle map is hidden, so every seat's view is the same facts."""
    scenario = affray.load_scenario(EXAMPLES[0])
    match = scenario.start(5)
    gm, spectator = match.view("gm"), match.view("spectator")
    for key in ("order", "turn", "round", "detail"):
        assert getattr(gm, key) == getattr(spectator, key)
    strip = [dataclasses.replace(c, controlled=False) for c in gm.combatants]
    assert strip == [dataclasses.replace(c, controlled=False) for c in spectator.combatants]
    assert spectator.you == () and gm.prompt is not None and gm.phase == "turn"
