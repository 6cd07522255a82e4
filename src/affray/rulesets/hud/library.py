"""The Sim HuD content library in words (:mod:`affray.core.library`): each character or monster, weapon and armour as
a player reads it.

The numbers are what the d13s get (ruling WL-B2): Attack = d13 + the weapon's attack - the armour's attack penalty
(WL-03), Damage = d13 + the weapon's damage, Defense = d13 + the defense of what is in hand, Injury = d13 + the
armour's injury; Endurance is the hit points of Combat Nerdified (WL-08). What is in hand at the start is the
setup's (``setup._default_hand``: the first weapon, and a shield ready on the arm).
"""

from __future__ import annotations

from affray.core.content import ContentLibrary
from affray.core.json import Json, JsonObject
from affray.core.library import Entry, fields_of, signed
from affray.rulesets.hud.content_model import Armour, Character, Weapon
from affray.rulesets.hud.setup import _default_hand, _weapon

CARRY = {"sheath": "in a sheath", "back": "on the back", "belt": "at the belt", "arm": "on the arm"}


def _d13(bonus: int) -> str:
    return f"d13{signed(bonus)}" if bonus else "d13"


def sheet_entry(item_id: str, ch: Character, library: ContentLibrary) -> Entry:
    """A character or monster (a sheet tagged ``monster`` is one)."""
    weapons: dict[str, Weapon] = library.sections.get("weapons", {})
    armour: Armour | None = library.sections.get("armour", {}).get(ch.armour) if ch.armour else None
    carried = {w: weapons[w] for w in ch.weapons if w in weapons}
    in_hand = ch.in_hand if ch.in_hand is not None else _default_hand({w: _weapon(x) for w, x in carried.items()})
    penalty = armour.penalty if armour is not None else 0
    injury = armour.injury if armour is not None else 0
    defense = sum(carried[w].defense for w in in_hand if w in carried)
    attacks: dict[str, dict[str, Json]] = {
        w.name: {"attack": w.attack - penalty, "damage": w.damage} for w in carried.values() if w.kind != "shield"
    }
    words = [f"Endurance {ch.endurance}", f"Agility {ch.agility}", f"Strength {ch.strength}"]
    arms = "; ".join(
        f"{w.name}: Attack {_d13(w.attack - penalty)}, Damage {_d13(w.damage)}"
        for w in carried.values()
        if w.kind != "shield"
    )
    summary = f"{ch.name}: {', '.join(words)}; " + (f"{arms}; " if arms else "unarmed; ")
    summary += f"Defense {_d13(defense)} (in hand: {', '.join(carried[w].name for w in in_hand) or 'nothing'}); "
    summary += f"Injury {_d13(injury)}" + (f" ({armour.name}, {armour.weight} armour)" if armour else " (no armour)")
    if ch.actions_per_round:
        summary += f"; {ch.actions_per_round} actions a round"
    if "trained_witcher" in ch.tags:
        summary += "; trained witcher"
    derived: JsonObject = {"attacks": dict(attacks), "defense": defense, "injury": injury, "in_hand": list(in_hand)}
    kind = "monster" if "monster" in ch.tags else "character"
    return Entry(item_id, kind, ch.name, summary + ".", fields_of(ch), derived)


def weapon_entry(item_id: str, w: Weapon) -> Entry:
    kind = "shield" if w.kind == "shield" else f"{w.kind} weapon"
    summary = f"{w.name}: {kind}, {w.hands}-handed, carried {CARRY[w.carry]}; attack {signed(w.attack)}, "
    summary += f"defense {signed(w.defense)}, damage {signed(w.damage)}."
    return Entry(item_id, "weapon", w.name, summary, fields_of(w))


def armour_entry(item_id: str, a: Armour) -> Entry:
    summary = f"{a.name}: {a.weight} armour, attack penalty {a.penalty}, injury {signed(a.injury)}."
    return Entry(item_id, "armour", a.name, summary, fields_of(a), {"attack_penalty": a.penalty})


def entries(library: ContentLibrary) -> list[Entry]:
    """Every item of ``library``, described (the record's ``library`` part)."""
    s = library.sections
    out = [sheet_entry(i, ch, library) for i, ch in s.get("characters", {}).items()]
    out += [weapon_entry(i, w) for i, w in s.get("weapons", {}).items()]
    out += [armour_entry(i, a) for i, a in s.get("armour", {}).items()]
    return out
