"""From a validated scenario to a self-contained setup, and from a setup to a fresh match state.

``prepare`` resolves every content reference (traits, flaws, weapons, armour, maneuvers), so the setup
stored in a match log does not depend on content files that may change later. ``build_state`` turns
that plain data into the state dataclasses, applying the options that shape it (WR-B1, WR-B3, WR-B9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal, TypedDict

from affray.core.content import ContentLibrary, ReferenceProblem
from affray.core.json import as_shape
from affray.core.sheets import combatant_character
from affray.rulesets.warp.content_model import (
    Armour,
    Character,
    Cover,
    Darkness,
    Maneuver,
    Trait,
    WarpCombatant,
    WarpScenario,
    Weapon,
    WoundClass,
    parse_rating,
)
from affray.rulesets.warp.mechanics import armour_penalty_dice
from affray.rulesets.warp.options import WarpOptions
from affray.rulesets.warp.state import (
    UNARMED,
    Arm,
    Fighter,
    Flaw,
    ManeuverInfo,
    Protection,
    RangedProfile,
    TraitRating,
    WarpState,
)


class TraitSetup(TypedDict):
    """A trait of a combatant: its dice and what the library says of it (WR-01, WR-09, WR-20, WR-31)."""

    name: str
    dice: int
    combat: bool
    agility: bool
    fighting: bool
    uses: list[str]
    weapons: list[str]


class FlawSetup(TypedDict):
    """A flaw: the rolls its penalty die falls on, and a cap on dodging (clumsy)."""

    id: str
    name: str
    affects: list[str]
    dodge_dice: int | None


class MeleeSetup(TypedDict):
    factor: int


class RangedSetup(TypedDict):
    factor: int
    row: str
    gunfire: bool
    thrown: bool
    temporary: bool
    per_distance: bool


class WeaponSetup(TypedDict):
    """A weapon as the content gives it (:class:`~affray.rulesets.warp.content_model.Weapon`, dumped)."""

    name: str
    handiness: int
    wound: WoundClass
    melee: MeleeSetup | None
    ranged: RangedSetup | None
    description: str


class ArmourSetup(TypedDict):
    """One armour layer: its rating as written (WR-19, WR-B1) and whether it gives a penalty die (WR-20)."""

    name: str
    rating: str
    penalty: bool


class ManeuverSetup(TypedDict):
    """A maneuver as the content gives it (:class:`~affray.rulesets.warp.content_model.Maneuver`, dumped)."""

    name: str
    melee: bool
    ranged: bool
    predictable: bool
    special: str
    description: str


class CombatantSetup(TypedDict):
    """One combatant of the setup: its character resolved, its side, where it stands and how (WR-X2, WR-31)."""

    id: str
    name: str
    side: str
    pc: bool
    max_hp: int | None
    hp: int | None
    traits: dict[str, TraitSetup]
    flaws: list[FlawSetup]
    weapons: dict[str, WeaponSetup]
    carried: dict[str, int]
    wielding: str
    armour: list[ArmourSetup]
    experience: int
    position: float
    cover: Cover
    cover_nearby: Cover
    unaware: bool
    protecting: bool
    high_ground: bool


class WarpSetup(TypedDict):
    """What ``prepare`` makes of a WaRP scenario (plain JSON in a match log): the mode, the scenario's name, the
    darkness (WR-14), the combatants and every maneuver of the content."""

    mode: Literal["combat", "gestalt"]
    name: str
    darkness: Darkness
    combatants: list[CombatantSetup]
    maneuvers: dict[str, ManeuverSetup]


def warp_setup(data: Mapping[str, object]) -> WarpSetup:
    """A setup read back as JSON (from a log, a table, a simulation spec) as what it is: ``prepare`` made it, and
    JSON keeps its shape, so it is taken as a :class:`WarpSetup` unchecked."""
    return as_shape(WarpSetup, data)


def _weapon(weapon: Weapon) -> WeaponSetup:
    return as_shape(WeaponSetup, weapon.model_dump())


def _maneuver(maneuver: Maneuver) -> ManeuverSetup:
    return as_shape(ManeuverSetup, maneuver.model_dump())


BARE_HANDS: WeaponSetup = {
    "name": "bare hands",
    "handiness": 0,
    "wound": "fists",
    "melee": {"factor": 1},
    "ranged": None,
    "description": "",
}


def _character(
    where: str, combatant: WarpCombatant, content: ContentLibrary, sheet_file: Path | None = None
) -> Character:
    return combatant_character("warp", Character, where, combatant, content, sheet_file, ("characters",))


def prepare(scenario: WarpScenario, content: ContentLibrary) -> WarpSetup:
    """The scenario with content resolved into plain data (the match setup)."""
    combatants: list[CombatantSetup] = []
    for i, side in enumerate(scenario.sides):
        for j, c in enumerate(side.combatants):
            sheet = scenario.sheet_path(c.sheet) if c.sheet is not None else None
            combatants.append(_combatant(f"sides[{i}].combatants[{j}]", side.name, c, content, sheet))
    maneuvers = {mid: _maneuver(m) for mid, m in sorted(content.sections.get("maneuvers", {}).items())}
    if "attack" not in maneuvers:
        raise ReferenceProblem("maneuvers", "the content defines the default maneuver 'attack'")
    return {
        "mode": scenario.mode,
        "name": scenario.name,
        "darkness": scenario.darkness,
        "combatants": combatants,
        "maneuvers": maneuvers,
    }


def _traits(where: str, ch: Character, content: ContentLibrary) -> tuple[dict[str, TraitSetup], list[FlawSetup]]:
    traits: dict[str, TraitSetup] = {}
    for tid, dice in ch.traits.items():
        trait: Trait = content.require("traits", tid, f"{where}: traits.{tid}")
        if trait.flaw:
            raise ReferenceProblem(f"{where}: traits.{tid}", f"a trait, not a flaw ('{tid}' belongs in 'flaws')")
        traits[tid] = {
            "name": trait.name,
            "dice": dice,
            "combat": trait.combat,
            "agility": trait.agility,
            "fighting": trait.fighting,
            "uses": list(trait.uses),
            "weapons": list(trait.weapons),
        }
    flaws: list[FlawSetup] = []
    for fid in ch.flaws:
        flaw: Trait = content.require("traits", fid, f"{where}: flaws")
        if not flaw.flaw:
            raise ReferenceProblem(f"{where}: flaws", f"a flaw ('{fid}' is a trait)")
        flaws.append({"id": fid, "name": flaw.name, "affects": list(flaw.affects), "dodge_dice": flaw.dodge_dice})
    return traits, flaws


def _combatant(
    where: str, side: str, c: WarpCombatant, content: ContentLibrary, sheet_file: Path | None = None
) -> CombatantSetup:
    ch = _character(where, c, content, sheet_file)
    traits, flaws = _traits(where, ch, content)
    weapons: dict[str, WeaponSetup] = {}
    carried: dict[str, int] = {}
    for wid in ch.weapons:
        weapon: Weapon = content.require("weapons", wid, f"{where}: weapons")
        weapons[wid] = _weapon(weapon)
        carried[wid] = carried.get(wid, 0) + 1
    unarmed = content.sections.get("weapons", {}).get(UNARMED)
    weapons[UNARMED] = _weapon(unarmed) if unarmed is not None else BARE_HANDS.copy()
    armour: list[ArmourSetup] = []
    for aid in ch.armour:
        item: Armour = content.require("armour", aid, f"{where}: armour")
        armour.append({"name": item.name, "rating": item.rating, "penalty": item.penalty})
    wielding = (
        ch.wielding
        or next((w for w in ch.weapons if weapons[w]["melee"] is not None), None)
        or (ch.weapons[0] if ch.weapons else UNARMED)
    )
    return {
        "id": c.id,
        "name": ch.name,
        "side": side,
        "pc": ch.pc,
        "max_hp": ch.hp,
        "hp": c.hp,
        "traits": traits,
        "flaws": flaws,
        "weapons": weapons,
        "carried": carried,
        "wielding": wielding,
        "armour": armour,
        "experience": ch.experience,
        "position": c.position,
        "cover": c.cover,
        "cover_nearby": c.cover_nearby,
        "unaware": c.unaware,
        "protecting": c.protecting,
        "high_ground": c.high_ground,
    }


def protection(layers: Sequence[ArmourSetup], options: WarpOptions) -> Protection:
    """Sum the armour layers (WR-19, WR-21, WR-22) and count penalty dice (WR-20, WR-B3)."""
    dice = flat = bullet = 0
    for layer in layers:
        for value, unit in parse_rating(layer["rating"]):
            if unit == "b":
                bullet += value
            elif unit == "pt" or options.armour_bare_number == "points":
                flat += value
            else:
                dice += value
    flags = [bool(layer["penalty"]) for layer in layers]
    penalty = sum(flags) if options.layered_armour_penalty == "flagged_only" else armour_penalty_dice(flags)
    return Protection(tuple(str(layer["name"]) for layer in layers), dice, flat, bullet, penalty)


def _arm(wid: str, w: WeaponSetup) -> Arm:
    r = w.get("ranged")
    ranged = (
        None
        if r is None
        else RangedProfile(r["factor"], r["row"], r["gunfire"], r["thrown"], r["temporary"], r["per_distance"])
    )
    melee = w.get("melee")
    return Arm(wid, w["name"], w["handiness"], w["wound"], None if melee is None else melee["factor"], ranged)


def build_fighter(c: CombatantSetup, options: WarpOptions) -> Fighter:
    max_hp = c["max_hp"] if c["max_hp"] is not None else options.default_hp  # WR-B9
    hp = max_hp if c["hp"] is None else min(c["hp"], max_hp)
    traits = {
        tid: TraitRating(
            tid,
            t["name"],
            t["dice"],
            t["combat"],
            t["agility"],
            t["fighting"],
            tuple(t["uses"]),
            tuple(t.get("weapons", ())),
        )
        for tid, t in c["traits"].items()
    }
    flaws = [Flaw(f["id"], f["name"], tuple(f["affects"]), f["dodge_dice"]) for f in c["flaws"]]
    arms = {wid: _arm(wid, w) for wid, w in c["weapons"].items()}
    return Fighter(
        c["id"],
        c["name"],
        c["side"],
        c["pc"],
        max_hp,
        hp,
        hp,
        traits,
        flaws,
        arms,
        dict(c["carried"]),
        c["wielding"],
        protection(c["armour"], options),
        c["experience"],
        float(c["position"]),
        cover=c["cover"],
        cover_nearby=c["cover_nearby"],
        unaware=c["unaware"],
        protecting=c["protecting"],
        high_ground=c["high_ground"],
    )


def build_state(setup: WarpSetup, options: WarpOptions) -> WarpState:
    """Fresh state for ``setup``."""
    fighters = {c["id"]: build_fighter(c, options) for c in setup["combatants"]}
    maneuvers = {
        mid: ManeuverInfo(mid, m["name"], m["melee"], m["ranged"], m["predictable"], m["special"])
        for mid, m in setup["maneuvers"].items()
    }
    return WarpState(setup["mode"], options, fighters, maneuvers, setup.get("darkness", "none"))
