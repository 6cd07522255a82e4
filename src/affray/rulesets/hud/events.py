"""Events of the Sim HuD (derived output for narration; see :mod:`affray.core.events`).

Each event's ``describe`` is the sentence a player reads at the table: combatants by their names, weapons by their
content names (:func:`affray.core.narration.term`: the match's :class:`~affray.core.narration.Story` knows them; a
plain mapping of names shows an id with spaces), and the numbers the HuD's buttons showed (WL-02). The HuD hides
nothing (WL-09), so no event is private.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from affray.core.events import Ended, Event
from affray.core.fields import text
from affray.core.json import Json, JsonObject
from affray.core.narration import listed, term

_WORD = re.compile(r"[A-Za-z0-9_]+")


def named(text: str, names: Mapping[str, str]) -> str:
    """``text`` (a refusal's sentence an event carries) with every content id in it told by its name."""
    return _WORD.sub(
        lambda m: term(names, m.group()) if "_" in m.group() or term(names, m.group()) != m.group() else m.group(), text
    )


def weapon(names: Mapping[str, str], weapon_id: str) -> str:
    """A weapon by its content name, with an article: "the Steel sword"."""
    return f"the {term(names, weapon_id)}"


@dataclass(slots=True)
class InitiativeSet(Event):
    """The order of this round (Nerdified) or the post order (Simplified, Free Form). Rules: WL-05, WL-09."""

    kind: ClassVar[str] = "initiative"
    order: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        if not self.order:
            return "Nobody is left to act."
        first, *rest = [names[a] for a in self.order]
        return f"{first} acts first" + (f", then {', then '.join(rest)}." if rest else ".")


@dataclass(slots=True)
class Declared(Event):
    """A public declaration of a round's actions. Rules: WL-09, WL-10, WL-17."""

    kind: ClassVar[str] = "declared"
    actor: str
    plan: list[JsonObject]
    additional: bool

    def describe(self, names: Mapping[str, str]) -> str:
        parts = [describe_item(item, names) for item in self.plan] or ["nothing"]
        extra = " (with an additional action: -2 to every roll this round)" if self.additional else ""
        return f"{names[self.actor]} declares: {', then '.join(parts)}{extra}."


#: How a declared plan item reads (WL-10, WL-18, WL-19, WL-20, WL-B13): a verb, and the target's name or the weapon.
_PLAN_VERBS = {
    "attack": "attacks {}",
    "charge": "charges {}",
    "close": "closes in on {}",
    "rearm": "rearms with {}",
    "draw": "draws {}",
    "emergency_rearm": "rearms in an emergency with {}",
    "pick_up": "picks up {}",
}


def describe_item(item: Mapping[str, Json], names: Mapping[str, str]) -> str:
    """One declared action in words: "attacks Ilka", "defends", "draws the Hunting bow"."""
    kind = str(item["type"])
    if kind == "defense":
        return "defends"
    if kind == "complex":
        what = item.get("text")
        return f"a complex activity ({what})" if what else "a complex activity"
    verb = _PLAN_VERBS.get(kind, kind.replace("_", " ") + " {}")
    if "target" in item:
        return verb.format(names[text(item, "target")])
    return verb.format(weapon(names, text(item, "weapon")) if "weapon" in item else "").strip()


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
        a, d = names[self.attacker], names[self.defender]
        if self.result == "hit":
            return f"{a} hits {d} (Attack {self.attack} against Defense {self.defense})."
        tail = ": an opening for a riposte!" if self.riposte else "."
        return f"{d} parries {a} (Defense {self.defense} against Attack {self.attack}){tail}"


@dataclass(slots=True)
class SimplifiedExchange(Event):
    """A Dice Simplified exchange told as its result: the attacker's roll against the defender's, and what it cost
    the defender (a higher attacker roll costs 1 HP, a tie goes to the defender; ``loss`` 0 or 1, ``hp`` after it).
    Rule: WL-06."""

    kind: ClassVar[str] = "simplified_exchange"
    attacker: str
    defender: str
    attack_die: str
    attack: int
    defense_die: str
    defense: int
    loss: int
    hp: int

    def describe(self, names: Mapping[str, str]) -> str:
        a, d = names[self.attacker], names[self.defender]
        attack, defense = self.attack_die.capitalize(), self.defense_die.capitalize()  # the HuD's buttons (WL-02)
        said = f"{a}'s {attack} {self.attack} against {d}'s {defense} {self.defense}"
        if not self.loss:
            return f"{said}: {d} holds, no HP lost."
        left = f"{self.hp} left" if self.hp > 0 else "none left"
        return f"{said}: {d} loses {self.loss} HP, {left}."


@dataclass(slots=True)
class Undefended(Event):
    """The target takes the attack without a defense roll. Rules: WL-14, WL-B5."""

    kind: ClassVar[str] = "undefended"
    attacker: str
    defender: str
    reason: str

    def describe(self, names: Mapping[str, str]) -> str:
        d, a = names[self.defender], names[self.attacker]
        if self.reason == "chose to take it":
            return f"{d} chooses to take {a}'s attack undefended."
        return f"{d} takes {a}'s attack undefended ({self.reason})."


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
        t, a = names[self.target], names[self.attacker]
        if not self.loss:
            return f"{t} soaks {a}'s blow (Injury {self.injury} against Damage {self.damage}): no HP lost."
        return (
            f"{t} loses {self.loss} HP to {a}'s blow (Damage {self.damage} against Injury {self.injury}): "
            f"{hp_left(self.hp)}."
        )


def hp_left(hp: int) -> str:
    """ "5 HP left"; at 0 or below "no HP left" with the count (a combatant at 0 HP is out, WL-04, WL-08)."""
    return f"{hp} HP left" if hp > 0 else f"no HP left ({hp})"


@dataclass(slots=True)
class HpChanged(Event):
    """HP changed by a rule other than the Damage phase (Simplified hit, Free Form adjustment)."""

    kind: ClassVar[str] = "hp_changed"
    actor: str
    target: str
    delta: int
    hp: int

    def describe(self, names: Mapping[str, str]) -> str:
        t = names[self.target]
        if self.delta >= 0:
            return f"{t} regains {self.delta} HP: {hp_left(self.hp)}."
        by = f" to {names[self.actor]}" if self.actor and self.actor != self.target else ""
        return f"{t} loses {-self.delta} HP{by}: {hp_left(self.hp)}."


@dataclass(slots=True)
class Fizzled(Event):
    """A declared action could not be performed."""

    kind: ClassVar[str] = "fizzled"
    actor: str
    action: str
    reason: str

    def describe(self, names: Mapping[str, str]) -> str:
        what = _ACTION_NOUNS.get(self.action, self.action.replace("_", " "))
        return f"{names[self.actor]}'s {what} comes to nothing: {named(self.reason, names).rstrip('.')}."


#: A declared action as a noun, for the sentence of one that came to nothing.
_ACTION_NOUNS = {"close": "free move", "emergency_rearm": "emergency rearm", "pick_up": "pick-up"}


@dataclass(slots=True)
class Moved(Event):
    """A change of place: the free move, a charge, the end of a free round or a pursuit. Rule: WL-B13."""

    kind: ClassVar[str] = "moved"
    actor: str
    place: int
    why: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} {self.why}" + ("" if self.why.endswith("!") else ".")


@dataclass(slots=True)
class ArmsChanged(Event):
    """Draw, rearm, emergency rearm or pick up. Rules: WL-19, WL-20."""

    kind: ClassVar[str] = "arms"
    actor: str
    how: str
    weapon: str
    in_hand: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        held = listed([weapon(names, w) for w in self.in_hand]) or "nothing"
        how = _ARMS_VERBS.get(self.how, self.how)
        return f"{names[self.actor]} {how} {weapon(names, self.weapon)}; in hand now: {held}."


#: The verbs an arms change is recorded with, as they read (WL-19: an emergency rearm drops what must leave the hand).
_ARMS_VERBS = {"rearms with": "sheathes and draws", "drops what it held and draws": "rearms in an emergency with"}


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
        return f"{names[self.actor]} {_PURSUIT_CHOICES.get(self.choice, self.choice.replace('_', ' '))}."


#: A pursuer's choice (WL-22), as it reads.
_PURSUIT_CHOICES = {
    "chase": "gives chase",
    "shoot": "stays to shoot twice instead of chasing",
    "let_go": "lets them go",
}


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
        f = names[self.fleeing]
        end = {"caught": f"{f} is caught", "escaped": f"{f} gets away"}.get(self.state, "the chase goes on")
        return f"Pursuit: {f} runs {self.flee} against the pursuers' {self.pursue}; the gap is {self.gap} m: {end}."


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
        if self.target:
            what = f"an {self.action} on {names[self.target]}"
        else:  # the text a policy leaves as it is only repeats the action
            what = f"a {self.action}" + (f" ({self.text})" if self.text and "complex activity" not in self.text else "")
        return f"{names[self.actor]} takes an emergency additional action: {what} (-2 to every roll next round)."
