"""Events of Spellchrome (derived output for narration; see :mod:`affray.core.events`).

Each ``describe`` is a sentence a player reads at the table: names, never ids (``names`` may be a
:class:`~affray.core.narration.Story`, which also names the content: :func:`~affray.core.narration.term`), the
numbers a player needs, and no rule IDs (the events' ``why`` and ``trigger`` fields keep theirs for the log; the
sentences leave them out, :func:`told`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from affray.core.events import Event, counted
from affray.core.narration import listed, term

Square = tuple[int, int]

# "(SC-04)", "(SC-04, SC-B4)", "(SC-27 (e))": the rule IDs a field's text cites for the log
_RULE_IDS = re.compile(r"\s*\((?:[A-Z]{2}-[A-Z]?\d+[^()]*(?:\([a-e]\))?,?\s*)+\)")
# "(a) leaving melee at full speed": SC-27's lettered triggers
_TRIGGER = re.compile(r"^\(([a-e])\)\s*")
#: How each SC-27 trigger provokes, as the sentence says it.
TRIGGERS = {
    "a": "by leaving melee at full speed",
    "b": "by moving on past a melee-armed foe",
    "c": "with a bare-handed attack on a melee-armed foe",
    "d": "with a ranged attack in melee",
    "e": "by casting a spell in melee",
}
#: ``Defeated.how`` of a combatant a GM ruling takes out of the fight (docs/spellchrome.md, "GM rulings").
TAKEN_OUT = "taken out of the fight"


def told(text: str) -> str:
    """``text`` without the rule IDs it cites ("at 0 HP (SC-03)" -> "at 0 HP")."""
    return _RULE_IDS.sub("", text).strip()


def square(pos: Square | list[int]) -> str:
    """A square as a player reads it: (x, y)."""
    return f"({pos[0]}, {pos[1]})"


def trigger_words(trigger: str) -> str:
    """What an SC-27 trigger ("(a) leaving melee at full speed") reads as in a sentence."""
    found = _TRIGGER.match(trigger)
    if found is not None and found[1] in TRIGGERS:
        return TRIGGERS[found[1]]
    return f"by {told(trigger)}"


@dataclass(slots=True)
class InitiativeSet(Event):
    """The initiative order with each total. Rule: SC-16."""

    kind: ClassVar[str] = "initiative"
    order: list[str]
    totals: dict[str, int]

    def describe(self, names: Mapping[str, str]) -> str:
        return "Initiative: " + ", ".join(f"{names[a]} {self.totals[a]}" for a in self.order) + "."


@dataclass(slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    actor: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]}'s turn."


_MOVES = {"move": "moves", "withdraw": "withdraws", "run": "runs", "tumble": "tumbles"}


@dataclass(slots=True)
class Moved(Event):
    """A move along ``path`` (excluding the start). ``how``: move, withdraw, run, step, tumble, settle."""

    kind: ClassVar[str] = "moved"
    actor: str
    path: list[Square]
    how: str

    def describe(self, names: Mapping[str, str]) -> str:
        who = names[self.actor]
        if not self.path:
            return f"{who} stays where they are."
        end = square(self.path[-1])
        if self.how == "step":
            return f"{who} takes a 5-foot step to {end}."
        if self.how == "settle":
            return f"{who} goes back to {end}, the nearest square they may stop on."
        verb = _MOVES.get(self.how, "moves")
        return f"{who} {verb} {counted(len(self.path), 'square')} to {end}."


@dataclass(slots=True)
class Provoked(Event):
    """An action provokes attacks of opportunity (SC-27): ``trigger`` names which of (a)..(e)."""

    kind: ClassVar[str] = "provoked"
    actor: str
    trigger: str
    foes: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        foes = listed([names[f] for f in self.foes])
        return f"{names[self.actor]} provokes an attack of opportunity from {foes} {trigger_words(self.trigger)}."


@dataclass(slots=True)
class OpportunityDeclined(Event):
    kind: ClassVar[str] = "opportunity_declined"
    actor: str
    target: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} lets {names[self.target]} go."


@dataclass(slots=True)
class Attacked(Event):
    """An attack roll against Defense (SC-B1, SRD-standard assumption); ``opportunity`` marks an AoO."""

    kind: ClassVar[str] = "attacked"
    attacker: str
    target: str
    weapon: str
    total: int
    defense: int
    hit: bool
    opportunity: bool = False

    def describe(self, names: Mapping[str, str]) -> str:
        verb = "hits" if self.hit else "misses"
        weapon = term(names, self.weapon)
        who = f"{names[self.attacker]} {verb} {names[self.target]}"
        if self.opportunity:
            return f"{who} with an attack of opportunity ({weapon}, {self.total} against Defense {self.defense})."
        return f"{who} with the {weapon} ({self.total} against Defense {self.defense})."


@dataclass(slots=True)
class Damaged(Event):
    """Damage taken (SC-07, SC-B6): ``reduced`` by armour, ``absorbed`` by EX-HP, ``to_hp`` off hit points."""

    kind: ClassVar[str] = "damaged"
    target: str
    amount: int
    reduced: int
    absorbed: int
    to_hp: int
    hp: int
    ex_hp: int
    status: str

    def describe(self, names: Mapping[str, str]) -> str:
        parts = []
        if self.reduced:
            parts.append(f"{self.reduced} stopped by armour")
        if self.absorbed:
            parts.append(f"{self.absorbed} absorbed by EX-HP")
        how = f" ({', '.join(parts)})" if parts else ""
        state = "" if self.status == "normal" else f", {self.status}"
        return f"{names[self.target]} takes {self.amount} damage{how}: {self.hp} HP left{state}."


@dataclass(slots=True)
class Healed(Event):
    kind: ClassVar[str] = "healed"
    actor: str
    target: str
    amount: int
    hp: int
    how: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.target]} regains {self.amount} HP from {self.how}: {self.hp} HP now."


_STATUS = {
    "normal": "is back on their feet",
    "unconscious": "falls unconscious",
    "dying": "is dying",
    "stable": "is stable",
    "dead": "is dead",
    "surrendered": "gives up the fight",
}


@dataclass(slots=True)
class StatusChanged(Event):
    """A change of hit-point state (SC-02..SC-06, SC-11): unconscious, dying, stable, normal, dead…"""

    kind: ClassVar[str] = "status"
    actor: str
    status: str
    why: str

    def describe(self, names: Mapping[str, str]) -> str:
        why = told(self.why)
        said = _STATUS.get(self.status, f"is {self.status}")
        return f"{names[self.actor]} {said}" + (f" ({why})." if why and self.status != "surrendered" else ".")


@dataclass(slots=True)
class SpellCast(Event):
    kind: ClassVar[str] = "spell_cast"
    actor: str
    spell: str
    target: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} casts {self.spell} on {names[self.target]}."


_CHECKS = {
    "Heal check (first aid)": "Heal check for first aid",
    "Heal check (treat injury)": "Heal check to treat an injury",
    "Concentration to cast in melee": "Concentration check to cast in melee",
    "Acrobatics and Tumbling": "Acrobatics and Tumbling check",
}


@dataclass(slots=True)
class CheckMade(Event):
    """A skill check or save against a DC (SC-06, SC-12, SC-18, SC-24, SC-27)."""

    kind: ClassVar[str] = "check"
    actor: str
    check: str
    total: int
    dc: int
    success: bool

    def describe(self, names: Mapping[str, str]) -> str:
        verb = "makes" if self.success else "fails"
        check = _CHECKS.get(self.check) or self.check[:1].upper() + self.check[1:]
        return f"{names[self.actor]} {verb} the {check} ({self.total} against DC {self.dc})."


@dataclass(slots=True)
class WeaponDrawn(Event):
    kind: ClassVar[str] = "weapon_drawn"
    actor: str
    weapon: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} switches to the {self.weapon}."


@dataclass(slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    actor: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} ends their turn."


@dataclass(slots=True)
class FightDecided(Event):
    """The last blow has fallen with someone dying: the rounds go on until each of ``dying`` is dead or stable
    (SC-04: "This continues until the character dies or becomes stable"); ``Ended`` follows then. ``winner`` is a
    side; the narrator names its combatants (:mod:`.narration`)."""

    kind: ClassVar[str] = "fight_decided"
    winner: str | None
    reason: str
    dying: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        return self.told(f"{self.winner} wins" if self.winner else "nobody wins", names)

    def told(self, verdict: str, names: Mapping[str, str]) -> str:
        """The sentence with the ``verdict`` ("the bandits win") the caller words."""
        bleeding = listed([names[a] for a in self.dying])
        verb = "bleeds" if len(self.dying) == 1 else "bleed"
        return (
            f"The fight is decided: {verdict} ({told(self.reason)}). {bleeding} {verb} on until dead or stable; "
            f"no more blows are struck."
        )
