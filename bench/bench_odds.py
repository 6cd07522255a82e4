"""Exact-odds benchmarks, each against icepool measured in the same run.

1. One single check: the Sim HuD exchange's HP-loss distribution (d13 attack vs d13 defense, then d13
   damage vs d13 injury), by affray's odds module and by icepool mapping the same mechanic over four d13
   (goal: affray no slower).
2. The reference duel of issue 7 (A and B at 20 HP; each round A deals max(0, 3d6-2d6) and B deals
   max(0, 2d6+1-3d6), at the same time), by affray and by icepool's map(..., repeat='inf') (goal: at least
   1000x faster, the same answer to 12 digits). icepool takes about a minute here.

Run: ``.venv/bin/python bench/bench_odds.py [HP]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool

from affray.odds.hud import exchange_odds
from affray.odds.reference import reference_duel
from affray.rulesets.hud.mechanics import exchange, hp_loss


def timed(func: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    start = time.perf_counter()
    for _ in range(repeat):
        result = func()
    return (time.perf_counter() - start) / repeat, result


def icepool_exchange() -> dict[int, Fraction]:
    def loss(a: int, d: int, g: int, i: int) -> int:
        return hp_loss(g, i) if exchange(a, d).hit else 0

    die = icepool.map(loss, icepool.d13, icepool.d13, icepool.d13, icepool.d13)
    return {int(k): Fraction(int(q), int(die.denominator())) for k, q in die.items()}


def ours_exchange() -> dict[int, Fraction]:
    exchange_odds.cache_clear()
    return exchange_odds().hp_loss


def icepool_duel(hp: int) -> float:
    d6 = icepool.d6
    to_b = (3 @ d6 - 2 @ d6).map(lambda x: max(0, x))
    to_a = (2 @ d6 + 1 - 3 @ d6).map(lambda x: max(0, x))

    def round_(state: tuple[int, int], da: int, db: int) -> tuple[int, int]:
        a, b = state
        return state if a <= 0 or b <= 0 else (a - db, b - da)

    end = icepool.map(round_, icepool.Die([(hp, hp)]), to_b, to_a, repeat="inf")
    return sum(q for (a, b), q in end.items() if b <= 0 < a) / end.denominator()  # type: ignore[no-any-return]


def main() -> None:
    hp = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    t_ours, ours = timed(ours_exchange, 20)
    t_ice, theirs = timed(icepool_exchange, 3)
    assert ours == theirs
    print(f"single check (HuD exchange HP loss): affray {t_ours * 1e3:8.2f} ms   icepool {t_ice * 1e3:8.2f} ms"
          f"   ratio {t_ice / t_ours:6.1f}x  (same distribution)")
    reference_duel(3)
    t_fast, fast = timed(lambda: reference_duel(hp), 20)
    t_general, general = timed(lambda: reference_duel(hp, general=True), 3)
    t_ice, p_ice = timed(lambda: icepool_duel(hp))
    print(f"reference duel {hp} HP: affray fast path {t_fast * 1e3:8.2f} ms, general solver {t_general * 1e3:8.2f} ms,"
          f" icepool {t_ice:8.2f} s")
    print(f"  P(A wins): affray {fast.outcomes['A']:.15f}  general {general.outcomes['A']:.15f}  icepool {p_ice:.15f}")
    print(f"  agreement: {abs(fast.outcomes['A'] - p_ice):.1e}   speed-up: {t_ice / t_fast:,.0f}x (fast path),"
          f" {t_ice / t_general:,.0f}x (general)")


if __name__ == "__main__":
    main()
