"""Balance by target: the value of one whole-number parameter that brings a side's win chance closest to a target.

``affray balance SCENARIO --param PATH=LO..HI --target 0.6 [--side S]``. The search is a bisection over the
parameter's values, on the assumption that the win chance moves one way as the parameter grows (more Endurance, more
wins): the two ends first (if both lie on the same side of the target, no value in the range reaches it, and the
report says so), then the middle of the bracket until two neighbouring values straddle the target. The answer is the
value whose win chance is closest to the target, reported with its neighbours.

- **Exact** (``--exact``): each value's win chance comes from the exact duel solver (``affray odds duel``'s, under
  its model's policies). A value whose chance falls outside the bracket of the two values around it shows that the
  chance is not monotone in the parameter: the report says so and every value of the range is solved instead.
- **Simulated**: each value's fights are played in blocks (:class:`~affray.sim.session.PointRun`, its seed derived
  from the run's seed and the value, so a value's numbers do not depend on the order of the search). While
  bisecting, a value is played until its 95% interval lies wholly above or below the target, or is narrower than
  ±``precision``; the answer and its neighbours are then played until their intervals are narrower than
  ±``precision`` (at most ``most`` fights each). A value whose interval lies wholly outside its bracket's intervals
  is reported as a sign that the chance is not monotone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from affray.sim.stats import Z95


class BalanceError(ValueError):
    """A balance that cannot be asked as given (a parameter that is not whole, a target outside 0..1)."""


@dataclass(frozen=True, slots=True)
class Probe:
    """One value of the parameter and the side's win chance there: ``rate`` with its 95% interval (``low`` =
    ``high`` = ``rate`` when exact), over ``fights`` fights (0 when exact)."""

    value: int
    rate: float
    low: float
    high: float
    fights: int = 0


@dataclass(frozen=True, slots=True)
class Balance:
    """The answer of a balance search: ``best`` (closest to ``target``), its ``neighbours`` (the values beside it in
    the range), every value tried (``probes``, by value), whether any value reaches the target (``reached``),
    whether the chance looked monotone, and the fights played in all."""

    param: str
    values: tuple[int, ...]
    side: str
    target: float
    exact: bool
    best: Probe
    neighbours: tuple[Probe, ...]
    probes: tuple[Probe, ...]
    reached: bool
    monotone: bool
    fights: int
    interrupted: bool = False

    def sentences(self) -> list[str]:
        """The answer in words: the value and its win chance, or that no value in the range reaches the target;
        and, when it was seen, that the chance is not monotone in the parameter."""
        b, first, last = self.best, self.values[0], self.values[-1]
        chance = _chance(b, self.exact)
        out = []
        if self.reached:
            tried = (
                f"{len(self.probes)} values solved"
                if self.exact
                else f"{len(self.probes)} values tried, {self.fights:,} fights in all"
            )
            out.append(
                f"{self.param} = {b.value} brings {possessive(self.side)} win chance to {chance}, the "
                f"closest to the target {pct(self.target)} ({tried})."
            )
        else:
            ends = {p.value: p for p in self.probes}
            out.append(
                f"No value of {self.param} in {first}..{last} brings {possessive(self.side)} win chance to "
                f"{pct(self.target)}: it is {_chance(ends[first], self.exact)} at {first} and "
                f"{_chance(ends[last], self.exact)} at {last}"
                f"{'' if self.exact else ' (95% intervals)'}; the closest is {b.value}."
            )
        if not self.monotone:
            out.append(
                f"{possessive(self.side)} win chance is not monotone in {self.param} over this range"
                + (
                    ": every value was solved, and the closest is the answer."
                    if self.exact
                    else ": a value's interval lay outside those of the values around it, so the bisection may "
                    "have missed a closer value (a sweep shows the whole curve)."
                )
            )
        return out


def possessive(name: str) -> str:
    """``witcher's``, ``hunters'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def pct(x: float) -> str:
    """A share as a percentage with what precision it has (``60%``, ``62.5%``, ``29.72%``)."""
    return f"{100 * x:.2f}".rstrip("0").rstrip(".") + "%"


def _chance(p: Probe, exact: bool) -> str:
    if exact:
        return f"{100 * p.rate:.2f}% (exact)"
    return f"{100 * p.rate:.1f}% (95% interval {100 * p.low:.1f}%–{100 * p.high:.1f}%, {p.fights:,} fights)"


def fights_for(precision: float) -> int:
    """Fights enough for a 95% interval of half-width ``precision`` at the widest (a 50% chance)."""
    return math.ceil(Z95 * Z95 / (4 * precision * precision))


def check_values(values: Sequence[float | int], target: float) -> tuple[int, ...]:
    """The parameter's values as whole numbers (refusing decimals) and the target as a chance."""
    if not all(isinstance(v, int) for v in values):
        raise BalanceError("--param: balance searches whole numbers; write PATH=LO..HI with whole LO and HI")
    if len(values) < 2:
        raise BalanceError("--param: a balance needs a range of at least two values (LO < HI)")
    if not 0 <= target <= 1:
        raise BalanceError(f"--target is a win chance between 0 and 1, e.g. 0.6 (got {target})")
    return tuple(int(v) for v in values)


#: ``(value, final)`` -> the probe at that value; ``final``: the answer or a neighbour, to be played to precision
ProbeAt = Callable[[int, bool], Probe]


def search(
    param: str,
    values: Sequence[int],
    side: str,
    target: float,
    probe_at: ProbeAt,
    exact: bool,
    fights: Callable[[], int] = lambda: 0,
    interrupted: Callable[[], bool] = lambda: False,
) -> Balance:
    """Bisect ``values`` for the one whose chance (``probe_at``) is closest to ``target`` (see the module
    docstring). ``fights`` and ``interrupted`` read the simulation's totals so far."""
    tried: dict[int, Probe] = {}

    def at(index: int, final: bool = False) -> Probe:
        value = values[index]
        if final or value not in tried:
            tried[value] = probe_at(value, final)
        return tried[value]

    def where(p: Probe) -> int:
        """+1 above the target, -1 below, 0 on it (exact) or covering it (its interval)."""
        if p.low > target:
            return 1
        if p.high < target:
            return -1
        return 0

    lo, hi = 0, len(values) - 1
    a, b = at(lo), at(hi)
    monotone = True
    reached = where(a) == 0 or where(b) == 0 or where(a) != where(b)
    while reached and where(a) != 0 and where(b) != 0 and hi - lo > 1 and not interrupted():
        mid = (lo + hi) // 2
        m = at(mid)
        if m.low > max(a.high, b.high) or m.high < min(a.low, b.low):
            monotone = False
        if where(m) == 0:
            break
        if where(m) == where(a):
            lo, a = mid, m
        else:
            hi, b = mid, m
    if exact and not monotone:
        for index in range(len(values)):
            at(index)
    best = _closest(tried.values(), target)
    neighbours: tuple[Probe, ...] = ()
    for _ in range(len(values)):  # top up the answer and its neighbours; move while a neighbour is closer
        index = values.index(best.value)
        best = at(index, final=not exact)
        neighbours = tuple(at(i, final=not exact) for i in (index - 1, index + 1) if 0 <= i < len(values))
        closer = _closest((best, *neighbours), target)
        if closer.value == best.value or interrupted():
            break
        best = closer
    return Balance(
        param,
        tuple(values),
        side,
        target,
        exact,
        best,
        neighbours,
        tuple(tried[v] for v in sorted(tried)),
        reached,
        monotone,
        fights(),
        interrupted(),
    )


def _closest(probes: Iterable[Probe], target: float) -> Probe:
    """The probe closest to the target (the smaller value on a tie)."""
    return min(probes, key=lambda p: (abs(p.rate - target), p.value))
