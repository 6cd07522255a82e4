"""Exact outcomes of duels whose state graph has cycles: absorbing Markov chains solved by strongly connected
components.

:mod:`affray.odds.markov` needs every transition to lead to a smaller state or to itself. A duel of card plans
(WH-05) does not fit: a round where nobody is hurt still moves from the first card slot to the second and back, and
a card that restores Poise climbs back up. Here the reachable states are explored once, cut into strongly
connected components (Tarjan's algorithm, iteratively), and the components are solved sinks first: within a
component ``C`` the values satisfy ``(I - P_CC) V_C = P_C,out V_out``, a small linear system solved exactly
(Fraction Gaussian elimination) or in floats (numpy for large components). A singular system means the duel
can last forever from there, and is refused with :class:`~affray.odds.markov.NotSolvable`; nothing is ever
truncated or iterated to a tolerance.

States may carry a *cost*: 1 for a state whose step starts a new round, 0 for one that continues it (a
round of two card slots is two turns). Expected rounds count costs; the rounds distribution follows the mass one
round at a time (a cost-1 step, then cost-0 steps) with numpy in float mode and with integers over a common
denominator in exact mode.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from affray.odds.markov import Chain, DuelOdds, NotSolvable, Number
from affray.odds.progress import EVERY, FLOAT_MAX_STATES, state_limit, tick, too_large

S = TypeVar("S", bound=Hashable)
#: A probability as the solver computes it: exact (``Fraction``) or not (``float``), the same code for both.
N = TypeVar("N", Fraction, float)
MAX_EXACT_COMPONENT = 5_000  # beyond this a component is refused in exact mode (the float solver takes it)
DENSE = (9, 2_500)  # float components of these sizes go to numpy's dense solver (others: sparse)


@dataclass(slots=True)
class Explored(Generic[S]):
    """The reachable transient states (indexed), their edges, and the absorption into each label."""

    states: list[S]
    index: dict[S, int]
    edges: list[list[tuple[int, Number]]]  # transient successors by index
    absorb: list[dict[str, Number]]  # absorbed probability by label


def explore(chain: Chain[S], exact: bool, max_states: int) -> Explored[S]:
    states: list[S] = []
    index: dict[S, int] = {}
    edges: list[list[tuple[int, Number]]] = []
    absorb: list[dict[str, Number]] = []
    if chain.terminal(chain.start) is not None:
        return Explored(states, index, edges, absorb)
    index[chain.start] = 0
    states.append(chain.start)
    edges.append([])
    absorb.append({})
    todo = [0]
    while todo:
        i = todo.pop()
        out: list[tuple[int, Number]] = []
        ends: dict[str, Number] = {}
        for t, p in chain.transitions(states[i], exact).items():
            if not p:
                continue
            label = chain.terminal(t)
            if label is not None:
                ends[label] = ends.get(label, 0) + p
                continue
            j = index.get(t)
            if j is None:
                if len(states) >= max_states:
                    raise NotSolvable(too_large(max_states, exact))
                if len(states) % EVERY == 0:
                    tick("exploring states", len(states), None)
                j = index[t] = len(states)
                states.append(t)
                edges.append([])
                absorb.append({})
                todo.append(j)
            out.append((j, p))
        edges[i], absorb[i] = out, ends
    return Explored(states, index, edges, absorb)


def components(edges: list[list[tuple[int, Number]]]) -> list[list[int]]:
    """Strongly connected components, each listed after every component it leads to (Tarjan, iterative)."""
    n = len(edges)
    order = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if order[root] != -1:
            continue
        work = [(root, 0)]
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, k = work[-1]
            if k < len(edges[v]):
                work[-1] = (v, k + 1)
                w = edges[v][k][0]
                if order[w] == -1:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w]:
                    low[v] = min(low[v], order[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == order[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def sparse_solve(rows: list[dict[int, N]], rhs: list[list[N]], zero: N, one: N, exact: bool) -> list[list[N]] | None:
    """Solve ``x_r = sum_c rows[r][c] x_c + rhs[r]`` (one column of ``x`` per right-hand side) for a transient
    component of an absorbing chain; ``None`` if it is singular (some state can never leave).

    Sparse Gaussian elimination by substitution, choosing next the state with the fewest references times
    successors (Markowitz), so the chains' sparse loops fill in little. ``I - P`` of a transient component is a
    nonsingular M-matrix, so no pivoting is needed: exact with Fractions, stable with floats. ``rows`` and
    ``rhs`` are consumed.
    """
    n = len(rows)
    refs: list[set[int]] = [set() for _ in range(n)]
    for r, row in enumerate(rows):
        for c in row:
            if c != r:
                refs[c].add(r)
    alive = set(range(n))
    order: list[int] = []
    while alive:
        v = min(alive, key=lambda u: len(refs[u]) * len(rows[u]))
        alive.discard(v)
        order.append(v)
        row = rows[v]
        stay = row.pop(v, zero)
        if stay:
            left = one - stay
            if (left <= zero) if exact else left < 1e-13:
                return None
            inv = one / left
            for c in row:
                row[c] *= inv
            rhs[v] = [x * inv for x in rhs[v]]
        for c in row:
            refs[c].discard(v)
        for r in refs[v]:
            if r not in alive:
                continue
            target = rows[r]
            coef = target.pop(v)
            for c, q in row.items():
                target[c] = target.get(c, zero) + coef * q
                if c != r:
                    refs[c].add(r)
            rhs[r] = [x + coef * y for x, y in zip(rhs[r], rhs[v], strict=True)]
        refs[v] = set()
    x: list[list[N]] = [[] for _ in range(n)]
    for v in reversed(order):
        value = rhs[v]
        for c, q in rows[v].items():
            value = [a + q * b for a, b in zip(value, x[c], strict=True)]
        x[v] = value
    return x


class _Solver(Generic[S]):
    def __init__(self, chain: Chain[S], exact: bool, cost: Callable[[S], int]) -> None:
        self.chain, self.exact, self.cost = chain, exact, cost
        self.zero: Number = Fraction(0) if exact else 0.0
        self.one: Number = Fraction(1) if exact else 1.0
        self.labels = list(chain.labels)

    def values(self, g: Explored[S]) -> list[list[Number]]:
        """Per transient state: the probability of each label, then the expected cost."""
        width = len(self.labels) + 1
        value: list[list[Number] | None] = [None] * len(g.states)
        slot = {label: k for k, label in enumerate(self.labels)}
        solved_states = 0
        for comp in components(g.edges):
            solved_states += len(comp)
            if solved_states // EVERY != (solved_states - len(comp)) // EVERY:
                tick("solving components", solved_states, len(g.states))
            inside = {v: r for r, v in enumerate(comp)}
            rows: list[dict[int, Number]] = []
            rhs: list[list[Number]] = []
            for v in comp:
                row: dict[int, Number] = {}
                b = [self.zero] * width
                for label, p in g.absorb[v].items():
                    b[slot[label]] += p
                b[-1] += self.one * self.cost(g.states[v])
                for w, p in g.edges[v]:
                    r = inside.get(w)
                    if r is not None:
                        row[r] = row.get(r, self.zero) + p
                    else:
                        known = value[w]
                        assert known is not None  # components come sinks first
                        b = [x + p * y for x, y in zip(b, known, strict=True)]
                rows.append(row)
                rhs.append(b)
            solved = self._solve(rows, rhs)
            if solved is None:
                state = g.states[comp[0]]
                raise NotSolvable(f"from state {state} the duel can last forever (nothing ever ends it)")
            for r, v in enumerate(comp):
                value[v] = solved[r]
        return [v if v is not None else [] for v in value]

    def _solve(self, rows: list[dict[int, Number]], rhs: list[list[Number]]) -> list[list[Number]] | None:
        n = len(rows)
        if self.exact and n > MAX_EXACT_COMPONENT:
            raise NotSolvable(
                f"a cycle of {n} states is too large to solve exactly (at most "
                f"{MAX_EXACT_COMPONENT}); the float solver can"
            )
        if self.exact or not DENSE[0] <= n <= DENSE[1]:
            return sparse_solve(rows, rhs, self.zero, self.one, self.exact)
        import numpy as np

        a = np.eye(n)
        for r, row in enumerate(rows):
            for c, p in row.items():
                a[r, c] -= p
        try:
            x = np.linalg.solve(a, np.array(rhs, dtype=float))
        except np.linalg.LinAlgError:
            return None
        if not np.all(np.isfinite(x)):
            return None
        return [[float(v) for v in row] for row in x]

    # -- the rounds distribution --------------------------------------------------------------------
    def rounds(self, g: Explored[S], max_rounds: int, tolerance: float) -> tuple[list[tuple[int, Number]], Number]:
        costs = [self.cost(s) for s in g.states]
        return (self._rounds_exact if self.exact else self._rounds_float)(g, costs, max_rounds, tolerance)

    def _rounds_float(
        self, g: Explored[S], costs: list[int], max_rounds: int, tolerance: float
    ) -> tuple[list[tuple[int, Number]], Number]:
        import numpy as np

        n = len(g.states)
        src = np.repeat(np.arange(n, dtype=np.int64), [len(e) for e in g.edges])
        flat = list(itertools.chain.from_iterable(g.edges))
        dst = np.fromiter((w for w, _ in flat), dtype=np.int64, count=len(flat))
        prob = np.fromiter((p for _, p in flat), dtype=float, count=len(flat))
        out_p = np.fromiter((sum(a.values(), 0.0) for a in g.absorb), dtype=float, count=n)
        starts = np.array([c == 1 for c in costs])
        mass = np.zeros(n)
        mass[0] = 1.0
        out: list[tuple[int, Number]] = []
        for k in range(1, max_rounds + 1):
            tick("rounds", k, max_rounds)
            ended = 0.0
            # one round: a step from the round's first state, then steps through states that continue it
            moving = mass
            carried = np.zeros(n)
            for _ in range(64):
                if not moving.any():
                    break
                ended += float(moving @ out_p)
                moved = np.bincount(dst, weights=moving[src] * prob, minlength=n)
                carried += np.where(starts, moved, 0.0)
                moving = np.where(starts, 0.0, moved)
            else:
                raise NotSolvable("a round that never ends (states that continue a round form a cycle)")
            out.append((k, ended))
            mass = carried
            if mass.sum() <= tolerance:
                break
        return out, float(mass.sum())

    def _rounds_exact(
        self, g: Explored[S], costs: list[int], max_rounds: int, tolerance: float
    ) -> tuple[list[tuple[int, Number]], Number]:
        n = len(g.states)
        dens = [Fraction(p).denominator for v in range(n) for _, p in g.edges[v]]
        dens += [Fraction(sum(g.absorb[v].values(), Fraction(0))).denominator for v in range(n)]
        den = math.lcm(*dens) if dens else 1
        w_edges = [[(w, int(p * den)) for w, p in g.edges[v]] for v in range(n)]
        w_out = [int(sum(g.absorb[v].values(), Fraction(0)) * den) for v in range(n)]
        mass: dict[int, int] = {0: 1}
        scale = 1  # mass / scale is a probability
        out: list[tuple[int, Number]] = []
        for k in range(1, max_rounds + 1):
            tick("rounds", k, max_rounds)
            ended = Fraction(0)
            moving: dict[int, int] = mass
            carried: dict[int, int] = {}
            for _ in range(64):
                if not moving:
                    break
                ended += Fraction(sum(m * w_out[v] for v, m in moving.items()), scale * den)
                moved: dict[int, int] = {}
                for v, m in moving.items():
                    for w, q in w_edges[v]:
                        moved[w] = moved.get(w, 0) + m * q
                # everything still moving is now over scale * den; bring what was carried there too
                carried = {v: m * den for v, m in carried.items()}
                for w, m in moved.items():
                    if costs[w] == 1:
                        carried[w] = carried.get(w, 0) + m
                moving = {w: m for w, m in moved.items() if costs[w] != 1}
                scale *= den
            else:
                raise NotSolvable("a round that never ends (states that continue a round form a cycle)")
            out.append((k, ended))
            mass = carried
            remaining = Fraction(sum(mass.values()), scale)
            if remaining <= tolerance:
                return out, remaining
        return out, Fraction(sum(mass.values()), scale)


def solve_cyclic(
    chain: Chain[S],
    *,
    exact: bool = False,
    cost: Callable[[S], int] | None = None,
    max_states: int = FLOAT_MAX_STATES,
    max_rounds: int = 500,
    tolerance: float = 1e-15,
) -> DuelOdds:
    """Solve ``chain`` (cycles allowed): outcome probabilities, expected rounds (the sum of ``cost`` along
    the way, 1 per step by default) and the rounds distribution. :class:`NotSolvable` if a part of the
    chain can go on forever, or if it is too large (more than ``max_states`` states; in exact mode at most
    :data:`~affray.odds.progress.EXACT_MAX_STATES`). Progress goes to :func:`affray.odds.progress.tick`."""
    solver = _Solver(chain, exact, cost or (lambda s: 1))
    g = explore(chain, exact, state_limit(exact, max_states))
    label = chain.terminal(chain.start)
    if label is not None:
        return DuelOdds(
            {k: solver.one if k == label else solver.zero for k in chain.labels}, solver.zero, [], solver.zero, 1
        )
    value = solver.values(g)[0]
    outcomes = {k: value[i] for i, k in enumerate(chain.labels)}
    rounds, tail = solver.rounds(g, max_rounds, tolerance)
    return DuelOdds(outcomes, value[-1], rounds, tail, len(g.states))
