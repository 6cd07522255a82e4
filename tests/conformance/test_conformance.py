"""One generic suite for every ruleset and every example scenario (the OpenSpiel way): random playouts
terminate, replay and JSON round-trips are exact (undo records included), rejected actions change nothing, views
are JSON in their declared schema and hide every seat's secrets from the others (the GM's included), legal actions
are instances of their declared action types, and what the match's memo keeps equals what is built from scratch.
The toy ruleset of ``tests/core/toy.py`` runs through the same suite, registered by its plug-in record alone."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import affray
from affray.ai.base import policy_names
from affray.core.actions import check_action
from affray.core.engine import GM, SPECTATOR, Action, Rejected
from affray.core.fields import text
from affray.core.log import export_log, import_log
from affray.core.match import Match
from affray.core.memo import Memo
from affray.core.plugin import ruleset_names
from affray.core.rng import FastRNG
from tests.conformance.common import (
    LeakWatch,
    cases,
    example_scenarios,
    invariants,
    load,
    random_playout,
    random_step,
    scenario_id,
)
from tests.sweep import rounds

SCENARIOS = cases()
SEEDS = range(3)


def test_every_ruleset_has_example_scenarios() -> None:
    covered = {affray.load_scenario(p).ruleset.name for p in example_scenarios()}
    assert covered | {"toy"} == set(ruleset_names()) | {"toy"}


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


def _junk_actions(match: Match, actor: str) -> list[Action]:
    legal = match.legal(actor)
    junk: list[Action] = [
        {"type": "no_such_action"},
        {"type": "attack", "target": "nobody"},
        {"type": "declare", "plan": "x"},
        {"type": 3},
    ]
    for spec in legal[:3]:
        broken = copy.deepcopy(spec.action)
        for key in list(broken):
            if key != "type":
                broken[key] = "???"
        junk.append(broken)
    return junk


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_rejected_actions_change_nothing(path: Path) -> None:
    scenario = load(path)
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
    """After every step of a random fight (up to 400; make test-quick: 120), every seat's view is JSON and no seat's
    view, redacted log or policies' observations show another seat's secret (:class:`LeakWatch`: each check
    serialises every seat's view and searches what the step added, so the cost grows with the fight's length, not
    its square)."""
    scenario = load(path)
    match = scenario.start(5)
    rng = FastRNG(5)
    watch = LeakWatch(match)
    for _ in range(rounds(400, 120)):
        assert watch.check() == []
        if not random_step(match, rng):
            break


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_heuristic_playout_terminates(path: Path) -> None:
    scenario = load(path)
    match = scenario.start(11)
    names = policy_names(scenario.ruleset.name)
    policy = "heuristic" if "heuristic" in names else "random"
    assert affray.play(match, scenario.policies(match, {s.name: policy for s in scenario.model.sides}))


def _json(view: object) -> object:
    to_json = getattr(view, "to_json", None)
    return to_json() if to_json is not None else view


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_legal_actions_are_instances_of_their_types_and_memos_equal_fresh_builds(path: Path) -> None:
    """Declared action types and the one memo: every legal action passes its declared type; a view or legal list kept
    in the match's memo equals one built from scratch."""
    scenario = load(path)
    ruleset = scenario.ruleset
    types = ruleset.action_types()
    fields = {t.type: {f.name for f in t.fields} for t in types}
    match = scenario.start(9)
    rng = FastRNG(9)
    for _ in range(300):
        for seat in {*match.seat_names(), SPECTATOR, GM}:
            assert _json(match.view(seat)) == _json(ruleset.view(match.state, match.viewer(seat), Memo()))
        window = match.pending()
        if window is None:
            break
        actor = window.actors[0]
        legal = match.legal(actor)
        assert [s.to_dict() for s in legal] == [s.to_dict() for s in ruleset.legal(match.state, actor, Memo())]
        assert types, f"{ruleset.name} declares no action types"
        if types:
            for spec in legal:
                assert check_action(spec.action, types) == [], spec.label
                assert set(spec.free) <= fields[text(spec.action, "type")]  # a free field may be optional and absent
        match.act(actor, legal[rng.die(len(legal)) - 1].action)


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_views_follow_their_schema(path: Path) -> None:
    """The one envelope: every view has the one envelope and validates against the ruleset's view schema."""
    from pydantic import TypeAdapter

    from affray.core.view import View

    scenario = load(path)
    types = scenario.ruleset.view_types
    assert len(types) == 2, f"{scenario.ruleset.name} declares no view types"
    adapter: TypeAdapter[object] = TypeAdapter(View[types[0], types[1]])  # type: ignore[valid-type]
    match = scenario.start(4)
    rng = FastRNG(4)
    for _ in range(60):
        for seat in {*match.seat_names(), SPECTATOR, GM}:
            data = match.view_json(seat)
            envelope = {"ruleset", "mode", "round", "phase", "order", "turn", "prompt", "outcome", "combatants"}
            assert envelope <= set(data)
            adapter.validate_python(data)
        if not random_step(match, rng):
            break


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_undo_records_replay_exactly(path: Path) -> None:
    """Contract 4: take-backs and GM rewinds are records of the log; replay and JSON import honour them."""
    scenario = load(path)
    match = scenario.start(6)
    rng = FastRNG(6)
    for step in range(120):
        window = match.pending()
        if window is None:
            break
        if step % 17 == 16:
            assert match.rewind(max(0, match.version - 3)).ok
            continue
        actor = window.actors[0]
        legal = match.legal(actor)
        match.act(actor, legal[rng.die(len(legal)) - 1].action)
        if step % 11 == 10:
            match.take_back(match.seats[actor])  # refused when it rolled or revealed: either way the log says
    again = match.replayed()
    assert [e.to_dict() for e in again.events()] == [e.to_dict() for e in match.events()]
    assert [r.to_dict() for r in again.records] == [r.to_dict() for r in match.records]
    data = json.loads(json.dumps(export_log(match, reveal_seed=True)))
    assert affray.verify(data).ok
    assert import_log(data).ruleset.snapshot(import_log(data).state) == match.ruleset.snapshot(match.state)


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_matches_sharing_the_setup_parts_of_their_memo_play_as_if_alone(path: Path) -> None:
    """The one memo: what a scenario's matches share (``Memo.static``, the setup-only parts) changes nothing:
    three fights in a row on one shared store give exactly the events of three fights each on its own."""
    scenario = load(path)
    shared: dict[object, object] = {}
    for seed in (1, 2, 3):
        fights = []
        for store in (shared, None):
            match = Match(
                scenario.plugin,
                scenario.setup,
                scenario.options,
                rng=FastRNG(seed),
                seats=scenario.seats,
                controllers=scenario.controllers,
                shared=store,
            )
            names = policy_names(scenario.ruleset.name)
            policy = "heuristic" if "heuristic" in names and seed != 3 else "random"
            affray.play(
                match,
                scenario.policies(match, {s.name: policy for s in scenario.model.sides}),
                FastRNG(seed + 100),
                max_steps=3_000,
            )
            fights.append([e.to_dict() for e in match.events()])
        assert fights[0] == fights[1]
