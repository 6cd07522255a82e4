"""Schemas of WaRP content (traits, weapons, armour, maneuvers, characters) and scenarios.

Rules: WR-01/WR-03 (traits in d6, 2 dice by default, 3 or 4 typical), WR-09 (combat vs non-combat
traits), WR-20 (agility-related), WR-31 (fighting capacity; handiness), WR-12/WR-15 (weapon factors and
range rows), WR-19/WR-22/WR-B1 (armour ratings), WR-17/WR-30 (maneuvers, special effects), WR-B9 (HP).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_validator

from affray.core.hidden import HIDDEN_HELP
from affray.core.scenario import CombatantBase, ScenarioBase, Side, Strict
from affray.rulesets.warp.mechanics import RANGE_ROWS

Use = Literal["melee", "ranged", "defense", "dodge", "initiative", "stealth", "alertness", "intimidate", "resolve"]
Affects = Literal[
    "melee",
    "ranged",
    "defense",
    "dodge",
    "initiative",
    "stealth",
    "alertness",
    "intimidate",
    "resolve",
    "agility",
    "all",
]
Cover = Literal["none", "light", "partial", "heavy"]
Darkness = Literal["none", "dim", "dark", "pitch"]
WoundClass = Literal["fists", "clubs", "blades", "guns", "stun"]
Special = Literal["none", "disarm", "prone", "hold"]
RATING = re.compile(r"^\s*(\d+)\s*(pt|pts|point|points|b)?\s*$")


class Trait(Strict):
    """A library trait. ``uses``: the rolls it can serve. A flaw gives a penalty die on ``affects``."""

    name: str
    combat: bool = Field(default=False, description="a combat trait serves attack and defense in one round (WR-09)")
    agility: bool = Field(default=False, description="agility-related: armour penalties apply (WR-20)")
    fighting: bool = Field(default=False, description="its dice set how many attackers one defends against (WR-31)")
    uses: list[Use] = Field(default_factory=list)
    weapons: list[str] = Field(
        default_factory=list, description="weapon ids it is good with; empty: any (Good with a Baseball Bat)"
    )
    flaw: bool = False
    affects: list[Affects] = Field(default_factory=list, description="a flaw's penalty die falls on these rolls")
    dodge_dice: int | None = Field(default=None, ge=0, le=6, description="a flaw that caps dodging (clumsy: 1)")
    description: str = ""

    @model_validator(mode="after")
    def _flaw_shape(self) -> Trait:
        if self.flaw and self.uses:
            raise ValueError("a flaw has 'affects', not 'uses'")
        if not self.flaw and (self.affects or self.dodge_dice is not None):
            raise ValueError("only a flaw has 'affects' or 'dodge_dice'")
        return self


class MeleeUse(Strict):
    factor: int = Field(ge=0, le=20, description="damage factor (WR-12)")


class RangedUse(Strict):
    factor: int = Field(ge=0, le=20, description="damage factor (WR-12)")
    row: str = Field(description=f"a range row: {', '.join(RANGE_ROWS)} (WR-15)")
    gunfire: bool = Field(default=False, description="a bullet or shot: regular armour halves, bullet-proof divides")
    thrown: bool = Field(default=False, description="the weapon leaves the hand when used")
    temporary: bool = Field(default=False, description="all damage temporary, all-or-nothing vs armour (taser)")
    per_distance: bool = Field(default=False, description="factor divided by the distance dice (shotgun)")

    @field_validator("row")
    @classmethod
    def _known_row(cls, value: str) -> str:
        if value not in RANGE_ROWS:
            raise ValueError(f"one of {', '.join(RANGE_ROWS)}")
        return value


class Weapon(Strict):
    name: str
    handiness: int = Field(default=1, ge=0, le=5, description="reach and blocking, for better weaponry (WR-31)")
    wound: WoundClass = Field(default="blades", description="what 'down' means after it (WR-25)")
    melee: MeleeUse | None = None
    ranged: RangedUse | None = None
    description: str = ""

    @model_validator(mode="after")
    def _has_a_use(self) -> Weapon:
        if self.melee is None and self.ranged is None:
            raise ValueError("a weapon needs 'melee', 'ranged' or both")
        return self


def parse_rating(text: str) -> list[tuple[int, str]]:
    """``"3/2b"`` -> ``[(3, "bare"), (2, "b")]``; ``"1 pt"`` -> ``[(1, "pt")]``. Rule: WR-B1."""
    parts = []
    for piece in str(text).split("/"):
        m = RATING.match(piece)
        if m is None:
            raise ValueError(f"an armour rating like '2', '1 pt', '1b' or '3/2b' (got {text!r})")
        unit = m.group(2) or "bare"
        parts.append((int(m.group(1)), "b" if unit == "b" else ("bare" if unit == "bare" else "pt")))
    return parts


class Armour(Strict):
    """An armour piece. ``rating``: a bare number (dice, WR-B1), 'N pt' (flat), 'Nb' (bullet-proof)."""

    name: str
    rating: str
    penalty: bool = False
    description: str = ""

    @field_validator("rating", mode="before")
    @classmethod
    def _rating(cls, value: object) -> str:
        text = str(value)
        parse_rating(text)
        return text


class Maneuver(Strict):
    """How an attack is made: its tag feeds the predictable-attack rule; a special effect halves damage."""

    name: str
    melee: bool = True
    ranged: bool = False
    predictable: bool = Field(default=False, description="boring by nature: a PC takes a penalty die (WR-17)")
    special: Special = Field(default="none", description="special effect on a big enough margin (WR-30)")
    description: str = ""


class Character(Strict):
    """A PC sheet or a GMC stat block. ``traits`` maps trait ids to their dice (WR-01, WR-03)."""

    name: str
    pc: bool = True
    hp: int | None = Field(default=None, ge=1, le=200, description="max hit points; default 21 (WR-B9)")
    traits: dict[str, int] = Field(default_factory=dict)
    flaws: list[str] = Field(default_factory=list)
    weapons: list[str] = Field(default_factory=list)
    wielding: str | None = None
    armour: list[str] = Field(default_factory=list, description="layers, innermost first (WR-21)")
    experience: int = Field(default=0, ge=0, le=30, description="Experience Pool dice (WR-04)")
    description: str = ""

    @field_validator("traits")
    @classmethod
    def _dice(cls, value: dict[str, int]) -> dict[str, int]:
        for trait, dice in value.items():
            if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= 10:
                raise ValueError(f"trait '{trait}' needs a whole number of dice from 1 to 10 (got {dice!r})")
        return value

    @model_validator(mode="after")
    def _wielding_carried(self) -> Character:
        if self.wielding not in (None, "unarmed") and self.wielding not in self.weapons:
            raise ValueError(f"wielding names '{self.wielding}', which is not in 'weapons'")
        return self


class CharacterPatch(Strict):
    """Inline stats in a scenario: any Character field, overriding the referenced content."""

    name: str | None = None
    pc: bool | None = None
    hp: int | None = Field(default=None, ge=1, le=200)
    traits: dict[str, int] | None = None
    flaws: list[str] | None = None
    weapons: list[str] | None = None
    wielding: str | None = None
    armour: list[str] | None = None
    experience: int | None = Field(default=None, ge=0, le=30)
    description: str | None = None


class WarpContent(Strict):
    """One WaRP content file: any of the five sections."""

    ruleset: Literal["warp"]
    traits: dict[str, Trait] = Field(default_factory=dict)
    weapons: dict[str, Weapon] = Field(default_factory=dict)
    armour: dict[str, Armour] = Field(default_factory=dict)
    maneuvers: dict[str, Maneuver] = Field(default_factory=dict)
    characters: dict[str, Character] = Field(default_factory=dict)


class WarpCombatant(CombatantBase):
    hidden: bool = Field(default=False, description=HIDDEN_HELP)
    stats: CharacterPatch | None = None
    position: float = Field(default=0.0, ge=-10000, le=10000, description="metres along the line (WR-X2)")
    hp: int | None = Field(default=None, ge=-200, le=200, description="current HP, if not full")
    cover: Cover = "none"
    cover_nearby: Cover = Field(default="none", description="the best cover a 'take_cover' action reaches")
    unaware: bool = Field(default=False, description="surprised: attacks against it get bonus dice (WR-31)")
    protecting: bool = Field(default=False, description="defends a loved one: a bonus die all fight (WR-31)")
    high_ground: bool = Field(default=False, description="better position against foes without it (WR-31)")


class WarpScenario(ScenarioBase):
    ruleset: Literal["warp"]
    mode: Literal["combat", "gestalt"] = "combat"
    darkness: Darkness = Field(default="none", description="darkness or fog for missiles (WR-14)")
    sides: list[Side[WarpCombatant]]  # at least two: ScenarioBase checks it

    @model_validator(mode="after")
    def _has_stats(self) -> WarpScenario:
        for _, c in self.combatants():
            if c.use is None and c.sheet is None and (c.stats is None or (c.stats.name is None and c.name is None)):
                raise ValueError(
                    f"combatant '{c.id}' needs 'use: <character id>', 'sheet: <file>' or stats with a name"
                )
        return self
