"""The reference duel (docs/performance.md, 'Exact odds'), used to measure the duel solver against icepool.

A and B start at 20 HP. Each round, at the same time, A deals max(0, 3d6 - 2d6) to B and B deals
max(0, 2d6 + 1 - 3d6) to A, until one is at 0 or below (both at once: a draw).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache

from affray.odds.dist import map_dists, pool_sum
from affray.odds.independent import independent_duel
from affray.odds.markov import Chain, DuelOdds, Number, solve

State = tuple[int, int]


@cache
def joint_damage(exact: bool) -> tuple[tuple[int, int, Number], ...]:
    """(damage to B, damage to A, probability) for one round: max(0, 3d6 - 2d6) and max(0, 2d6 + 1 - 3d6)."""
    to_b, to_a = damage_to_b(), damage_to_a()
    convert = (lambda p: p) if exact else float
    return tuple((db, da, convert(pb * pa)) for db, pb in to_b.items() for da, pa in to_a.items())


def transitions(state: State, exact: bool) -> Mapping[State, Number]:
    a, b = state
    out: dict[State, Number] = {}
    for db, da, p in joint_damage(exact):
        key = (a - da if a > da else 0, b - db if b > db else 0)  # every finished state with the same sign is alike
        out[key] = out.get(key, 0) + p
    return out


def terminal(state: State) -> str | None:
    a, b = state
    if a <= 0 and b <= 0:
        return "draw"
    if b <= 0:
        return "A"
    if a <= 0:
        return "B"
    return None


def damage_to_b() -> dict[int, Fraction]:
    return map_dists(lambda x, y: max(0, x - y), pool_sum(3), pool_sum(2))


def damage_to_a() -> dict[int, Fraction]:
    return map_dists(lambda x, y: max(0, x + 1 - y), pool_sum(2), pool_sum(3))


def reference_duel(hp: int = 20, exact: bool = False, general: bool = False) -> DuelOdds:
    """Solve the reference duel: by the independent-sides fast path (floats), or by the general Markov
    solver (``general=True``, or always when ``exact``)."""
    if exact or general:
        return solve(Chain((hp, hp), transitions, terminal, ("A", "B", "draw")), exact=exact)
    return independent_duel((hp, hp), (damage_to_a(), damage_to_b()))
