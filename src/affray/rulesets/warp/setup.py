"""From a validated scenario to a self-contained setup, and from a setup to a fresh match state.

``prepare`` resolves every content reference (traits, flaws, weapons, armour, maneuvers), so the setup
stored in a match log does not depend on content files that may change later. ``build_state`` turns
that plain data into the state dataclasses, applying the options that shape it (WR-B1, WR-B3, WR-B9).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from affray.core.content import ContentLibrary, ReferenceProblem
from affray.core.sheets import combatant_character
from affray.rulesets.warp.content_model import Character, Trait, WarpScenario, parse_rating
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

BARE_HANDS = {"name": "bare hands", "handiness": 0, "wound": "fists", "melee": {"factor": 1}, "ranged": None,
              "description": ""}


def _character(where: str, combatant: Any, content: ContentLibrary, sheet_file: Path | None = None) -> Character:
    return combatant_character("warp", Character, where, combatant, content, sheet_file, ("characters",))


def prepare(scenario: WarpScenario, content: ContentLibrary) -> dict[str, Any]:
    """The scenario with content resolved into plain data (the match setup)."""
    combatants = []
    for i, side in enumerate(scenario.sides):
        for j, c in enumerate(side.combatants):
            sheet = scenario.sheet_path(c.sheet) if c.sheet is not None else None
            combatants.append(_combatant(f"sides[{i}].combatants[{j}]", side.name, c, content, sheet))
    maneuvers = {mid: m.model_dump() for mid, m in sorted(content.sections.get("maneuvers", {}).items())}
    if "attack" not in maneuvers:
        raise ReferenceProblem("maneuvers", "the content defines the default maneuver 'attack'")
    return {"mode": scenario.mode, "name": scenario.name, "darkness": scenario.darkness,
            "combatants": combatants, "maneuvers": maneuvers}


def _traits(where: str, ch: Character, content: ContentLibrary) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    traits: dict[str, Any] = {}
    for tid, dice in ch.traits.items():
        trait: Trait = content.require("traits", tid, f"{where}: traits.{tid}")
        if trait.flaw:
            raise ReferenceProblem(f"{where}: traits.{tid}", f"a trait, not a flaw ('{tid}' belongs in 'flaws')")
        traits[tid] = {"name": trait.name, "dice": dice, "combat": trait.combat, "agility": trait.agility,
                       "fighting": trait.fighting, "uses": list(trait.uses), "weapons": list(trait.weapons)}
    flaws = []
    for fid in ch.flaws:
        flaw: Trait = content.require("traits", fid, f"{where}: flaws")
        if not flaw.flaw:
            raise ReferenceProblem(f"{where}: flaws", f"a flaw ('{fid}' is a trait)")
        flaws.append({"id": fid, "name": flaw.name, "affects": list(flaw.affects), "dodge_dice": flaw.dodge_dice})
    return traits, flaws


def _combatant(where: str, side: str, c: Any, content: ContentLibrary, sheet_file: Path | None = None
               ) -> dict[str, Any]:
    ch = _character(where, c, content, sheet_file)
    traits, flaws = _traits(where, ch, content)
    weapons: dict[str, Any] = {}
    carried: dict[str, int] = {}
    for wid in ch.weapons:
        weapons[wid] = content.require("weapons", wid, f"{where}: weapons").model_dump()
        carried[wid] = carried.get(wid, 0) + 1
    unarmed = content.sections.get("weapons", {}).get(UNARMED)
    weapons[UNARMED] = unarmed.model_dump() if unarmed is not None else dict(BARE_HANDS)
    armour = []
    for aid in ch.armour:
        item = content.require("armour", aid, f"{where}: armour")
        armour.append({"name": item.name, "rating": item.rating, "penalty": item.penalty})
    wielding = ch.wielding or next((w for w in ch.weapons if weapons[w]["melee"] is not None), None) \
        or (ch.weapons[0] if ch.weapons else UNARMED)
    return {
        "id": c.id, "name": ch.name, "side": side, "pc": ch.pc, "max_hp": ch.hp, "hp": c.hp,
        "traits": traits, "flaws": flaws, "weapons": weapons, "carried": carried, "wielding": wielding,
        "armour": armour, "experience": ch.experience, "position": c.position, "cover": c.cover,
        "cover_nearby": c.cover_nearby, "unaware": c.unaware, "protecting": c.protecting,
        "high_ground": c.high_ground,
    }


def protection(layers: list[Mapping[str, Any]], options: WarpOptions) -> Protection:
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


def _arm(wid: str, w: Mapping[str, Any]) -> Arm:
    r = w.get("ranged")
    ranged = None if r is None else RangedProfile(r["factor"], r["row"], r["gunfire"], r["thrown"], r["temporary"],
                                                 r["per_distance"])
    melee = w.get("melee")
    return Arm(wid, w["name"], w["handiness"], w["wound"], None if melee is None else melee["factor"], ranged)


def build_fighter(c: Mapping[str, Any], options: WarpOptions) -> Fighter:
    max_hp = c["max_hp"] if c["max_hp"] is not None else options.default_hp  # WR-B9
    hp = max_hp if c["hp"] is None else min(c["hp"], max_hp)
    traits = {tid: TraitRating(tid, t["name"], t["dice"], t["combat"], t["agility"], t["fighting"], tuple(t["uses"]),
                               tuple(t.get("weapons", ())))
              for tid, t in c["traits"].items()}
    flaws = [Flaw(f["id"], f["name"], tuple(f["affects"]), f["dodge_dice"]) for f in c["flaws"]]
    arms = {wid: _arm(wid, w) for wid, w in c["weapons"].items()}
    return Fighter(
        c["id"], c["name"], c["side"], c["pc"], max_hp, hp, hp, traits, flaws, arms, dict(c["carried"]),
        c["wielding"], protection(c["armour"], options), c["experience"], float(c["position"]),
        cover=c["cover"], cover_nearby=c["cover_nearby"], unaware=c["unaware"], protecting=c["protecting"],
        high_ground=c["high_ground"])


def build_state(setup: Mapping[str, Any], options: WarpOptions) -> WarpState:
    """Fresh state for ``setup``."""
    fighters = {c["id"]: build_fighter(c, options) for c in setup["combatants"]}
    maneuvers = {mid: ManeuverInfo(mid, m["name"], m["melee"], m["ranged"], m["predictable"], m["special"])
                 for mid, m in setup["maneuvers"].items()}
    return WarpState(setup["mode"], options, fighters, maneuvers, setup.get("darkness", "none"))
