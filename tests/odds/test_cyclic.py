"""The cyclic-chain solver: the same fractions as the acyclic solver where both apply, closed forms where the
chain loops, rounds made of several steps, and refusals instead of approximations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from affray.odds.cyclic import solve_cyclic, sparse_solve
from affray.odds.markov import Chain, NotSolvable, solve
from affray.odds.reference import terminal, transitions

LABELS = ("A", "B", "draw")


@pytest.mark.parametrize("hp", [2, 4])
def test_same_fractions_as_the_acyclic_solver_on_the_reference_duel(hp: int) -> None:
    chain = Chain((hp, hp), transitions, terminal, LABELS)
    ours, theirs = solve_cyclic(chain, exact=True), solve(chain, exact=True)
    assert ours.outcomes == theirs.outcomes and ours.expected_rounds == theirs.expected_rounds
    assert ours.rounds == theirs.rounds and ours.tail == theirs.tail
    fast = solve_cyclic(chain)
    assert all(abs(fast.outcomes[k] - float(theirs.outcomes[k])) < 1e-14 for k in LABELS)


def walk(s: int, exact: bool) -> dict[int, Fraction]:
    """A gambler's ruin between 0 and 4 that also stays put a third of the time."""
    return {s - 1: Fraction(1, 3), s + 1: Fraction(1, 3), s: Fraction(1, 3)}


def ends(s: int) -> str | None:
    return "A" if s <= 0 else "B" if s >= 4 else None


def test_a_loop_is_solved_exactly_in_closed_form() -> None:
    """From 1: ruin with probability 3/4; each move takes 3/2 steps on average, and 1 x 3 moves: 9/2."""
    odds = solve_cyclic(Chain(1, walk, ends, LABELS), exact=True)
    assert odds.outcomes == {"A": Fraction(3, 4), "B": Fraction(1, 4), "draw": 0}
    assert odds.expected_rounds == Fraction(9, 2)
    assert sum(p for _, p in odds.rounds) + odds.tail == 1
    assert sum(k * p for k, p in odds.rounds) == pytest.approx(4.5, abs=1e-9)


def test_rounds_of_two_steps_count_once() -> None:
    """State (s, half): a round is two steps; cost 1 for the first half only."""

    def two(s: tuple[int, int], exact: bool) -> dict[tuple[int, int], Fraction]:
        n, half = s
        return {(n, 1): Fraction(1)} if half == 0 else {(n - 1, 0): Fraction(1, 2), (n, 0): Fraction(1, 2)}

    odds = solve_cyclic(
        Chain((1, 0), two, lambda s: "A" if s[0] <= 0 else None, LABELS), exact=True, cost=lambda s: 1 - s[1]
    )
    assert odds.outcomes["A"] == 1 and odds.expected_rounds == 2
    assert odds.rounds[:3] == [(1, Fraction(1, 2)), (2, Fraction(1, 4)), (3, Fraction(1, 8))]


def test_a_chain_that_can_last_forever_is_refused() -> None:
    def stuck(s: int, exact: bool) -> dict[int, Fraction]:
        return {1 - s: Fraction(1)} if s in (0, 1) else {0: Fraction(1, 2), 9: Fraction(1, 2)}

    with pytest.raises(NotSolvable, match="forever"):
        solve_cyclic(Chain(5, stuck, lambda s: "A" if s == 9 else None, LABELS), exact=True)
    with pytest.raises(NotSolvable, match="forever"):
        solve_cyclic(Chain(5, stuck, lambda s: "A" if s == 9 else None, LABELS))


def test_sparse_solve_matches_a_dense_answer() -> None:
    """x0 = 1/2 x1 + 1/4, x1 = 1/3 x0 + 1/3 x1 + 1/6: x1 = (1/12 + 1/6) / (2/3 - 1/6) = 1/2, x0 = 1/2."""
    x = sparse_solve(
        [{1: Fraction(1, 2)}, {0: Fraction(1, 3), 1: Fraction(1, 3)}],
        [[Fraction(1, 4)], [Fraction(1, 6)]],
        Fraction(0),
        Fraction(1),
        True,
    )
    assert x == [[Fraction(1, 2)], [Fraction(1, 2)]]
