"""From a validated scenario to a self-contained setup, and from a setup to a fresh match state.

``prepare`` resolves every content reference, so the setup stored in a match log does not depend on
content files that may change later. ``build_state`` turns that plain data into the state dataclasses.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal, TypedDict

from affray.core.content import ContentLibrary
from affray.core.json import as_shape
from affray.core.sheets import combatant_character
from affray.rulesets.hud.content_model import Armour, Character, HudCombatant, HudScenario, Weapon
from affray.rulesets.hud.mechanics import Band, band_of_distance
from affray.rulesets.hud.options import HudOptions
from affray.rulesets.hud.state import Arm, Fighter, HudState


class ArmourSetup(TypedDict):
    """Worn armour: its name, its attack penalty (WL-03) and its Injury bonus (WL-B2)."""

    name: str
    penalty: int
    injury: int


class WeaponSetup(TypedDict):
    """A weapon or shield as the content gives it (:class:`~affray.rulesets.hud.content_model.Weapon`)."""

    name: str
    kind: Literal["melee", "ranged", "shield"]
    hands: Literal[1, 2]
    carry: Literal["sheath", "back", "belt", "arm"]
    attack: int
    defense: int
    damage: int
    description: str


class CombatantSetup(TypedDict):
    """One combatant of the setup: its character resolved, its side and where it starts (WL-B13)."""

    id: str
    name: str
    side: str
    endurance: int
    hp: int | None
    agility: int
    strength: int
    armour: ArmourSetup | None
    weapons: dict[str, WeaponSetup]
    in_hand: list[str]
    actions_per_round: int | None
    tags: list[str]
    at_range: bool
    band: Band | None
    distance: float | None


class HudSetup(TypedDict):
    """What ``prepare`` makes of a HuD scenario (plain JSON in a match log): the mode, who attacks first by the
    scene's logic (WL-05), the scenario's name and the combatants."""

    mode: Literal["free_form", "simplified", "nerdified"]
    first: str | None
    name: str
    combatants: list[CombatantSetup]


def hud_setup(data: Mapping[str, object]) -> HudSetup:
    """A setup read back as JSON (from a log, a table, a simulation spec) as what it is: ``prepare`` made it, and
    JSON keeps its shape, so it is taken as a :class:`HudSetup` unchecked."""
    return as_shape(HudSetup, data)


def _character(
    where: str, combatant: HudCombatant, content: ContentLibrary, sheet_file: Path | None = None
) -> Character:
    return combatant_character("hud", Character, where, combatant, content, sheet_file, ("characters",))


def prepare(scenario: HudScenario, content: ContentLibrary) -> HudSetup:
    """The scenario with content resolved into plain data (the match setup)."""
    combatants: list[CombatantSetup] = []
    for i, side in enumerate(scenario.sides):
        for j, c in enumerate(side.combatants):
            sheet = scenario.sheet_path(c.sheet) if c.sheet is not None else None
            combatants.append(_combatant(f"sides[{i}].combatants[{j}]", side.name, c, content, sheet))
    return {"mode": scenario.mode, "first": scenario.first, "name": scenario.name, "combatants": combatants}


def _weapon(weapon: Weapon) -> WeaponSetup:
    return {
        "name": weapon.name,
        "kind": weapon.kind,
        "hands": weapon.hands,
        "carry": weapon.carry,
        "attack": weapon.attack,
        "defense": weapon.defense,
        "damage": weapon.damage,
        "description": weapon.description,
    }


def _combatant(
    where: str, side: str, c: HudCombatant, content: ContentLibrary, sheet_file: Path | None = None
) -> CombatantSetup:
    ch = _character(where, c, content, sheet_file)
    armour: ArmourSetup | None = None
    if ch.armour is not None:
        item: Armour = content.require("armour", ch.armour, f"{where}: armour")
        armour = {"name": item.name, "penalty": item.penalty, "injury": item.injury}
    weapons: dict[str, WeaponSetup] = {}
    for w in ch.weapons:
        weapon: Weapon = content.require("weapons", w, f"{where}: weapons")
        weapons[w] = _weapon(weapon)
    in_hand = ch.in_hand if ch.in_hand is not None else _default_hand(weapons)
    return {
        "id": c.id,
        "name": ch.name,
        "side": side,
        "endurance": ch.endurance,
        "hp": c.hp,
        "agility": ch.agility,
        "strength": ch.strength,
        "armour": armour,
        "weapons": weapons,
        "in_hand": in_hand,
        "actions_per_round": ch.actions_per_round,
        "tags": list(ch.tags),
        "at_range": c.at_range,
        "band": c.band,
        "distance": c.distance,
    }


def _default_hand(weapons: Mapping[str, WeaponSetup]) -> list[str]:
    """The first weapon in hand, plus a shield ready on the arm if it fits."""
    hand: list[str] = []
    used = 0
    for wid, w in weapons.items():
        if w["kind"] != "shield" and not hand:
            hand.append(wid)
            used += w["hands"]
    for wid, w in weapons.items():
        if w["kind"] == "shield" and w["carry"] == "arm" and used < 2:
            hand.append(wid)
            used += 1
    return hand


def start_band(c: CombatantSetup, options: HudOptions) -> Band:
    """A combatant's starting range band: its ``band``, else its ``distance`` in metres, else far when ``at_range``,
    else engaged. Rule: WL-B13 (as revised; option ``free_move_metres``)."""
    band, distance = c.get("band"), c.get("distance")
    if band is not None:
        return band
    if distance is not None:
        return band_of_distance(distance, options.pursuit_catch_gap, options.free_move_metres)
    return "far" if c.get("at_range") else "engaged"


def at_range(bands: Mapping[str, Band]) -> dict[str, bool]:
    """Who starts at range (near or far): the combatants WL-07's free attack and WL-16's free round look at."""
    return {a: b != "engaged" for a, b in bands.items()}


def build_state(setup: HudSetup, options: HudOptions) -> tuple[HudState, dict[str, Band]]:
    """Fresh state for ``setup``; also returns each combatant's starting band (WL-B13)."""
    fighters: dict[str, Fighter] = {}
    bands: dict[str, Band] = {}
    simple = setup["mode"] != "nerdified"
    for c in setup["combatants"]:
        arms = {
            wid: Arm(
                wid,
                w["name"],
                w["kind"],
                w["hands"],
                w["carry"],
                w["attack"],
                w["defense"],
                w["damage"],
                "hand" if wid in c["in_hand"] else "stowed",
            )
            for wid, w in c["weapons"].items()
        }
        max_hp = options.simplified_hp if simple else c["endurance"]  # WL-04, WL-08
        armour = c["armour"] or {"name": "", "penalty": 0, "injury": 0}
        fighters[c["id"]] = Fighter(
            c["id"],
            c["name"],
            c["side"],
            max_hp,
            max_hp if c["hp"] is None else min(c["hp"], max_hp),
            c["agility"],
            c["strength"],
            armour["name"],
            armour["penalty"],
            armour["injury"],
            arms,
            c["actions_per_round"] or options.default_actions_per_round,
            "trained_witcher" in c["tags"],
        )
        bands[c["id"]] = start_band(c, options)
    return HudState(setup["mode"], options, fighters), bands
