"""Spellchrome's interactive character builder (``affray character new spellchrome``), through
:class:`~affray.characters.prompts.Prompts`."""

from __future__ import annotations

from affray.characters.prompts import Prompts, finish, split
from affray.core.content import ContentLibrary
from affray.core.rng import VerifiableRNG
from affray.rulesets.spellchrome.sheet import SpellchromeSheet


def build(p: Prompts, lib: ContentLibrary, rng: VerifiableRNG) -> SpellchromeSheet:
    """SC-12/SC-14 saves from the sign, SC-B8 HP per level from the sign, SC-B2 modifiers; feats, skills, gear."""
    data = p.header("spellchrome")
    signs = lib.sections.get("signs", {})
    p.show(
        "Ancient Signs (SC-14)",
        ("id", "name", "HP per level", "level 1 saves (fort/ref/will)"),
        [(k, s.name, str(s.hp_per_level), "/".join(f"{v:+d}" for v in s.saves[0])) for k, s in sorted(signs.items())],
    )
    data.update(sign=p.ask_id("Ancient Sign", signs), level=p.ask_int("Level", 1, 20, 1))
    data["abilities"] = {
        a: p.ask_int(a.capitalize(), 1, 40, 10)
        for a in ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
    }
    data.update(base_attack=p.ask_int("Base attack bonus", 0, 20, 0), speed_ft=p.ask_int("Speed in feet", 5, 120, 30))
    feats = lib.sections.get("feats", {})
    data["feats"] = p.ask_ids(f"Feats, comma-separated ({', '.join(sorted(feats))})", feats)
    data["skills"] = _pairs(
        p.ask(
            "Trained skills as skill=bonus, comma-separated (heal, concentration, run, tumble, listen, spot, repair)",
            "",
            _pairs_check,
        )
    )
    weapons, armour = lib.sections.get("weapons", {}), lib.sections.get("armour", {})
    gear: dict[str, str | list[str]] = {"weapons": p.ask_ids(f"Weapons ({', '.join(sorted(weapons))})", weapons)}
    worn = p.ask_id(f"Armour ({', '.join(sorted(armour))})", armour, blank=True)
    if worn:
        gear["armour"] = worn
    gear["items"] = split(p.ask("Other gear, comma-separated", ""))
    data["gear"] = gear
    sheet = finish(data)
    assert isinstance(sheet, SpellchromeSheet)  # the header names Spellchrome
    return sheet


def _pairs(text: str) -> dict[str, int]:
    return {k.strip(): int(v) for k, v in (p.split("=", 1) for p in split(text))}


def _pairs_check(text: str) -> str | None:
    skills = ("heal", "concentration", "run", "tumble", "listen", "spot", "repair")
    try:
        pairs = _pairs(text)
    except ValueError:
        return "skill=bonus pairs, e.g. heal=4, spot=2"
    bad = [k for k in pairs if k not in skills]
    return f"unknown skill(s) {', '.join(bad)}; one of {', '.join(skills)}" if bad else None
