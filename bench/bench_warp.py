"""WaRP benchmarks, with their anchor measured in the same run.

1. One-on-one melee (examples/warp/knight_duel.yaml: Theo Marsh with a bat against Sir Reginald in
   leathers under plate) through the full engine: Match, windows, legal actions, per-seat views, the
   heuristic policies, events and the action log, on the fast RNG.
2. The same fight as a hand-written plain-Python loop: the same rules as the engine runs them for these
   two (WR-01/02 pools, WR-05 initiative with WR-B8 ties, WR-10/11 hits and damage, WR-19/21 armour,
   WR-20 armour penalty dice and Theo's Clumsy on every attack and defense roll,
   WR-24 Messed Up) and the same decisions as the heuristic (Theo spends an
   Experience Pool die attacking a Messed Up foe or when Messed Up himself, and defending when down to
   two-thirds of his HP). The ratio engine/loop is the engine's overhead (goal: at least 0.2).

Run: ``.venv/bin/python bench/bench_warp.py [N]`` (or ``make bench``). Prints figures; asserts nothing.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import affray
from affray.ai.runner import play
from affray.core.match import Match
from affray.core.rng import FastRNG

ROOT = Path(__file__).parents[1]
DUEL = ROOT / "examples" / "warp" / "knight_duel.yaml"


def engine_fights(n: int) -> tuple[float, dict[str | None, int]]:
    scenario = affray.load_scenario(DUEL)
    wins: dict[str | None, int] = {}
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
        winner = outcome.winner if outcome is not None else None
        wins[winner] = wins.get(winner, 0) + 1
    return n / (time.perf_counter() - start), wins


class LoopDuel:
    """Theo (bat x2, Good with a Baseball Bat 4, leathers 1 pt, 2 experience dice, Clumsy: a penalty die on
    his attack and defense rolls, which require agility, WR-20) against Sir Reginald (sword x3, Trained
    Fencer 4, leathers under plate: 2d6 + 1 and 2 penalty dice on his agility-related rolls), 21 HP each."""

    def __init__(self, rnd: random.Random) -> None:
        self.below = rnd.randrange

    def pool(self, dice: int, net: int) -> int:
        below = self.below
        faces = [below(6) + 1 for _ in range(dice + (net if net > 0 else -net))]
        if not net:
            return sum(faces)
        faces.sort()
        return sum(faces[-dice:]) if net > 0 else sum(faces[:dice])

    def fight(self) -> str | None:
        theo = knight = 21
        xp = 2
        # initiative: 2 dice each, untrained rolls are agility-related (Theo: Clumsy; the knight: armour)
        t_init, k_init = self.pool(2, -1), self.pool(2, -2)
        theo_first = t_init >= k_init  # a tie of equal pools goes to the PC (WR-B8)
        for _ in range(100):
            for theo_acts in (True, False) if theo_first else (False, True):
                t_messed, k_messed = 2 * theo <= 21, 2 * knight <= 21
                if theo_acts:
                    spend = 1 if xp and (k_messed or t_messed) else 0
                    xp -= spend
                    attack = self.pool(4, spend - t_messed - 1)
                    defense = self.pool(4, -2 - k_messed)
                    if attack > defense:
                        knight -= max(0, (attack - defense) * 2 - self.pool(2, 0) - 1)
                        if knight <= 0:
                            return "theo"
                else:
                    attack = self.pool(4, -2 - k_messed)
                    spend = 1 if xp and 3 * theo <= 42 else 0
                    xp -= spend
                    defense = self.pool(4, spend - t_messed - 1)
                    if attack > defense:
                        theo -= max(0, (attack - defense) * 3 - 1)
                        if theo <= 0:
                            return "knight"
        return None


def loop_fights(n: int) -> tuple[float, dict[str | None, int]]:
    rnd = random.Random(1)
    wins: dict[str | None, int] = {}
    start = time.perf_counter()
    for _ in range(n):
        winner = LoopDuel(rnd).fight()
        wins[winner] = wins.get(winner, 0) + 1
    return n / (time.perf_counter() - start), wins


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    engine, engine_wins = engine_fights(n)
    loop, loop_wins = loop_fights(n * 10)
    share = {k: round(v / n, 3) for k, v in sorted(engine_wins.items(), key=str)}
    loop_share = {k: round(v / (n * 10), 3) for k, v in sorted(loop_wins.items(), key=str)}
    print(f"WaRP melee 1v1, full engine:       {engine:10,.0f} fights/s per core  wins {share}")
    print(f"WaRP melee 1v1, hand-written loop: {loop:10,.0f} fights/s per core  wins {loop_share}")
    print(f"ratio engine/loop:                 {engine / loop:10.3f}  (goal >= 0.2)")


if __name__ == "__main__":
    main()
