"""The simulation fast path against the full engine, in one run (docs/performance.md, 'The simulation fast path').

For each scenario of ``docs/performance.md`` (HuD Nerdified duel, WaRP melee duel, WitchHammer 3 hunters vs the
Barrow Knight, Spellchrome 2v2), fights per CPU second (``time.process_time``) of

- the full engine: a :class:`Match` per fight played by ``affray.play`` (events, dice records, seals, validation),
  as ``affray sim --full`` runs it;
- the fast path: :func:`affray.sim.fast.play_fast` (quiet journal, no validation), as ``affray sim`` runs it,

measured in alternating slices over the same seeds so both see the same machine, their ratio and the goal beside it.
The hand-written loops of ``bench_hud.py`` and ``bench_warp.py`` are measured in the same run for the ratio to them.
Goals (docs/performance.md, "The simulation fast path" and "Faster party fights"): HuD >= 3x, WaRP >= 2x,
WitchHammer >= 3x and at least 1,100 fights per CPU second, Spellchrome >= 3x.

The goals are against the full engine of a given day, not this tree's (which may have got faster too):
``--baseline CHECKOUT`` (a directory: that tree's ``src`` on ``PYTHONPATH`` under this interpreter),
``--baseline PYTHON`` (another checkout's interpreter, with this process's ``PYTHONPATH`` removed so it imports its
own tree) or ``--baseline COMMIT`` (a commit of this repository: its ``src`` and ``examples`` put in a temporary
folder with ``git archive``, then as a directory) measures that tree's full engine in a subprocess, alternating with
this tree's fast path, both in CPU time, and prints that ratio against the goal as well. ``make bench`` gives the
commit the party fights' goals were set against (``FAST_BASELINE``: eced352, the issue's "today's full engine").
``--runs N`` repeats everything N times and prints each figure's median and spread (min-max). The load average is
printed with the figures.

Run: ``.venv/bin/python bench/bench_fast.py [--seconds S] [--runs N] [--only hud,warp,...]
[--baseline DIR|PYTHON|COMMIT]``.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
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
#: name -> (title, example, goal: fast / full engine, goal: fast-path fights per CPU second or None)
SCENARIOS: dict[str, tuple[str, str, float, float | None]] = {
    "hud": ("HuD Combat Nerdified 1v1", "hud/nerdified_duel.yaml", 3.0, None),
    "warp": ("WaRP melee 1v1", "warp/knight_duel.yaml", 2.0, None),
    "witchhammer": ("WitchHammer 3 hunters vs Barrow Knight", "witchhammer/bench_arena.yaml", 3.0, 1100.0),
    "spellchrome": ("Spellchrome 2v2, 12x12", "spellchrome/crossroads_2v2.yaml", 3.0, None),
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
    """Fights played in about ``seconds`` of CPU time and the CPU time they took."""
    count, start = 0, time.process_time()
    while (spent := time.process_time() - start) < seconds:
        for _ in range(10):
            fight(first_seed + count)
            count += 1
    return count, spent


def compare(
    full: Callable[[int], None], fast: Callable[[int], None], seconds: float, slices: int = 4
) -> tuple[float, float]:
    """Fights per CPU second of each, in alternating slices over the same seeds."""
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
    match = Match(scenario.plugin, scenario.setup, scenario.options, rng=FastRNG(seed), shared=shared)
    play(match, policies, FastRNG(seed ^ 0x5DEECE66D))
for seed in range(20):
    full(seed)
count, start = 0, time.process_time()
while time.process_time() - start < float(sys.argv[2]):
    full(int(sys.argv[3]) + count)
    count += 1
print(affray.__file__)
print(count / (time.process_time() - start))
"""


def baseline_tree(baseline: str, stack: contextlib.ExitStack) -> str:
    """``--baseline`` as given (a directory or an interpreter), or for a commit of this repository that commit's
    ``src`` and ``examples``, written into a temporary folder that ``stack`` removes."""
    if Path(baseline).exists():
        return baseline
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"{baseline}^{{commit}}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        archive = subprocess.run(
            ["git", "archive", commit, "src", "examples"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        raise SystemExit(
            f"--baseline {baseline}: not a folder, not an interpreter, and not a commit of this "
            f"repository (a copy without its git history has none)"
        ) from None
    folder = stack.enter_context(tempfile.TemporaryDirectory(prefix=f"affray-baseline-{commit[:7]}-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            tar.extractall(folder, filter="data")
        else:  # this repository's own archive
            tar.extractall(folder)
    return folder


def baseline_command(baseline: str) -> tuple[list[str], dict[str, str], Path]:
    """How to run the baseline tree: a checkout directory (its ``src`` first on ``PYTHONPATH``, this interpreter)
    or another checkout's interpreter (without this process's ``PYTHONPATH``, which would import this tree)."""
    env = dict(os.environ)
    where = Path(baseline)
    if where.is_dir():
        env["PYTHONPATH"] = str(where.resolve() / "src")
        return [sys.executable], env, where.resolve()
    env.pop("PYTHONPATH", None)
    return [baseline], env, Path(os.path.abspath(baseline)).parents[2]  # CHECKOUT/.venv/bin/python, links kept


def baseline_ratio(
    baseline: str, example: str, fast: Callable[[int], None], seconds: float, slices: int = 4
) -> tuple[float, float, str]:
    """The baseline tree's full engine (subprocess) and this tree's fast path, fights per CPU second each, on the
    baseline tree's copy of the example; and where the baseline imported affray from (to check it is that tree)."""
    command, env, tree = baseline_command(baseline)
    rates: dict[str, list[float]] = {"base": [], "fast": []}
    source = ""
    for k in range(slices):
        out = subprocess.run(
            [*command, "-c", BASELINE, str(tree / "examples" / example), str(seconds / slices), str(1000 * k)],
            capture_output=True,
            text=True,
            check=True,
            cwd=tree,
            env=env,
        )
        source, figure = out.stdout.split()[-2:]
        rates["base"].append(float(figure))
        count, spent = rate(fast, seconds / slices, 1000 * k)
        rates["fast"].append(count / spent)
    return sum(rates["base"]) / slices, sum(rates["fast"]) / slices, source


def loop_rate(name: str, seconds: float) -> float | None:
    """The hand-written loop of the same fight, where ``bench_<name>.py`` has one."""
    if name == "hud":
        from bench.bench_hud import loop_fights as hud_loop

        return float(hud_loop(max(2000, int(seconds * 20_000))))
    if name == "warp":
        from bench.bench_warp import loop_fights as warp_loop

        return float(warp_loop(max(2000, int(seconds * 10_000)))[0])
    return None


def figure(values: list[float], fmt: str) -> str:
    """One figure: the value of a single run, or the median and the spread (min-max) of several."""
    if len(values) == 1:
        return format(values[0], fmt)
    return f"{format(statistics.median(values), fmt)} ({format(min(values), fmt)}-{format(max(values), fmt)})"


def verdict(ratio: float, goal: float, fast: float, absolute: float | None) -> str:
    met = ratio >= goal and (absolute is None or fast >= absolute)
    return "met" if met else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="CPU seconds per path per scenario")
    parser.add_argument("--runs", type=int, default=1, help="repeat N times: median and spread of each figure")
    parser.add_argument("--only", default=",".join(SCENARIOS), help="comma-separated: " + ",".join(SCENARIOS))
    parser.add_argument(
        "--baseline",
        help="another checkout (a directory), its Python, or a commit of this "
        "repository: its full engine against this fast path",
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.baseline:
            args.baseline = baseline_tree(args.baseline, stack)
        measure(args)


def measure(args: argparse.Namespace) -> None:
    """The figures of :func:`main`'s arguments (``args.baseline``: a directory or an interpreter, if any)."""
    print(
        f"load average at the start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; "
        f"fights per CPU second, {args.runs} run(s) of {args.seconds:g} s per path"
    )
    print(f"{'scenario':42} {'full':>10} {'fast':>10} {'ratio':>7} {'goal':>14} {'loop':>10} {'fast/loop':>9}")
    for name in args.only.split(","):
        title, example, goal, absolute = SCENARIOS[name]
        _, _, full, fast = players(ROOT / "examples" / example)
        runs: dict[str, list[float]] = {"full": [], "fast": [], "ratio": [], "base": [], "bfast": [], "bratio": []}
        loop: float | None = None
        source = ""
        for _ in range(args.runs):
            full_rate, fast_rate = compare(full, fast, args.seconds)
            runs["full"].append(full_rate)
            runs["fast"].append(fast_rate)
            runs["ratio"].append(fast_rate / full_rate)
            if args.baseline:
                base, fast_cpu, source = baseline_ratio(args.baseline, example, fast, args.seconds)
                runs["base"].append(base)
                runs["bfast"].append(fast_cpu)
                runs["bratio"].append(fast_cpu / base)
        loop = loop_rate(name, args.seconds / 4)
        loop_text = f"{loop:10,.0f} {statistics.median(runs['fast']) / loop:9.3f}" if loop else f"{'-':>10} {'-':>9}"
        goal_text = f">= {goal:.1f}x" + (f", {absolute:,.0f}/s" if absolute else "")
        print(
            f"{title:42} {figure(runs['full'], ',.0f'):>10} {figure(runs['fast'], ',.0f'):>10} "
            f"{figure(runs['ratio'], '.2f')}x {goal_text:>14} {loop_text}",
            flush=True,
        )
        if args.baseline:
            ratio, fast_cpu = statistics.median(runs["bratio"]), statistics.median(runs["bfast"])
            print(
                f"{'  against the baseline full engine':42} {figure(runs['base'], ',.0f'):>10} "
                f"{figure(runs['bfast'], ',.0f'):>10} {figure(runs['bratio'], '.2f')}x {goal_text:>14} "
                f"goal {verdict(ratio, goal, fast_cpu, absolute)} (baseline: {source})",
                flush=True,
            )
        else:
            ratio, fast_cpu = statistics.median(runs["ratio"]), statistics.median(runs["fast"])
            print(
                f"{'  against this tree' + chr(39) + 's full engine':42} goal "
                f"{verdict(ratio, goal, fast_cpu, absolute)}",
                flush=True,
            )
    print(f"load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
