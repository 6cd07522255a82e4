"""Dice pools: dN for any N, keep highest/lowest, WaRP bonus and penalty dice.

Every roll returns a :class:`Roll` that records the natural dice (with their draw indices), which were
kept, the modifier and the total, so it can become a ``Rolled`` event and be re-derived by ``verify``.

Rules: X-1 (dice, pools, logging natural values and modifiers separately), WR-01/WR-02 (d6 pools,
bonus die drops the lowest, penalty die drops the highest), WR-B2 (bonus and penalty cancel one for one),
WR-B13 (a bonus die is not a full die).
"""

from __future__ import annotations

from dataclasses import dataclass

from affray.core.json import JsonObject
from affray.core.rng import RNG


@dataclass(frozen=True, slots=True)
class Die:
    """One natural die: its size, the face it showed, whether it counts, and the RNG draw it came from."""

    sides: int
    value: int
    kept: bool
    draw: int

    def to_dict(self) -> JsonObject:
        return {"sides": self.sides, "value": self.value, "kept": self.kept, "draw": self.draw}


@dataclass(frozen=True, slots=True)
class Roll:
    """A finished roll: ``total = sum(kept dice, signed per group) + modifier``."""

    notation: str
    dice: tuple[Die, ...]
    modifier: int
    total: int

    @property
    def natural(self) -> int:
        """The sum of the kept dice before the modifier."""
        return self.total - self.modifier

    def to_dict(self) -> JsonObject:
        return {
            "notation": self.notation,
            "dice": [d.to_dict() for d in self.dice],
            "modifier": self.modifier,
            "total": self.total,
        }


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"{value}" if value < 0 else "")


def roll_die(rng: RNG, sides: int, modifier: int = 0, notation: str | None = None) -> Roll:
    """Roll one ``d{sides}`` and add ``modifier``. The hot path of most rules."""
    draw = rng.index
    value = rng.die(sides)
    text = notation if notation is not None else f"1d{sides}{_signed(modifier)}"
    return Roll(text, (Die(sides, value, True, draw),), modifier, value + modifier)


def _keep_flags(values: list[int], keep: int, highest: bool) -> list[bool]:
    """Which of ``values`` are kept when keeping ``keep`` of them; ties drop the later die."""
    order = sorted(range(len(values)), key=lambda i: (-values[i] if highest else values[i], i))
    chosen = set(order[:keep])
    return [i in chosen for i in range(len(values))]


def roll_pool(
    rng: RNG,
    count: int,
    sides: int,
    *,
    keep: int | None = None,
    keep_lowest: bool = False,
    modifier: int = 0,
    notation: str | None = None,
) -> Roll:
    """Roll ``count`` d``sides``, keep the ``keep`` highest (or lowest), add ``modifier``.

    ``keep=None`` keeps every die. ``count`` may be 0 (a pool of no dice totals the modifier).
    """
    if count < 0 or sides < 1:
        raise ValueError(f"a pool needs a count of 0 or more and at least 1 side, got {count}d{sides}")
    keep_n = count if keep is None else max(0, min(keep, count))
    draws = [rng.index + i for i in range(count)]
    values = [rng.die(sides) for _ in range(count)]
    flags = _keep_flags(values, keep_n, highest=not keep_lowest) if keep_n < count else [True] * count
    dice = tuple(Die(sides, v, k, d) for v, k, d in zip(values, flags, draws, strict=True))
    total = sum(v for v, k in zip(values, flags, strict=True) if k) + modifier
    if notation is None:
        suffix = "" if keep_n == count else f"{'kl' if keep_lowest else 'kh'}{keep_n}"
        notation = f"{count}d{sides}{suffix}{_signed(modifier)}"
    return Roll(notation, dice, modifier, total)


def net_bonus(bonus: int, penalty: int) -> int:
    """Bonus and penalty dice cancel one for one (Rule: WR-B2); positive means bonus dice remain."""
    return bonus - penalty
