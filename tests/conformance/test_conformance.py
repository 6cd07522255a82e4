"""One generic suite for every ruleset and every example scenario (the OpenSpiel way): random playouts
terminate, replay and JSON round-trips are exact, rejected actions change nothing, views are JSON and
hide every seat's secrets from the others."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import affray
from affray.core.engine import GM, SPECTATOR, Rejected, ruleset_names
from affray.core.log import export_log, import_log
from affray.core.match import Match
from affray.core.rng import FastRNG
from tests.conformance.common import example_scenarios, invariants, leaks, random_playout, scenario_id

SCENARIOS = example_scenarios()
SEEDS = range(3)


def test_every_ruleset_has_example_scenarios() -> None:
    covered = {affray.load_scenario(p).ruleset.name for p in SCENARIOS}
    assert covered == set(ruleset_names())


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_terminates_and_replays_exactly(path: Path, seed: int) -> None:
    match = random_playout(path, seed)
    assert match.outcome() is not None
    again = match.replayed()
    assert [e.to_dict() for e in again.events()] == [e.to_dict() for e in match.events()]
    assert again.ruleset.snapshot(again.state) == match.ruleset.snapshot(match.state)
    assert invariants(match) == []


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_log_round_trips_through_json_and_verifies(path: Path) -> None:
    match = random_playout(path, 7)
    data = json.loads(json.dumps(export_log(match)))
    restored = import_log(data)
    assert [e.to_dict() for e in restored.events()] == [e.to_dict() for e in match.events()]
    assert affray.verify(data).ok


def _junk_actions(match: Match, actor: str) -> list[dict[str, object]]:
    legal = match.legal(actor)
    junk: list[dict[str, object]] = [{"type": "no_such_action"}, {"type": "attack", "target": "nobody"},
                                     {"type": "declare", "plan": "x"}, {"type": 3}]
    for spec in legal[:3]:
        broken = copy.deepcopy(spec.action)
        for key in list(broken):
            if key != "type":
                broken[key] = "???"
        junk.append(broken)
    return junk


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_rejected_actions_change_nothing(path: Path) -> None:
    scenario = affray.load_scenario(path)
    match = scenario.start(3)
    rng = FastRNG(3)
    for _ in range(40):
        window = match.pending()
        if window is None:
            break
        actor = window.actors[0]
        others = [a for a in match.seats if a not in window.actors and a != GM]
        before = json.dumps(match.ruleset.snapshot(match.state), sort_keys=True)
        draws, logged = match.rng.index, len(match.log)
        for junk in _junk_actions(match, actor):
            result = match.act(actor, junk)
            if isinstance(result, Rejected):
                assert result.code and result.message.endswith((".", "!", "?"))
                assert json.dumps(match.ruleset.snapshot(match.state), sort_keys=True) == before
                assert (match.rng.index, len(match.log)) == (draws, logged)
            else:  # a junk-looking action may be legal (e.g. text fields): then it is simply the move
                break
        else:
            if others:
                legal = match.legal(actor)
                result = match.act(others[0], legal[0].action)
                assert isinstance(result, Rejected) and result.code in ("not_your_turn", "not_your_seat")
            legal = match.legal(actor)
            assert legal, f"{actor} must act but has no legal action"
            assert match.act(actor, legal[rng.die(len(legal)) - 1].action).ok


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_views_are_json_and_keep_secrets(path: Path) -> None:
    scenario = affray.load_scenario(path)
    match = scenario.start(5)
    rng = FastRNG(5)
    for _ in range(400):
        for seat in [*match.seat_names(), SPECTATOR, GM]:
            json.dumps(match.view(seat))
        assert leaks(match) == []
        window = match.pending()
        if window is None:
            break
        actor = window.actors[0]
        legal = match.legal(actor)
        match.act(actor, legal[rng.die(len(legal)) - 1].action)


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_heuristic_playout_terminates(path: Path) -> None:
    scenario = affray.load_scenario(path)
    match = scenario.start(11)
    assert affray.play(match, scenario.policies(match, {s.name: "heuristic" for s in scenario.model.sides}))
