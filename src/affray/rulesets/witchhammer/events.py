"""Events of WitchHammer (derived output for narration; see :mod:`affray.core.events`).

Face-down cards appear only as the core's ``Committed`` (seal and digest) until the core's ``Revealed``. Each
``describe`` is a sentence a player reads at the table: names (cards, statuses and sources are carried by name),
the numbers a player needs, no ids and no rule IDs; :mod:`.narration` words the core events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from affray.core.events import Event, counted
from affray.core.narration import listed


def roll_words(what: str) -> str:
    """A save's or check's name as a player reads it: "con save" -> "Con save", "spirit_lore check" -> "Spirit Lore
    check" (the content's aspect and skill ids, WH-27, WH-28)."""
    *kind, last = what.replace("_", " ").split(" ")
    if "'" in what or not kind:
        return what
    return " ".join(w.capitalize() for w in kind) + " " + last


def lasting(rounds: int) -> str:
    """A status's duration: N of the bearer's turns, or the rest of the vignette (-1). Rules: WH-02, WH-B11."""
    return "for the rest of the vignette" if rounds < 0 else f"for {counted(rounds, 'turn')}"


@dataclass(slots=True)
class VignetteStarted(Event):
    """A new vignette: Psych, Planning, Violence. Rule: WH-01."""

    kind: ClassVar[str] = "vignette"
    vignette: int

    def describe(self, names: Mapping[str, str]) -> str:
        return f"— Vignette {self.vignette} —"


@dataclass(slots=True)
class Ready(Event):
    """A combatant has finished choosing for this phase (its cards stay face down). Rules: WH-02, WH-03."""

    kind: ClassVar[str] = "ready"
    actor: str
    phase: str
    placed: int  # cards this combatant chose (never which); the rest of its slots get the default card

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} is ready."


@dataclass(slots=True)
class Withdrawn(Event):
    """A combatant took back its last card still face down in Planning (option ``planning_withdraw``): the event
    names the seal withdrawn, never the card; that seal is never opened during the fight. Rules: WH-03."""

    kind: ClassVar[str] = "withdrawn"
    actor: str
    seal: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} takes back a card still face down."


@dataclass(slots=True)
class TimedOut(Event):
    """The Drama Timer ran out: every unfilled slot gets the default card. Rule: WH-B20."""

    kind: ClassVar[str] = "timed_out"
    actors: list[str]

    def describe(self, names: Mapping[str, str]) -> str:
        if not self.actors:
            return "The Drama Timer runs out; everyone was ready."
        return f"The Drama Timer runs out! Still planning: {listed([names[a] for a in self.actors])}."


@dataclass(slots=True)
class CardPlayed(Event):
    """A card revealed and in force: Init and Defense apply from now (above the line). Rules: WH-04, WH-05."""

    kind: ClassVar[str] = "card"
    actor: str
    card: str
    name: str
    slot: int  # 0 for a Psych card

    def describe(self, names: Mapping[str, str]) -> str:
        where = "Psych card" if self.slot == 0 else f"slot {self.slot}"
        return f"{names[self.actor]} plays {self.name} ({where})."


@dataclass(slots=True)
class InitiativeSet(Event):
    """The order of a round, highest first, with each total. Rules: WH-06, WH-B12."""

    kind: ClassVar[str] = "initiative"
    order: list[str]
    values: list[int]

    def describe(self, names: Mapping[str, str]) -> str:
        order = ", ".join(f"{names[a]} {v}" for a, v in zip(self.order, self.values, strict=True))
        return f"Initiative order: {order}."


_STAYS = {"adjacent": ", already beside the one they move by", "blocked": ": the way is blocked"}
_STOPS = {"adjacent": ", stopping beside the one they move by", "blocked": ", where the way is blocked"}
_POSITIONS = {"behind": "from behind", "flank": "flanking"}  # WH-25, WH-26
_FIZZLES = {"stunned": "Stunned"}  # the status's name, as the view shows it


@dataclass(slots=True)
class Moved(Event):
    """Mandatory movement. Rules: WH-07, WH-08."""

    kind: ClassVar[str] = "moved"
    actor: str
    path: list[tuple[int, int]]
    stopped: str  # "full", "adjacent", "blocked"

    def describe(self, names: Mapping[str, str]) -> str:
        who = names[self.actor]
        if not self.path:
            return f"{who} stays where they are{_STAYS.get(self.stopped, '')}."
        x, y = self.path[-1]
        return f"{who} moves {counted(len(self.path), 'square')} to ({x}, {y}){_STOPS.get(self.stopped, '')}."


@dataclass(slots=True)
class Attacked(Event):
    """An attack resolved. Rules: WH-11..WH-18, WH-25, WH-26."""

    kind: ClassVar[str] = "attack"
    actor: str
    target: str
    card: str
    natural: int
    bonus: int
    defense: int
    value: int
    damage: int
    result: str  # "miss", "hit", "solid", "fumble"
    crit: bool
    position: list[str]  # "behind", "flank"

    def describe(self, names: Mapping[str, str]) -> str:
        """The result, then one number per step, the same as the roll's line: the d20, its modifier (the attack
        bonus less the Defense, WH-16) with both parts, the crit or fumble's 10 (WH-17) or a clamped margin, and
        the value."""
        where = " " + " and ".join(_POSITIONS.get(p, p) for p in self.position) if self.position else ""
        result = {
            "miss": "a miss",
            "fumble": "a fumble",
            "hit": f"a hit for {self.damage}",
            "solid": f"a Solid Hit for {self.damage}",
        }[self.result]
        crit = ", a Crit" if self.crit else ""
        margin = self.bonus - self.defense
        rest = self.value - self.natural - margin
        why = "crit" if self.crit else "fumble" if self.natural == 1 else "margin clamped at 0"
        extra = f" {rest:+d} for the {why}" if rest else ""
        return (
            f"{names[self.actor]} attacks {names[self.target]}{where} with {self.card}: {result}{crit}. d20 "
            f"{self.natural} {margin:+d} (Attack {self.bonus:+d} against Defense {self.defense}){extra} = "
            f"{self.value}."
        )


@dataclass(slots=True)
class Damaged(Event):
    """Damage through Poise to Health. Rules: WH-19, WH-20, WH-B3, WH-B4."""

    kind: ClassVar[str] = "damaged"
    target: str
    damage: int
    penetration: int
    wounds: int
    poise: int
    health: int
    malus: int
    source: str

    def describe(self, names: Mapping[str, str]) -> str:
        wounds = counted(self.wounds, "Wound")
        source = f" from {self.source}" if self.source else ""
        taken = f"takes {self.damage} damage{source}, {wounds}" if self.damage else f"takes {wounds}{source}"
        malus = f", Malus {self.malus}" if self.malus else ""
        return f"{names[self.target]} {taken}: Poise {self.poise}, Health {self.health}{malus}."


@dataclass(slots=True)
class Fizzled(Event):
    """A below-the-line part came to nothing: out of range, no target, stunned. Rule: WH-09."""

    kind: ClassVar[str] = "fizzled"
    actor: str
    card: str
    reason: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]}'s {self.card} comes to nothing ({_FIZZLES.get(self.reason, self.reason)})."


@dataclass(slots=True)
class Afflicted(Event):
    """A permanent injury from 5+ Wounds in one attack (PCs only). Rules: WH-23, WH-B1, WH-B23."""

    kind: ClassVar[str] = "afflicted"
    actor: str
    roll: int
    affliction: str | None

    def describe(self, names: Mapping[str, str]) -> str:
        if self.affliction is None:
            return f"{names[self.actor]} escapes lasting harm (affliction roll {self.roll})."
        return f"{names[self.actor]} suffers an affliction: {self.affliction} (affliction roll {self.roll})."


@dataclass(slots=True)
class EffectChanged(Event):
    """A status started, ticked or ended. Rules: WH-02, WH-24, WH-B11."""

    kind: ClassVar[str] = "effect"
    actor: str
    status: str
    change: str  # "started", "ticked", "ended", "stunned"
    rounds: int

    def describe(self, names: Mapping[str, str]) -> str:
        who = names[self.actor]
        if self.change == "started":
            return f"{who} is {self.status} {lasting(self.rounds)}."
        if self.change == "ticked":
            return f"{self.status} takes its toll on {who}."
        if self.change == "ended":
            return f"{who} is no longer {self.status}."
        return f"{who} is {self.status}."


@dataclass(slots=True)
class Checked(Event):
    """A save or skill check. Rules: WH-27, WH-28, WH-29."""

    kind: ClassVar[str] = "check"
    actor: str
    what: str
    total: int
    difficulty: int
    success: bool

    def describe(self, names: Mapping[str, str]) -> str:
        verdict = "makes" if self.success else "fails"
        return f"{names[self.actor]} {verdict} the {roll_words(self.what)} ({self.total} against {self.difficulty})."


@dataclass(slots=True)
class PoiseChanged(Event):
    """Poise regained (catch your breath, end of combat) or drained outside damage. Rule: WH-B10."""

    kind: ClassVar[str] = "poise"
    actor: str
    poise: int
    why: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} {self.why}: Poise {self.poise}."


@dataclass(slots=True)
class Fate(Event):
    """A downed PC's fate after combat. Rules: WH-29, WH-B8."""

    kind: ClassVar[str] = "fate"
    actor: str
    fate: str  # "stable", "dead", "awaiting the GM"
    health: int

    def describe(self, names: Mapping[str, str]) -> str:
        if self.fate == "awaiting the GM":
            return f"{names[self.actor]}'s fate is up to the GM (Health {self.health})."
        return f"{names[self.actor]} is {self.fate} (Health {self.health})."
