"""The WitchHammer character sheet: its schema, the costs of WH-32 and the builder's rule options.

A sheet records what was *granted* (the creation points of WH-31 and the adventure rewards of WH-35) and what was
*bought* (attribute and skill purchases, school levels, techniques, traits, traded School points); the points left
and every statistic are derived from those, never typed in, so a sheet cannot disagree with itself.

Rules: WH-31 (creation points), WH-32 (costs), WH-33 (schools, the 5-point trade), WH-34 (techniques), WH-35
(rewards), WH-36 (equipment), WH-37 (money, hats), WH-23/WH-B23 (afflictions), WH-B17 (base line, +5 Max Poise),
WH-B22 (no bought Ranged/Fire/Ice Defense). The builder's own rulings are WH-Cn (``docs/characters.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from affray.characters.sheet import SheetModel
from affray.core.options import option
from affray.core.scenario import Strict
from affray.rulesets.witchhammer.content_model import Skill
from affray.rulesets.witchhammer.mechanics import AFFLICTIONS

#: Rule: WH-32. Attribute points per purchase.
ATTRIBUTE_COST: dict[str, int] = {
    "attack": 4,
    "defense": 3,
    "max_poise": 2,
    "init": 1,
    "solid_damage": 2,
    "con_defense": 2,
    "agility_defense": 2,
    "will_defense": 2,
    "fear_defense": 2,
}
SKILL_COST = 2  # Rule: WH-32 ("+1 to a Skill": 2 points)
SKILLS: tuple[str, ...] = ("charm", "intimidation", "tracking", "perception", "stealth", "spirit_lore", "history")
ATTRIBUTE_LABEL: dict[str, str] = {
    "attack": "Attack",
    "defense": "Defense",
    "max_poise": "Max Poise",
    "init": "Initiative",
    "solid_damage": "Damage on Solid Hit",
    "con_defense": "Con Defense",
    "agility_defense": "Agility Defense",
    "will_defense": "Will Defense",
    "fear_defense": "Fear Defense",
}
#: Rule: WH-B22. Defenses the game uses but no one can buy.
NOT_FOR_SALE: dict[str, str] = {
    "ranged_defense": "Ranged Defense",
    "fire_defense": "Fire Defense",
    "ice_defense": "Ice Defense",
}
ALIASES: dict[str, str] = {
    "poise": "max_poise",
    "initiative": "init",
    "damage_on_solid_hit": "solid_damage",
    "solid_hit": "solid_damage",
    "con": "con_defense",
    "agility": "agility_defense",
    "will": "will_defense",
    "fear": "fear_defense",
    "ranged": "ranged_defense",
    "fire": "fire_defense",
    "ice": "ice_defense",
}
Reward = Literal["hunt", "defeat", "witch"]
OUTRE_AT = 3  # Ruling WH-C4: this many attachments of one kind on a hat are outré
MAX_MISC = 5  # Rule: WH-36


def attribute_name(text: str) -> str:
    """``"Max Poise"``, ``"max-poise"`` or ``"poise"`` -> ``"max_poise"`` (unknown names pass through)."""
    key = re.sub(r"[\s-]+", "_", text.strip().lower())
    return ALIASES.get(key, key)


def wh_b22(name: str) -> str:
    return (
        f"{NOT_FOR_SALE[name]} cannot be bought with Attribute points (WH-B22): it comes only from "
        "techniques, traits or armour"
    )


@dataclass(frozen=True, slots=True)
class BuildRules:
    """The character builder's numbers. A sheet may change them under ``house_rules`` (contract 8)."""

    attribute_points: int = option(15, low=0, high=1000, rule="WH-31", doc="Attribute points of a new PC.")
    school_points: int = option(1, low=0, high=100, rule="WH-31", doc="School points of a new PC.")
    technique_points: int = option(7, low=0, high=1000, rule="WH-31", doc="Technique points of a new PC.")
    trait_points: int = option(2, low=0, high=100, rule="WH-31", doc="Trait points of a new PC.")
    techniques_per_school_point: int = option(
        5, low=0, high=100, rule="WH-33", doc="Technique points one School point trades for."
    )
    base_poise: int = option(20, low=1, high=1000, rule="WH-B17", doc="Max Poise of a new PC before purchases.")
    base_health: int = option(12, low=1, high=1000, rule="WH-B17", doc="Health of a new PC (Health is never bought).")
    poise_per_purchase: int = option(5, low=0, high=100, rule="WH-B17", doc="Max Poise gained per Max Poise purchase.")
    general_techniques: str = option(
        "learned",
        rule="WH-C3",
        choices=("learned", "free"),
        doc="General Combat School techniques are learned one by one with Technique points like any other "
        "(WH-34), or all known for free ('free', matching the fight option general_school_deck='all').",
    )
    pc_traits: str = option(
        "chrome",
        rule="WH-C1",
        choices=("chrome", "any"),
        doc="Trait points buy only chrome traits, whose modifiers touch skills alone ('chrome'); monster "
        "templates such as Sickly or Size Small are refused. 'any' allows every trait.",
    )
    outre_at: int = option(
        OUTRE_AT, low=1, high=100, rule="WH-C4", doc="A hat with this many attachments of one kind is flagged as outré."
    )
    money_die: int = option(
        100, low=1, high=1000000, rule="WH-37", doc="Starting money: one die of this size, in silver."
    )


class Attributes(Strict):
    """Attribute purchases (how many times each was bought), at the costs of WH-32."""

    attack: int = Field(default=0, ge=0, le=40)
    defense: int = Field(default=0, ge=0, le=40)
    max_poise: int = Field(default=0, ge=0, le=40, description="each purchase: +5 Max Poise (WH-B17)")
    init: int = Field(default=0, ge=0, le=40)
    solid_damage: int = Field(default=0, ge=0, le=40)
    con_defense: int = Field(default=0, ge=0, le=40)
    agility_defense: int = Field(default=0, ge=0, le=40)
    will_defense: int = Field(default=0, ge=0, le=40)
    fear_defense: int = Field(default=0, ge=0, le=40)

    @model_validator(mode="before")
    @classmethod
    def _not_for_sale(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in data:
                if attribute_name(str(key)) in NOT_FOR_SALE:
                    raise ValueError(wh_b22(attribute_name(str(key))))
        return data

    def cost(self) -> int:
        return sum(ATTRIBUTE_COST[k] * getattr(self, k) for k in ATTRIBUTE_COST)


class Gem(Strict):
    """Something valuable attached to a hat: its kind (for outré) and its value in silver (WH-37)."""

    kind: str = Field(min_length=1, max_length=60, description="e.g. garnet, pearl, jay feather")
    value: int = Field(ge=0, le=1_000_000)


class Hat(Strict):
    """A hat: its base value in silver and what is attached to it (WH-37)."""

    name: str = Field(min_length=1, max_length=120)
    value: int = Field(default=0, ge=0, le=1_000_000)
    gems: list[Gem] = Field(default_factory=list)

    @property
    def total(self) -> int:
        """Base value plus every attachment (WH-37)."""
        return self.value + sum(g.value for g in self.gems)


class MoneyRoll(Strict):
    """The starting-money roll (WH-37): its value, and where it came from so anyone can re-derive it.

    ``seed`` (hex) and ``draw`` re-derive the die; ``commitment`` is the seed's SHA-256 published before the roll.
    A roll made with physical dice at the table has neither (ruling WH-C8).
    """

    notation: str = Field(default="1d100", pattern=r"^1d[1-9][0-9]*$")
    value: int = Field(ge=1, le=1000)
    draw: int = Field(default=0, ge=0)
    seed: str | None = Field(default=None, pattern=r"^[0-9a-f]{32,128}$")
    commitment: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")


class LedgerEntry(Strict):
    """Silver gained (positive) or spent (negative), and on what (WH-37: hats, potions, relics...)."""

    silver: int = Field(ge=-1_000_000, le=1_000_000)
    what: str = Field(min_length=1, max_length=200)

    @field_validator("silver")
    @classmethod
    def _not_zero(cls, value: int) -> int:
        if value == 0:
            raise ValueError("a ledger entry moves some silver (not 0)")
        return value


class Money(Strict):
    """Silver on hand = the starting roll + the ledger (ruling WH-C9)."""

    roll: MoneyRoll
    silver: int = Field(ge=0)
    ledger: list[LedgerEntry] = Field(default_factory=list)


class Equipment(Strict):
    """1 weapon, 1 armour set and 5 misc items (WH-36). No magic weapons: a weapon is only a name."""

    weapon: str | None = Field(default=None, min_length=1, max_length=80)
    armour: str | None = Field(default=None, description="an armour id from the content")
    misc: list[str] = Field(default_factory=list)

    @field_validator("misc")
    @classmethod
    def _five_items(cls, items: list[str]) -> list[str]:
        if len(items) > MAX_MISC:
            raise ValueError(f"at most {MAX_MISC} misc items (WH-36), got {len(items)}")
        if any(not item.strip() for item in items):
            raise ValueError("a misc item needs a name")
        return items


class RewardEntry(Strict):
    """One adventure reward (WH-35): hunt, defeat (or a good job) or witch, with a note of the adventure."""

    reward: Reward
    note: str = ""


class WitchHammerSheet(SheetModel):
    """A WitchHammer PC. Everything numeric is derived from these fields (see the module docstring)."""

    ruleset: Literal["witchhammer"]
    house_rules: dict[str, Any] = Field(default_factory=dict, description="BuildRules overrides")
    attributes: Attributes = Field(default_factory=Attributes)
    skills: dict[Skill, int] = Field(default_factory=dict, description="skill purchases, +1 each (WH-32)")
    schools: dict[str, int] = Field(
        default_factory=dict, description="school id -> level learned with School points (WH-33)"
    )
    traded_school_points: int = Field(default=0, ge=0, le=40, description="School points traded (WH-33)")
    techniques: list[str] = Field(default_factory=list, description="learned cards and passives (WH-34)")
    traits: list[str] = Field(default_factory=list)
    equipment: Equipment = Field(default_factory=Equipment)
    hat: Hat | None = None
    money: Money | None = None
    rewards: list[RewardEntry] = Field(default_factory=list)
    wounds: int = Field(default=0, ge=0, le=400, description="Wounds carried into the next fight (WH-19)")
    afflictions: list[str] = Field(default_factory=list, description="WH-23 table results (WH-B23)")

    @field_validator("skills")
    @classmethod
    def _skill_counts(cls, value: dict[str, int]) -> dict[str, int]:
        for skill, n in value.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 20:
                raise ValueError(f"skill '{skill}' needs a whole number of purchases from 0 to 20; got {n!r}")
        return value

    @field_validator("schools")
    @classmethod
    def _school_levels(cls, value: dict[str, int]) -> dict[str, int]:
        for school, level in value.items():
            if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 5:
                raise ValueError(
                    f"school '{school}' needs a level from 1 to 5 (a level needs every level below "
                    f"it, WH-33); got {level!r}"
                )
        return value

    @field_validator("traits")
    @classmethod
    def _traits_once(cls, value: list[str]) -> list[str]:
        twice = sorted({t for t in value if value.count(t) > 1})
        if twice:
            raise ValueError(f"a trait is taken once ({', '.join(twice)} twice)")
        return value

    @field_validator("afflictions")
    @classmethod
    def _from_the_table(cls, value: list[str]) -> list[str]:
        known = {a.lower(): a for a in AFFLICTIONS}
        out = []
        for name in value:
            if name.lower() not in known:
                raise ValueError(
                    f"entries of the affliction table (WH-23), e.g. 'Eye Scar' or 'Broken leg'; {name!r} is not one"
                )
            out.append(known[name.lower()])
        return out
