"""The full engine's fights per second, this checkout against another one, measured in the same run.

    .venv/bin/python bench/bench_versions.py --baseline ../old/.venv/bin/python [--rounds 5] [--seconds 2]

Each round runs every scenario below once under each interpreter (alternating, so both see the same machine
load) for about ``--seconds`` seconds, and the best round of each counts. It prints fights/s for both and the
ratio (this / baseline). The fights use only the library calls both versions have (``load_scenario``, ``Match`` on
``FastRNG``, ``play`` with the scenario's policies). Rule changes between the two versions change the fights too,
so a ratio mixes engine speed with fight length: the rounds per fight are printed beside it. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
SCENARIOS = [
    "hud/nerdified_duel.yaml",
    "warp/melee_brawl.yaml",
    "witchhammer/bench_arena.yaml",
    "spellchrome/crossroads_2v2.yaml",
]

PROBE = r"""
import json, sys, time
import affray
from affray.ai.runner import play
from affray.core.match import Match
from affray.core.rng import FastRNG
path, seconds = sys.argv[1], float(sys.argv[2])
scenario = affray.load_scenario(path)
n = rounds = 0
start = time.perf_counter()
while time.perf_counter() - start < seconds:
    shared = {"shared": scenario.shared} if hasattr(scenario, "shared") else {}  # the setup's memo, where it exists
    match = Match(scenario.plugin, scenario.setup, scenario.options, rng=FastRNG(n), seats=scenario.seats,
                  controllers=scenario.controllers, **shared)
    play(match, scenario.policies(match), FastRNG(n + 1))
    rounds += match.rounds()
    n += 1
print(json.dumps({"fights_per_s": n / (time.perf_counter() - start), "rounds": rounds / n}))
"""


def probe(python: str, scenario: Path, seconds: float) -> dict[str, float]:
    out = subprocess.run(
        [python, "-c", PROBE, str(scenario), str(seconds)], capture_output=True, text=True, check=True, timeout=600
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="the other checkout's Python (its venv)")
    parser.add_argument("--examples", default=str(ROOT / "examples"), help="examples folder of the baseline")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    best: dict[tuple[str, str], dict[str, float]] = {}
    for _ in range(args.rounds):
        for name in SCENARIOS:
            for label, python, folder in (
                ("this", sys.executable, ROOT / "examples"),
                ("baseline", args.baseline, Path(args.examples)),
            ):
                got = probe(python, folder / name, args.seconds)
                key = (name, label)
                if key not in best or got["fights_per_s"] > best[key]["fights_per_s"]:
                    best[key] = got
    print(f"{'scenario':34} {'this f/s':>10} {'rounds':>7} {'base f/s':>10} {'rounds':>7} {'ratio':>6}")
    for name in SCENARIOS:
        a, b = best[(name, "this")], best[(name, "baseline")]
        print(
            f"{name:34} {a['fights_per_s']:10.1f} {a['rounds']:7.2f} {b['fights_per_s']:10.1f} {b['rounds']:7.2f} "
            f"{a['fights_per_s'] / b['fights_per_s']:6.2f}"
        )


if __name__ == "__main__":
    main()
