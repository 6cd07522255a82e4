"""Exact duels (Fractions) of the rulesets' one-on-one examples, this tree against another's, in one run
(docs/performance.md, "Exact odds").

Each duel is solved exactly (``affray odds duel FILE --exact``'s solver, :func:`affray.odds.duels.solve_scenario`) in
a fresh process of this tree and of ``--baseline DIR`` (a checkout: its ``src`` on ``PYTHONPATH``), alternating,
``--runs`` times each; CPU seconds of the solve (``time.process_time``) and a digest of the answer (outcomes,
expected rounds, the rounds distribution and its tail), which must be the same in both trees.

Run: ``.venv/bin/python bench/bench_exact.py [--baseline DIR] [--runs N]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DUELS = ("warp/knight_duel.yaml", "hud/nerdified_duel.yaml", "spellchrome/ford_duel.yaml")

ONE = """
import hashlib, json, sys, time
import affray
from affray.odds.duels import solve_scenario
scenario = affray.load_scenario(sys.argv[1])
started = time.process_time()
odds = solve_scenario(scenario.ruleset.name, scenario.setup, scenario.options, exact=True)
spent = time.process_time() - started
answer = repr((sorted(odds.outcomes.items()), odds.expected_rounds, odds.rounds, odds.tail))
print(json.dumps({"seconds": spent, "states": odds.states, "digest": hashlib.sha256(answer.encode()).hexdigest()}))
"""


def solve_in(tree: Path, duel: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(
        [sys.executable, "-c", ONE, str(ROOT / "examples" / duel)],
        capture_output=True,
        text=True,
        env=env,
        timeout=1200,
        check=True,
    )
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    trees = [("this tree", ROOT)] + ([("baseline", args.baseline)] if args.baseline else [])
    print(
        f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; CPU seconds of one exact solve, median "
        f"(min-max) of {args.runs}"
    )
    for duel in DUELS:
        seconds: dict[str, list[float]] = {name: [] for name, _ in trees}
        digests: dict[str, set[object]] = {name: set() for name, _ in trees}
        states = 0
        for _ in range(args.runs):
            for name, tree in trees:
                answer = solve_in(tree, duel)
                seconds[name].append(float(str(answer["seconds"])))
                digests[name].add(answer["digest"])
                states = int(str(answer["states"]))
        figures = [f"{name} {statistics.median(s):.2f} s ({min(s):.2f}-{max(s):.2f})" for name, s in seconds.items()]
        same = len(set().union(*digests.values())) == 1
        ratio = (
            f", {statistics.median(seconds['baseline']) / statistics.median(seconds['this tree']):.2f}x"
            if args.baseline
            else ""
        )
        print(f"{duel} ({states} states): {'; '.join(figures)}{ratio}; answers {'identical' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
