"""Events of WaRP (derived output for narration; see :mod:`affray.core.events`).

Two kinds of event are private: a GM character's gestalt roll (only the GM sees it until the result,
WR-35) and the hit points left on a GM character after a wound (GM-only stats); others see a redacted
form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from affray.core.events import Event, Rolled

GM_ONLY = frozenset({"gm"})


@dataclass(slots=True)
class PoolRolled(Rolled):
    """A trait roll with the reasons for its bonus and penalty dice. Rules: WR-01, WR-02, WR-B2.

    ``secret`` rolls (the GM's gestalt dice) are visible to the GM only.
    """

    trait: str = ""
    bonus: list[str] = field(default_factory=list)
    penalty: list[str] = field(default_factory=list)
    secret: bool = False

    def audience(self) -> frozenset[str] | None:
        return GM_ONLY if self.secret else None

    def redacted(self) -> dict[str, Any]:
        return {"type": "hidden", "actor": self.actor, "purpose": self.purpose}

    def lead(self, names: Mapping[str, str]) -> str:
        extras = [f"+{r}" for r in self.bonus] + [f"-{r}" for r in self.penalty]
        trait = f" with {self.trait}" if self.trait else ""
        return f"{Rolled.lead(self, names)}{trait}" + (f" ({', '.join(extras)})" if extras else "")


@dataclass(slots=True)
class InitiativeSet(Event):
    """The acting order, highest first (WR-05, WR-B8)."""

    kind: ClassVar[str] = "initiative"
    order: list[str]
    rolls: dict[str, int]

    def describe(self, names: Mapping[str, str]) -> str:
        return "Order: " + ", ".join(f"{names[a]} ({self.rolls[a]})" if a in self.rolls else names[a]
                                     for a in self.order)


@dataclass(slots=True)
class Acted(Event):
    """A turn action without dice: hold, wait, take cover, desperate defense, stand up, pick up, pass."""

    kind: ClassVar[str] = "acted"
    actor: str
    what: str
    text: str = ""

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} {self.what}" + (f": {self.text}" if self.text else "")


@dataclass(slots=True)
class Moved(Event):
    """A move along the line, in metres (WR-07)."""

    kind: ClassVar[str] = "moved"
    actor: str
    start: float
    end: float
    pace: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} moves ({self.pace}) from {self.start:g} m to {self.end:g} m"


@dataclass(slots=True)
class AttackDeclared(Event):
    kind: ClassVar[str] = "attack"
    attacker: str
    target: str
    weapon: str
    mode: str
    maneuver: str
    distance: float

    def describe(self, names: Mapping[str, str]) -> str:
        how = "shoots at" if self.mode == "ranged" else "attacks"
        return (f"{names[self.attacker]} {how} {names[self.target]} with {self.weapon} "
                f"({self.maneuver}, {self.distance:g} m)")


@dataclass(slots=True)
class DefenseDice(Event):
    """The GM's dice for a ranged defense and what they come from (WR-14, WR-15, WR-16)."""

    kind: ClassVar[str] = "defense_dice"
    target: str
    dice: int
    bonus: int
    factors: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        extra = f" + {self.bonus} bonus" if self.bonus else ""
        return f"{names[self.target]} defends with {self.dice} dice{extra} ({', '.join(self.factors)})"


@dataclass(slots=True)
class Exchanged(Event):
    """Attack against defense: a hit only if the attack is higher (WR-10)."""

    kind: ClassVar[str] = "exchange"
    attacker: str
    target: str
    attack: int
    defense: int
    hit: bool

    def describe(self, names: Mapping[str, str]) -> str:
        verb = "hits" if self.hit else "misses"
        return f"{names[self.attacker]} {verb} {names[self.target]} ({self.attack} vs {self.defense})"


@dataclass(slots=True)
class Wounded(Event):
    """Damage after the factor and armour (WR-11, WR-19..WR-23). GM characters' HP stay GM-only."""

    kind: ClassVar[str] = "wounded"
    attacker: str
    target: str
    raw: int
    absorbed: int
    damage: int
    temporary: bool
    hp: int
    stun: int
    private: bool = False

    def audience(self) -> frozenset[str] | None:
        return frozenset({self.target}) if self.private else None

    def redacted(self) -> dict[str, Any]:
        out = self.to_dict()
        out.pop("hp")
        out.pop("stun")
        return out

    def describe(self, names: Mapping[str, str]) -> str:
        kind = " temporary" if self.temporary else ""
        armour = f", {self.absorbed} stopped by armour" if self.absorbed else ""
        return f"{names[self.target]} takes {self.damage}{kind} damage ({self.raw} dealt{armour})"


@dataclass(slots=True)
class Condition(Event):
    """Messed Up or no longer (WR-24), or any other change of state worth narrating."""

    kind: ClassVar[str] = "condition"
    actor: str
    condition: str
    text: str = ""

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} is {self.condition}" + (f": {self.text}" if self.text else "")


@dataclass(slots=True)
class EffectApplied(Event):
    """A special effect (WR-30): it lands only when the margin reaches the GM's threshold."""

    kind: ClassVar[str] = "effect"
    attacker: str
    target: str
    effect: str
    margin: int
    needed: int
    landed: bool

    def describe(self, names: Mapping[str, str]) -> str:
        verb = "lands" if self.landed else "fails"
        return (f"{names[self.attacker]}'s {self.effect} on {names[self.target]} {verb} "
                f"(margin {self.margin}, needed {self.needed})")


@dataclass(slots=True)
class GangChosen(Event):
    """A defender outnumbered picks the attackers it defends against normally; ``capacity`` is how many attackers a
    round it handles before the others carry the bonus die (WR-31, WR-B17)."""

    kind: ClassVar[str] = "gang_up"
    defender: str
    normal: list[str]
    capacity: int = 2

    def describe(self, names: Mapping[str, str]) -> str:
        who = ", ".join(names[a] for a in self.normal)
        return (f"{names[self.defender]} is ganged up on and defends normally against {who}; any other attacker "
                f"beyond its first {self.capacity} this round gets a bonus die")


@dataclass(slots=True)
class Ruled(Event):
    """A GM ruling on an attack (WR-14, WR-17, WR-30, WR-31)."""

    kind: ClassVar[str] = "ruling"
    attacker: str
    ruling: dict[str, Any]

    def describe(self, names: Mapping[str, str]) -> str:
        parts = ", ".join(f"{k} {v}" for k, v in self.ruling.items())
        return f"GM rules on {names[self.attacker]}'s attack: {parts or 'as declared'}"


@dataclass(slots=True)
class Plea(Event):
    """At death's door a PC gives a reason to live, or lets go (WR-26)."""

    kind: ClassVar[str] = "plea"
    actor: str
    reason: str

    def describe(self, names: Mapping[str, str]) -> str:
        if not self.reason:
            return f"{names[self.actor]} lets go."
        return f"{names[self.actor]} holds on: \"{self.reason}\""


@dataclass(slots=True)
class Verdict(Event):
    """The GM's answer to a reason to live (WR-26)."""

    kind: ClassVar[str] = "verdict"
    actor: str
    lives: bool
    how: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} {'lives' if self.lives else 'dies'} ({self.how})"


@dataclass(slots=True)
class SeriousWound(Event):
    """A serious wound (WR-34): mis-heals or is fatal without medical care."""

    kind: ClassVar[str] = "serious_wound"
    actor: str
    wound: str
    daily_loss: int

    def describe(self, names: Mapping[str, str]) -> str:
        tail = f", losing {self.daily_loss} HP a day until treated" if self.wound == "fatal" else ""
        return f"{names[self.actor]} suffers a serious wound ({self.wound.replace('_', '-')}{tail})"


@dataclass(slots=True)
class Contest(Event):
    """An opposed roll outside an attack: intimidation, breaking free, surprise (WR-31)."""

    kind: ClassVar[str] = "contest"
    actor: str
    other: str
    what: str
    won: bool

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} {'succeeds' if self.won else 'fails'} to {self.what} {names[self.other]}"


@dataclass(slots=True)
class GestaltResult(Event):
    """The sides' gestalt totals, revealed together (WR-35)."""

    kind: ClassVar[str] = "gestalt"
    totals: dict[str, int]
    winner: str | None
    overturned: bool = False

    def describe(self, names: Mapping[str, str]) -> str:
        scores = ", ".join(f"{side} {total}" for side, total in self.totals.items())
        if self.winner is None:
            return f"Gestalt totals: {scores}: a tie"
        flip = " (the GM overturns a close result)" if self.overturned else ""
        return f"Gestalt totals: {scores}: {self.winner} wins{flip}"
