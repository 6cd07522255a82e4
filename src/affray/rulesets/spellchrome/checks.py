"""Rolling for Spellchrome: every roll is logged as a ``Rolled`` event, then judged by a pure mechanic.

Rules: X-1 (log natural values and modifiers separately), SC-12/SC-13 (saves), SC-B5 (the DC 22
Fortitude save), SC-06/SC-24/SC-27 (skill checks: Heal, Acrobatics and Tumbling, Concentration).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from functools import lru_cache

from affray.core.dice import roll_die
from affray.core.events import Event, Rolled
from affray.core.journal import QuietJournal
from affray.core.notation import DiceExpr, parse, roll_expr
from affray.core.rng import RNG
from affray.rulesets.spellchrome.content_model import SKILL_ABILITY
from affray.rulesets.spellchrome.events import CheckMade
from affray.rulesets.spellchrome.mechanics import D20, check_succeeds, save_succeeds
from affray.rulesets.spellchrome.state import Combatant

#: Where a step's events go: a :class:`~affray.core.journal.Journal` (a quiet one drops them) or a plain list. Typed
#: as a mutable sequence, not a list, so that compiled code (mypyc's optional build, bench/mypyc_build.py) calls the
#: journal's own ``append``, which a quiet journal overrides, instead of appending to the list underneath.
Events = MutableSequence[Event]

SAVE_ABILITY = {"fortitude": "constitution", "reflex": "dexterity", "will": "wisdom"}  # SC-12
SAVE_INDEX = {"fortitude": 0, "reflex": 1, "will": 2}


def loud(events: Events) -> bool:
    """Whether the step's journal keeps what it is given (a plain list or a loud :class:`Journal` does). A quiet one
    drops it, so the rules skip building events and dice records for it (a quiet journal: the same dice either way)."""
    return not isinstance(events, QuietJournal)


def roll(rng: RNG, actor: str, purpose: str, sides: int, modifier: int, events: Events) -> int:
    """Roll one die for ``actor``, log it (a loud journal), and return the total."""
    if isinstance(events, QuietJournal):  # not loud(events), inline: every attack roll asks
        return rng.die(sides) + modifier
    result = roll_die(rng, sides, modifier)
    events.append(Rolled(actor, purpose, result))
    return result.total


@lru_cache(maxsize=512)
def _expr(notation: str) -> tuple[DiceExpr, bool]:
    """A notation parsed once (the few weapon and spell notations of a fight come back at every blow), and whether
    its dice are plain: no keep, no bonus or penalty dice."""
    expr = parse(notation)
    return expr, not (expr.bonus or expr.penalty or any(g.keep is not None for g in expr.groups))


def roll_dice(rng: RNG, actor: str, purpose: str, notation: str, events: Events) -> int:
    """Roll a notation such as ``1d8+2`` for ``actor``, log it (a loud journal), and return the total. Quiet, plain
    dice groups draw ``rng.die`` in the order :func:`~affray.core.notation.roll_expr` does, without the records."""
    expr, plain = _expr(notation)
    if loud(events):
        result = roll_expr(rng, expr)
        events.append(Rolled(actor, purpose, result))
        return result.total
    if not plain:
        return roll_expr(rng, expr).total
    total = expr.modifier
    die = rng.die
    for g in expr.groups:
        sides, rolled = g.sides, 0
        for _ in range(g.count):  # a plain loop, not a generator: every blow's damage rolls
            rolled += die(sides)
        total += g.sign * rolled
    return total


def save_bonus(c: Combatant, kind: str) -> int:
    """Base save by Ancient Sign and level + the ability modifier (SC-12)."""
    return c.saves[SAVE_INDEX[kind]] + c.mods[SAVE_ABILITY[kind]]


def saving_throw(
    rng: RNG, c: Combatant, kind: str, dc: int, events: Events, purpose: str = "", naturals: bool = True
) -> bool:
    """A saving throw; ``naturals``: natural 1 fails and 20 succeeds (SC-13)."""
    bonus = save_bonus(c, kind)
    total = roll(rng, c.id, purpose or f"{kind} save", D20, bonus, events)
    natural = total - bonus
    ok = save_succeeds(natural, bonus, dc) if naturals else natural + bonus >= dc
    if loud(events):
        events.append(CheckMade(c.id, purpose or f"{kind} save", total, dc, ok))
    return ok


def skill_bonus(c: Combatant, skill: str) -> int:
    """The sheet's skill bonus, or the key ability modifier untrained."""
    return c.skills.get(skill, c.mods[SKILL_ABILITY[skill]])


def skill_check(rng: RNG, c: Combatant, skill: str, dc: int, events: Events, purpose: str = "") -> bool:
    bonus = skill_bonus(c, skill)
    total = roll(rng, c.id, purpose or skill, D20, bonus, events)
    ok = check_succeeds(total - bonus, bonus, dc)
    if loud(events):
        events.append(CheckMade(c.id, purpose or skill, total, dc, ok))
    return ok
