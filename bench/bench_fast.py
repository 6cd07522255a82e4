"""The simulation fast path against the full engine, in one run (docs/performance.md, 'The simulation fast path').

For each scenario of ``docs/performance.md`` (HuD Nerdified duel, WaRP melee duel, WitchHammer 3 hunters vs the
Barrow Knight, Spellchrome 2v2), fights per second per core on

- the full engine: a :class:`Match` per fight played by ``affray.play`` (events, dice records, seals, validation),
  as ``affray sim --full`` runs it;
- the fast path: :func:`affray.sim.fast.play_fast` (quiet journal, no validation), as ``affray sim`` runs it,

measured in alternating slices so both see the same machine, and their ratio. The hand-written loops of
``bench_hud.py`` and ``bench_warp.py`` are measured in the same run for the ratio to them. Goals: HuD
>= 3x, WaRP >= 2x, WitchHammer >= 2.5x (and above 1,000 fights/s), Spellchrome >= 3x.

The goal is against the full engine *before* the fast path (its policies built a whole view per decision, so today's
full engine is faster than it was): ``--baseline OTHER/.venv/bin/python`` measures that tree's full engine in a
subprocess, in CPU time, alternating with this tree's fast path (CPU time too), and prints that ratio as well.

Run: ``.venv/bin/python bench/bench_fast.py [--seconds S] [--only hud,warp,...] [--baseline PYTHON]``. Prints
figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import affray
from affray.ai.base import get_policy
from affray.ai.runner import play
from affray.core.match import Match
from affray.core.options import parse_options
from affray.core.rng import POLICY_KEY, FastRNG
from affray.sim.fast import play_fast
from affray.sim.session import spec_for

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))  # bench/ is a package: the hand-written loops are imported from it
SCENARIOS = {
    "hud": ("HuD Combat Nerdified 1v1", "hud/nerdified_duel.yaml", 3.0),
    "warp": ("WaRP melee 1v1", "warp/knight_duel.yaml", 2.0),
    "witchhammer": ("WitchHammer 3 hunters vs Barrow Knight", "witchhammer/bench_arena.yaml", 2.5),
    "spellchrome": ("Spellchrome 2v2, 12x12", "spellchrome/crossroads_2v2.yaml", 3.0),
}


def players(path: Path) -> tuple[Any, dict[str, Any], Callable[[int], None], Callable[[int], None]]:
    """The scenario, its policies, and one full-engine fight and one fast fight as functions of the seed."""
    scenario = affray.load_scenario(path)
    spec, _ = spec_for(scenario, {}, 0, None)
    policies = {actor: get_policy(spec.ruleset, name) for actor, name in spec.policies.items()}
    ruleset, setup = scenario.ruleset, scenario.setup
    options = parse_options(ruleset.options_type, scenario.options)
    shared_full: dict[Any, Any] = {}
    shared_fast: dict[Any, Any] = {}

    def full(seed: int) -> None:
        match = Match(ruleset, setup, scenario.options, rng=FastRNG(seed), shared=shared_full)
        play(match, policies, FastRNG(seed ^ POLICY_KEY))

    def fast(seed: int) -> None:
        play_fast(ruleset, setup, options, policies, seed, shared=shared_fast)

    return scenario, policies, full, fast


def rate(fight: Callable[[int], None], seconds: float, first_seed: int) -> tuple[int, float]:
    """Fights played in about ``seconds`` and the time they took."""
    count, start = 0, time.perf_counter()
    while (spent := time.perf_counter() - start) < seconds:
        for _ in range(10):
            fight(first_seed + count)
            count += 1
    return count, spent


def compare(full: Callable[[int], None], fast: Callable[[int], None], seconds: float,
            slices: int = 4) -> tuple[float, float]:
    """Fights per second of each, in alternating slices over the same seeds."""
    for seed in range(20):  # warm the shared setup parts and the caches of both
        full(seed)
        fast(seed)
    totals = {"full": [0, 0.0], "fast": [0, 0.0]}
    for k in range(slices):
        for name, fight in (("full", full), ("fast", fast)) if k % 2 == 0 else (("fast", fast), ("full", full)):
            count, spent = rate(fight, seconds / slices, 1000 * k)
            totals[name][0] += count
            totals[name][1] += spent
    return totals["full"][0] / totals["full"][1], totals["fast"][0] / totals["fast"][1]


# The baseline tree's full engine, run by its own interpreter: the same loop as ``players``' ``full``, in CPU time.
BASELINE = """
import sys, time
import affray
from affray.ai.base import get_policy
from affray.ai.runner import play
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.sim.session import spec_for
scenario = affray.load_scenario(sys.argv[1])
spec, _ = spec_for(scenario, {}, 0, None)
policies = {a: get_policy(spec.ruleset, n) for a, n in spec.policies.items()}
shared = {}
def full(seed):
    match = Match(scenario.ruleset, scenario.setup, scenario.options, rng=FastRNG(seed), shared=shared)
    play(match, policies, FastRNG(seed ^ 0x5DEECE66D))
for seed in range(20):
    full(seed)
count, start = 0, time.process_time()
while time.process_time() - start < float(sys.argv[2]):
    full(int(sys.argv[3]) + count)
    count += 1
print(count / (time.process_time() - start))
"""


def baseline_ratio(python: str, path: Path, fast: Callable[[int], None], seconds: float,
                   slices: int = 4) -> tuple[float, float]:
    """The baseline tree's full engine (subprocess) and this tree's fast path, fights per CPU second each."""
    import subprocess

    rates: dict[str, list[float]] = {"base": [], "fast": []}
    for k in range(slices):
        out = subprocess.run([python, "-c", BASELINE, str(path), str(seconds / slices), str(1000 * k)],
                             capture_output=True, text=True, check=True, cwd=path.parents[2])
        rates["base"].append(float(out.stdout.strip()))
        count, start = 0, time.process_time()
        while time.process_time() - start < seconds / slices:
            fast(1000 * k + count)
            count += 1
        rates["fast"].append(count / (time.process_time() - start))
    return sum(rates["base"]) / slices, sum(rates["fast"]) / slices


def loop_rate(name: str, seconds: float) -> float | None:
    """The hand-written loop of the same fight, where ``bench_<name>.py`` has one."""
    if name == "hud":
        from bench.bench_hud import loop_fights as hud_loop

        return float(hud_loop(max(2000, int(seconds * 20_000))))
    if name == "warp":
        from bench.bench_warp import loop_fights as warp_loop

        return float(warp_loop(max(2000, int(seconds * 10_000)))[0])
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds per path per scenario")
    parser.add_argument("--only", default=",".join(SCENARIOS), help="comma-separated: " + ",".join(SCENARIOS))
    parser.add_argument("--baseline", help="the Python of another checkout: its full engine against this fast path")
    args = parser.parse_args()
    print(f"{'scenario':42} {'full':>10} {'fast':>10} {'ratio':>7} {'goal':>5} {'loop':>10} {'fast/loop':>9}")
    for name in args.only.split(","):
        title, example, goal = SCENARIOS[name]
        _, _, full, fast = players(ROOT / "examples" / example)
        full_rate, fast_rate = compare(full, fast, args.seconds)
        loop = loop_rate(name, args.seconds / 4)
        loop_text = f"{loop:10,.0f} {fast_rate / loop:9.3f}" if loop else f"{'-':>10} {'-':>9}"
        print(f"{title:42} {full_rate:10,.0f} {fast_rate:10,.0f} {fast_rate / full_rate:6.2f}x {goal:4.1f}x "
              f"{loop_text}", flush=True)
        if args.baseline:
            base, fast_cpu = baseline_ratio(args.baseline, ROOT / "examples" / example, fast, args.seconds)
            print(f"{'  against the baseline full engine (CPU)':42} {base:10,.0f} {fast_cpu:10,.0f} "
                  f"{fast_cpu / base:6.2f}x {goal:4.1f}x", flush=True)


if __name__ == "__main__":
    main()
