"""From a validated scenario to a self-contained setup, and from a setup to a fresh match state.

``prepare`` resolves every content reference (sign, armour, weapons, feats, spells) and checks the map
positions, so the setup stored in a match log does not depend on content files that may change later.
``build_state`` turns that plain data into the state dataclasses, computing what depends on options
(ability modifiers, and with them max HP).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Literal, NotRequired, TypedDict, cast

from affray.core.content import ContentLibrary, ReferenceProblem
from affray.core.grid import Grid
from affray.core.json import as_shape
from affray.core.memo import Memo
from affray.core.sheets import combatant_character
from affray.rulesets.spellchrome.content_model import (
    Armour,
    Character,
    Spell,
    SpellchromeCombatant,
    SpellchromeScenario,
    Weapon,
)
from affray.rulesets.spellchrome.mechanics import ability_modifier, squares
from affray.rulesets.spellchrome.options import SpellchromeOptions
from affray.rulesets.spellchrome.state import Arm, Combatant, SpellchromeState, SpellKnown, Surprise


class WeaponSetup(TypedDict):
    """A weapon as the content gives it (:class:`~affray.rulesets.spellchrome.content_model.Weapon`, dumped)."""

    name: str
    kind: Literal["melee", "ranged", "unarmed", "natural"]
    damage: str
    attack_bonus: int
    range_increment_ft: int | None
    blunt: bool
    description: str


class ArmourSetup(TypedDict):
    """Worn armour (SC-07, SC-B1, SC-B6); none is all zeros without the content's last two fields."""

    name: str
    deflection: int
    damage_reduction: int
    ex_hp: int
    ex_hp_refill_per_hour: int
    empowerable: NotRequired[bool]
    description: NotRequired[str]


class SpellSetup(TypedDict):
    """A spell as the content gives it (:class:`~affray.rulesets.spellchrome.content_model.Spell`, dumped), with
    the uses the sheet has of it."""

    name: str
    effect: Literal["heal", "steal_life"]
    casting: Literal["standard", "minutes"]
    range_squares: int
    dice: str
    per_level: int
    max_level_bonus: int
    save: Literal["none", "fortitude", "reflex", "will"]
    dc: int
    half_on_save: bool
    healer_bonus: bool
    description: str
    uses: int


class CombatantSetup(TypedDict):
    """One combatant of the setup: its sheet resolved against the content (SC-01, SC-14, SC-B8), its side and
    its square."""

    id: str
    name: str
    side: str
    kind: Literal["character", "npc", "monster"]
    level: int
    abilities: dict[str, int]
    saves: list[int]
    hp_per_level: int
    max_hp: int | None
    hp_bonus: int
    hp: int | None
    guards: list[str]
    feats: list[str]
    armour: ArmourSetup
    weapons: dict[str, WeaponSetup]
    wielding: str
    skills: dict[str, int]
    spells: dict[str, SpellSetup]
    speed_ft: int
    initiative_bonus: int
    defense_bonus: int
    base_attack: int
    fills_square: bool
    position: list[int]


class SpellchromeSetup(TypedDict):
    """What ``prepare`` makes of a Spellchrome scenario (plain JSON in a match log): its name, the map's rows,
    the surprise (SC-16) and the combatants."""

    name: str
    map: list[str]
    surprise: Surprise | None
    combatants: list[CombatantSetup]


def spellchrome_setup(data: Mapping[str, object]) -> SpellchromeSetup:
    """A setup read back as JSON (from a log, a table, a simulation spec) as what it is: ``prepare`` made it, and
    JSON keeps its shape, so it is taken as a :class:`SpellchromeSetup` unchecked."""
    return as_shape(SpellchromeSetup, data)


UNARMED: WeaponSetup = {
    "name": "Unarmed strike",
    "kind": "unarmed",
    "damage": "1d3",
    "attack_bonus": 0,
    "range_increment_ft": None,
    "blunt": True,
    "description": "Fists, knees and elbows.",
}
ABILITIES = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")


def _sheet(
    where: str, combatant: SpellchromeCombatant, content: ContentLibrary, sheet_file: Path | None = None
) -> Character:
    sections = ("characters", "monsters")
    return combatant_character("spellchrome", Character, where, combatant, content, sheet_file, sections)


def prepare(scenario: SpellchromeScenario, content: ContentLibrary) -> SpellchromeSetup:
    """The scenario with content resolved into plain data (the match setup)."""
    grid = Grid.parse(scenario.map)
    combatants: list[CombatantSetup] = []
    taken: dict[tuple[int, int], str] = {}
    for i, side in enumerate(scenario.sides):
        for j, c in enumerate(side.combatants):
            where = f"sides[{i}].combatants[{j}]"
            pos = (c.position[0], c.position[1])
            if not grid.in_bounds(pos):
                raise ReferenceProblem(
                    f"{where}.position", f"a square inside the {grid.width}×{grid.height} map (got {list(pos)})"
                )
            if not grid.passable(pos):
                raise ReferenceProblem(f"{where}.position", f"an open square, not a wall (got {list(pos)})")
            standing = c.hp is None or c.hp >= 1
            if standing and pos in taken:
                raise ReferenceProblem(
                    f"{where}.position", f"a square of its own (SC-24; {taken[pos]} stands at {list(pos)})"
                )
            if standing:
                taken[pos] = c.id
            sheet = scenario.sheet_path(c.sheet) if c.sheet is not None else None
            combatants.append(_combatant(where, side.name, c, content, sheet))
    surprise: Surprise | None = None
    if scenario.surprise is not None:
        surprise = {"aware": scenario.surprise.aware, "bonus": scenario.surprise.bonus}
    return {"name": scenario.name, "map": list(grid.rows), "surprise": surprise, "combatants": combatants}


def _combatant(
    where: str, side: str, c: SpellchromeCombatant, content: ContentLibrary, sheet_file: Path | None = None
) -> CombatantSetup:
    ch = _sheet(where, c, content, sheet_file)
    if ch.sign is not None:
        sign = content.require("signs", ch.sign, f"{where}: sign")
        saves = list(ch.saves or sign.saves[ch.level - 1])
        hp_per_level = sign.hp_per_level
    else:
        saves, hp_per_level = list(ch.saves or (0, 0, 0)), 0
    armour: ArmourSetup = {"name": "", "deflection": 0, "damage_reduction": 0, "ex_hp": 0, "ex_hp_refill_per_hour": 0}
    if ch.armour is not None:
        worn: Armour = content.require("armour", ch.armour, f"{where}: armour")
        armour = cast(ArmourSetup, worn.model_dump())  # the model's fields, as ArmourSetup lists them
    weapons = {w: _weapon(content.require("weapons", w, f"{where}: weapons")) for w in ch.weapons}
    weapons.setdefault("unarmed", UNARMED.copy())
    feats = [content.require("feats", f, f"{where}: feats") for f in ch.feats]
    spells: dict[str, SpellSetup] = {}
    for sid, uses in ch.spells.items():
        spell: Spell = content.require("spells", sid, f"{where}: spells")
        spells[sid] = cast(SpellSetup, spell.model_dump() | {"uses": uses})  # the model's fields and the uses
    if ch.max_hp is None and not hp_per_level:
        raise ReferenceProblem(f"{where}.stats.max_hp", "max_hp for a sheet without an Ancient Sign (SC-B8)")
    return {
        "id": c.id,
        "name": ch.name,
        "side": side,
        "kind": ch.kind,
        "level": ch.level,
        "abilities": ch.abilities.model_dump(),
        "saves": saves,
        "hp_per_level": hp_per_level,
        "max_hp": ch.max_hp,
        "hp_bonus": sum(f.hp_bonus for f in feats),
        "hp": c.hp,
        "guards": sorted({g for f in feats for g in f.guards}),
        "feats": list(ch.feats),
        "armour": armour,
        "weapons": weapons,
        "wielding": ch.wielding or (ch.weapons[0] if ch.weapons else "unarmed"),
        "skills": {k: v for k, v in ch.skills.items()},
        "spells": spells,
        "speed_ft": ch.speed_ft,
        "initiative_bonus": ch.initiative_bonus,
        "defense_bonus": ch.defense_bonus,
        "base_attack": ch.base_attack,
        "fills_square": ch.fills_square,
        "position": list(c.position),
    }


def _weapon(weapon: Weapon) -> WeaponSetup:
    return as_shape(WeaponSetup, weapon.model_dump())


def max_hp_of(c: CombatantSetup, con_mod: int) -> int:
    """Max HP: the sheet's own figure, or level × (sign HP per level + Con modifier, at least 1), plus
    one-time feat bonuses such as Toughness. Rules: SC-01, SC-B8."""
    if c["max_hp"] is not None:
        return int(c["max_hp"]) + int(c["hp_bonus"])
    return int(c["level"]) * max(1, int(c["hp_per_level"]) + con_mod) + int(c["hp_bonus"])


def _arm(wid: str, w: WeaponSetup) -> Arm:
    increment = w.get("range_increment_ft")
    rng_sq = squares(increment) if increment else 0
    return Arm(wid, w["name"], w["kind"], w["damage"], w["attack_bonus"], rng_sq, w["blunt"])


def _spell(sid: str, s: SpellSetup) -> SpellKnown:
    return SpellKnown(
        sid,
        s["name"],
        s["effect"],
        s["casting"],
        s["range_squares"],
        s["dice"],
        s["per_level"],
        s["max_level_bonus"],
        s["save"],
        s["dc"],
        s["half_on_save"],
        s["healer_bonus"],
        s["uses"],
    )


def build_combatant(c: CombatantSetup, options: SpellchromeOptions) -> Combatant:
    mods = {a: ability_modifier(c["abilities"][a], options.ability_modifier) for a in ABILITIES}
    max_hp = max_hp_of(c, mods["constitution"])
    hp = max_hp if c["hp"] is None else min(int(c["hp"]), max_hp)
    armour = c["armour"]
    return Combatant(
        c["id"],
        c["name"],
        c["side"],
        c["kind"],
        c["level"],
        dict(c["abilities"]),
        mods,
        (c["saves"][0], c["saves"][1], c["saves"][2]),
        max_hp,
        hp,
        armour["ex_hp"],
        armour["ex_hp"],
        armour["ex_hp_refill_per_hour"],
        armour["deflection"],
        armour["damage_reduction"],
        c["defense_bonus"],
        c["base_attack"],
        c["speed_ft"],
        c["initiative_bonus"],
        {wid: _arm(wid, w) for wid, w in c["weapons"].items()},
        c["wielding"],
        frozenset(c["feats"]),
        frozenset(c["guards"]),
        dict(c["skills"]),
        {sid: _spell(sid, s) for sid, s in c["spells"].items()},
        c["fills_square"],
        (c["position"][0], c["position"][1]),
    )


def fresh(t: Combatant) -> Combatant:
    """A combatant equal to ``t`` whose parts a fight may change are its own: its tables (ability scores and
    modifiers, weapons carried, skills) and its spells with their casts left; weapons themselves never change. A
    match's copy of a setup's combatant (:func:`build_state`)."""
    return Combatant(
        t.id,
        t.name,
        t.side,
        t.kind,
        t.level,
        dict(t.abilities),
        dict(t.mods),
        t.saves,
        t.max_hp,
        t.hp,
        t.ex_hp_max,
        t.ex_hp,
        t.ex_refill,
        t.deflection,
        t.damage_reduction,
        t.defense_bonus,
        t.base_attack,
        t.speed_ft,
        t.initiative_bonus,
        dict(t.arms),
        t.wielding,
        t.feats,
        t.guards,
        dict(t.skills),
        {sid: replace(spell) for sid, spell in t.spells.items()},
        t.fills_square,
        t.pos,
        t.stable,
        t.surrendered,
        t.dropped_round,
        t.aoo_left,
        t.initiative,
        t.last_treated_hour,
        t.knocked_out,
        t.out,
        t.dealt,
        t.taken,
    )


def build_state(setup: SpellchromeSetup, options: SpellchromeOptions, memo: Memo | None = None) -> SpellchromeState:
    """The state at the start of the fight. The map is parsed once per match, or once for every match sharing
    ``memo``'s setup-only store (a map never changes): the caches keyed by map then find it by identity; and the
    combatants are built from the setup once for those matches too, each match starting from its own copies."""
    text = "\n".join(setup["map"])
    if memo is None:
        grid = Grid.parse(text)
        combatants = {c["id"]: build_combatant(c, options) for c in setup["combatants"]}
    else:
        grid = memo.static(("spellchrome.grid", text), Grid.parse, text)
        made = memo.static("spellchrome.combatants", _combatants, setup, options)
        combatants = {t.id: fresh(t) for t in made}
    return SpellchromeState(options, grid, combatants, setup.get("surprise"))


def _combatants(setup: SpellchromeSetup, options: SpellchromeOptions) -> tuple[Combatant, ...]:
    """The setup's combatants as a fight starts, read-only: the originals :func:`fresh` copies."""
    return tuple(build_combatant(c, options) for c in setup["combatants"])
