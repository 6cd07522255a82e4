"""Events of WaRP (derived output for narration; see :mod:`affray.core.events`).

Each event's ``describe`` is the sentence a player reads at the table: combatants by their names, content by
its names (weapons, traits and maneuvers are carried by name; a side reads as its combatants' names through the
match's :class:`~affray.core.narration.Story`), and the numbers that decided it.

Two kinds of event are private: a GM character's gestalt roll (only the GM sees it until the result,
WR-35) and the hit points left on a GM character after a wound (GM-only stats); others see a redacted
form, which :mod:`affray.rulesets.warp.narration` tells.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from affray.core.events import Event, Rolled
from affray.core.json import JsonObject
from affray.core.narration import listed
from affray.rulesets.warp.phrases import dice, purpose, reasons, ruled, side, wound_sentence

GM_ONLY = frozenset({"gm"})
#: The dice a roll without a trait throws (WR-03, WR-14), as they read after "rolls ...".
_TRAITS = {"assigned dice": " with the dice the GM assigns", "no trait (2 dice)": " with the default 2 dice", "": ""}


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

    def redacted(self) -> JsonObject:
        return {"type": "hidden", "actor": self.actor, "purpose": self.purpose}

    def lead(self, names: Mapping[str, str]) -> str:
        extras = ([f"bonus dice: {reasons(self.bonus)}"] if self.bonus else []) + (
            [f"penalty dice: {reasons(self.penalty)}"] if self.penalty else []
        )
        trait = _TRAITS.get(self.trait, f" with {self.trait}")
        return f"{names[self.actor]} rolls {purpose(self.purpose)}{trait}" + (
            f" ({'; '.join(extras)})" if extras else ""
        )


@dataclass(slots=True)
class InitiativeSet(Event):
    """The acting order, highest first (WR-05, WR-B8)."""

    kind: ClassVar[str] = "initiative"
    order: list[str]
    rolls: dict[str, int]

    def describe(self, names: Mapping[str, str]) -> str:
        told = [f"{names[a]} ({self.rolls[a]})" if a in self.rolls else names[a] for a in self.order]
        if not told:
            return "Nobody is left to act."
        return f"{told[0]} acts first" + (f", then {', then '.join(told[1:])}." if told[1:] else ".")


@dataclass(slots=True)
class Acted(Event):
    """A turn action without dice: hold, wait, take cover, desperate defense, stand up, pick up, pass."""

    kind: ClassVar[str] = "acted"
    actor: str
    what: str
    text: str = ""

    def describe(self, names: Mapping[str, str]) -> str:
        what = _ACTED.get(self.what, self.what)
        return f"{names[self.actor]} {what}" + (f": {self.text}" if self.text else "") + "."


#: A turn's action without dice, where its recorded words need others (WR-06, WR-32).
_ACTED = {"holds its action": "holds the action, to act later this round", "keeps waiting": "keeps waiting to act"}


@dataclass(slots=True)
class Moved(Event):
    """A move along the line, in metres (WR-07)."""

    kind: ClassVar[str] = "moved"
    actor: str
    start: float
    end: float
    pace: str

    def describe(self, names: Mapping[str, str]) -> str:
        how = PACES.get(self.pace, self.pace.replace("_", " "))
        return f"{names[self.actor]} moves from {self.start:g} m to {self.end:g} m ({how})."


#: A pace of WR-07 (or a move made as part of an attack, WR-14, WR-X3) as it reads.
PACES = {
    "walk": "walking",
    "hurry": "hurrying",
    "jog": "jogging",
    "run": "running",
    "fast_run": "at a fast run",
    "sprint": "sprinting",
}


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
        how = "takes a shot at" if self.mode == "ranged" else "attacks"  # a missile: thrown or fired (WR-14)
        weapon = self.weapon if self.weapon.startswith("bare ") else f"the {self.weapon}"  # bare hands (WR-12)
        return (
            f"{names[self.attacker]} {how} {names[self.target]} with {weapon} "
            f"({self.maneuver}, {self.distance:g} m away)."
        )


@dataclass(slots=True)
class DefenseDice(Event):
    """The GM's dice for a ranged defense and what they come from (WR-14, WR-15, WR-16)."""

    kind: ClassVar[str] = "defense_dice"
    target: str
    dice: int
    bonus: int
    factors: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        extra = f" and {dice(abs(self.bonus), 'bonus' if self.bonus > 0 else 'penalty')}" if self.bonus else ""
        factors = ", ".join(_FACTORS.get(f, f) for f in self.factors) or "the GM's call"
        return f"{names[self.target]} defends against the shot with {dice(self.dice)}{extra} ({factors})."


#: The GM's dice for a missile (WR-14, WR-16) as they read; others (distance 3, dodging +2) read as they are.
_FACTORS = {
    **{f"distance {n}+b": f"distance {n} and a half-die" for n in range(1, 8)},
    **{f"cover {c}": f"{c} cover" for c in ("light", "partial", "heavy")},
    "target moving": "the target moving",
    "attacker moving": "the shooter moving",
}


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
        return (
            f"{names[self.attacker]} {verb} {names[self.target]} (attack {self.attack} against defense {self.defense})."
        )


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

    def redacted(self) -> JsonObject:
        out: JsonObject = self.to_dict()
        out.pop("hp")
        out.pop("stun")
        return out

    def describe(self, names: Mapping[str, str]) -> str:
        return wound_sentence(
            names, self.target, self.raw, self.absorbed, self.damage, self.temporary, self.hp, self.stun
        )


@dataclass(slots=True)
class Condition(Event):
    """Messed Up or no longer (WR-24), or any other change of state worth narrating."""

    kind: ClassVar[str] = "condition"
    actor: str
    condition: str
    text: str = ""

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} is {self.condition}" + (f": {self.text}" if self.text else "") + "."


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
        a, t = names[self.attacker], names[self.target]
        what = _EFFECTS.get(self.effect, self.effect.replace("_", " ") + " {}").format(t)
        told = f"{a} {what}" if self.landed else f"{a} tries to {_BARE.get(self.effect, what).format(t)} but fails"
        return f"{told} (margin {self.margin}, {self.needed} needed)."


#: A special effect that lands (WR-30, ruling WR-X6), and as it reads when it fails.
_EFFECTS = {"disarm": "disarms {}", "prone": "knocks {} down", "hold": "gets {} in a hold"}
_BARE = {"disarm": "disarm {}", "prone": "knock {} down", "hold": "get {} in a hold"}


@dataclass(slots=True)
class GangChosen(Event):
    """A defender outnumbered picks the attackers it defends against normally; ``capacity`` is how many attackers a
    round it handles before the others carry the bonus die (WR-31, WR-B17)."""

    kind: ClassVar[str] = "gang_up"
    defender: str
    normal: list[str]
    capacity: int = 2

    def describe(self, names: Mapping[str, str]) -> str:
        who = listed([names[a] for a in self.normal])
        return (
            f"{names[self.defender]} is ganged up on and defends normally against {who}; any other attacker "
            f"beyond its first {self.capacity} this round gets a bonus die."
        )


@dataclass(slots=True)
class Ruled(Event):
    """A GM ruling on an attack (WR-14, WR-17, WR-30, WR-31)."""

    kind: ClassVar[str] = "ruling"
    attacker: str
    ruling: JsonObject

    def describe(self, names: Mapping[str, str]) -> str:
        parts = [ruled(k, v) for k, v in self.ruling.items()]
        return f"The GM rules on {names[self.attacker]}'s attack: {listed([p for p in parts if p]) or 'as declared'}."


@dataclass(slots=True)
class Plea(Event):
    """At death's door a PC gives a reason to live, or lets go (WR-26)."""

    kind: ClassVar[str] = "plea"
    actor: str
    reason: str

    def describe(self, names: Mapping[str, str]) -> str:
        if not self.reason:
            return f"{names[self.actor]} lets go."
        return f"{names[self.actor]} holds on, with a reason to live: \u201c{self.reason}\u201d"


@dataclass(slots=True)
class Verdict(Event):
    """The GM's answer to a reason to live (WR-26)."""

    kind: ClassVar[str] = "verdict"
    actor: str
    lives: bool
    how: str

    def describe(self, names: Mapping[str, str]) -> str:
        how = "having let go" if self.how == "let go" else self.how
        return f"{names[self.actor]} {'lives' if self.lives else 'dies'} ({how})."


@dataclass(slots=True)
class SeriousWound(Event):
    """A serious wound (WR-34): mis-heals or is fatal without medical care."""

    kind: ClassVar[str] = "serious_wound"
    actor: str
    wound: str
    daily_loss: int

    def describe(self, names: Mapping[str, str]) -> str:
        if self.wound == "fatal":
            return (
                f"{names[self.actor]} suffers a serious wound that will be fatal untreated: "
                f"{self.daily_loss} HP a day until it gets medical care."
            )
        return f"{names[self.actor]} suffers a serious wound that will mis-heal."


@dataclass(slots=True)
class Contest(Event):
    """An opposed roll outside an attack: intimidation, breaking free, surprise (WR-31)."""

    kind: ClassVar[str] = "contest"
    actor: str
    other: str
    what: str
    won: bool

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} {'manages' if self.won else 'fails'} to {self.what} {names[self.other]}."


@dataclass(slots=True)
class GestaltResult(Event):
    """The sides' gestalt totals, revealed together (WR-35)."""

    kind: ClassVar[str] = "gestalt"
    totals: dict[str, int]
    winner: str | None
    overturned: bool = False

    def describe(self, names: Mapping[str, str]) -> str:
        scores = " against ".join(f"{side(names, s)} {total}" for s, total in self.totals.items())
        if self.winner is None:
            return f"The gestalt totals: {scores}: a tie."
        flip = " (the GM overturns a close result)" if self.overturned else ""
        return f"The gestalt totals: {scores}: victory for {side(names, self.winner)}{flip}."
