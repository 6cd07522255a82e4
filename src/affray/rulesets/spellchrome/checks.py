"""Rolling for Spellchrome: every roll is logged as a ``Rolled`` event, then judged by a pure mechanic.

Rules: X-1 (log natural values and modifiers separately), SC-12/SC-13 (saves), SC-B5 (the DC 22
Fortitude save), SC-06/SC-24/SC-27 (skill checks: Heal, Acrobatics and Tumbling, Concentration).
"""

from __future__ import annotations

from affray.core.dice import Roll, roll_die
from affray.core.events import Event, Rolled
from affray.core.notation import roll_notation
from affray.core.rng import RNG
from affray.rulesets.spellchrome.content_model import SKILL_ABILITY
from affray.rulesets.spellchrome.events import CheckMade
from affray.rulesets.spellchrome.mechanics import D20, check_succeeds, save_succeeds
from affray.rulesets.spellchrome.state import Combatant

SAVE_ABILITY = {"fortitude": "constitution", "reflex": "dexterity", "will": "wisdom"}  # SC-12
SAVE_INDEX = {"fortitude": 0, "reflex": 1, "will": 2}


def roll(rng: RNG, actor: str, purpose: str, sides: int, modifier: int, events: list[Event]) -> Roll:
    """Roll one die for ``actor``, log it, and return the roll."""
    result = roll_die(rng, sides, modifier)
    events.append(Rolled(actor, purpose, result))
    return result


def roll_dice(rng: RNG, actor: str, purpose: str, notation: str, events: list[Event]) -> Roll:
    """Roll a notation such as ``1d8+2`` for ``actor`` and log it."""
    result = roll_notation(rng, notation)
    events.append(Rolled(actor, purpose, result))
    return result


def save_bonus(c: Combatant, kind: str) -> int:
    """Base save by Ancient Sign and level + the ability modifier (SC-12)."""
    return c.saves[SAVE_INDEX[kind]] + c.mods[SAVE_ABILITY[kind]]


def saving_throw(rng: RNG, c: Combatant, kind: str, dc: int, events: list[Event], purpose: str = "",
                 naturals: bool = True) -> bool:
    """A saving throw; ``naturals``: natural 1 fails and 20 succeeds (SC-13)."""
    bonus = save_bonus(c, kind)
    r = roll(rng, c.id, purpose or f"{kind} save", D20, bonus, events)
    natural = r.total - bonus
    ok = save_succeeds(natural, bonus, dc) if naturals else natural + bonus >= dc
    events.append(CheckMade(c.id, purpose or f"{kind} save", r.total, dc, ok))
    return ok


def skill_bonus(c: Combatant, skill: str) -> int:
    """The sheet's skill bonus, or the key ability modifier untrained."""
    return c.skills.get(skill, c.mods[SKILL_ABILITY[skill]])


def skill_check(rng: RNG, c: Combatant, skill: str, dc: int, events: list[Event], purpose: str = "") -> bool:
    bonus = skill_bonus(c, skill)
    r = roll(rng, c.id, purpose or skill, D20, bonus, events)
    ok = check_succeeds(r.total - bonus, bonus, dc)
    events.append(CheckMade(c.id, purpose or skill, r.total, dc, ok))
    return ok
