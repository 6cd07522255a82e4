"""How fights end, in the words every ruleset shares (shared plumbing in core, rules in rulesets).

- :func:`last_side_standing`: the fight ends when at most one side still has someone in it;
- :func:`round_limit_draw`: the engine's guard, an unfinished fight past its limit is a draw.

Each ruleset decides who is still *in* (able to act, not down, not fled) and when to ask; these functions only say
whether that ends the fight and how the :class:`~affray.core.engine.Outcome` reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from affray.core.engine import Outcome

NOBODY = "nobody is left standing"


def last_side_standing(
    sides_in: Iterable[str],
    *,
    foes_out: str = "every foe is down",
    escaped: Sequence[str] = (),
    gave_up: Sequence[str] = (),
) -> Outcome | None:
    """``None`` while two or more sides are still in the fight; else the winner (``None`` when no side is left).

    ``foes_out`` words how the foes left (``"every foe is down"``); ``escaped`` and ``gave_up`` name foes who left
    by fleeing or by surrender, which the reason then says.
    """
    sides = set(sides_in)
    if len(sides) > 1:
        return None
    winner = next(iter(sides), None)
    if winner is None:
        return Outcome(None, NOBODY)
    if escaped:
        return Outcome(winner, f"{', '.join(escaped)} escaped")
    if gave_up:
        return Outcome(winner, f"{foes_out} or gave up ({', '.join(gave_up)})")
    return Outcome(winner, foes_out)


def round_limit_draw(round_: int, limit: int, *, unit: str = "round") -> Outcome | None:
    """A draw once ``round_`` passes ``limit`` (``unit``: ``round``, ``vignette``...); ``None`` before."""
    if round_ <= limit:
        return None
    return Outcome(None, f"{unit} limit of {limit} reached")
