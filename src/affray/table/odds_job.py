"""The odds before the fight (docs/table.md, "The odds before the fight"): a quick simulation of a scenario as built,
in a worker process, for ``POST /api/scenarios/odds``.

The numbers come from the simulation code ``affray sim`` runs (:mod:`affray.sim.session`: the same policies, the
same path, the same chunks' seeds, so ``affray sim -n N --seed S --chunk 25`` on the same scenario plays the same
fights), or from the ruleset's exact duel solver where it applies (``affray odds duel``'s; then ``exact`` is true,
the intervals have no width and ``assumes`` says what the solver assumes).

Bounded work, whoever asks: at most :data:`MAX_FIGHTS` fights and :data:`MAX_COMBATANTS` combatants, at most
:data:`WALL_SECONDS` seconds of a request (the fights finished by then are the answer, their count in ``fights``),
one job per key (a new request with the same key cancels the one under way, which answers 409 ``cancelled``), at
most :data:`QUEUE` jobs in all (503 ``busy`` beyond). The work runs in a pool of one spawned process (the server's
threads are never forked); a job is played a chunk at a time, so a cancelled job stops at its chunk's end, and an
exact solve that outlasts its time kills the pool (the next job starts a new one).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult, Pool
from multiprocessing.process import BaseProcess
from typing import TypeVar

from affray.api import Scenario
from affray.core.json import Json, JsonObject
from affray.core.plugin import plugin
from affray.sim.runner import SimSpec, chunks_of
from affray.sim.session import acting_policies, choose_path, combatant_names, spec_for
from affray.sim.stats import Tally, summary
from affray.table.errors import CONFLICT, UNAVAILABLE, UNPROCESSABLE, Refusal

MAX_FIGHTS = 500
DEFAULT_FIGHTS = 300
MAX_COMBATANTS = 24
WALL_SECONDS = 4.0
EXACT_SECONDS = 2.0  # of the wall time, what an exact solve may take before the fights are simulated instead
QUEUE = 4
START_SECONDS = 20.0  # a new worker process's start (its imports), not counted in a job's time
CHUNK = 25
DEFAULT_SEED = 1

T = TypeVar("T")

CANCELLED = "A newer request with the same key replaced this one; its odds were not computed."
BUSY = "The server is computing other odds right now; try again in a moment."


# -- in the worker process: plain data in, plain data out ------------------------------------------------------


def _warm() -> None:
    """The worker's start: import the simulation once, not in the first job; and leave when the server does (a
    server killed outright runs no shutdown, and a pool's worker would wait for work for ever)."""
    import affray.sim.session  # noqa: F401

    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_leave_with, args=(parent,), daemon=True).start()


def _leave_with(parent: BaseProcess) -> None:
    parent.join()  # waits on the server's process sentinel: it returns when the server is gone
    os.kill(os.getpid(), signal.SIGTERM)  # the whole worker, its job with it


@dataclass(frozen=True, slots=True)
class Solved:
    """What the exact duel solver answered: the chance of each outcome (side names, ``draw``), the expected
    rounds, and what it assumes."""

    outcomes: dict[str, float]
    rounds: float
    assumes: str


def _exact(ruleset: str, setup: Mapping[str, Json], options: Mapping[str, Json]) -> Solved | None:
    """The exact duel solver's answer, or None where it does not apply. The job crosses to the worker as plain
    data, its ruleset by name."""
    from affray.odds.duels import duel_model
    from affray.odds.markov import NotSolvable

    try:
        model = duel_model(plugin(ruleset))
        odds = model.solve(setup, options, False)
    except NotSolvable:
        return None
    outcomes = {str(k): float(v) for k, v in odds.outcomes.items()}
    return Solved(outcomes, float(odds.expected_rounds), model.assumes)


def _ready() -> bool:
    return True


def _chunk(runner: Callable[[SimSpec, int, int], Tally], spec: SimSpec, index: int, count: int) -> Tally:
    return runner(spec, index, count)


# -- in the server ---------------------------------------------------------------------------------------------------


@dataclass(eq=False)
class _Job:
    key: str | None
    wake: threading.Event = field(default_factory=threading.Event)
    cancelled: bool = False
    broken: bool = False


class OddsJobs:
    """The server's odds jobs: one pool of ``workers`` spawned processes, at most ``queue`` jobs at once, one per
    key. ``wall``: the seconds a job may take (``exact_wall`` of them for an exact solve)."""

    def __init__(
        self, workers: int = 1, queue: int = QUEUE, wall: float = WALL_SECONDS, exact_wall: float = EXACT_SECONDS
    ) -> None:
        self.workers, self.queue, self.wall, self.exact_wall = workers, queue, wall, exact_wall
        self._lock = threading.Lock()
        self._jobs: set[_Job] = set()
        self._by_key: dict[str, _Job] = {}
        self._pool: Pool | None = None

    def odds(
        self,
        scenario: Scenario,
        fights: int = DEFAULT_FIGHTS,
        seed: int = DEFAULT_SEED,
        key: str | None = None,
        exact: bool = True,
    ) -> JsonObject:
        """The odds of ``scenario`` (see the module docstring); ``key``: the caller's job key (already scoped to the
        caller by the web layer). 409 ``cancelled`` when a newer job took the key, 503 ``busy`` when the queue is
        full or the time ran out before a single fight finished, 422 ``too_large`` for too many combatants."""
        count = sum(1 for _ in scenario.model.combatants())
        if count > MAX_COMBATANTS:
            raise Refusal(
                "too_large",
                f"The odds take at most {MAX_COMBATANTS} combatants; this fight has {count}.",
                UNPROCESSABLE,
            )
        fights = max(1, min(fights, MAX_FIGHTS))
        job = self._enter(key)
        try:
            if not self._wait(job, self._submit(job, _ready), time.monotonic() + START_SECONDS):
                raise Refusal("busy", BUSY, UNAVAILABLE)
            return self._compute(job, scenario, fights, seed, exact, time.monotonic() + self.wall)
        finally:
            self._leave(job)

    def close(self) -> None:
        """Stop the worker processes (the server's shutdown; tests)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
            pool.join()

    # -- the queue ---------------------------------------------------------------------------------------------------

    def _enter(self, key: str | None) -> _Job:
        with self._lock:
            previous = self._by_key.pop(key, None) if key is not None else None
            if previous is not None:
                previous.cancelled = True
                previous.wake.set()
                self._jobs.discard(previous)  # its place in the queue is the new job's
            if len(self._jobs) >= self.queue:
                raise Refusal("busy", BUSY, UNAVAILABLE)
            job = _Job(key)
            self._jobs.add(job)
            if key is not None:
                self._by_key[key] = job
            return job

    def _leave(self, job: _Job) -> None:
        with self._lock:
            self._jobs.discard(job)
            if job.key is not None and self._by_key.get(job.key) is job:
                del self._by_key[job.key]

    def _pool_now(self) -> Pool:
        with self._lock:
            if self._pool is None:
                self._pool = multiprocessing.get_context("spawn").Pool(self.workers, initializer=_warm)
                # A server that never ran its shutdown (an app in a test, never started) still stops its worker:
                # when this queue is collected, before the pool's own finaliser would warn of a running pool.
                weakref.finalize(self, self._pool.terminate)
            return self._pool

    def _kill_pool(self) -> None:
        """An exact solve outlasted its time: kill the pool (every job on it is woken and answers 503)."""
        with self._lock:
            pool, self._pool = self._pool, None
            for other in self._jobs:
                other.broken = True
                other.wake.set()
        if pool is not None:
            pool.terminate()

    def _wait(self, job: _Job, result: AsyncResult[T], deadline: float) -> bool:
        """Wait for ``result`` until ``deadline``; True when it is ready. A cancelled job raises 409."""
        while not result.ready():
            left = deadline - time.monotonic()
            if left <= 0 or job.cancelled or job.broken:
                break
            job.wake.wait(left)
            job.wake.clear()
        if job.cancelled:
            raise Refusal("cancelled", CANCELLED, CONFLICT)
        return result.ready()

    def _submit(self, job: _Job, fn: Callable[..., T], *args: object) -> AsyncResult[T]:
        def woken(_: object) -> None:
            job.wake.set()

        return self._pool_now().apply_async(fn, args, callback=woken, error_callback=woken)

    # -- the work ----------------------------------------------------------------------------------------------------

    def _compute(
        self, job: _Job, scenario: Scenario, fights: int, seed: int, exact: bool, deadline: float
    ) -> JsonObject:
        record = scenario.plugin
        if exact and record.duel is not None and len(scenario.model.sides) == 2:
            solving = self._submit(job, _exact, record.name, dict(scenario.setup), dict(scenario.options))
            if self._wait(job, solving, min(deadline, time.monotonic() + self.exact_wall)):
                solved = solving.get()
                if solved is not None:
                    return _exact_answer(scenario, solved, seed)
            elif not job.broken:
                self._kill_pool()
            job.broken = False
        spec, _ = spec_for(scenario, {}, seed, CHUNK)
        spec, runner, path = choose_path(spec, record, False, CHUNK)
        tally, done = Tally(), 0
        for index, count in chunks_of(fights, spec.chunk_size):
            part = self._submit(job, _chunk, runner, spec, index, count)
            if not self._wait(job, part, deadline):
                break
            tally.merge(part.get())
            done += count
        if job.broken and not done:
            raise Refusal("busy", BUSY, UNAVAILABLE)
        if not done:
            raise Refusal(
                "too_slow", "Not one fight of this scenario finished in the time the odds may take.", UNAVAILABLE
            )
        return _simulated_answer(scenario, spec, tally, path, seed)


def _simulated_answer(scenario: Scenario, spec: SimSpec, tally: Tally, path: str, seed: int) -> JsonObject:
    sides = [s.name for s in scenario.model.sides]
    report = summary(tally, sides, combatant_names(scenario))
    out_sides: JsonObject = {
        side: {"win": row["win_rate"], "low": row["ci95"][0], "high": row["ci95"][1]}
        for side, row in report["sides"].items()
    }
    draws = report["draws"]
    at_risk: list[Json] = [
        {
            "combatant": actor,
            "name": row["name"],
            "side": row["side"],
            "down": row["p_down"],
            "low": row["p_down_ci95"][0],
            "high": row["p_down_ci95"][1],
        }
        for actor, row in sorted(report["combatants"].items(), key=lambda kv: (-kv[1]["p_down"], kv[0]))
    ]
    policies: JsonObject = dict(acting_policies(scenario, spec.policies))
    return {
        "sides": out_sides,
        "draw": {"p": draws["rate"], "low": draws["ci95"][0], "high": draws["ci95"][1]},
        "rounds": report["rounds"]["mean"],
        "at_risk": at_risk,
        "policies": policies,
        "exact": False,
        "assumes": "each combatant played by the policy named in 'policies' (a person's by 'heuristic')",
        "fights": tally.fights,
        "seed": seed,
        "path": path,
        "chunk": spec.chunk_size,
    }


def _exact_answer(scenario: Scenario, solved: Solved, seed: int) -> JsonObject:
    win = {s.name: solved.outcomes.get(s.name, 0.0) for s in scenario.model.sides}
    draw = solved.outcomes.get("draw", 0.0)
    names = combatant_names(scenario)
    rows = []
    for side, c in scenario.model.combatants():
        down = sum(p for other, p in win.items() if other != side)  # a duel's loser is the one down
        rows.append((down, c.id, side))
    at_risk: list[Json] = [
        {"combatant": actor, "name": names.get(actor, actor), "side": side, "down": down, "low": down, "high": down}
        for down, actor, side in sorted(rows, key=lambda row: (-row[0], row[1]))
    ]
    return {
        "sides": {side: {"win": p, "low": p, "high": p} for side, p in win.items()},
        "draw": {"p": draw, "low": draw, "high": draw},
        "rounds": solved.rounds,
        "at_risk": at_risk,
        "policies": {},
        "exact": True,
        "assumes": solved.assumes,
        "fights": 0,
        "seed": seed,
        "path": "exact",
    }
