"""Exact-odds benchmarks, each against icepool measured in the same run.

1. Single checks, each by affray's odds module and by icepool mapping the same mechanics (goal: affray no
   slower): the Sim HuD exchange's HP-loss distribution (d13 attack vs d13 defense, then d13 damage vs d13
   injury); the WitchHammer attack of the seed (8+3 against Defense 4, 2 Damage on Solid Hit) landing on
   WH-19's target (Poise 5, Health 14): the Wounds distribution; a WaRP attack (3 dice + a bonus die against
   2 dice, a sword's x3, 1 die + 1 point of armour): the damage after armour.
2. The reference duel (A and B at 20 HP; each round A deals max(0, 3d6-2d6) and B deals
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

from affray.odds.reference import reference_duel
from affray.rulesets.hud.mechanics import exchange, hp_loss
from affray.rulesets.hud.odds import exchange_odds
from affray.rulesets.warp import odds as warp_odds
from affray.rulesets.warp.mechanics import armour_absorb, damage, hit
from affray.rulesets.witchhammer import odds as wh_odds
from affray.rulesets.witchhammer.mechanics import apply_damage, attack


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


def as_fractions(die: Any) -> dict[int, Fraction]:
    return {int(k): Fraction(int(q), int(die.denominator())) for k, q in die.items()}


def icepool_wh_wounds() -> dict[int, Fraction]:
    """The same mechanics mapped over icepool's d20: attack(), the Solid-Hit bonus, apply_damage(), the Crit's
    Wound (WH-15..WH-19, WH-B4, WH-B5)."""
    def wounds(natural: int) -> int:
        r = attack(natural, 11, 4)
        total = r.damage + (2 if r.solid else 0)
        return (apply_damage(5, 14, total)[2] if total else 0) + r.bonus_wounds

    return as_fractions(icepool.d20.map(wounds))


def ours_wh_wounds() -> dict[int, Fraction]:
    wh_odds.blow_counts.cache_clear()
    odds = wh_odds.attack_odds(11, 4, solid_bonus=2, target=(5, 14))
    assert odds.wounds is not None
    return odds.wounds


def icepool_warp_damage() -> dict[int, Fraction]:
    """3d6 + a bonus die (the best 3 of 4) against 2d6; hit(), damage() x3 and armour_absorb() over 1d6 + 1."""
    def through(a: int, d: int, rolled: int) -> int:
        return armour_absorb(damage(a, d, 3), rolled, 1) if hit(a, d) else 0

    attack_roll = icepool.d6.pool(4).highest(3).sum()
    return as_fractions(icepool.map(through, attack_roll, 2 @ icepool.d6, icepool.d6))


def ours_warp_damage() -> dict[int, Fraction]:
    for cached in (warp_odds.roll_counts, warp_odds.faces_counts, warp_odds.armour_counts, warp_odds.exchange_dist):
        cached.cache_clear()
    return warp_odds.attack_odds(3, 2, attack_bonus=1, factor=3, armour=warp_odds.Armour(1, 1)).damage


def best_of(func: Callable[[], Any], repeat: int = 7, number: int = 3) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs of ``number`` calls (per call): the machine's noise only adds time."""
    result = func()
    return min(timed(func, number)[0] for _ in range(repeat)), result


def single_check(name: str, ours: Callable[[], Any], theirs: Callable[[], Any]) -> None:
    """Both sides computed from scratch on every call (affray's caches cleared), best of 7."""
    t_ours, a = best_of(ours)
    t_ice, b = best_of(theirs)
    assert a == b, f"{name}: affray and icepool disagree"
    print(f"single check ({name}): affray {t_ours * 1e3:8.2f} ms   icepool {t_ice * 1e3:8.2f} ms"
          f"   ratio {t_ice / t_ours:6.1f}x  (same distribution)")


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
    single_check("HuD exchange HP loss", ours_exchange, icepool_exchange)
    single_check("WitchHammer attack, Wounds", ours_wh_wounds, icepool_wh_wounds)
    single_check("WaRP attack, damage after armour", ours_warp_damage, icepool_warp_damage)
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
