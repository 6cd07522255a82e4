"""Schemas of Sim HuD content (weapons, armour, characters) and scenarios.

Rules: WL-02/WL-03 (the HuD's stats, armour classes and weapons), WL-B2 (how they modify the rolls:
Attack = d13 + weapon attack - armour penalty; Defense = d13 + defense of what is in hand;
Damage = d13 + weapon damage; Injury = d13 + armour injury), WL-B12 (actions per round, trained witcher).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from affray.core.hidden import HIDDEN_HELP
from affray.core.scenario import CombatantBase, ScenarioBase, Side, Strict
from affray.rulesets.hud.mechanics import ARMOUR_ATTACK_PENALTY

Mod = Field(default=0, ge=-10, le=10)


class Weapon(Strict):
    """A weapon or shield. ``carry`` is where it sits when not in hand (WL-20)."""

    name: str
    kind: Literal["melee", "ranged", "shield"] = "melee"
    hands: Literal[1, 2] = 1
    carry: Literal["sheath", "back", "belt", "arm"] = "sheath"
    attack: int = Mod
    defense: int = Mod
    damage: int = Mod
    description: str = ""

    @model_validator(mode="after")
    def _shield_is_one_handed(self) -> Weapon:
        if self.kind == "shield" and self.hands != 1:
            raise ValueError("a shield is held in one hand (hands: 1)")
        return self


class Armour(Strict):
    """Light, medium or heavy armour: its attack penalty (0/1/2, WL-03) and its Injury bonus (WL-B2)."""

    name: str
    weight: Literal["light", "medium", "heavy"]
    attack_penalty: int | None = Field(default=None, ge=0, le=5, description="defaults to 0/1/2 by weight")
    injury: int = Mod
    description: str = ""

    @property
    def penalty(self) -> int:
        return ARMOUR_ATTACK_PENALTY[self.weight] if self.attack_penalty is None else self.attack_penalty


class Character(Strict):
    """A character or monster sheet for the HuD. Stats are small integers (WL-B2)."""

    name: str
    endurance: int = Field(ge=1, le=30, description="hit points in Combat Nerdified (WL-08)")
    agility: int = Field(default=0, ge=0, le=5)
    strength: int = Field(default=0, ge=0, le=5)
    armour: str | None = Field(default=None, description="an armour id")
    weapons: list[str] = Field(default_factory=list, description="weapon ids carried")
    in_hand: list[str] | None = Field(
        default=None,
        description="weapon ids in hand at the start; default: the first weapon, plus a shield ready on the arm",
    )
    actions_per_round: int | None = Field(default=None, ge=1, le=6)
    tags: list[Literal["trained_witcher", "monster"]] = Field(default_factory=list)
    description: str = ""

    @model_validator(mode="after")
    def _unique_weapons(self) -> Character:
        if len(set(self.weapons)) != len(self.weapons):
            raise ValueError("a weapon id may appear once in 'weapons'")
        missing = [w for w in self.in_hand or [] if w not in self.weapons]
        if missing:
            raise ValueError(f"in_hand names weapons not carried: {', '.join(missing)}")
        return self


class CharacterPatch(Strict):
    """Inline stats in a scenario: any Character field, overriding the referenced content."""

    name: str | None = None
    endurance: int | None = Field(default=None, ge=1, le=30)
    agility: int | None = Field(default=None, ge=0, le=5)
    strength: int | None = Field(default=None, ge=0, le=5)
    armour: str | None = None
    weapons: list[str] | None = None
    in_hand: list[str] | None = None
    actions_per_round: int | None = Field(default=None, ge=1, le=6)
    tags: list[Literal["trained_witcher", "monster"]] | None = None
    description: str | None = None


class HudContent(Strict):
    """One HuD content file: any of the three sections."""

    ruleset: Literal["hud"]
    weapons: dict[str, Weapon] = Field(default_factory=dict)
    armour: dict[str, Armour] = Field(default_factory=dict)
    characters: dict[str, Character] = Field(default_factory=dict)


class HudCombatant(CombatantBase):
    hidden: bool = Field(default=False, description=HIDDEN_HELP)
    stats: CharacterPatch | None = None
    band: Literal["engaged", "near", "far"] | None = Field(
        default=None,
        description="starting range band toward the others (WL-B13): engaged (default), near (the "
        "free 10 m move closes it) or far (only a charge crosses it)",
    )
    distance: float | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="starting distance in metres toward "
        "the others, instead of a band (WL-B13; option free_move_metres)",
    )
    at_range: bool = Field(default=False, description="starts at range: the same as 'band: far' (WL-07, WL-16)")
    hp: int | None = Field(default=None, description="starting hit points, if not full")

    @model_validator(mode="after")
    def _one_start(self) -> HudCombatant:
        given = [
            name
            for name, v in (("band", self.band), ("distance", self.distance), ("at_range", self.at_range or None))
            if v is not None
        ]
        if len(given) > 1:
            raise ValueError(f"give one of band, distance and at_range, not {' and '.join(given)}")
        return self


class HudScenario(ScenarioBase):
    ruleset: Literal["hud"]
    mode: Literal["free_form", "simplified", "nerdified"] = Field(
        default="free_form",
        description="free_form (the sim's default, WL-00, WL-B16: a scene that names no mode), "
        "simplified (Dice Simplified, WL-04..WL-07) or nerdified (Combat Nerdified, WL-08..WL-22)",
    )
    first: str | None = Field(default=None, description="who attacks first by the scene's logic (WL-05)")
    sides: list[Side[HudCombatant]]  # at least two: ScenarioBase checks it

    @model_validator(mode="after")
    def _first_exists(self) -> HudScenario:
        ids = {c.id for _, c in self.combatants()}
        if self.first is not None and self.first not in ids:
            raise ValueError(f"first names '{self.first}', who is not in the scenario")
        for _, c in self.combatants():
            if (
                c.use is None
                and c.sheet is None
                and (c.stats is None or c.stats.endurance is None or (c.stats.name is None and c.name is None))
            ):
                raise ValueError(
                    f"combatant '{c.id}' needs 'use: <character id>', 'sheet: <file>' or stats with name and endurance"
                )
        return self
