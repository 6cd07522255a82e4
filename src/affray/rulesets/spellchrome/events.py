"""Events of Spellchrome (derived output for narration; see :mod:`affray.core.events`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from affray.core.events import Event, counted

Square = tuple[int, int]


@dataclass(slots=True)
class InitiativeSet(Event):
    """The initiative order with each total. Rule: SC-16."""

    kind: ClassVar[str] = "initiative"
    order: list[str]
    totals: dict[str, int]

    def describe(self, names: Mapping[str, str]) -> str:
        return "Initiative: " + ", ".join(f"{names[a]} {self.totals[a]}" for a in self.order)


@dataclass(slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    actor: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]}'s turn."


@dataclass(slots=True)
class Moved(Event):
    """A move along ``path`` (excluding the start). ``how``: move, withdraw, run, step, tumble, settle."""

    kind: ClassVar[str] = "moved"
    actor: str
    path: list[Square]
    how: str

    def describe(self, names: Mapping[str, str]) -> str:
        end = self.path[-1] if self.path else None
        return f"{names[self.actor]} {self.how}s to {end} ({counted(len(self.path), 'square')})"


@dataclass(slots=True)
class Provoked(Event):
    """An action provokes attacks of opportunity (SC-27): ``trigger`` names which of (a)..(e)."""

    kind: ClassVar[str] = "provoked"
    actor: str
    trigger: str
    foes: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} provokes ({self.trigger}) from {', '.join(names[f] for f in self.foes)}"


@dataclass(slots=True)
class OpportunityDeclined(Event):
    kind: ClassVar[str] = "opportunity_declined"
    actor: str
    target: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} lets {names[self.target]} go"


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
        what = "attack of opportunity" if self.opportunity else self.weapon
        verb = "hits" if self.hit else "misses"
        return f"{names[self.attacker]} {verb} {names[self.target]} ({what}: {self.total} vs Defense {self.defense})"


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
        parts = [f"{self.amount} damage"]
        if self.reduced:
            parts.append(f"{self.reduced} reduced")
        if self.absorbed:
            parts.append(f"{self.absorbed} absorbed by EX-HP")
        return f"{names[self.target]} takes {', '.join(parts)}: HP {self.hp} ({self.status})"


@dataclass(slots=True)
class Healed(Event):
    kind: ClassVar[str] = "healed"
    actor: str
    target: str
    amount: int
    hp: int
    how: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.target]} regains {self.amount} HP ({self.how}), now {self.hp}"


@dataclass(slots=True)
class StatusChanged(Event):
    """A change of hit-point state (SC-02..SC-06, SC-11): unconscious, dying, stable, normal, dead…"""

    kind: ClassVar[str] = "status"
    actor: str
    status: str
    why: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} is {self.status} ({self.why})"


@dataclass(slots=True)
class SpellCast(Event):
    kind: ClassVar[str] = "spell_cast"
    actor: str
    spell: str
    target: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} casts {self.spell} on {names[self.target]}"


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
        result = "success" if self.success else "failure"
        return f"{names[self.actor]}'s {self.check}: {self.total} vs DC {self.dc}: {result}"


@dataclass(slots=True)
class WeaponDrawn(Event):
    kind: ClassVar[str] = "weapon_drawn"
    actor: str
    weapon: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} takes up {self.weapon}"


@dataclass(slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    actor: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} ends its turn."


@dataclass(slots=True)
class FightDecided(Event):
    """The last blow has fallen with someone dying: the rounds go on until each of ``dying`` is dead or stable
    (SC-04: "This continues until the character dies or becomes stable"); ``Ended`` follows then."""

    kind: ClassVar[str] = "fight_decided"
    winner: str | None
    reason: str
    dying: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        who = f"{self.winner} wins" if self.winner else "Nobody wins"
        bleeding = ", ".join(names[a] for a in self.dying)
        return f"The fight is over: {who} ({self.reason}). {bleeding} bleed on until dead or stable (SC-04)."
