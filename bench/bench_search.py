"""The ``search`` policy's strength and cost (docs/simulation.md, "The search policy"): for each ruleset, one shipped
example played head to head, ``search`` against ``heuristic``, with both side assignments.

For each side S of the example, FIGHTS fights where ``search`` plays every combatant of S and ``heuristic`` the
others, on the fast path, and the same fights (the same seeds) with ``heuristic`` everywhere, the baseline. Each
policy sees what its seat sees as the scenario seats it, as at a table (``seat: gm``: the GM's seat, which sees the
sheets and decks of everyone but opens no one else's face-down card). Printed:

- per side: the search side's wins, draws and losses, its win rate with a 95% Wilson interval, and the baseline's;
- head to head: the search's score over both assignments (a win 1, a draw or an escape 1/2), with its 95% interval.
  Over both assignments the scenario's own balance cancels out (with ``heuristic`` on both sides this score is 1/2
  give or take the dice), so a lower bound above 50% says ``search`` beats ``heuristic`` at 95% confidence;
- the cost: CPU milliseconds per decision the search policy was asked (this process's CPU time, its playouts
  included: the machine may be shared) and the playouts per decision it searched (a decision with one legal action
  is not searched).

Run: ``.venv/bin/python bench/bench_search.py [--fights N] [--playouts P] [--width W] [--margin M] [--only RULESET]
[--example RULESET=PATH] [--workers K]``. The defaults are the shipped ``search`` budget and the examples
docs/simulation.md records. Prints figures; asserts nothing. The timed test suite never runs it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import affray
from affray.ai.base import get_policy
from affray.ai.search import DEFAULT_BUDGET, Budget, SearchPolicy
from affray.core.engine import Action
from affray.core.policy import Choices, Observation, Policy
from affray.core.rng import RNG
from affray.sim.fast import play_fast
from affray.sim.runner import derive_seed
from affray.sim.stats import Z95, wilson

ROOT = Path(__file__).parents[1]
#: The example per ruleset where the search's strength is recorded (docs/simulation.md).
EXAMPLES = {
    "hud": "hud/sheet_duel.yaml",
    "spellchrome": "spellchrome/still_pool_road.yaml",
    "warp": "warp/knight_duel.yaml",
    "witchhammer": "witchhammer/sheet_hunters.yaml",
}
FIGHTS = 100


class Timed:
    """A search policy that counts its calls and the CPU time they took (this process's)."""

    def __init__(self, inner: SearchPolicy) -> None:
        self.inner, self.name = inner, inner.name
        self.calls, self.seconds = 0, 0.0

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        start = time.process_time()
        action = self.inner.choose(seen, choices, rng)
        self.seconds += time.process_time() - start
        self.calls += 1
        return action


@dataclass(slots=True)
class Tally:
    """One side's results over a batch of fights, and the search's cost when it played that side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    calls: int = 0
    seconds: float = 0.0
    searched: int = 0
    playouts: int = 0
    rounds: list[int] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.wins, self.draws, self.losses = (
            self.wins + other.wins,
            self.draws + other.draws,
            self.losses + other.losses,
        )
        self.calls, self.seconds = self.calls + other.calls, self.seconds + other.seconds
        self.searched, self.playouts = self.searched + other.searched, self.playouts + other.playouts
        self.rounds += other.rounds

    @property
    def fights(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2


def play(example: str, side: str, searching: bool, seeds: range, budget: Budget) -> Tally:
    """Fights ``seeds`` of ``example`` with ``side`` on ``search`` (or ``heuristic`` when not ``searching``) and the
    other sides on ``heuristic``; ``side``'s results."""
    scenario = affray.load_scenario(ROOT / "examples" / example)
    name = scenario.ruleset.name
    sides = {c.id: s for s, c in scenario.model.combatants()}
    tally = Tally()
    for seed in seeds:
        policies: dict[str, Policy] = {}
        timed: list[Timed] = []
        for actor in scenario.controllers:
            if searching and sides.get(actor) == side:
                timed.append(Timed(SearchPolicy(name, budget)))
                policies[actor] = timed[-1]
            else:
                policies[actor] = get_policy(name, "heuristic")
        _, fight = play_fast(
            scenario.ruleset,
            scenario.setup,
            scenario.options,
            policies,
            derive_seed("bench-search", seed),
            seats=scenario.seats,
        )
        assert fight.outcome is not None
        winner = fight.outcome.winner
        if winner == side:
            tally.wins += 1
        elif winner is None:
            tally.draws += 1
        else:
            tally.losses += 1
        tally.rounds.append(fight.rounds)
        for t in timed:
            tally.calls, tally.seconds = tally.calls + t.calls, tally.seconds + t.seconds
            tally.searched, tally.playouts = tally.searched + t.inner.decisions, tally.playouts + t.inner.playouts
    return tally


def run(
    example: str, side: str, searching: bool, fights: int, budget: Budget, pool: ProcessPoolExecutor | None
) -> Tally:
    """:func:`play` over ``fights`` seeds, in slices of ten across ``pool``'s workers when there is one."""
    slices = [range(start, min(start + 10, fights)) for start in range(0, fights, 10)]
    tally = Tally()
    if pool is None:
        for seeds in slices:
            tally.add(play(example, side, searching, seeds, budget))
        return tally
    for part in pool.map(play, *zip(*[(example, side, searching, seeds, budget) for seeds in slices], strict=True)):
        tally.add(part)
    return tally


def rate(t: Tally) -> str:
    lo, hi = wilson(t.wins, t.fights)
    return f"{t.wins / t.fights:6.1%} [{lo:5.1%}, {hi:5.1%}]"


def score_interval(score: float, n: int) -> tuple[float, float]:
    """A 95% interval for a mean score in [0, 1] (a win 1, a draw 1/2) over ``n`` fights: Wilson's on the score
    as if it were the wins (a draw counts as half a win and half a loss)."""
    return wilson(round(score), n, Z95) if n else (0.0, 1.0)


def bench(ruleset: str, example: str, fights: int, budget: Budget, pool: ProcessPoolExecutor | None) -> None:
    scenario = affray.load_scenario(ROOT / "examples" / example)
    sides = [s.name for s in scenario.model.sides]
    print(
        f"\n{ruleset}: {example} — {fights} fights per side; search budget: {budget.playouts} playouts, "
        f"width {budget.width}, margin {budget.margin}"
    )
    total, searched_fights = 0.0, 0
    cost = Tally()
    for side in sides:
        start = time.perf_counter()
        search = run(example, side, True, fights, budget, pool)
        base = run(example, side, False, fights, budget, pool)
        print(
            f"  search as {side:<10} W/D/L {search.wins:>3}/{search.draws:>3}/{search.losses:>3}  "
            f"win {rate(search)}   heuristic as {side}: win {rate(base)}   "
            f"({time.perf_counter() - start:.0f} s)"
        )
        total += search.score
        searched_fights += search.fights
        cost.add(search)
    lo, hi = score_interval(total, searched_fights)
    verdict = "beats heuristic at 95%" if lo > 0.5 else "loses to heuristic at 95%" if hi < 0.5 else "not decided"
    print(
        f"  head to head: search scores {total / searched_fights:.1%} [{lo:.1%}, {hi:.1%}] over both "
        f"assignments: {verdict}"
    )
    per_call = 1000 * cost.seconds / max(cost.calls, 1)
    print(
        f"  cost: {per_call:.1f} CPU ms per decision asked ({cost.calls} asked, {cost.searched} searched, "
        f"{cost.playouts / max(cost.searched, 1):.1f} playouts each)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--fights", type=int, default=FIGHTS, help="fights per side assignment")
    parser.add_argument("--playouts", type=int, default=DEFAULT_BUDGET.playouts)
    parser.add_argument("--width", type=int, default=DEFAULT_BUDGET.width)
    parser.add_argument("--margin", type=float, default=DEFAULT_BUDGET.margin)
    parser.add_argument("--only", action="append", default=[], help="a ruleset to bench (repeatable)")
    parser.add_argument("--example", action="append", default=[], help="RULESET=PATH under examples/")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (the fights are split in tens)")
    args = parser.parse_args(argv)
    examples: Mapping[str, str] = {**EXAMPLES, **dict(e.split("=", 1) for e in args.example)}
    budget = replace(DEFAULT_BUDGET, playouts=args.playouts, width=args.width, margin=args.margin)
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for ruleset, example in examples.items():
            if not args.only or ruleset in args.only:
                bench(ruleset, example, args.fights, budget, pool)
    finally:
        if pool is not None:
            pool.shutdown()


if __name__ == "__main__":
    main()
