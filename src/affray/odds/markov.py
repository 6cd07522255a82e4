"""Exact outcomes of duels as absorbing Markov chains.

A duel model gives a start state, a round transition ``(state, exact) -> {next state: probability}``
(``Fraction`` when ``exact`` is true, ``float`` otherwise) and a terminal test ``state -> winner | None``.
Hit points never come back in the duels affray solves, so every transition goes to a "smaller" state or
stays put; the only cycles are self-loops (a round where nobody is hurt), solved in closed form. For win
probabilities V and expected rounds E::

    V(s) = sum_{t != s} P(s,t) V(t) / (1 - P(s,s))        E(s) = (1 + sum_{t != s} P(s,t) E(t)) / (1 - P(s,s))

A chain with any other cycle is refused with :class:`NotSolvable` (never approximated silently).

The distribution of the number of rounds pushes probability mass forward round by round: with numpy
(``bincount`` over the edge list) in float mode, and with integers over a common denominator in exact
mode (Fractions would spend their time on gcds).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from affray.odds.progress import EVERY, FLOAT_MAX_STATES, state_limit, tick, too_large

S = TypeVar("S", bound=Hashable)
Number = Any  # Fraction or float: the solver is written once for both


class NotSolvable(ValueError):
    """The duel cannot be solved exactly; the message says why."""


@dataclass(slots=True)
class DuelOdds:
    """Outcome probabilities (by winner label, ``draw`` included), expected rounds and the rounds distribution."""

    outcomes: dict[str, Number]
    expected_rounds: Number
    rounds: list[tuple[int, Number]] = field(default_factory=list)
    tail: Number = 0  # probability mass beyond the last listed round
    states: int = 0


@dataclass(slots=True)
class Chain(Generic[S]):
    start: S
    transitions: Callable[[S, bool], Mapping[S, Number]]
    terminal: Callable[[S], str | None]
    labels: tuple[str, ...]


class _Solver(Generic[S]):
    def __init__(self, chain: Chain[S], exact: bool, max_states: int) -> None:
        self.chain, self.exact, self.max_states = chain, exact, max_states
        self.zero: Number = Fraction(0) if exact else 0.0
        self.one: Number = Fraction(1) if exact else 1.0
        self.value: dict[S, tuple[dict[str, Number], Number]] = {}
        self.edges: dict[S, list[tuple[S, Number]]] = {}
        self.active: set[S] = set()
        self.exact_value: dict[S, tuple[list[int], int]] = {}
        self._slots = {label: i for i, label in enumerate(dict.fromkeys(chain.labels))}

    def successors(self, s: S) -> list[tuple[S, Number]]:
        out = self.edges.get(s)
        if out is None:
            if len(self.edges) >= self.max_states:
                raise NotSolvable(too_large(self.max_states, self.exact))
            out = self.edges[s] = [(t, p) for t, p in self.chain.transitions(s, self.exact).items() if p]
            if len(self.edges) % EVERY == 0:
                tick("exploring states", len(self.edges), None)
        return out

    def solve(self, s: S) -> tuple[dict[str, Number], Number]:
        """Win probabilities by label and expected rounds from ``s`` (Fractions when exact, else floats)."""
        if self.exact:
            nums, den = self._solve_exact(s)
            wins = {label: Fraction(nums[i], den) for label, i in self._slots.items() if nums[i]}
            return wins, Fraction(nums[-1], den)
        return self._solve_float(s)

    def _solve_exact(self, s: S) -> tuple[list[int], int]:
        """:meth:`solve` in integers: one numerator per label (the chain's labels, then one slot for any other) and
        the expected rounds' last, over one denominator, kept in lowest terms. Summing a state's successors over a
        common denominator takes one gcd per successor and one per state, where Fractions took several per label
        and successor (three quarters of an exact duel's time was Fraction arithmetic)."""
        done = self.exact_value.get(s)
        if done is not None:
            return done
        width = len(self._slots) + 2
        label = self.chain.terminal(s)
        if label is not None:
            nums = [0] * width
            nums[self._slots.get(label, width - 2)] = 1
            self.exact_value[s] = (nums, 1)
            return nums, 1
        if s in self.active:
            raise NotSolvable("the state graph has a cycle longer than one round (hit points can come back)")
        self.active.add(s)
        acc, den = [0] * width, 1  # the sum over the successors so far: acc / den
        stay_n, stay_d = 0, 1  # the chance of staying put: stay_n / stay_d
        for t, p in self.successors(s):
            pn, pd = p.numerator, p.denominator
            if t == s:
                stay_n, stay_d = stay_n * pd + pn * stay_d, stay_d * pd
                continue
            sub, sub_den = self._solve_exact(t)
            term_den = pd * sub_den
            g = math.gcd(den, term_den)
            own, other = term_den // g, den // g  # each side's factor to the common denominator den * term_den / g
            acc = [a * own + pn * b * other for a, b in zip(acc, sub, strict=True)]
            den *= own
        self.active.discard(s)
        if stay_n >= stay_d:
            raise NotSolvable(f"state {s} never changes: the duel can last forever")
        acc[-1] += den  # the round being played: E(s) = (1 + sum P(s,t) E(t)) / (1 - P(s,s))
        nums = [a * stay_d for a in acc]
        den *= stay_d - stay_n
        g = math.gcd(den, *nums)
        result = [n // g for n in nums], den // g
        self.exact_value[s] = result
        return result

    def _solve_float(self, s: S) -> tuple[dict[str, Number], Number]:
        done = self.value.get(s)
        if done is not None:
            return done
        label = self.chain.terminal(s)
        if label is not None:
            result = ({label: self.one}, self.zero)
            self.value[s] = result
            return result
        if s in self.active:
            raise NotSolvable("the state graph has a cycle longer than one round (hit points can come back)")
        self.active.add(s)
        stay, rounds = self.zero, self.one
        wins: dict[str, Number] = {}
        for t, p in self.successors(s):
            if t == s:
                stay += p
                continue
            sub_wins, sub_rounds = self._solve_float(t)
            for k, v in sub_wins.items():
                wins[k] = wins.get(k, self.zero) + p * v
            rounds += p * sub_rounds
        self.active.discard(s)
        if stay >= self.one:
            raise NotSolvable(f"state {s} never changes: the duel can last forever")
        scale = self.one - stay
        result = ({k: v / scale for k, v in wins.items()}, rounds / scale)
        self.value[s] = result
        return result

    def _edge_lists(self) -> tuple[list[S], list[tuple[int, int, Number]], list[Number]]:
        """Transient states, transient edges (src, dst, p) and the absorbed probability per state."""
        states = [s for s in self.edges if self.chain.terminal(s) is None]
        index = {s: i for i, s in enumerate(states)}
        edges, absorb = [], [self.zero] * len(states)
        for s in states:
            for t, p in self.edges[s]:
                if t in index:
                    edges.append((index[s], index[t], p))
                else:
                    absorb[index[s]] += p
        return states, edges, absorb

    def rounds_float(self, max_rounds: int, tolerance: float) -> tuple[list[tuple[int, Number]], Number]:
        import numpy as np

        states, edges, absorb = self._edge_lists()
        index = {s: i for i, s in enumerate(states)}
        src = np.array([e[0] for e in edges], dtype=np.int64)
        dst = np.array([e[1] for e in edges], dtype=np.int64)
        prob = np.array([float(e[2]) for e in edges])
        out_p = np.array([float(a) for a in absorb])
        mass = np.zeros(len(states))
        mass[index[self.chain.start]] = 1.0
        out: list[tuple[int, Number]] = []
        for k in range(1, max_rounds + 1):
            tick("rounds", k, max_rounds)
            out.append((k, float(mass @ out_p)))
            mass = np.bincount(dst, weights=mass[src] * prob, minlength=len(states)).astype(float)
            if mass.sum() <= tolerance:
                break
        return out, float(mass.sum())

    def rounds_exact(self, max_rounds: int, tolerance: float) -> tuple[list[tuple[int, Number]], Number]:
        states, edges, absorb = self._edge_lists()
        denominators = [Fraction(p).denominator for _, _, p in edges] + [Fraction(a).denominator for a in absorb]
        denominator = math.lcm(*denominators)
        out_edges: list[list[tuple[int, int]]] = [[] for _ in states]  # by source: a state without mass is skipped
        for s, t, p in edges:
            out_edges[s].append((t, int(p * denominator)))
        w_absorb = [int(a * denominator) for a in absorb]
        mass = [0] * len(states)
        mass[states.index(self.chain.start)] = 1
        scale = 1  # mass[i] / scale is the probability of being in state i
        limit = Fraction(tolerance)  # compared in integers: a Fraction of the huge sums would cost a gcd a round
        out: list[tuple[int, Number]] = []
        for k in range(1, max_rounds + 1):
            tick("rounds", k, max_rounds)
            ended = sum(m * a for m, a in zip(mass, w_absorb, strict=True) if m)
            scale *= denominator
            out.append((k, Fraction(ended, scale)))
            nxt = [0] * len(states)
            for s, m in enumerate(mass):
                if m:
                    for t, w in out_edges[s]:
                        nxt[t] += m * w
            mass = nxt
            if sum(mass) * limit.denominator <= limit.numerator * scale:
                return out, Fraction(sum(mass), scale)
        return out, Fraction(sum(mass), scale)


def solve(
    chain: Chain[S],
    *,
    exact: bool = False,
    max_rounds: int = 500,
    tolerance: float = 1e-15,
    max_states: int = FLOAT_MAX_STATES,
) -> DuelOdds:
    """Solve ``chain``: outcome probabilities, expected rounds, and the rounds distribution.

    ``exact=True`` uses Fractions throughout; the rounds distribution is then exact round by round, with
    the exact tail after ``max_rounds`` or once the tail is below ``tolerance``. Progress goes to
    :func:`affray.odds.progress.tick`; more than ``max_states`` states (in exact mode at most
    :data:`~affray.odds.progress.EXACT_MAX_STATES`) are refused with the reason.
    """
    solver = _Solver(chain, exact, state_limit(exact, max_states))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        wins, expected = solver.solve(chain.start)
    except RecursionError:
        raise NotSolvable(
            f"the duel runs through more than {sys.getrecursionlimit():,} states in a row; too "
            f"long a chain for this solver: try lower hit points"
        ) from None
    finally:
        sys.setrecursionlimit(limit)
    outcomes = {label: wins.get(label, solver.zero) for label in chain.labels}
    if chain.terminal(chain.start) is not None:
        return DuelOdds(outcomes, expected, [], solver.zero, 1)
    rounds, tail = (solver.rounds_exact if exact else solver.rounds_float)(max_rounds, tolerance)
    return DuelOdds(outcomes, expected, rounds, tail, len(solver.edges))


def convert(p: Fraction, exact: bool) -> Number:
    """``p`` as the solver's number type: the fraction itself when exact, else a float."""
    return p if exact else float(p)


def mix_odds(parts: list[tuple[Fraction, DuelOdds]], exact: bool) -> DuelOdds:
    """A mixture of duel results (e.g. over who goes first)."""
    zero: Number = Fraction(0) if exact else 0.0
    outcomes: dict[str, Number] = {}
    rounds: dict[int, Number] = {}
    expected, tail = zero, zero
    for p, odds in parts:
        w = convert(p, exact)
        for label, v in odds.outcomes.items():
            outcomes[label] = outcomes.get(label, zero) + w * v
        for k, v in odds.rounds:
            rounds[k] = rounds.get(k, zero) + w * v
        expected += w * odds.expected_rounds
        tail += w * odds.tail
    return DuelOdds(outcomes, expected, sorted(rounds.items()), tail, sum(o.states for _, o in parts))
