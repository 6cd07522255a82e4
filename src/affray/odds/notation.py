"""The exact distribution of a dice-notation expression (``2d6+1d4-1``, ``4d6kh3``, ``3d6+1b``), the same
expression :func:`affray.core.notation.roll_expr` rolls in play.

Groups without keep are convolved face by face; keep-highest/lowest groups (and WaRP bonus/penalty dice,
which become a keep, Rule: WR-B2) come from icepool's pool algorithms (:func:`affray.odds.dist.pool_sum`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from affray.core.notation import DiceExpr, parse
from affray.odds.dist import add, die, pool_sum

MAX_OUTCOMES = 100_000


@cache
def _plain(count: int, sides: int) -> dict[int, Fraction]:
    """The sum of ``count`` d``sides``, by repeated doubling of convolutions."""
    out: dict[int, Fraction] = {0: Fraction(1)}
    base: dict[int, Fraction] = dict(die(sides))
    while count:
        if count & 1:
            out = add(out, base)
        count >>= 1
        if count:
            base = add(base, base)
    return out


def expr_dist(expr: DiceExpr) -> dict[int, Fraction]:
    """The distribution of the total of ``expr`` (modifier included); ``ValueError`` if it is too large."""
    net = expr.bonus - expr.penalty
    out: dict[int, Fraction] = {expr.modifier: Fraction(1)}
    for group in expr.groups:
        if group.count * group.sides > MAX_OUTCOMES:
            raise ValueError(f"'{expr.text}' has too many outcomes to enumerate exactly")
        count, keep, lowest = group.count, group.keep, group.keep_lowest
        if net:
            count, keep, lowest = group.count + abs(net), group.count, net < 0
        part = _plain(count, group.sides) if keep is None else pool_sum(count, group.sides, keep, lowest)
        signed = part if group.sign > 0 else {-k: p for k, p in part.items()}
        out = add(out, signed)
    return out


def notation_dist(text: str) -> dict[int, Fraction]:
    """:func:`expr_dist` of ``text`` (``NotationError`` for bad notation)."""
    return expr_dist(parse(text))
