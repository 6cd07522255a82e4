"""The Spellchrome content library in words (:mod:`affray.core.library`): what a player reads of each sheet, weapon,
armour, feat, spell and sign.

A character's or monster's numbers are the fight's own: the sheet is made into the combatant a scenario's ``use:``
makes (``setup.build_combatant`` under the default options), and its HP (SC-01, SC-B8), Defense (SC-B1), attack
bonuses (BAB + Str or Dex + the weapon's, SC-B1), damage (the weapon's dice + Str for close weapons) and saves
(SC-12, SC-14) are read from it, so the library cannot disagree with the rules.
"""

from __future__ import annotations

from affray.core.content import ContentLibrary, ReferenceProblem
from affray.core.json import Json, JsonObject
from affray.core.library import Entry, fields_of, signed
from affray.rulesets.spellchrome.checks import save_bonus
from affray.rulesets.spellchrome.combat import defense_of
from affray.rulesets.spellchrome.content_model import (
    AncientSign,
    Armour,
    Character,
    Feat,
    Spell,
    SpellchromeCombatant,
    Weapon,
)
from affray.rulesets.spellchrome.options import SpellchromeOptions
from affray.rulesets.spellchrome.setup import _combatant, build_combatant
from affray.rulesets.spellchrome.state import CLOSE_KINDS, Arm, Combatant


def _damage(c: Combatant, arm: Arm) -> str:
    bonus = c.mods["strength"] if arm.kind in CLOSE_KINDS else 0
    return arm.damage + (signed(bonus) if bonus else "")


def _attack(c: Combatant, arm: Arm) -> int:
    ability = "strength" if arm.kind in CLOSE_KINDS else "dexterity"
    return c.base_attack + c.mods[ability] + arm.attack_bonus


def sheet_entry(item_id: str, kind: str, ch: Character, library: ContentLibrary) -> Entry:
    """A character or monster: its numbers as the fight makes them."""
    try:
        setup = _combatant("library", "side", SpellchromeCombatant(id="c", use=item_id, position=(0, 0)), library)
    except ReferenceProblem as exc:
        return Entry(item_id, kind, ch.name, f"{ch.name}: its sheet names content that is missing ({exc}).", {})
    c = build_combatant(setup, SpellchromeOptions())
    attacks: dict[str, dict[str, Json]] = {
        arm.name: {"attack": _attack(c, arm), "damage": _damage(c, arm)} for arm in c.arms.values()
    }
    saves = {kind_: save_bonus(c, kind_) for kind_ in ("fortitude", "reflex", "will")}
    armour = library.sections.get("armour", {}).get(ch.armour) if ch.armour else None
    words = [f"level {c.level}", f"HP {c.max_hp}", f"Defense {defense_of(c)}"]
    if c.damage_reduction:
        words.append(f"damage reduction {c.damage_reduction}")
    if c.ex_hp_max:
        words.append(f"EX-HP {c.ex_hp_max}")
    words += [f"Initiative {signed(c.mods['dexterity'] + c.initiative_bonus)}", f"Speed {c.speed_ft} ft"]
    arms = ", ".join(f"{arm.name} {signed(_attack(c, arm))} ({_damage(c, arm)})" for arm in c.arms.values())
    summary = f"{ch.name}: {', '.join(words)}; " + (f"Attack {arms}; " if arms else "no weapons; ")
    summary += f"Fort {signed(saves['fortitude'])}, Ref {signed(saves['reflex'])}, Will {signed(saves['will'])}"
    if armour is not None:
        summary += f"; armour {armour.name}"
    spells = library.sections.get("spells", {})
    if ch.spells:
        summary += "; spells " + ", ".join(f"{spells[s].name} ×{n}" for s, n in ch.spells.items() if s in spells)
    if ch.fills_square:
        summary += "; fills its square"
    derived: JsonObject = {
        "hp": c.max_hp,
        "defense": defense_of(c),
        "damage_reduction": c.damage_reduction,
        "ex_hp": c.ex_hp_max,
        "initiative": c.mods["dexterity"] + c.initiative_bonus,
        "attacks": dict(attacks),
        "save_bonuses": dict(saves),
    }
    return Entry(item_id, kind, ch.name, summary + ".", fields_of(ch), derived)


def weapon_entry(item_id: str, w: Weapon) -> Entry:
    words = [f"{w.kind} weapon", f"damage {w.damage}" + (" + Str" if w.kind in CLOSE_KINDS else "")]
    if w.attack_bonus:
        words.append(f"attack {signed(w.attack_bonus)}")
    if w.range_increment_ft:
        words.append(f"range increment {w.range_increment_ft} ft")
    if w.blunt:
        words.append("blunt (can knock out)")
    return Entry(item_id, "weapon", w.name, f"{w.name}: {', '.join(words)}.", fields_of(w))


def armour_entry(item_id: str, a: Armour) -> Entry:
    words = [f"deflection {signed(a.deflection)}", f"damage reduction {a.damage_reduction}"]
    if a.ex_hp:
        words.append(f"EX-HP {a.ex_hp} (refills {a.ex_hp_refill_per_hour} an hour)")
    if a.empowerable:
        words.append("empowerable")
    return Entry(item_id, "armour", a.name, f"{a.name}: armour, {', '.join(words)}.", fields_of(a))


def feat_entry(item_id: str, f: Feat) -> Entry:
    words = []
    if f.hp_bonus:
        words.append(f"{signed(f.hp_bonus)} HP")
    words += [f"no attack of opportunity for {g} attacks" for g in f.guards]
    return Entry(
        item_id, "feat", f.name, f"{f.name}: feat, {', '.join(words) or 'no effect in a fight'}.", fields_of(f)
    )


def spell_entry(item_id: str, s: Spell) -> Entry:
    what = "heals" if s.effect == "heal" else "steals life"
    reach = {0: "self", 1: "touch"}.get(s.range_squares, f"{s.range_squares} squares")
    words = [f"{what} {s.dice}" + (f" + {s.per_level} per level (at most +{s.max_level_bonus})" if s.per_level else "")]
    words.append(f"range {reach}")
    words.append("a standard action" if s.casting == "standard" else "takes minutes (not in a fight)")
    if s.save != "none":
        words.append(f"{s.save.capitalize()} DC {s.dc}" + (" for half" if s.half_on_save else ""))
    return Entry(item_id, "spell", s.name, f"{s.name}: spell, {', '.join(words)}.", fields_of(s))


def sign_entry(item_id: str, s: AncientSign) -> Entry:
    fort, ref, will = s.saves[0]
    summary = f"{s.name}: Ancient Sign, {s.hp_per_level} HP per level, level 1 saves Fort {signed(fort)}, "
    summary += f"Ref {signed(ref)}, Will {signed(will)}."
    return Entry(item_id, "sign", s.name, summary, fields_of(s))


def entries(library: ContentLibrary) -> list[Entry]:
    """Every item of ``library``, described (the record's ``library`` part)."""
    s = library.sections
    out = [sheet_entry(i, "character", ch, library) for i, ch in s.get("characters", {}).items()]
    out += [sheet_entry(i, "monster", ch, library) for i, ch in s.get("monsters", {}).items()]
    out += [weapon_entry(i, w) for i, w in s.get("weapons", {}).items()]
    out += [armour_entry(i, a) for i, a in s.get("armour", {}).items()]
    out += [feat_entry(i, f) for i, f in s.get("feats", {}).items()]
    out += [spell_entry(i, x) for i, x in s.get("spells", {}).items()]
    out += [sign_entry(i, x) for i, x in s.get("signs", {}).items()]
    return out
