"""Simulation runs and sweeps from a loaded scenario: choose the path, run the chunks, and summarise.

The paths: a ruleset's vectorised batch path when the scenario fits it (``batch ...``); otherwise the engine's fast
path (``fast``, :mod:`affray.sim.fast`); or, when asked (``full=True``, ``affray sim --full``), every fight through
the full engine (``full``). The fast path and the full engine play the same fights, so their reports are equal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from affray.api import Scenario
from affray.core.engine import Action
from affray.core.match import Match
from affray.core.plugin import plugin
from affray.sim.runner import DEFAULT_CHUNK, RunResult, SimSpec, derive_seed, fight_seed, play_chunk, run
from affray.sim.stats import Tally, summary, wilson
from affray.sim.sweep import Param, scenario_at


def policies_for(scenario: Scenario, overrides: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """Policy name per actor (scenario controllers, then ``SIDE=NAME`` or ``ID=NAME`` overrides).

    Whatever is still ``human`` is played by ``heuristic`` in a simulation. The notes say so for each combatant a
    person plays in the scenario and no override covers, the one case a reader could not guess; the GM's seat,
    ``human`` unless the scenario says otherwise, gets no note (its calls, where a ruleset has any, are always a
    policy's in a simulation)."""
    from affray.ai.base import get_policy
    from affray.ai.runner import check_overrides

    sides = {c.id: side for side, c in scenario.model.combatants()}
    out, notes = {}, []
    for actor, controller in scenario.controllers.items():
        name = overrides.get(actor) or overrides.get(sides.get(actor, "")) or controller
        if name == "human":
            if actor in sides:
                notes.append(f"{actor} is played by a person at the table (seat {scenario.seats.get(actor, actor)});"
                             f" the simulation plays it with 'heuristic' (--policy {actor}=NAME picks another)")
            name = "heuristic"
        get_policy(scenario.ruleset.name, name)  # KeyError with the known names if unknown
        out[actor] = name
    check_overrides(overrides, scenario.controllers, sides.values())
    return out, notes


def spec_for(scenario: Scenario, overrides: Mapping[str, str], seed: int,
             chunk: int | None) -> tuple[SimSpec, list[str]]:
    policies, notes = policies_for(scenario, overrides)
    spec = SimSpec(scenario.ruleset.name, scenario.setup, scenario.options, policies, seed,
                   chunk or DEFAULT_CHUNK)
    return spec, notes


ChunkRunner = Callable[[SimSpec, int, int], Tally]


FAST, FULL = "fast", "full"  # the engine's two paths, as reports name them


def choose_path(spec: SimSpec, engine_only: bool, chunk: int | None,
                full: bool = False) -> tuple[SimSpec, ChunkRunner, str]:
    """The vectorised batch path when the scenario fits it (and neither ``engine_only`` nor ``full`` refused it),
    else the engine's fast path, or the full engine when ``full``."""
    loader = plugin(spec.ruleset).batch
    if not (engine_only or full) and loader is not None:
        batch = loader()
        if batch.fits(spec) is None:
            return replace(spec, chunk_size=chunk or batch.chunk_size), batch.run_chunk, batch.label
    if full:
        return replace(spec, path="engine"), play_chunk, FULL
    return spec, play_chunk, FAST


@dataclass(slots=True)
class SimOutcome:
    result: RunResult
    report: dict[str, Any]
    path: str
    notes: list[str]
    spec: SimSpec | None = None


@dataclass(slots=True)
class Sample:
    """One fight of a run, replayed in full from its record: its place in the run, seed, actions and the match
    (every event, for narration)."""

    index: int
    seed: int
    actions: list[tuple[str, Action]]
    match: Match


def sample_fight(scenario: Scenario, spec: SimSpec, index: int = 0) -> Sample:
    """Fight ``index`` of the run ``spec`` describes, as the engine's paths play it: played on the fast path, then
    replayed in full from its seed and actions (``sim/fast.py``). The two must end alike: if they do not, that is a
    bug, reported as :class:`~affray.sim.fast.FastPathError`. On a batch path the fight is the engine's fight of the
    same seed (a batch does not play fights one by one)."""
    from affray.ai.base import get_policy
    from affray.sim.fast import FastPathError, play_fast, replay_in_full

    seed = fight_seed(spec, index)
    policies = {actor: get_policy(spec.ruleset, name) for actor, name in spec.policies.items()}
    _, fight = play_fast(scenario.ruleset, spec.setup, spec.options, policies, seed)
    match = replay_in_full(scenario.ruleset, spec.setup, spec.options, fight)
    if match.outcome() != fight.outcome or match.rounds() != fight.rounds:
        raise FastPathError(f"fight {index} (seed {seed}) ended differently when replayed in full")
    return Sample(index, seed, fight.actions, match)


def simulate(scenario: Scenario, n: int, seed: int, executor: Executor | None, overrides: Mapping[str, str],
             progress: Callable[[int], None] | None = None, engine_only: bool = False,
             chunk: int | None = None, full: bool = False) -> SimOutcome:
    spec, notes = spec_for(scenario, overrides, seed, chunk)
    spec, runner, path = choose_path(spec, engine_only, chunk, full)
    result = run(spec, n, executor, progress, runner)
    sides = [s.name for s in scenario.model.sides]
    names = {c.id: c.name or c.id for _, c in scenario.model.combatants()}
    names.update({c["id"]: c["name"] for c in scenario.setup.get("combatants", []) if "name" in c})
    return SimOutcome(result, summary(result.tally, sides, names), path, notes, spec)


def sweep(data: dict[str, Any], source: str | Path, param: Param, n: int, seed: int, executor: Executor | None,
          overrides: Mapping[str, str], precision: float | None, batch: int = 200,
          progress: Callable[[int], None] | None = None, engine_only: bool = False) -> list[dict[str, Any]]:
    """Run each point of ``param`` until its first side's interval half-width is below ``precision`` or
    ``n`` fights were played. Each point has its own seed derived from the run's seed and its index."""
    scenarios = [scenario_at(data, source, param.path, value) for value in param.values]  # refuse bad points first
    points = []
    for index, (value, scenario) in enumerate(zip(param.values, scenarios, strict=True)):
        spec, _ = spec_for(scenario, overrides, derive_seed(seed, "sweep", index), None)
        spec, runner, path = choose_path(spec, engine_only, None)
        step = max(batch, spec.chunk_size) if runner is not play_chunk else batch
        tally, played, block, interrupted = Tally(), 0, 0, False
        first = scenario.model.sides[0].name
        while played < n:
            count = min(step, n - played)
            part = run(replace(spec, seed=derive_seed(spec.seed, "block", block)), count, executor, progress, runner)
            tally.merge(part.tally)
            played += part.tally.fights
            block += 1
            if part.interrupted:
                interrupted = True
                break
            lo, hi = wilson(tally.wins.get(first, 0), tally.fights)
            if precision is not None and (hi - lo) / 2 < precision:
                break
        sides = [s.name for s in scenario.model.sides]
        report = summary(tally, sides, {})
        points.append({"value": value, "fights": tally.fights, "sides": report["sides"], "draws": report["draws"],
                       "escapes": report["escapes"],
                       "rounds_mean": report["rounds"]["mean"], "path": path, "interrupted": interrupted})
        if interrupted:  # Ctrl-C stops the whole sweep: the points so far are the report
            break
    return points
