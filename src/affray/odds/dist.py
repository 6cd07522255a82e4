"""Exact discrete distributions as ``{outcome: Fraction}`` mappings, built by plain enumeration.

Exact odds map a ruleset's own mechanic functions over enumerated dice (DESIGN.md, contract 3): the same
``exchange(attack, defense)`` that live play calls on rolled numbers is called here on every face. Pools
with keep-highest/lowest, whose direct enumeration grows as 6^n, come from icepool (:func:`pool_sum`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

from affray.core.json import Json, JsonObject

K = TypeVar("K", bound=Hashable)


@cache
def die(sides: int, shift: int = 0) -> dict[int, Fraction]:
    """A fair d``sides`` (faces 1..sides) plus ``shift``."""
    p = Fraction(1, sides)
    return {face + shift: p for face in range(1, sides + 1)}


def counted(dist: Mapping[K, Fraction]) -> tuple[int, list[tuple[K, int]]]:
    """``dist`` as whole-number weights over its least common denominator: ``(denominator, [(outcome, weight)])``."""
    den = math.lcm(*(q.denominator for q in dist.values())) if dist else 1
    return den, [(x, q.numerator * (den // q.denominator)) for x, q in dist.items()]


def map_dists(func: Callable[..., K], *dists: Mapping[Any, Fraction]) -> dict[K, Fraction]:
    """The distribution of ``func(x1, x2, ...)`` for independent ``x_i ~ dists[i]``.

    Counted in whole numbers (each input over its least common denominator) and divided once per outcome at the
    end: a Fraction per cell, normalised by a gcd at every multiply and add, was three quarters of a named check's
    time and made it slower than icepool, which counts in integers too (docs/performance.md)."""
    parts = [counted(d) for d in dists]
    counts: dict[K, int] = {}
    if len(parts) == 1:
        for x, n in parts[0][1]:
            key = func(x)
            counts[key] = counts.get(key, 0) + n
    elif len(parts) == 2:
        inner = parts[1][1]
        for x, n in parts[0][1]:
            for y, m in inner:
                key = func(x, y)
                counts[key] = counts.get(key, 0) + n * m
    else:
        for combo in itertools.product(*(weights for _, weights in parts)):
            n = 1
            for _, m in combo:
                n *= m
            key = func(*(x for x, _ in combo))
            counts[key] = counts.get(key, 0) + n
    total = math.prod(den for den, _ in parts)
    return {k: Fraction(n, total) for k, n in counts.items()}


def add(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """The distribution of the sum of two independent integers (convolution)."""
    return map_dists(lambda x, y: x + y, a, b)


def mix(parts: Iterable[tuple[Fraction, Mapping[K, Fraction]]]) -> dict[K, Fraction]:
    """A mixture: with probability p_i draw from dist_i."""
    out: dict[K, Fraction] = {}
    for p, dist in parts:
        if p == 0:
            continue
        for k, q in dist.items():
            out[k] = out.get(k, Fraction(0)) + p * q
    return out


def probability(dist: Mapping[K, Fraction], predicate: Callable[[K], bool]) -> Fraction:
    return sum((p for k, p in dist.items() if predicate(k)), Fraction(0))


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


@cache
def pool_sum(dice: int, sides: int = 6, keep: int | None = None, keep_lowest: bool = False) -> dict[int, Fraction]:
    """Sum of ``keep`` highest (or lowest) of ``dice`` d``sides``, exactly (via icepool's pool algorithms)."""
    import icepool

    if dice == 0 or keep == 0:
        return {0: Fraction(1)}
    pool = icepool.d(sides).pool(dice)
    n = dice if keep is None else keep
    expr = pool.lowest(n) if keep_lowest else pool.highest(n)
    result = expr.sum() if hasattr(expr, "sum") else expr
    denominator = result.denominator()
    return {int(k): Fraction(int(q), int(denominator)) for k, q in result.items()}


def as_json(dist: Mapping[int, Fraction]) -> list[Json]:
    """``[{"outcome": k, "exact": "n/d", "value": float}]`` sorted by outcome (the odds CLI's format)."""
    return [
        {"outcome": k, "exact": f"{p.numerator}/{p.denominator}", "value": float(p)}
        for k, p in sorted(dist.items())
        if p
    ]


def prob_json(p: Fraction) -> JsonObject:
    return {"exact": f"{p.numerator}/{p.denominator}", "value": float(p)}
