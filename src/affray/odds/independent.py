"""A fast exact-in-floats solver for duels whose two sides take damage independently.

When each round deals each side a damage drawn from a fixed distribution, independent of the other side
and of the hit points (:mod:`affray.odds.reference`'s duel: both strike at once), the fight is two independent
random walks stopped when either reaches its hit points. Writing D_X(k) for side X's damage after k rounds
and H_X for its hit points, with "alive" meaning D_X(k) < H_X::

    P(A wins in round k) = P(A alive after k) * (P(B alive after k-1) - P(B alive after k))
    P(draw in round k)   = (P(A alive after k-1) - P(A alive after k)) * (same for B)
    P(more than k rounds) = P(A alive after k) * P(B alive after k)

so only two truncated one-dimensional convolutions per round are needed. The general solver
(:mod:`affray.odds.markov`) gives the same answers, exactly, and checks this one in the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from affray.odds.markov import DuelOdds


def _vector(dist: Mapping[int, Fraction]) -> np.ndarray:
    size = max(dist) + 1
    out = np.zeros(size)
    for k, p in dist.items():
        if k < 0:
            raise ValueError("damage cannot be negative")
        out[k] += float(p)
    return out


def independent_duel(
    hp: tuple[int, int],
    damage_to: tuple[Mapping[int, Fraction], Mapping[int, Fraction]],
    labels: tuple[str, str] = ("A", "B"),
    max_rounds: int = 10_000,
    tolerance: float = 1e-17,
) -> DuelOdds:
    """Outcome probabilities, expected rounds and rounds distribution of an independent-damage duel.

    ``damage_to[i]`` is the per-round damage side ``i`` takes; a side at 0 HP or below is down; both down
    in the same round is a draw.
    """
    kernels = [_vector(d) for d in damage_to]
    alive = [np.zeros(h) for h in hp]
    for vec in alive:
        vec[0] = 1.0
    before = [1.0, 1.0]
    win = [0.0, 0.0]
    draw, expected = 0.0, 0.0
    rounds: list[tuple[int, float]] = []
    for k in range(1, max_rounds + 1):
        expected += before[0] * before[1]
        alive = [np.convolve(alive[i], kernels[i])[: hp[i]] for i in (0, 1)]
        after = [float(alive[0].sum()), float(alive[1].sum())]
        died = [before[0] - after[0], before[1] - after[1]]
        win[0] += after[0] * died[1]
        win[1] += after[1] * died[0]
        draw += died[0] * died[1]
        rounds.append((k, before[0] * before[1] - after[0] * after[1]))
        before = after
        if before[0] * before[1] <= tolerance:
            break
    outcomes = {labels[0]: win[0], labels[1]: win[1], "draw": draw}
    return DuelOdds(outcomes, expected, rounds, before[0] * before[1], hp[0] * hp[1])
