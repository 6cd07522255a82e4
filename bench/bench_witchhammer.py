"""WitchHammer benchmark: fights per second per core for a party of three against one monster.

The fight (``examples/witchhammer/bench_arena.yaml``): Bruna, Tomas and Ilse against a Barrow Knight on an
open 12x12 map, every seat on the heuristic policy, through the full engine: ``Match`` on the fast RNG, the
per-seat observations the policy reads, sealed commits for every card, events and the action log; and through
the simulation fast path (:func:`affray.sim.fast.play_fast`: quiet journal, no seals' digests, no validation).
Goal: the fast path at least 2.5x the full engine and above 1,000 fights per second per core; the
ratio against main's full engine is measured by ``bench/bench_fast.py --only witchhammer``. One process, so the
figures are per core.

Run: ``.venv/bin/python bench/bench_witchhammer.py [fights]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import affray
from affray.ai.runner import play
from affray.core.match import Match
from affray.core.rng import FastRNG

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))
from bench import fastpath  # noqa: E402  (run as a script: the project root on the path)

ARENA = ROOT / "examples" / "witchhammer" / "bench_arena.yaml"


def fights(n: int) -> tuple[float, Counter[str], float]:
    """Play ``n`` fights; return fights per second, who won, and the mean vignettes per fight."""
    scenario = affray.load_scenario(ARENA)
    wins: Counter[str] = Counter()
    vignettes = 0
    start = time.perf_counter()
    for i in range(n):
        match = Match(
            scenario.plugin,
            scenario.setup,
            scenario.options,
            rng=FastRNG(i),
            seats=scenario.seats,
            controllers=scenario.controllers,
            shared=scenario.shared,
        )
        outcome = play(match, scenario.policies(match), FastRNG(i + 1))
        wins[outcome.label if outcome is not None else "unfinished"] += 1
        vignettes += match.state.vignette
    return n / (time.perf_counter() - start), wins, vignettes / n


def fast_fights(n: int) -> float:
    """Fights per second of ``n`` fights on the fast path (the same fights as the full engine plays)."""
    return fastpath.fast_fights(ARENA, n)


def breakdown(n: int) -> dict[str, float]:
    """Microseconds per fight in each part of the loop ``play`` runs: setup, legal lists, views, policy, engine."""
    scenario = affray.load_scenario(ARENA)
    spent = dict.fromkeys(("setup", "legal", "view", "policy", "engine"), 0.0)
    clock = time.perf_counter
    for i in range(n):
        t = clock()
        match = Match(
            scenario.plugin,
            scenario.setup,
            scenario.options,
            rng=FastRNG(i),
            seats=scenario.seats,
            controllers=scenario.controllers,
            shared=scenario.shared,
        )
        policies, rng = scenario.policies(match), FastRNG(i + 1)
        spent["setup"] += clock() - t
        while (window := match.pending()) is not None:
            actor = next(a for a in window.actors if a in policies)
            t0 = clock()
            choices = match.choices(actor)
            choices.all()
            t1 = clock()
            seen = match.observe(actor)
            t2 = clock()
            action = policies[actor].choose(seen, choices, rng)
            t3 = clock()
            match.act(actor, action)
            t4 = clock()
            spent["legal"] += t1 - t0
            spent["view"] += t2 - t1
            spent["policy"] += t3 - t2
            spent["engine"] += t4 - t3
    return {k: v / n * 1e6 for k, v in spent.items()}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000
    fights(50)  # warm the caches (compiled cards, legal lists, mean-damage table)
    rate, wins, mean_vignettes = fights(n)
    print(
        f"WitchHammer, 3 hunters vs a Barrow Knight, 12x12, heuristic: {rate:,.0f} fights/s per core "
        f"(goal 2,000); {mean_vignettes:.2f} vignettes a fight; outcomes {dict(wins)}"
    )
    fast_fights(50)
    fast = fast_fights(n)
    print(
        f"  fast path: {fast:,.0f} fights/s per core ({fast / rate:.2f}x this full engine; goal 2.5x main's and "
        f"1,000 fights/s)"
    )
    parts = breakdown(max(100, n // 4))
    print("  per fight, microseconds: " + ", ".join(f"{k} {v:,.0f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
