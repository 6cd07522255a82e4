"""Spellchrome benchmarks, with a baseline measured in the same run.

1. Two against two on a 12×12 map (``examples/spellchrome/crossroads_2v2.yaml``) through the full
   engine: Match, legal actions with their provocation warnings (Dijkstra paths on the grid), per-seat
   views, the heuristic policy on every side, events and the action log, on the fast RNG. One process,
   so the figure is fights per second per core.
2. The same fight with the random policy on every side (longer fights; it isolates the engine from the
   heuristic's choices).
3. Baseline in the same run: the Sim HuD Combat Nerdified duel (no grid) through the same engine.
4. The cost of ``legal()`` (every move, withdraw, step, run, attack, with its warnings): per call as the
   policies play (one call per decision), and the first call of a fresh fight, with the map's searches already
   memoised and cold.

Run: ``.venv/bin/python bench/bench_spellchrome.py [FIGHTS]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import affray
from affray.ai.runner import play
from affray.core.grid import paths as grid_paths
from affray.core.match import Match
from affray.core.policy import Choices
from affray.core.rng import FastRNG
from affray.rulesets.spellchrome import legal as sc_legal

ROOT = Path(__file__).parents[1]
SKIRMISH = ROOT / "examples" / "spellchrome" / "crossroads_2v2.yaml"
HUD_DUEL = ROOT / "examples" / "hud" / "nerdified_duel.yaml"


def fights_per_second(path: Path, n: int, policy: str | None = None) -> tuple[float, float]:
    """Fights per second and mean rounds per fight for ``n`` seeded fights of the scenario at ``path``."""
    scenario = affray.load_scenario(path)
    rounds = 0
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
        sides = set(match.ruleset.sides(match.state).values())
        overrides = {s: policy for s in sides} if policy else None
        play(match, scenario.policies(match, overrides), FastRNG(i + 1))
        rounds += match.rounds()
    return n / (time.perf_counter() - start), rounds / n


def _memo_size(match: Match) -> int:
    """How many move listings the match's memo holds (spellchrome.legal keeps them under "spellchrome.moves" for the
    life of the match; read for the report)."""
    listings: dict[object, object] = match.memo.static(sc_legal.MOVES_KEY, dict)
    return len(listings)


def legal_in_play(n: int) -> tuple[float, float, float]:
    """Microseconds per ``legal()`` call as ``play`` makes them (one per decision, heuristic policies, ``n``
    fights), the mean number of actions listed, and the share of calls whose moves came from the per-match memo."""
    scenario = affray.load_scenario(SKIRMISH)
    spent, calls, listed, fresh = 0.0, 0, 0, 0
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
        policies, rng = scenario.policies(match), FastRNG(i + 1)
        while (window := match.pending()) is not None:
            actor = window.actors[0]
            if window.phase == "attack_of_opportunity":  # two actions listed; no moves
                match.act(actor, policies[actor].choose(match.observe(actor), match.choices(actor), rng))
                continue
            before = _memo_size(match)
            start = time.perf_counter()
            legal = match.legal(actor)
            spent += time.perf_counter() - start
            calls, listed, fresh = calls + 1, listed + len(legal), fresh + _memo_size(match) - before
            choices = Choices(actor, lambda legal=legal: legal)  # type: ignore[misc]
            match.act(actor, policies[actor].choose(match.observe(actor), choices, rng))
    return spent / calls * 1e6, listed / calls, 1 - fresh / calls


def legal_first_turn(n: int) -> tuple[float, float, int]:
    """Microseconds for the first ``legal()`` of a fresh match: with the map's searches already known (as in a
    simulation of one scenario), and cold (searches not yet memoised); and how many actions it lists."""
    scenario = affray.load_scenario(SKIRMISH)
    warm = cold = 0.0
    for _ in range(n):
        for first in (True, False):
            match = Match(scenario.plugin, scenario.setup, scenario.options, rng=FastRNG(0))
            window = match.pending()
            assert window is not None
            if first:
                grid_paths._search.cache_clear()  # forget every memoised search (a cold start)
            start = time.perf_counter()
            count = len(match.legal(window.actors[0]))
            took = time.perf_counter() - start
            if first:
                cold += took
            else:
                warm += took
    return warm / n * 1e6, cold / n * 1e6, count


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    heuristic, h_rounds = fights_per_second(SKIRMISH, n)
    random_rate, r_rounds = fights_per_second(SKIRMISH, max(1, n // 5), "random")
    hud, _ = fights_per_second(HUD_DUEL, n)
    per_call, listed, remembered = legal_in_play(max(1, n // 10))
    warm, cold, first = legal_first_turn(100)
    print(f"Spellchrome 2v2 on 12x12, heuristic:  {heuristic:8.1f} fights/s per core ({h_rounds:.1f} rounds/fight)")
    print(f"Spellchrome 2v2 on 12x12, random:     {random_rate:8.1f} fights/s per core ({r_rounds:.1f} rounds/fight)")
    print(f"Baseline, HuD Nerdified duel:         {hud:8.1f} fights/s per core (same engine, no grid)")
    print(
        f"legal() in play:                      {per_call:8.1f} us a call ({listed:.0f} actions listed on average; "
        f"moves from the per-match memo in {remembered:.0%} of calls)"
    )
    print(
        f"legal() at the first turn:            {warm:8.1f} us (searches known), {cold:.1f} us cold; "
        f"{first} actions listed"
    )


if __name__ == "__main__":
    main()
