"""Sim HuD match state: plain slotted dataclasses, mutated in place by the apply part of ``step``.

Positions follow WL-B13 (as revised): no grid, only *places* and range bands. Combatants sharing a place are
engaged (melee is possible); a combatant at range stands at a place of its own, which lies *near* or *far* from
the fight (its ``band``; the starting melee, place 0, is ``engaged``). Two combatants at different places are far
apart when either place is far, else near (:func:`~affray.rulesets.hud.mechanics.distance_band`). The free 10 m
move joins a near foe's place, never a far one's; a charge joins any foe's place but not from the foe's own. A
pursuit moves the fleeing and the catchers to a new place far from the rest; a dropped weapon stays where it
fell, so only someone standing there can pick it up (WL-19).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from affray.core.engine import Outcome
from affray.rulesets.hud.mechanics import Band, distance_band
from affray.rulesets.hud.options import HudOptions


@dataclass(slots=True)
class Arm:
    """One carried weapon or shield and where it is now: ``hand``, ``stowed`` or ``dropped`` (at ``place``)."""

    id: str
    name: str
    kind: str
    hands: int
    carry: str
    attack: int
    defense: int
    damage: int
    location: str = "stowed"
    place: int = 0


@dataclass(slots=True)
class Fighter:
    id: str
    name: str
    side: str
    max_hp: int
    hp: int
    agility: int
    strength: int
    armour: str
    armour_penalty: int
    injury_mod: int
    arms: dict[str, Arm]
    actions: int
    trained_witcher: bool
    place: int = 0
    band: str = "engaged"  # the band of ``place`` toward the fight: engaged (the melee), near or far (WL-B13)
    out: str = ""  # "", "down", "escaped" or "out" (taken out of the fight by a GM ruling)
    # per round (Combat Nerdified)
    initiative: int = 0
    plan: list[dict[str, Any]] = field(default_factory=list)
    declared: bool = False
    defenses: int = 0
    additional_used: int = 0
    penalty: int = 0  # added to this round's rolls (WL-17)
    penalty_next: int = 0  # carried to the next round by an emergency additional action
    charged: bool = False
    closed: bool = False  # used its free 10 m move this round
    dealt: int = 0  # HP removed from foes, for reports
    taken: int = 0

    @property
    def active(self) -> bool:
        return not self.out

    def in_hand(self) -> list[Arm]:
        return [a for a in self.arms.values() if a.location == "hand"]


@dataclass(slots=True)
class Exchange:
    """An attack awaiting a decision. ``stage``: ``defend`` (the defender), ``follow`` (the attacker, after
    a hit), ``parry`` (the defender, after a parry)."""

    attacker: str
    defender: str
    kind: str  # "attack", "charge" or "riposte"
    stage: str
    weapon: str = ""
    attack: int = 0
    defense: int = 0


@dataclass(slots=True)
class Pursuit:
    """A disengage in progress (WL-21, WL-22): opponents choose to chase, shoot or let go."""

    fleeing: str
    choices: dict[str, str] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Duel:
    """A Dice Simplified exchange awaiting the defender's die (WL-06); also used by Free Form."""

    attacker: str
    defender: str
    attacker_die: str
    attacker_total: int


@dataclass(slots=True)
class HudState:
    mode: str
    options: HudOptions
    fighters: dict[str, Fighter]
    round: int = 0
    phase: str = "setup"
    order: list[str] = field(default_factory=list)  # initiative / post order, first to act first
    declare_queue: list[str] = field(default_factory=list)
    queue: list[tuple[str, int]] = field(default_factory=list)  # (actor, plan index) to perform
    cursor: int = 0
    emergency_actor: str = ""  # offered an emergency additional action at its initiative step (WL-17)
    exchange: Exchange | None = None
    pursuit: Pursuit | None = None
    duel: Duel | None = None
    free_round: bool = False
    free_attackers: list[str] = field(default_factory=list)
    pursuers_first: list[str] = field(default_factory=list)
    next_place: int = 1
    turn: int = 0  # index into ``order`` (Simplified / Free Form)
    posts: int = 0
    #: The combatants the GM ruling being applied has taken out, in order: its settle tells their leaving and empties
    #: the list, so it is empty between records (:mod:`affray.rulesets.hud.leave`).
    leaving: list[str] = field(default_factory=list)
    outcome: Outcome | None = None

    def active(self) -> list[Fighter]:
        return [f for f in self.fighters.values() if not f.out]

    def enemies(self, actor: str) -> list[Fighter]:
        side = self.fighters[actor].side
        return [f for f in self.fighters.values() if not f.out and f.side != side]

    def distance(self, a: Fighter, b: Fighter) -> Band:
        """The range band between two combatants (WL-B13)."""
        return distance_band(a.place, a.band, b.place, b.band)

    def new_place(self) -> int:
        self.next_place += 1
        return self.next_place
