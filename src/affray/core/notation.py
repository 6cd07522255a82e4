"""A small dice-notation language: ``3d6+1b``, ``1d13+2``, ``4d6kh3``, ``2d6+1d4-1``.

Grammar (whitespace ignored, case-insensitive)::

    expr   := ["+"|"-"] term (("+"|"-") term)*
    term   := dice | number ("b"|"p")?
    dice   := [count] "d" sides [("kh"|"kl") keep]

``Nb`` adds N bonus dice and ``Np`` N penalty dice (WaRP, Rules: WR-02, WR-B2); they need exactly one
dice group without keep, and are written with a plus sign. Every term with dice has at least one: ``0d6``, ``+0b``
and ``4d6kh0`` are refused (a pool of no dice totals 0 whatever is rolled, which is a typo, never a roll). A bad
expression raises
:class:`NotationError` whose message says what was expected, suitable for a person.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from affray.core.dice import Die, Roll, net_bonus, roll_pool
from affray.core.rng import RNG

EXAMPLES = "like 3d6+1b, 1d13+2, 4d6kh3 or 2d6+1d4-1"
_TERM = re.compile(
    r"(?P<sign>[+-]?)(?:(?P<count>\d*)d(?P<sides>\d+)(?:(?P<keep>k[hl])(?P<keepn>\d+))?"
    r"|(?P<num>\d+)(?P<bp>[bp]?))"
)
MAX_DICE = 1000  # in a group and in all (bonus and penalty dice included)
MAX_TEXT = 200
MAX_SIDES = 1_000_000


class NotationError(ValueError):
    """Dice notation that cannot be read; the message is one sentence for a person."""


@dataclass(frozen=True, slots=True)
class DiceGroup:
    count: int
    sides: int
    keep: int | None
    keep_lowest: bool
    sign: int


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A parsed expression: dice groups, a flat modifier, and WaRP bonus/penalty dice."""

    text: str
    groups: tuple[DiceGroup, ...]
    modifier: int
    bonus: int
    penalty: int


def _fail(text: str, detail: str) -> NotationError:
    return NotationError(f"'{text}' is not dice notation: {detail}; expected something {EXAMPLES}.")


def _group(text: str, m: re.Match[str], sign: int) -> DiceGroup:
    count = int(m["count"]) if m["count"] else 1
    sides = int(m["sides"])
    if count == 0:
        raise _fail(text, f"'{_term(m)}' rolls no dice (a dice term rolls at least 1 die)")
    if not 1 <= sides <= MAX_SIDES:
        raise _fail(text, f"a die needs between 1 and {MAX_SIDES} sides")
    if count > MAX_DICE:
        raise _fail(text, f"at most {MAX_DICE} dice in a group")
    keep = int(m["keepn"]) if m["keep"] else None
    if keep == 0:
        raise _fail(text, f"'{_term(m)}' keeps no dice (keep at least 1)")
    if keep is not None and keep > count:
        raise _fail(text, f"cannot keep {keep} of {count} dice")
    return DiceGroup(count, sides, keep, m["keep"] == "kl", sign)


def _term(m: re.Match[str]) -> str:
    """The term ``m`` matched, without its sign (as the person wrote it, lower-cased)."""
    return m.group(0).lstrip("+-")


def parse(text: str) -> DiceExpr:
    """Parse ``text`` into a :class:`DiceExpr`, or raise :class:`NotationError`."""
    if len(text) > MAX_TEXT:
        raise NotationError(
            f"dice notation is at most {MAX_TEXT} characters (got {len(text)}); expected something {EXAMPLES}."
        )
    source = re.sub(r"\s+", "", text).lower()
    if not source:
        raise _fail(text, "it is empty")
    groups: list[DiceGroup] = []
    modifier = bonus = penalty = 0
    pos = 0
    while pos < len(source):
        m = _TERM.match(source, pos)
        if m is None or m.end() == pos or (pos > 0 and not m["sign"]):
            raise _fail(text, f"unexpected '{source[pos:]}' at position {pos + 1}")
        sign = -1 if m["sign"] == "-" else 1
        if m["sides"] is not None:
            groups.append(_group(text, m, sign))
        elif m["bp"]:
            if sign < 0:
                raise _fail(text, "bonus and penalty dice are written with a plus sign (+1b, +2p)")
            if int(m["num"]) == 0:
                raise _fail(text, f"'{_term(m)}' adds no dice (at least +1{m['bp']})")
            if m["bp"] == "b":
                bonus += int(m["num"])
            else:
                penalty += int(m["num"])
        else:
            modifier += sign * int(m["num"])
        pos = m.end()
    if sum(g.count for g in groups) + bonus + penalty > MAX_DICE:
        raise _fail(text, f"at most {MAX_DICE} dice in all")
    if (bonus or penalty) and (len(groups) != 1 or groups[0].keep is not None or groups[0].sign < 0):
        raise _fail(text, "bonus and penalty dice need exactly one dice group without keep")
    return DiceExpr(text.strip(), tuple(groups), modifier, bonus, penalty)


def roll_expr(rng: RNG, expr: DiceExpr) -> Roll:
    """Roll a parsed expression; bonus and penalty dice cancel one for one (Rule: WR-B2)."""
    dice: list[Die] = []
    total = expr.modifier
    net = net_bonus(expr.bonus, expr.penalty)
    for group in expr.groups:
        count, keep, lowest = group.count, group.keep, group.keep_lowest
        if net:
            count, keep, lowest = group.count + abs(net), group.count, net < 0
        part = roll_pool(rng, count, group.sides, keep=keep, keep_lowest=lowest)
        dice.extend(part.dice)
        total += group.sign * part.total
    return Roll(expr.text, tuple(dice), expr.modifier, total)


def roll_notation(rng: RNG, text: str) -> Roll:
    """Parse and roll ``text`` in one call."""
    return roll_expr(rng, parse(text))
