"""Events of the Sim HuD (derived output for narration; see :mod:`affray.core.events`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from affray.core.events import Ended, Event


@dataclass(slots=True)
class InitiativeSet(Event):
    """The order of this round (Nerdified) or the post order (Simplified, Free Form). Rules: WL-05, WL-09."""

    kind: ClassVar[str] = "initiative"
    order: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        return "Order: " + ", ".join(names[a] for a in self.order)


@dataclass(slots=True)
class Declared(Event):
    """A public declaration of a round's actions. Rules: WL-09, WL-10, WL-17."""

    kind: ClassVar[str] = "declared"
    actor: str
    plan: list[dict[str, Any]]
    additional: bool

    def describe(self, names: Mapping[str, str]) -> str:
        parts = [describe_item(item, names) for item in self.plan]
        extra = " (with an additional action, -2 this round)" if self.additional else ""
        return f"{names[self.actor]} declares: {'; '.join(parts)}{extra}"


def describe_item(item: Mapping[str, Any], names: Mapping[str, str]) -> str:
    kind = item["type"]
    if "target" in item:
        return f"{kind} {names[item['target']]}"
    if "weapon" in item:
        return f"{kind} {item['weapon']}"
    if "text" in item:
        return f"{kind} ({item['text']})"
    return str(kind)


@dataclass(slots=True)
class Exchanged(Event):
    """Attack vs Defense resolved. ``result``: ``hit`` or ``parry``. Rules: WL-11, WL-12."""

    kind: ClassVar[str] = "exchange"
    attacker: str
    defender: str
    attack: int
    defense: int
    result: str
    riposte: bool

    def describe(self, names: Mapping[str, str]) -> str:
        verb = "hits" if self.result == "hit" else "is parried by"
        tail = " — a riposte opening!" if self.riposte else ""
        return f"{names[self.attacker]} {verb} {names[self.defender]} ({self.attack} vs {self.defense}){tail}"


@dataclass(slots=True)
class Undefended(Event):
    """The target takes the attack without a defense roll. Rules: WL-14, WL-B5."""

    kind: ClassVar[str] = "undefended"
    attacker: str
    defender: str
    reason: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.defender]} does not defend against {names[self.attacker]} ({self.reason})"


@dataclass(slots=True)
class Wounded(Event):
    """The Damage phase: HP lost = max(0, Damage - Injury). Rule: WL-13."""

    kind: ClassVar[str] = "wounded"
    attacker: str
    target: str
    damage: int
    injury: int
    loss: int
    hp: int

    def describe(self, names: Mapping[str, str]) -> str:
        if not self.loss:
            return f"{names[self.target]} soaks the blow ({self.damage} vs {self.injury})"
        return (f"{names[self.target]} loses {self.loss} HP ({self.damage} vs {self.injury}), "
                f"{self.hp} left")


@dataclass(slots=True)
class HpChanged(Event):
    """HP changed by a rule other than the Damage phase (Simplified hit, Free Form adjustment)."""

    kind: ClassVar[str] = "hp_changed"
    actor: str
    target: str
    delta: int
    hp: int

    def describe(self, names: Mapping[str, str]) -> str:
        verb = "loses" if self.delta < 0 else "gains"
        return f"{names[self.target]} {verb} {abs(self.delta)} HP ({self.hp} left)"


@dataclass(slots=True)
class Fizzled(Event):
    """A declared action could not be performed."""

    kind: ClassVar[str] = "fizzled"
    actor: str
    action: str
    reason: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]}'s {self.action} comes to nothing ({self.reason})"


@dataclass(slots=True)
class Moved(Event):
    """A change of place: the free move, a charge, the end of a free round or a pursuit. Rule: WL-B13."""

    kind: ClassVar[str] = "moved"
    actor: str
    place: int
    why: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} {self.why}"


@dataclass(slots=True)
class ArmsChanged(Event):
    """Draw, rearm, emergency rearm or pick up. Rules: WL-19, WL-20."""

    kind: ClassVar[str] = "arms"
    actor: str
    how: str
    weapon: str
    in_hand: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        held = ", ".join(self.in_hand) or "nothing"
        return f"{names[self.actor]} {self.how} {self.weapon} (in hand: {held})"


@dataclass(slots=True)
class Disengaged(Event):
    kind: ClassVar[str] = "disengaged"
    actor: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} disengages and flees! Pursuit begins."


@dataclass(slots=True)
class PursuitChoice(Event):
    kind: ClassVar[str] = "pursuit_choice"
    actor: str
    choice: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} chooses to {self.choice.replace('_', ' ')}"


@dataclass(slots=True)
class PursuitRound(Event):
    """One pursuit roll: the gap changes by flee - pursue metres. Rule: WL-22."""

    kind: ClassVar[str] = "pursuit_round"
    fleeing: str
    flee: int
    pursue: int
    gap: int
    state: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"Pursuit: {self.flee} vs {self.pursue}, gap {self.gap} m ({self.state})"


@dataclass(slots=True)
class EndedEscaped(Ended):
    """The fight ended because a side got away (an :class:`~affray.core.events.Ended` with ``winner`` ``None``):
    neither side was defeated. Rule: WL-B14."""

    def describe(self, names: Mapping[str, str]) -> str:
        return f"The fight is over: {self.reason}; nobody was defeated."


@dataclass(slots=True)
class EmergencyAction(Event):
    """An emergency additional action taken after the declarations: -2 to every roll next round. Rule: WL-17."""

    kind: ClassVar[str] = "emergency_action"
    actor: str
    action: str
    target: str = ""
    text: str = ""

    def describe(self, names: Mapping[str, str]) -> str:
        what = f"{self.action} {names[self.target]}" if self.target else f"{self.action} ({self.text})"
        return f"{names[self.actor]} takes an emergency additional action: {what} (-2 to all rolls next round)"
