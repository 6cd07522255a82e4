"""The exact distribution of any dice expression in ``affray roll``'s notation, and the chance of a comparison
between two (``affray odds dice "3d6kh2 > 2d6+1"``), computed by icepool.

An expression is one side, or two sides and one comparison: ``>``, ``>=``, ``<``, ``<=``, ``==`` or ``!=``. Each side
is read by :func:`affray.core.notation.parse` (the notation ``affray roll`` rolls) and translated term by term into
an icepool die (:func:`to_die`), the same reading as :func:`affray.core.notation.roll_expr`:

- ``NdS`` is ``N @ d(S)``; ``NdSkhK`` (``klK``) the sum of the K highest (lowest) of a pool of N;
- ``+Nb`` / ``+Np`` are bonus and penalty dice: they cancel one for one (WR-B2) and the rest join the only dice
  group, which keeps its own count of the highest (bonus) or the lowest (penalty) dice (WR-02, WR-B13);
- a ``-`` term is subtracted, a number added.

A comparison is icepool's own operator between the two sides' dice (independent rolls).

Sizes: icepool's convolution costs about the product of its two operands' outcome counts, and its keep-highest
evaluation the dice times the sides times the totals it tracks. :func:`dice_odds` estimates that work for every term,
every sum and the comparison before any of it is done, and refuses an expression over :data:`MAX_WORK` (about a
second) with one sentence naming the part that is too large. A side has at most :data:`MAX_OUTCOMES` totals; a keep
pool's dice at most :data:`MAX_POOL_SIDES` sides (icepool walks a pool's faces recursively).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import icepool

from affray.core.dice import net_bonus
from affray.core.json import Json, JsonObject
from affray.core.notation import MAX_TEXT, DiceExpr, DiceGroup, NotationError, parse
from affray.odds.dist import prob_json

#: The comparisons, as icepool's operators on two dice.
COMPARISONS: dict[str, Callable[[icepool.Die, icepool.Die], icepool.Die]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
}
MAX_WORK = 2_000_000  # estimated steps of icepool's work for a whole expression: a second or two on a slow machine
MAX_OUTCOMES = 10_000  # totals of one side (or one term)
MAX_POOL_SIDES = 500  # sides of the dice in a keep-highest/lowest (or bonus/penalty) pool
_OPERATOR = re.compile(r"[<>=!]+")
_WORDS = ", ".join(COMPARISONS)


class ExpressionError(NotationError):
    """A dice expression that cannot be answered: one sentence for a person, naming the part that is wrong."""


@dataclass(frozen=True, slots=True)
class Side:
    """The exact distribution of one side's total: ``quantities`` ways out of ``denominator`` for each outcome,
    sorted by outcome (whole numbers, as icepool counts them)."""

    text: str
    outcomes: tuple[int, ...]
    quantities: tuple[int, ...]
    denominator: int

    @property
    def dist(self) -> dict[int, Fraction]:
        """``{total: probability}``, sorted by total."""
        return {k: Fraction(q, self.denominator) for k, q in zip(self.outcomes, self.quantities, strict=True)}

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(k * q for k, q in zip(self.outcomes, self.quantities, strict=True)), self.denominator)

    @property
    def variance(self) -> Fraction:
        second = Fraction(sum(k * k * q for k, q in zip(self.outcomes, self.quantities, strict=True)), self.denominator)
        return second - self.mean**2

    @property
    def sd(self) -> float:
        """The standard deviation (a square root: a float, not a fraction)."""
        return math.sqrt(self.variance)

    def rows(self) -> list[tuple[int, Fraction, Fraction, Fraction]]:
        """``(total, P(= total), P(>= total), P(<= total))`` for every total, in order."""
        out = []
        below, den = 0, self.denominator
        for k, q in zip(self.outcomes, self.quantities, strict=True):
            out.append((k, Fraction(q, den), Fraction(den - below, den), Fraction(below + q, den)))
            below += q
        return out


@dataclass(frozen=True, slots=True)
class DiceOdds:
    """The answer for an expression: its ``left`` side's distribution, and for a comparison the ``right`` side's and
    the exact ``probability`` that it holds."""

    text: str
    left: Side
    comparison: str | None = None
    right: Side | None = None
    probability: Fraction | None = None


# -- reading -----------------------------------------------------------------------------------------------------


def split(text: str) -> tuple[str, str | None, str | None]:
    """``(left, comparison, right)`` of ``text`` (``(text, None, None)`` without a comparison); an
    :class:`ExpressionError` for a comparison that is unknown, repeated or missing a side."""
    if len(text) > 2 * MAX_TEXT:
        raise ExpressionError(f"A dice expression is at most {2 * MAX_TEXT} characters (got {len(text)}).")
    found = list(_OPERATOR.finditer(text))
    if not found:
        return text, None, None
    if len(found) > 1:
        raise ExpressionError(
            f"'{text.strip()}' has {len(found)} comparisons ({', '.join(m[0] for m in found)}); "
            f"compare two sides once, like 3d6kh2 > 2d6+1."
        )
    op = found[0]
    if op[0] not in COMPARISONS:
        hint = " (== asks whether two totals are equal)" if op[0] == "=" else ""
        raise ExpressionError(f"'{op[0]}' in '{text.strip()}' is not a comparison{hint}; use one of {_WORDS}.")
    left, right = text[: op.start()], text[op.end() :]
    for side, part in (("left", left), ("right", right)):
        if not part.strip():
            raise ExpressionError(
                f"'{text.strip()}' has nothing on the {side} of '{op[0]}'; compare two sides, like 3d6kh2 > 2d6+1."
            )
    return left, op[0], right


def _read(part: str, side: str | None, text: str) -> DiceExpr:
    try:
        return parse(part.strip())
    except NotationError as exc:
        if side is None:
            raise ExpressionError(str(exc)) from None
        raise ExpressionError(f"The {side} side of '{text.strip()}': {exc}") from None


# -- the translation into icepool, and its cost ------------------------------------------------------------------


def _pool(group: DiceGroup, net: int) -> tuple[int, int | None, bool]:
    """``(dice thrown, dice kept or None for all, keep the lowest)`` of a group, bonus and penalty dice joined."""
    if net:
        return group.count + abs(net), group.count, net < 0
    keep = None if group.keep == group.count else group.keep
    return group.count, keep, group.keep_lowest


def term_text(group: DiceGroup, net: int = 0) -> str:
    """A term as it is written (``4d6kh3``, ``-1d4``, ``2d6+1b``)."""
    sign = "-" if group.sign < 0 else ""
    keep = f"{'kl' if group.keep_lowest else 'kh'}{group.keep}" if group.keep is not None else ""
    extra = f"+{abs(net)}{'b' if net > 0 else 'p'}" if net else ""
    return f"{sign}{group.count}d{group.sides}{keep}{extra}"


def _term_work(group: DiceGroup, net: int) -> int:
    """icepool's steps for one term: a sum of N dice halves and convolves (the last step pairs two halves'
    totals); a keep pool visits every face for every die with every kept total."""
    count, keep, _ = _pool(group, net)
    sides = group.sides
    if keep is None:
        return sides if count == 1 else (count * (sides - 1) // 2 + 1) ** 2
    return sides * count * (keep * (sides - 1) + 1)


def _totals(group: DiceGroup, net: int) -> int:
    """How many totals a term can show (an upper bound for its outcome count)."""
    count, keep, _ = _pool(group, net)
    return (count if keep is None else keep) * (group.sides - 1) + 1


def _estimate(expr: DiceExpr, side: str | None, text: str) -> tuple[int, list[tuple[int, str]]]:
    """The bound on the totals of ``expr`` and its parts' estimated work as ``(steps, what)``; an
    :class:`ExpressionError` for a term that is too large whatever the budget."""
    net = net_bonus(expr.bonus, expr.penalty)
    whole = text.strip()
    parts: list[tuple[int, str]] = []
    totals = 1
    for group in expr.groups:
        term = term_text(group, net)
        _, keep, _ = _pool(group, net)
        size = _totals(group, net)
        where = "" if term == whole else f" in '{whole}'"
        if keep is not None and group.sides > MAX_POOL_SIDES:
            raise ExpressionError(
                f"'{term}'{where} keeps dice of {group.sides:,} sides; a pool that keeps or drops "
                f"dice may have dice of at most {MAX_POOL_SIDES} sides."
            )
        if size > MAX_OUTCOMES:
            raise ExpressionError(
                f"'{term}'{where} has {size:,} possible totals; at most {MAX_OUTCOMES:,} are worked "
                f"out exactly (fewer dice or sides)."
            )
        parts.append((_term_work(group, net), f"'{term}'"))
        if totals > 1:
            parts.append((totals * size, f"adding '{term}' to the terms before it"))
        totals = totals + size - 1
    if totals > MAX_OUTCOMES:
        where = "" if expr.text == whole else f" (the {side} side of '{whole}')"
        raise ExpressionError(
            f"'{expr.text}'{where} has {totals:,} possible totals; at most {MAX_OUTCOMES:,} are "
            f"worked out exactly (fewer dice or sides)."
        )
    return totals, parts


def to_die(expr: DiceExpr) -> icepool.Die:
    """``expr`` as an icepool die (see the module docstring); sizes are not checked here (:func:`dice_odds` does)."""
    net = net_bonus(expr.bonus, expr.penalty)
    total: icepool.Die = icepool.Die([expr.modifier])
    for group in expr.groups:
        count, keep, lowest = _pool(group, net)
        base = icepool.d(group.sides)
        if keep is None:
            term = count @ base
        else:
            pool = base.pool(count)
            term = (pool.lowest(keep) if lowest else pool.highest(keep)).sum()
        total = total + term if group.sign > 0 else total - term
    return total


def _side(text: str, die: icepool.Die) -> Side:
    pairs = sorted((int(k), int(q)) for k, q in die.items() if q)
    return Side(text.strip(), tuple(k for k, _ in pairs), tuple(q for _, q in pairs), int(die.denominator()))


def dice_odds(text: str) -> DiceOdds:
    """The exact answer for ``text``: a side's distribution, or a comparison's probability with both sides'
    distributions. :class:`ExpressionError` (a :class:`~affray.core.notation.NotationError`) says what is wrong."""
    left_text, comparison, right_text = split(text)
    sides = [(left_text, "left" if comparison else None)] + ([(right_text, "right")] if right_text else [])
    exprs = [_read(part, side, text) for part, side in sides]
    parts: list[tuple[int, str]] = []
    totals = []
    for expr, (_, side) in zip(exprs, sides, strict=True):
        bound, costs = _estimate(expr, side, text)
        totals.append(bound)
        parts += costs
    if comparison:
        parts.append((totals[0] * totals[1], f"comparing the two sides ({totals[0]:,} x {totals[1]:,} totals)"))
    if sum(steps for steps, _ in parts) > MAX_WORK:
        steps, what = max(parts)
        raise ExpressionError(
            f"'{text.strip()}' is too large to work out exactly: {what} alone takes about "
            f"{steps:,} steps of icepool's work, and a whole expression at most {MAX_WORK:,} "
            f"(fewer dice or sides)."
        )
    try:
        dice = [to_die(expr) for expr in exprs]
    except RecursionError:  # the limits above keep icepool well inside Python's stack; a safety net
        raise ExpressionError(f"'{text.strip()}' is too deep for icepool's pool evaluation (fewer sides).") from None
    left = _side(left_text, dice[0])
    if comparison is None:
        return DiceOdds(text.strip(), left)
    holds = COMPARISONS[comparison](dice[0], dice[1])
    probability = Fraction(int(holds.quantity(True)), int(holds.denominator()))
    return DiceOdds(text.strip(), left, comparison, _side(str(right_text), dice[1]), probability)


# -- answers -----------------------------------------------------------------------------------------------------


def side_json(side: Side) -> JsonObject:
    """A side in machine form: ``expression``, ``mean`` and ``variance`` (``{"exact", "value"}``), ``sd`` (a float),
    ``distribution``: ``[{outcome, exact, value, at_least: {exact, value}, at_most: {exact, value}}]``."""
    rows: list[Json] = [
        {"outcome": k, **prob_json(p), "at_least": prob_json(ge), "at_most": prob_json(le)}
        for k, p, ge, le in side.rows()
    ]
    return {
        "expression": side.text,
        "mean": prob_json(side.mean),
        "variance": prob_json(side.variance),
        "sd": side.sd,
        "distribution": rows,
    }


def odds_json(odds: DiceOdds) -> JsonObject:
    """The answer in machine form (docs/odds.md, "Any dice expression"): a side (:func:`side_json`), or for a
    comparison ``{expression, comparison, probability: {exact, value}, left: side, right: side}``."""
    if odds.right is None or odds.probability is None or odds.comparison is None:
        return side_json(odds.left) | {"expression": odds.text}
    return {
        "expression": odds.text,
        "comparison": odds.comparison,
        "probability": prob_json(odds.probability),
        "left": side_json(odds.left),
        "right": side_json(odds.right),
    }


def plot_odds(odds: DiceOdds, out: str | Path) -> None:
    """A bar chart of the distribution (both sides', side by side, for a comparison, its probability in the title),
    the mean marked; PNG or SVG by the file's suffix."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from affray.sim.plots import _save  # puts matplotlib on its file-only backend (Agg) as the other plots

    fig, ax = plt.subplots(figsize=(8, 4.5))
    sides: Sequence[Side] = [odds.left] if odds.right is None else [odds.left, odds.right]
    width = 0.8 / len(sides)
    for i, (side, colour) in enumerate(zip(sides, ("#4477aa", "#ee6677"), strict=False)):
        shift = (i - (len(sides) - 1) / 2) * width
        ax.bar(
            [k + shift for k in side.outcomes],
            [100 * q / side.denominator for q in side.quantities],
            width=width,
            color=colour,
            label=f"{side.text}: mean {float(side.mean):.3g} (dashed), sd {side.sd:.3g}",
        )
        ax.axvline(float(side.mean), color="#222222" if len(sides) == 1 else colour, lw=1.2, ls="--", zorder=3)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("total")
    ax.set_ylabel("probability (%)")
    if odds.probability is not None:
        ax.set_title(f"P({odds.text}) = {_short(odds.probability)} ≈ {float(odds.probability):.4%}")
    else:
        ax.set_title(odds.text)
    ax.legend()
    _save(fig, out)


def _short(p: Fraction) -> str:
    text = f"{p.numerator}/{p.denominator}"
    return text if len(text) <= 30 else f"{float(p):.6g}"
