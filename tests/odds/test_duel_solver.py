"""The duel solvers: exact against icepool on tiny duels, the fast path against the general solver."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from affray.odds.dist import pool_sum
from affray.odds.markov import Chain, NotSolvable, solve
from affray.odds.reference import reference_duel


def icepool_reference(hp: int) -> dict[str, Fraction]:
    d6 = icepool.d6
    to_b = (3 @ d6 - 2 @ d6).map(lambda x: max(0, x))
    to_a = (2 @ d6 + 1 - 3 @ d6).map(lambda x: max(0, x))

    def round_(state: tuple[int, int], da: int, db: int) -> tuple[int, int]:
        a, b = state
        if a <= 0 or b <= 0:
            return state
        return (a - db, b - da)

    end = icepool.map(round_, icepool.Die([(hp, hp)]), to_b, to_a, repeat="inf")
    total = end.denominator()
    out = {"A": Fraction(0), "B": Fraction(0), "draw": Fraction(0)}
    for (a, b), q in end.items():
        key = "draw" if a <= 0 and b <= 0 else "A" if b <= 0 else "B"
        out[key] += Fraction(q, total)
    return out


@pytest.mark.parametrize("hp", [1, 2, 3])
def test_exact_solver_matches_icepool_fraction_for_fraction(hp: int) -> None:
    ours = reference_duel(hp, exact=True)
    assert ours.outcomes == icepool_reference(hp)


def test_fast_path_matches_the_general_solver() -> None:
    fast = reference_duel(20)
    general = reference_duel(20, general=True)
    for k in fast.outcomes:
        assert abs(fast.outcomes[k] - general.outcomes[k]) < 1e-13
    assert abs(fast.expected_rounds - general.expected_rounds) < 1e-12
    for (k1, p1), (k2, p2) in zip(fast.rounds, general.rounds, strict=False):
        assert k1 == k2 and abs(p1 - p2) < 1e-13


def test_exact_rounds_distribution_sums_to_one_with_its_tail() -> None:
    odds = reference_duel(4, exact=True)
    assert sum(p for _, p in odds.rounds) + odds.tail == 1
    assert sum(odds.outcomes.values()) == 1
    expected = sum(k * p for k, p in odds.rounds)
    assert abs(float(expected - odds.expected_rounds)) < 1e-12


def test_pool_sum_is_exact() -> None:
    """X-1: 4d6 keep highest 3 has mean 15869/1296."""
    dist = pool_sum(4, 6, keep=3)
    assert sum(k * p for k, p in dist.items()) == Fraction(15869, 1296)
    assert pool_sum(2, 6) == {k: Fraction(6 - abs(k - 7), 36) for k in range(2, 13)}


def test_cycles_and_stuck_states_are_refused() -> None:
    def heal(state: int, exact: bool) -> dict[int, Fraction]:
        return {state - 1: Fraction(1, 2), state + 1: Fraction(1, 2)}

    with pytest.raises(NotSolvable, match="cycle"):
        solve(Chain(3, heal, lambda s: "A" if s <= 0 else None, ("A",)))
    with pytest.raises(NotSolvable, match="never changes"):
        solve(Chain(3, lambda s, e: {s: Fraction(1)}, lambda s: None, ("A",)))
