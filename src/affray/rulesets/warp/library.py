"""The WaRP content library in words (:mod:`affray.core.library`): each character, trait, weapon, armour piece and
maneuver as a player reads it.

Traits are rated in d6 (WR-01; an untrained roll takes 2 dice, WR-03), hit points default to 21 (WR-B9), a weapon's
damage factor multiplies the attack's margin (WR-12) and a missile's range row sets its distance dice (WR-15); an
armour rating is dice, flat points or bullet-proof (WR-B1).
"""

from __future__ import annotations

from collections import Counter

from affray.core.content import ContentLibrary
from affray.core.library import Entry, fields_of
from affray.rulesets.warp.content_model import Armour, Character, Maneuver, Trait, Weapon, parse_rating

DEFAULT_HP = 21  # WR-B9


def _named(library: ContentLibrary, section: str, item_id: str) -> str:
    item = library.sections.get(section, {}).get(item_id)
    return str(item.name) if item is not None else item_id.replace("_", " ")


def rating_words(rating: str) -> str:
    """``"3/2b"`` -> ``3 dice / 2 bullet-proof``; ``"1 pt"`` -> ``1 point``; ``"1"`` -> ``1 die``."""
    unit = {"bare": ("die", "dice"), "pt": ("point", "points"), "b": ("bullet-proof", "bullet-proof")}
    return " / ".join(f"{n} {unit[u][n != 1]}" for n, u in parse_rating(rating))


def weapon_uses(w: Weapon) -> list[str]:
    out = []
    if w.melee is not None:
        out.append(f"melee factor {w.melee.factor}")
    if w.ranged is not None:
        r = w.ranged
        extras = [x for x, on in (("gunfire", r.gunfire), ("thrown", r.thrown), ("stun", r.temporary)) if on]
        extras += ["factor divided by distance dice"] if r.per_distance else []
        out.append(f"ranged factor {r.factor}, range row {r.row}" + (f" ({', '.join(extras)})" if extras else ""))
    return out


def sheet_entry(item_id: str, ch: Character, library: ContentLibrary) -> Entry:
    hp = ch.hp or DEFAULT_HP
    traits = ", ".join(f"{_named(library, 'traits', t)} {d}d6" for t, d in ch.traits.items())
    words = ["PC" if ch.pc else "GM character", f"HP {hp}"]
    summary = f"{ch.name}: {', '.join(words)}; " + (f"traits {traits}" if traits else "no traits (2 dice for all)")
    if ch.flaws:
        summary += "; flaws " + ", ".join(_named(library, "traits", f) for f in ch.flaws)
    weapons: dict[str, Weapon] = library.sections.get("weapons", {})
    arms = []
    for wid, n in Counter(ch.weapons).items():
        w = weapons.get(wid)
        label = (w.name if w else wid) + (f" ×{n}" if n > 1 else "")
        arms.append(f"{label} ({'; '.join(weapon_uses(w))})" if w else label)
    summary += "; " + (", ".join(arms) if arms else "unarmed")
    armour: dict[str, Armour] = library.sections.get("armour", {})
    if ch.armour:
        layers = [f"{armour[a].name} ({rating_words(armour[a].rating)})" for a in ch.armour if a in armour]
        summary += "; armour " + ", ".join(layers)
    if ch.experience:
        summary += f"; Experience Pool {ch.experience} dice"
    return Entry(item_id, "character", ch.name, summary + ".", fields_of(ch), {"hp": hp})


def trait_entry(item_id: str, t: Trait, library: ContentLibrary) -> Entry:
    if t.flaw:
        words = ["flaw", "a penalty die on " + (", ".join(t.affects) or "nothing")]
        if t.dodge_dice is not None:
            words.append(f"dodging with at most {t.dodge_dice} {'die' if t.dodge_dice == 1 else 'dice'}")
    else:
        words = [x for x, on in (("combat", t.combat), ("agility", t.agility), ("fighting", t.fighting)) if on]
        words = [f"{' '.join(words)} trait" if words else "trait", "for " + (", ".join(t.uses) or "other rolls")]
        if t.weapons:
            words.append("with " + ", ".join(_named(library, "weapons", w) for w in t.weapons))
    return Entry(item_id, "trait", t.name, f"{t.name}: {', '.join(words)}.", fields_of(t))


def weapon_entry(item_id: str, w: Weapon) -> Entry:
    words = [*weapon_uses(w), f"handiness {w.handiness}", f"wounds as {w.wound}"]
    return Entry(item_id, "weapon", w.name, f"{w.name}: weapon, {', '.join(words)}.", fields_of(w))


def armour_entry(item_id: str, a: Armour) -> Entry:
    words = [f"rating {rating_words(a.rating)}"] + (["an agility penalty"] if a.penalty else [])
    return Entry(item_id, "armour", a.name, f"{a.name}: armour, {', '.join(words)}.", fields_of(a))


def maneuver_entry(item_id: str, m: Maneuver) -> Entry:
    kinds = [k for k, on in (("melee", m.melee), ("ranged", m.ranged)) if on]
    words = [f"a {' or '.join(kinds) or 'special'} maneuver"]
    if m.predictable:
        words.append("predictable")
    if m.special != "none":
        words.append(f"special effect: {m.special}")
    return Entry(item_id, "maneuver", m.name, f"{m.name}: {', '.join(words)}.", fields_of(m))


def entries(library: ContentLibrary) -> list[Entry]:
    """Every item of ``library``, described (the record's ``library`` part)."""
    s = library.sections
    out = [sheet_entry(i, ch, library) for i, ch in s.get("characters", {}).items()]
    out += [trait_entry(i, t, library) for i, t in s.get("traits", {}).items()]
    out += [weapon_entry(i, w) for i, w in s.get("weapons", {}).items()]
    out += [armour_entry(i, a) for i, a in s.get("armour", {}).items()]
    out += [maneuver_entry(i, m) for i, m in s.get("maneuvers", {}).items()]
    return out
