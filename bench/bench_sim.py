"""Simulation benchmarks, with their anchors measured in the same run.

1. Full-engine fights per second per core, one example fight per ruleset (heuristic policies).
2. Scaling from one to two worker processes on the same run (goal: at least 1.8x).
3. The numpy batch path (Dice Simplified one-on-one) against raw numpy dice for the same duel written by
   hand in the same run (goal: at least 0.25 of raw numpy, i.e. about 1 M duels per second per core).

Run: ``.venv/bin/python bench/bench_sim.py``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

import affray
from affray.core.plugin import ruleset_names
from affray.rulesets.hud.batch import simplified_chunk
from affray.sim.runner import run
from affray.sim.session import spec_for

ROOT = Path(__file__).parents[1]
EXAMPLES = {
    "hud": "hud/nerdified_duel.yaml",
    "warp": "warp/knight_duel.yaml",
    "spellchrome": "spellchrome/crossroads_2v2.yaml",
    "witchhammer": "witchhammer/bench_arena.yaml",
}


def engine_rate(path: Path, n: int) -> float:
    scenario = affray.load_scenario(path)
    spec, _ = spec_for(scenario, {}, 1, 25)
    start = time.perf_counter()
    run(spec, n)
    return n / (time.perf_counter() - start)


def scaling(path: Path, n: int) -> tuple[float, float]:
    scenario = affray.load_scenario(path)
    spec, _ = spec_for(scenario, {}, 2, 50)
    start = time.perf_counter()
    run(spec, n)
    one = time.perf_counter() - start
    with ProcessPoolExecutor(2) as pool:
        run(spec, 100, pool)  # start the workers and import affray in them before timing
        start = time.perf_counter()
        run(spec, n, pool)
        two = time.perf_counter() - start
    return one, two


def raw_numpy_duels(n: int, seed: int, att: tuple[int, int], guard: tuple[int, int], hp: int = 3) -> float:
    """Dice Simplified one-on-one in plain numpy: alternating d13 + mod contests, 1 HP a hit, a coin for
    who posts first. Returns the first side's win rate (to check both codes play the same duel)."""
    rng = np.random.default_rng(seed)
    hp_a, hp_b = np.full(n, hp), np.full(n, hp)
    a_first = rng.integers(0, 2, n) == 1
    alive = np.ones(n, dtype=bool)
    while alive.any():
        for first in (True, False):
            idx = np.flatnonzero(alive & (a_first == first))
            for attacker_is_a in (True, False) if first else (False, True):
                idx = idx[(hp_a[idx] > 0) & (hp_b[idx] > 0)]
                mod_att, mod_def = (att[0], guard[1]) if attacker_is_a else (att[1], guard[0])
                hit = rng.integers(1, 14, idx.size) + mod_att > rng.integers(1, 14, idx.size) + mod_def
                if attacker_is_a:
                    hp_b[idx[hit]] -= 1
                else:
                    hp_a[idx[hit]] -= 1
        alive = (hp_a > 0) & (hp_b > 0)
    return float((hp_b <= 0).mean())


def batch_vs_numpy(n: int) -> None:
    scenario = affray.load_scenario(ROOT / "examples" / "hud" / "simplified_duel.yaml")
    spec, _ = spec_for(scenario, {}, 3, n)
    start = time.perf_counter()
    result = run(spec, n, chunk_runner=simplified_chunk)
    t_batch = time.perf_counter() - start
    start = time.perf_counter()
    p_raw = raw_numpy_duels(n, 3, (1, 2), (1, 2))  # Ilka: bow +1 / gambeson 1; drowner: claws +2 / hide 2
    t_raw = time.perf_counter() - start
    p_batch = result.tally.wins.get("scout", 0) / n
    print(
        f"batch path:  {n / t_batch:12,.0f} duels/s   raw numpy: {n / t_raw:12,.0f} duels/s   "
        f"ratio {t_raw / t_batch:.2f} (goal >= 0.25)   P(scout) {p_batch:.4f} vs {p_raw:.4f}"
    )


def main() -> None:
    for name in ruleset_names():
        path = ROOT / "examples" / EXAMPLES.get(name, "")
        if path.is_file():
            print(f"{name:12s} full engine: {engine_rate(path, 300):10,.0f} fights/s per core   ({path.name})")
    one, two = scaling(ROOT / "examples" / "hud" / "nerdified_duel.yaml", 2000)
    print(
        f"scaling 1 -> 2 workers (HuD duel, 2,000 fights): {one:.2f} s -> {two:.2f} s = {one / two:.2f}x (goal >= 1.8)"
    )
    batch_vs_numpy(1_000_000)


if __name__ == "__main__":
    main()
