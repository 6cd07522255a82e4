"""The exact distribution of a dice-notation expression (``2d6+1d4-1``, ``4d6kh3``, ``3d6+1b``), the same
expression :func:`affray.core.notation.roll_expr` rolls in play.

Groups without keep are convolved face by face; keep-highest/lowest groups (and bonus/penalty dice,
which become a keep, Rule: WR-B2) come from icepool's pool algorithms (:func:`affray.odds.dist.pool_sum`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from affray.core.notation import DiceExpr, parse
from affray.odds.dist import add, pool_sum

MAX_OUTCOMES = 10_000  # dice x sides over the groups: 100d100 enumerates in well under a second
MAX_KEPT_POOL = 40  # dice in a keep-highest/lowest (or bonus/penalty) pool, enumerated by icepool


@cache
def _plain(count: int, sides: int) -> dict[int, Fraction]:
    """The sum of ``count`` d``sides``: whole-number ways by a sliding window (``count`` passes over the range,
    so 100d100 takes a fraction of a second), divided once by ``sides ** count``."""
    ways = [1]  # ways[i]: the number of ways to total (dice so far) + i
    for _ in range(count):
        prefix = [0]
        for w in ways:
            prefix.append(prefix[-1] + w)
        size = len(ways)
        ways = [prefix[min(i + 1, size)] - prefix[max(0, i - sides + 1)] for i in range(size + sides - 1)]
    total = sides**count
    return {count + i: Fraction(w, total) for i, w in enumerate(ways) if w}


def expr_dist(expr: DiceExpr) -> dict[int, Fraction]:
    """The distribution of the total of ``expr`` (modifier included); ``ValueError`` if it is too large."""
    net = expr.bonus - expr.penalty
    out: dict[int, Fraction] = {expr.modifier: Fraction(1)}
    size = sum(g.count * g.sides for g in expr.groups)
    if size > MAX_OUTCOMES or any((g.keep is not None or net) and g.count > MAX_KEPT_POOL for g in expr.groups):
        raise ValueError(
            f"'{expr.text}' has too many outcomes to enumerate exactly: at most {MAX_OUTCOMES:,} for "
            f"dice x sides over all groups, {MAX_KEPT_POOL} dice in a keep or bonus pool"
        )
    for group in expr.groups:
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
