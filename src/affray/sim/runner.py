"""Monte Carlo fights, reproducible at any scale.

A run is cut into chunks of fights. Chunk ``i`` gets its own seed derived from the run's seed and ``i``
(SHA-256), and each fight in it a seed derived from the chunk's; so the numbers depend only on the run's
seed, the fight count and the chunk size, never on how many workers ran the chunks or in what order they
finished (chunks are merged in index order). Chunks run in this process, on a process pool, or on a Dask
cluster through the same ``concurrent.futures.Executor`` interface.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from itertools import islice
from typing import Any

from affray.core.engine import ESCAPED, CombatantReport, Outcome
from affray.core.plugin import plugin
from affray.sim.stats import FightRecord, Tally

DEFAULT_CHUNK = 100


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (the run seed, a chunk index, a fight index)."""
    text = ":".join(str(p) for p in ("affray-sim", *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


@dataclass(frozen=True)
class SimSpec:
    """Everything a worker needs to play a chunk: plain, picklable data."""

    ruleset: str
    setup: Mapping[str, Any]
    options: Mapping[str, object]
    policies: Mapping[str, str]  # actor -> policy name
    seed: int = 0
    chunk_size: int = DEFAULT_CHUNK
    max_steps: int = 200_000
    path: str = "fast"  # "fast" (affray.sim.fast) or "engine" (every fight through a Match); the same fights
    records: bool = False  # keep each fight's record in its chunk's tally (affray sim --records)


#: On the fast path one fight in this many lets the rules validate every action (the rest trust the listing).
VALIDATE_EVERY = 16


def play_chunk(spec: SimSpec, chunk: int, count: int) -> Tally:
    """Play ``count`` fights of chunk ``chunk`` and count them: on the fast path (:mod:`affray.sim.fast`) unless
    ``spec.path`` is ``"engine"`` (every fight through a :class:`Match`). Both play the same fights."""
    from affray.ai.base import get_policy
    from affray.core.options import parse_options

    record = plugin(spec.ruleset)  # the spec crossed to this worker as plain data: the ruleset by its name
    ruleset = record.ruleset()
    policies = {actor: get_policy(record, name) for actor, name in spec.policies.items()}
    chunk_seed = derive_seed(spec.seed, chunk)
    tally = Tally()
    shared: dict[Hashable, object] = {}  # the setup-only parts of the memo, built once for the chunk's fights
    if spec.path == "engine":
        from affray.ai.runner import play
        from affray.core.match import Match
        from affray.core.rng import FastRNG

        for i in range(count):
            fight_seed = derive_seed(chunk_seed, i)
            match = Match(record, spec.setup, spec.options, rng=FastRNG(fight_seed), shared=shared)
            outcome = play(match, policies, max_steps=spec.max_steps)  # the policies' generator: policy_rng
            _count(
                tally,
                spec,
                chunk * spec.chunk_size + i,
                fight_seed,
                outcome,
                match.rounds(),
                ruleset.report(match.state),
            )
        return tally
    from affray.sim.fast import play_fast

    options = parse_options(ruleset.options_type, spec.options)
    for i in range(count):
        seed = derive_seed(chunk_seed, i)
        state, fight = play_fast(
            ruleset,
            spec.setup,
            options,
            policies,
            seed,
            validate=i % VALIDATE_EVERY == 0,
            shared=shared,
            max_steps=spec.max_steps,
        )
        _count(tally, spec, chunk * spec.chunk_size + i, seed, fight.outcome, fight.rounds, ruleset.report(state))
    return tally


def _count(
    tally: Tally,
    spec: SimSpec,
    index: int,
    seed: int,
    outcome: Outcome | None,
    rounds: int,
    reports: Mapping[str, CombatantReport],
) -> None:
    """Count one fight, and keep its record when the run asked for records."""
    tally.add(outcome, rounds, reports)
    if spec.records:  # the label the tally counted it under: a side, "draw" or "escaped" (WL-B14)
        winner = "draw" if outcome is None else ESCAPED if outcome.reason == ESCAPED else outcome.winner or "draw"
        reason = outcome.reason if outcome is not None else "no outcome"
        tally.records.append(FightRecord(index, seed, winner, reason, rounds, dict(reports)))


def fight_seed(spec: SimSpec, index: int) -> int:
    """The seed of fight ``index`` of a run (its chunk's, then its place in the chunk)."""
    return derive_seed(derive_seed(spec.seed, index // spec.chunk_size), index % spec.chunk_size)


ChunkRunner = Callable[[SimSpec, int, int], Tally]


@dataclass(slots=True)
class RunResult:
    """The fights of a run, counted, and how many of its chunks finished. (Which path played them and the notes
    about controllers are the session's: :class:`affray.sim.session.SimOutcome`.)"""

    tally: Tally
    chunks_done: int
    chunks_total: int
    interrupted: bool = False


def chunks_of(n: int, size: int) -> Iterator[tuple[int, int]]:
    """``(index, count)`` of each chunk, lazily: a billion fights never sit in memory as a plan."""
    for i in range((n + size - 1) // size):
        yield i, min(size, n - i * size)


#: Receives each chunk's fight records in index order (``affray sim --records``).
RecordSink = Callable[[list[FightRecord]], None]


class _Merger:
    """Merges chunk tallies in index order as they finish, holding only those that finished early; hands each
    chunk's fight records to ``sink`` in the same order (and drops them: the total keeps none)."""

    def __init__(self, sink: RecordSink | None = None) -> None:
        self.total = Tally()
        self.early: dict[int, Tally] = {}
        self.next = self.done = 0
        self.sink = sink

    def add(self, index: int, tally: Tally) -> None:
        self.early[index] = tally
        self.done += 1
        while self.next in self.early:
            self._merge(self.early.pop(self.next))
            self.next += 1

    def _merge(self, tally: Tally) -> None:
        if self.sink is not None and tally.records:
            self.sink(tally.records)
        tally.records = []
        self.total.merge(tally)

    def result(self) -> Tally:
        for index in sorted(self.early):  # after an interruption: the finished chunks past a gap
            self._merge(self.early.pop(index))
        return self.total


def in_flight_for(executor: Executor) -> int:
    """How many chunks to keep submitted at once: enough to keep every worker busy, never the whole run."""
    workers = getattr(executor, "_max_workers", None)
    return 4 * workers if isinstance(workers, int) and workers > 0 else 64


def _run_pool(
    spec: SimSpec,
    plan: Iterator[tuple[int, int]],
    executor: Executor,
    merger: _Merger,
    progress: Callable[[int], None] | None,
    chunk_runner: ChunkRunner,
) -> None:
    pending: dict[Future[Tally], tuple[int, int]] = {}
    limit = in_flight_for(executor)
    try:
        while True:
            for index, count in islice(plan, limit - len(pending)):
                pending[executor.submit(chunk_runner, spec, index, count)] = (index, count)
            if not pending:
                return
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                index, count = pending.pop(future)
                merger.add(index, future.result())
                if progress:
                    progress(count)
    finally:
        for future in pending:
            future.cancel()


def run(
    spec: SimSpec,
    n: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    chunk_runner: ChunkRunner = play_chunk,
    records: RecordSink | None = None,
) -> RunResult:
    """Play ``n`` fights; ``progress`` is called with the number of fights each finished chunk held; ``records``
    receives each chunk's fight records in index order when ``spec.records`` keeps them.

    Chunks are submitted lazily, a few per worker in flight, so memory does not grow with ``n``. Ctrl-C stops
    the run: the chunks already finished are returned with ``interrupted=True``. ``progress(0)`` is called
    once the run is ready to be interrupted.
    """
    total_chunks = (n + spec.chunk_size - 1) // spec.chunk_size
    plan = chunks_of(n, spec.chunk_size)
    merger = _Merger(records)
    interrupted = False
    try:
        if progress:
            progress(0)
        if executor is None:
            for index, count in plan:
                merger.add(index, chunk_runner(spec, index, count))
                if progress:
                    progress(count)
        else:
            _run_pool(spec, plan, executor, merger, progress, chunk_runner)
    except KeyboardInterrupt:
        interrupted = True
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    return RunResult(merger.result(), merger.done, total_chunks, interrupted)
