"""Spellchrome benchmarks, with a baseline measured in the same run.

1. Two against two on a 12×12 map (``examples/spellchrome/crossroads_2v2.yaml``) through the full
   engine: Match, legal actions with their provocation warnings (Dijkstra paths on the grid), per-seat
   views, the heuristic policy on every side, events and the action log, on the fast RNG. One process,
   so the figure is fights per second per core.
2. The same fight with the random policy on every side (longer fights; it isolates the engine from the
   heuristic's choices).
3. Baseline in the same run: the Sim HuD Combat Nerdified duel (no grid) through the same engine.
4. The cost of one ``legal()`` call at the start of a fight (every move, withdraw, step, run, attack).

Run: ``.venv/bin/python bench/bench_spellchrome.py [FIGHTS]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import affray
from affray.ai.runner import play
from affray.core.match import Match
from affray.core.rng import FastRNG

ROOT = Path(__file__).parents[1]
SKIRMISH = ROOT / "examples" / "spellchrome" / "crossroads_2v2.yaml"
HUD_DUEL = ROOT / "examples" / "hud" / "nerdified_duel.yaml"


def fights_per_second(path: Path, n: int, policy: str | None = None) -> tuple[float, float]:
    """Fights per second and mean rounds per fight for ``n`` seeded fights of the scenario at ``path``."""
    scenario = affray.load_scenario(path)
    rounds = 0
    start = time.perf_counter()
    for i in range(n):
        match = Match(scenario.ruleset, scenario.setup, scenario.options, rng=FastRNG(i),
                      seats=scenario.seats, controllers=scenario.controllers)
        sides = set(match.ruleset.sides(match.state).values())
        overrides = {s: policy for s in sides} if policy else None
        play(match, scenario.policies(match, overrides), FastRNG(i + 1))
        rounds += match.rounds()
    return n / (time.perf_counter() - start), rounds / n


def legal_calls_per_second(n: int) -> tuple[float, int]:
    scenario = affray.load_scenario(SKIRMISH)
    match = Match(scenario.ruleset, scenario.setup, scenario.options, rng=FastRNG(0))
    window = match.pending()
    assert window is not None
    actor = window.actors[0]
    start = time.perf_counter()
    for _ in range(n):
        count = len(match.legal(actor))
    return n / (time.perf_counter() - start), count


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    heuristic, h_rounds = fights_per_second(SKIRMISH, n)
    random_rate, r_rounds = fights_per_second(SKIRMISH, max(1, n // 5), "random")
    hud, _ = fights_per_second(HUD_DUEL, n)
    legal_rate, listed = legal_calls_per_second(200)
    print(f"Spellchrome 2v2 on 12x12, heuristic:  {heuristic:8.1f} fights/s per core ({h_rounds:.1f} rounds/fight)")
    print(f"Spellchrome 2v2 on 12x12, random:     {random_rate:8.1f} fights/s per core ({r_rounds:.1f} rounds/fight)")
    print(f"Baseline, HuD Nerdified duel:         {hud:8.1f} fights/s per core (same engine, no grid)")
    print(f"legal() at the first turn:            {legal_rate:8.1f} calls/s ({listed} actions listed)")


if __name__ == "__main__":
    main()
