"""Simulation runs and sweeps from a loaded scenario: choose the path, run the chunks, and summarise.

The paths: a ruleset's vectorised batch path when the scenario fits it (``batch ...``); otherwise the engine's fast
path (``fast``, :mod:`affray.sim.fast`); or, when asked (``full=True``, ``affray sim --full``), every fight through
the full engine (``full``). The fast path and the full engine play the same fights, so their reports are equal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from affray.api import Scenario
from affray.core.engine import GM, Action, CombatantReport
from affray.core.match import Match
from affray.core.plugin import AnyPlugin, BatchPath
from affray.sim.balance import Balance, Probe, check_values, search
from affray.sim.report import ScenarioStamp, SimReport, affray_version, setup_digest, stamp_line
from affray.sim.runner import (
    DEFAULT_CHUNK,
    RecordSink,
    RunResult,
    SimSpec,
    derive_seed,
    fight_seed,
    play_chunk,
    run,
)
from affray.sim.stats import Tally, summary, wilson
from affray.sim.sweep import Param, SweepError, scenario_with


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
                notes.append(
                    f"{actor} is played by a person at the table (seat {scenario.seats.get(actor, actor)});"
                    f" the simulation plays it with 'heuristic' (--policy {actor}=NAME picks another)"
                )
            name = "heuristic"
        get_policy(scenario.plugin, name)  # KeyError with the known names if unknown
        out[actor] = name
    check_overrides(overrides, scenario.controllers, sides.values())
    return out, notes


def spec_for(
    scenario: Scenario, overrides: Mapping[str, str], seed: int, chunk: int | None
) -> tuple[SimSpec, list[str]]:
    policies, notes = policies_for(scenario, overrides)
    spec = SimSpec(scenario.ruleset.name, scenario.setup, scenario.options, policies, seed, chunk or DEFAULT_CHUNK)
    return spec, notes


ChunkRunner = Callable[[SimSpec, int, int], Tally]


FAST, FULL = "fast", "full"  # the engine's two paths, as reports name them


def choose_path(
    spec: SimSpec, record: AnyPlugin, engine_only: bool, chunk: int | None, full: bool = False
) -> tuple[SimSpec, ChunkRunner, str]:
    """The vectorised batch path of the ruleset's ``record`` when the scenario fits it (and neither ``engine_only``
    nor ``full`` refused it, nor ``spec.records`` asked for each fight's record, which a batch does not keep), else
    the engine's fast path, or the full engine when ``full``."""
    loader = record.batch
    if not (engine_only or full or spec.records) and loader is not None:
        batch: BatchPath[SimSpec, Tally] = loader()
        if batch.fits(spec) is None:
            return replace(spec, chunk_size=chunk or batch.chunk_size), batch.run_chunk, batch.label
    if full:
        return replace(spec, path="engine"), play_chunk, FULL
    return spec, play_chunk, FAST


def engine_of(path: str) -> str:
    """``fast``, ``full`` or ``batch``: which engine a path label names."""
    return path if path in (FAST, FULL) else "batch"


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
    policies = {actor: get_policy(scenario.plugin, name) for actor, name in spec.policies.items()}
    _, fight = play_fast(scenario.ruleset, spec.setup, spec.options, policies, seed)
    match = replay_in_full(scenario.plugin, spec.setup, spec.options, fight)
    if match.outcome() != fight.outcome or match.rounds() != fight.rounds:
        raise FastPathError(f"fight {index} (seed {seed}) ended differently when replayed in full")
    return Sample(index, seed, fight.actions, match)


def combatant_names(scenario: Scenario) -> dict[str, str]:
    """Each combatant's name as the fight tells it (numbered where several share one)."""
    names = {c.id: c.name or c.id for _, c in scenario.model.combatants()}
    names.update({c["id"]: c["name"] for c in scenario.setup.get("combatants", []) if "name" in c})
    return names


def simulate(
    scenario: Scenario,
    n: int,
    seed: int,
    executor: Executor | None,
    overrides: Mapping[str, str],
    progress: Callable[[int], None] | None = None,
    engine_only: bool = False,
    chunk: int | None = None,
    full: bool = False,
    records: RecordSink | None = None,
) -> SimOutcome:
    """Play ``n`` fights of ``scenario``; ``records`` (``affray sim --records``) receives every fight's record in
    the run's order, which plays the run on the engine (a batch path keeps no records)."""
    spec, notes = spec_for(scenario, overrides, seed, chunk)
    spec, runner, path = choose_path(
        replace(spec, records=records is not None), scenario.plugin, engine_only, chunk, full
    )
    result = run(spec, n, executor, progress, runner, records)
    sides = [s.name for s in scenario.model.sides]
    return SimOutcome(result, summary(result.tally, sides, combatant_names(scenario)), path, notes, spec)


def initial_reports(scenario: Scenario) -> dict[str, CombatantReport]:
    """Each combatant's report in the scenario's first state: who fights, and which numbers its ruleset reports."""
    from affray.core.options import parse_options
    from affray.core.rng import FastRNG

    ruleset = scenario.ruleset
    state, _ = ruleset.setup(scenario.setup, parse_options(ruleset.options_type, scenario.options), FastRNG(0))
    return ruleset.report(state)


def acting_policies(scenario: Scenario, policies: Mapping[str, str]) -> dict[str, str]:
    """``policies`` without the GM's seat where the GM has no calls of its own in this scenario (its policy then
    changes nothing that was simulated)."""
    from affray.core.options import parse_options
    from affray.core.rng import FastRNG

    ruleset = scenario.ruleset
    state, _ = ruleset.setup(scenario.setup, parse_options(ruleset.options_type, scenario.options), FastRNG(0))
    return {actor: name for actor, name in policies.items() if actor != GM or ruleset.gm_acts(state)}


def scenario_stamp(scenario: Scenario) -> ScenarioStamp:
    """The scenario's path, its file's digest (when it was read from one) and the digest of what is simulated."""
    record = scenario.plugin
    digest = setup_digest(record.name, record.rules_version, scenario.setup, scenario.options)
    return ScenarioStamp(scenario.model.name or Path(scenario.path).stem, scenario.path, scenario.sha256, digest)


def run_stamp(
    scenario: Scenario, overrides: Mapping[str, str], seed: int, engine_only: bool, exact: bool
) -> dict[str, Any]:
    """What reproduces a sweep or a balance, as its JSON records it: the scenario (as given, before any parameter
    is set), the rules, the seed, each acting seat's policy (none when ``exact``: the duel model's own), the engine
    (``exact``, or the path the scenario's fights take) and affray's version."""
    record = scenario.plugin
    stamp = scenario_stamp(scenario)
    policies = {} if exact else acting_policies(scenario, policies_for(scenario, overrides)[0])
    engine = (
        "exact" if exact else choose_path(spec_for(scenario, overrides, seed, None)[0], record, engine_only, None)[2]
    )
    return {
        "scenario": {
            "name": stamp.name,
            "path": stamp.path,
            "sha256": stamp.sha256,
            "setup_sha256": stamp.setup_sha256,
        },
        "ruleset": record.name,
        "rules_version": record.rules_version,
        "seed": seed,
        "policies": policies,
        "engine": engine,
        "version": affray_version(),
    }


def run_stamp_line(stamp: Mapping[str, Any], fights: str) -> str:
    """:func:`run_stamp` in one line, for a figure's foot."""
    scenario = ScenarioStamp(**stamp["scenario"])
    return stamp_line(
        scenario,
        stamp["seed"],
        stamp["policies"],
        stamp["engine"],
        stamp["version"],
        stamp["ruleset"],
        stamp["rules_version"],
        fights,
    )


def sim_report(scenario: Scenario, outcome: SimOutcome) -> SimReport:
    """The typed report of a run (:class:`~affray.sim.report.SimReport`): its numbers and its stamp."""
    spec = outcome.spec
    assert spec is not None
    record = scenario.plugin
    return SimReport.from_summary(
        outcome.report,
        round_word=record.round_word,
        scenario=scenario_stamp(scenario),
        ruleset=record.name,
        rules_version=record.rules_version,
        seed=spec.seed,
        policies=acting_policies(scenario, spec.policies),
        engine=engine_of(outcome.path),
        path=outcome.path,
        version=affray_version(),
        notes=tuple(outcome.notes),
        interrupted=outcome.result.interrupted,
    )


class PointRun:
    """The fights of one sweep or balance point, played in blocks until its interval is narrow enough.

    Block ``b`` has the seed ``derive_seed(seed, "block", b)``: a point's numbers depend on its seed and how many
    blocks it played, not on when they were asked for, so a point can be topped up later (a balance does)."""

    def __init__(
        self,
        scenario: Scenario,
        overrides: Mapping[str, str],
        seed: int,
        executor: Executor | None,
        progress: Callable[[int], None] | None,
        engine_only: bool,
        batch: int = 200,
    ) -> None:
        spec, _ = spec_for(scenario, overrides, seed, None)
        self.spec, self.runner, self.path = choose_path(spec, scenario.plugin, engine_only, None)
        self.step = max(batch, self.spec.chunk_size) if self.runner is not play_chunk else batch
        self.executor, self.progress = executor, progress
        self.sides = [s.name for s in scenario.model.sides]
        self.tally, self.block, self.interrupted = Tally(), 0, False

    def interval(self, side: str) -> tuple[float, float]:
        return wilson(self.tally.wins.get(side, 0), self.tally.fights)

    def play_block(self, most: int) -> None:
        """One more block of fights (at most ``most``)."""
        spec = replace(self.spec, seed=derive_seed(self.spec.seed, "block", self.block))
        part = run(spec, min(self.step, most), self.executor, self.progress, self.runner)
        self.tally.merge(part.tally)
        self.block += 1
        self.interrupted = self.interrupted or part.interrupted

    def until(self, side: str, precision: float | None, most: int, target: float | None = None) -> None:
        """Play blocks until ``side``'s 95% interval is narrower than ±``precision``, or (with ``target``) lies
        wholly on one side of it, or ``most`` fights were played, or the run was interrupted."""
        while self.tally.fights < most and not self.interrupted:
            if self.tally.fights:
                lo, hi = self.interval(side)
                if precision is not None and (hi - lo) / 2 < precision:
                    return
                if target is not None and (hi < target or lo > target):
                    return
            self.play_block(most - self.tally.fights)

    def point(self) -> dict[str, Any]:
        report = summary(self.tally, self.sides, {})
        return {
            "fights": self.tally.fights,
            "sides": report["sides"],
            "draws": report["draws"],
            "escapes": report["escapes"],
            "rounds_mean": report["rounds"]["mean"],
            "path": self.path,
            "interrupted": self.interrupted,
        }


def exact_point(scenario: Scenario) -> dict[str, Any]:
    """A point's outcomes from the exact duel solver (``affray odds duel``'s), in a sweep point's shape: each side's
    win chance with a zero-width interval, the draws, no escapes, the expected rounds, ``fights`` 0."""
    from affray.odds.duels import duel_model
    from affray.odds.markov import NotSolvable

    try:
        odds = duel_model(scenario.plugin).solve(scenario.setup, scenario.options, False)
    except NotSolvable as exc:
        raise SweepError(f"--exact: this scenario cannot be solved exactly ({exc})") from None
    sides = {s.name: float(odds.outcomes.get(s.name, 0.0)) for s in scenario.model.sides}
    draw = float(odds.outcomes.get("draw", 0.0))
    return {
        "fights": 0,
        "sides": {side: {"wins": None, "win_rate": p, "ci95": [p, p]} for side, p in sides.items()},
        "draws": {"count": None, "rate": draw, "ci95": [draw, draw]},
        "escapes": {"count": 0, "rate": 0.0, "ci95": [0.0, 0.0]},
        "rounds_mean": float(odds.expected_rounds),
        "path": "exact",
        "interrupted": False,
    }


def sweep(
    data: dict[str, Any],
    source: str | Path,
    params: Param | Sequence[Param],
    n: int,
    seed: int,
    executor: Executor | None,
    overrides: Mapping[str, str],
    precision: float | None,
    batch: int = 200,
    progress: Callable[[int], None] | None = None,
    engine_only: bool = False,
    exact: bool = False,
    side: str | None = None,
) -> list[dict[str, Any]]:
    """Each point of one parameter, or of the grid of two (every pair of values, the first parameter's outer),
    played until ``side``'s (default: the first side's) interval half-width is below ``precision`` or ``n`` fights
    were played; or, with ``exact``, solved by the exact duel solver. Point ``i`` has its own seed derived from the
    sweep's seed and ``i``. Each point has ``values`` (one per parameter) and, for one parameter, ``value``."""
    grid = [params] if isinstance(params, Param) else list(params)
    combos = list(itertools.product(*(p.values for p in grid)))
    scenarios = [
        scenario_with(data, source, [(p.path, v) for p, v in zip(grid, combo, strict=True)]) for combo in combos
    ]  # every point is checked before any fight is played
    points = []
    for index, (combo, scenario) in enumerate(zip(combos, scenarios, strict=True)):
        if exact:
            point = exact_point(scenario)
        else:
            runner = PointRun(
                scenario, overrides, derive_seed(seed, "sweep", index), executor, progress, engine_only, batch
            )
            runner.until(side or runner.sides[0], precision, n)
            point = runner.point()
        point = {**({"value": combo[0]} if len(grid) == 1 else {}), "values": list(combo), **point}
        points.append(point)
        if point["interrupted"]:  # Ctrl-C stops the whole sweep: the points so far are the report
            break
    return points


def balance(
    data: dict[str, Any],
    source: str | Path,
    param: Param,
    side: str,
    target: float,
    precision: float,
    most: int,
    seed: int,
    executor: Executor | None,
    overrides: Mapping[str, str],
    progress: Callable[[int], None] | None = None,
    engine_only: bool = False,
    exact: bool = False,
) -> Balance:
    """The value of ``param`` that brings ``side``'s win chance closest to ``target`` (:mod:`affray.sim.balance`):
    exactly with the duel solver when ``exact``, else by simulation, each value played until its interval is
    narrower than ±``precision`` (at most ``most`` fights), with its own seed derived from ``seed`` and the value."""
    values = check_values(param.values, target)
    scenarios: dict[int, Scenario] = {}

    def scenario(value: int) -> Scenario:
        if value not in scenarios:
            scenarios[value] = scenario_with(data, source, [(param.path, value)])
        return scenarios[value]

    scenario(values[0]), scenario(values[-1])  # both ends are valid before anything is played
    if exact:

        def solved(value: int, final: bool) -> Probe:
            rate = float(exact_point(scenario(value))["sides"][side]["win_rate"])
            return Probe(value, rate, rate, rate)

        return search(param.path, values, side, target, solved, True)
    runs: dict[int, PointRun] = {}

    def simulated(value: int, final: bool) -> Probe:
        if value not in runs:
            runs[value] = PointRun(
                scenario(value), overrides, derive_seed(seed, "balance", value), executor, progress, engine_only
            )
        point = runs[value]
        point.until(side, precision, most, None if final else target)
        low, high = point.interval(side)
        fights = point.tally.fights
        return Probe(value, point.tally.wins.get(side, 0) / fights if fights else 0.0, low, high, fights)

    return search(
        param.path,
        values,
        side,
        target,
        simulated,
        False,
        fights=lambda: sum(r.tally.fights for r in runs.values()),
        interrupted=lambda: any(r.interrupted for r in runs.values()),
    )
