"""The typed WitchHammer part of a view (core/view.py): what the envelope and the combatant part of
:mod:`affray.core.view` do not hold. Frozen, slotted and read-only: views share these between seats and steps.

Rules: WH-02, WH-03, WH-05 (cards above and below the line), WH-20 (the Malus), WH-24 (statuses), WH-B20 (the
Drama Timer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from affray.core.view import PanelKind


@dataclass(slots=True)
class CardInfo:
    """A card as printed: above the line (``init``, ``defense``, aspect ``defenses``) and the nodes below it
    (the content's typed nodes, as plain data). Rule: WH-05."""

    id: str
    name: str
    kind: str  # "action" or "psych"
    init: int
    defense: int
    defenses: dict[str, int]
    below: tuple[dict[str, Any], ...]
    one_shot: bool
    text: str


@dataclass(slots=True)
class StatusInfo:
    """A status effect's modifiers and ticks. Rule: WH-24."""

    id: str
    name: str
    attack: int
    defense: int
    init: int
    malus: int
    move: int
    defenses: dict[str, int]
    tick_wounds: int
    tick_damage: int
    tick_poise: int
    skip_turn: bool
    no_poise_recovery: bool


@dataclass(slots=True)
class DramaTimer:
    """The Planning phase's real-time limit, carried for the table (WH-B20)."""

    seconds: int
    running: bool


@dataclass(slots=True)
class FaceDown:
    """A card placed face down (a sealed commit): everyone sees its ``seal`` and ``digest``; ``card`` is the card
    only for a seat that may open it (the one that plays the combatant) or once it has been revealed."""

    seal: str
    digest: str
    card: str | None = None


@dataclass(slots=True)
class Mods:
    """The sums of the status modifiers in force (WH-21)."""

    attack: int
    defense: int
    init: int
    malus: int
    move: int
    defenses: dict[str, int]


@dataclass(slots=True)
class Stats:
    """A combatant's sheet numbers, fixed for the fight: base Attack, Defense and Init (WH-11, WH-12, WH-06),
    Damage on Solid Hit (WH-B5), aspect Defenses (WH-13, WH-14), size (1 small .. 4 huge) and ``pc``/``monster``."""

    kind: str
    size: int
    attack: int
    defense: int
    init: int
    solid_damage: int
    defenses: dict[str, int]


@dataclass(slots=True)
class Combat:
    """What the Violence phase changes: the total Malus (WH-20, WH-21), the status modifiers, ``out`` (``""``,
    ``down``, ``defeated``, ``fallen``, ``dead`` or ``removed``: taken out by a GM ruling), the death's-door
    ``fate``, afflictions (WH-23), the revealed card in force this round (WH-05) and this round's initiative
    (WH-06)."""

    malus: int
    mods: Mods
    out: str
    fate: str
    afflictions: tuple[str, ...]
    card: str | None
    initiative: int | None


@dataclass(slots=True)
class WitchHammerCombatantDetail:
    """One combatant's WitchHammer part: ``stats``, ``combat``, and the table: readiness and the face-down cards
    (Psych, then the two slots). ``hand`` (copies still free this vignette) is shown only to the seat that plays the
    combatant, since it shrinks as cards go face down; ``deck`` and ``skills`` to that seat and to GM-level
    viewers."""

    stats: Stats
    combat: Combat
    ready: bool
    psych: FaceDown | None
    slots: tuple[FaceDown, ...]
    hand: dict[str, int] | None = None
    deck: dict[str, int] | None = None
    skills: dict[str, int] | None = None


@dataclass(slots=True)
class WitchHammerDetail:
    """The view's WitchHammer part: the vignette, the map rows, the cards the viewer may read (those in force and
    those of every deck it may see), the status table, the Drama Timer and the PCs awaiting the GM's ruling."""

    #: The battle map and the cards: hand, Psych card and slots (WH-02, WH-03).
    PANELS: ClassVar[tuple[PanelKind, ...]] = ("grid", "cards")

    vignette: int
    map: tuple[str, ...]
    cards: dict[str, CardInfo]
    statuses: dict[str, StatusInfo]
    drama_timer: DramaTimer | None
    pending_fates: tuple[str, ...]
