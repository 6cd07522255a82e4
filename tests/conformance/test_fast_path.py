"""The simulation fast path plays the very fights of the full engine.

For every example scenario and ``AFFRAY_FAST_SEEDS`` seeds (``make test``: 100, the default here; ``make
test-quick``, the inner loop: 20; ``make fuzz``: 1,000): the fast path (:mod:`affray.sim.fast`, quiet journal, no
validation) and the full engine (a :class:`Match` with events, dice records, seals and validation) give the same
actions, outcome, rounds and every combatant's end state (``Ruleset.report``: down, dead, hit points, damage dealt
and taken, conditions). A fast fight replayed in full gives the same events as the full engine's fight. ``affray
sim`` reports the same numbers whichever path ran. And each ruleset's :class:`Choices` answers exactly what its
legal listing says.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest

from affray.ai.base import get_policy
from affray.ai.runner import play
from affray.core.match import Match
from affray.core.memo import Memo
from affray.core.options import parse_options
from affray.core.rng import POLICY_KEY, FastRNG
from affray.sim.fast import play_fast, replay_in_full
from affray.sim.runner import SimSpec, run
from affray.sim.session import spec_for
from tests.conformance.common import cases, example_scenarios, load, scenario_id

SEEDS = int(os.environ.get("AFFRAY_FAST_SEEDS", "100"))
REPLAY_EVERY = 10  # every tenth fast fight is replayed in full and its events compared


def _policies(case: Path | str) -> tuple[Any, dict[str, Any]]:
    scenario = load(case)
    spec, _ = spec_for(scenario, {}, 0, None)
    return scenario, {actor: get_policy(spec.ruleset, name) for actor, name in spec.policies.items()}


def _full(scenario: Any, policies: dict[str, Any], seed: int, shared: dict[Any, Any]) -> Match:
    match = Match(scenario.plugin, scenario.setup, scenario.options, rng=FastRNG(seed), shared=shared)
    play(match, policies, FastRNG(seed ^ POLICY_KEY))
    return match


@pytest.mark.parametrize("path", example_scenarios(), ids=scenario_id)
def test_the_fast_path_plays_the_full_engines_fights(path: Path) -> None:
    """The fast path: for SEEDS seeds, identical actions, outcome, rounds and end state of every combatant."""
    scenario, policies = _policies(path)
    ruleset = scenario.ruleset
    options = parse_options(ruleset.options_type, scenario.options)
    shared_full: dict[Any, Any] = {}
    shared_fast: dict[Any, Any] = {}
    for seed in range(SEEDS):
        full = _full(scenario, policies, seed, shared_full)
        state, fast = play_fast(
            ruleset, scenario.setup, options, policies, seed, validate=seed % 2 == 0, shared=shared_fast
        )
        where = f"{scenario_id(path)} seed {seed}"
        assert fast.actions == [(r.actor, r.action) for r in full.log], where
        assert fast.outcome == full.outcome(), where
        assert fast.rounds == full.rounds(), where
        assert ruleset.report(state) == ruleset.report(full.state), where
        if seed % REPLAY_EVERY == 0:
            replayed = replay_in_full(ruleset, scenario.setup, scenario.options, fast)
            assert [e.to_dict() for e in replayed.events()] == [e.to_dict() for e in full.events()], where


@pytest.mark.parametrize(
    "path",
    [p for p in example_scenarios() if p.parent.name in ("hud", "warp")][:1]
    + [p for p in example_scenarios() if p.name in ("crossroads_2v2.yaml", "bench_arena.yaml", "knight_duel.yaml")],
    ids=scenario_id,
)
def test_sim_reports_are_identical_whichever_path_ran(path: Path) -> None:
    """``affray sim`` gives the same report on the fast path and the full engine."""
    scenario = load(path)
    spec, _ = spec_for(scenario, {}, 7, 16)
    fast = run(spec, 48)
    full = run(SimSpec(**{**spec.__dict__, "path": "engine"}), 48)
    assert fast.tally.fights == full.tally.fights == 48
    assert fast.tally == full.tally


def _questions(ruleset: Any, state: Any, actor: str, memo: Memo, rng_seed: int) -> None:
    """Each question asked of a fresh Choices agrees with the legal listing (which a fresh Choices must not have
    made yet, so a ruleset's own answers are what is checked)."""
    legal = ruleset.legal(state, actor, memo)

    def fresh() -> Any:
        return ruleset.choices(state, actor, memo)

    assert fresh().all() == legal
    assert len(fresh()) == len(legal)
    assert bool(fresh()) == bool(legal)
    kinds = {s.action["type"] for s in legal}
    assert fresh().kinds() == kinds
    for kind in sorted(kinds):
        listed = [s for s in legal if s.action["type"] == kind]
        assert fresh().of(kind) == listed
        by_label = max(listed, key=lambda s: s.label)
        assert fresh().best(kind, lambda s: s.label) == next(s for s in listed if s.label == by_label.label)
    for spec in legal[:5]:
        assert fresh().allows(spec.action)
    assert not fresh().allows({"type": "no such action"})
    a, b = FastRNG(rng_seed), FastRNG(rng_seed)
    assert fresh().pick(a) == legal[b.die(len(legal)) - 1].action


@pytest.mark.parametrize("path", cases(), ids=scenario_id)
def test_choices_answer_what_the_listing_says(path: Path | str) -> None:
    """Choices: kinds, of, allows, best and pick agree with ``legal`` over a random playout."""
    scenario = load(path)
    match = scenario.start(3)
    rng = FastRNG(3)
    for step in range(150):
        window = match.pending()
        if window is None:
            break
        actor = window.actors[0]
        before = copy.deepcopy(match.ruleset.snapshot(match.state))
        _questions(match.ruleset, match.state, actor, match.memo, step)
        assert match.ruleset.snapshot(match.state) == before  # asking changes nothing
        legal = match.legal(actor)
        assert match.act(actor, legal[rng.die(len(legal)) - 1].action).ok


@pytest.mark.parametrize("path", cases(), ids=scenario_id)
def test_observations_are_read_only(path: Path | str) -> None:
    """Observations: a policy cannot change what it observes: no public attribute of an observation can be set."""
    scenario = load(path)
    match = scenario.start(4)
    window = match.pending()
    assert window is not None
    seen = match.observe(window.actors[0])
    names = [n for n in dir(type(seen)) if not n.startswith("_") and not callable(getattr(seen, n))]
    for name in names:
        with pytest.raises(AttributeError):
            setattr(seen, name, None)
    with pytest.raises(AttributeError):
        seen.anything_new = 1  # type: ignore[attr-defined]  # no observation takes a new attribute
