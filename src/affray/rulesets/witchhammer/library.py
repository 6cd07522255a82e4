"""The WitchHammer content library in words (:mod:`affray.core.library`): each character, monster, card, technique,
trait, armour set, status and school as a player reads it.

A sheet's numbers are its stat line as written (Poise, Health, Attack, Defense, Init, Damage on Solid Hit: WH-B17
for a PC's defaults), with the traits and armour it carries named with their modifiers (WH-34, WH-36); a monster's
deck is its cards (WH-03). A card reads its line above (Init, Defense, aspect Defenses: WH-05) and then what it
does, in order (the effect nodes below the line: WH-07..WH-18, WH-24, WH-27, WH-28).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from affray.core.content import ContentLibrary
from affray.core.library import Entry, fields_of, signed
from affray.rulesets.witchhammer.content_model import (
    Attack,
    Card,
    Character,
    Check,
    Damage,
    Effect,
    Modifiers,
    Monster,
    Move,
    Node,
    Passive,
    Recover,
    Save,
    School,
    Sheet,
    Status,
    Trait,
)

STATS = ("attack", "defense", "init", "poise", "health", "solid_damage")


def _words(name: str) -> str:
    return name.replace("_", " ")


def who(recipient: str) -> str:
    """A node's recipient in words: ``itself``, ``each enemy``, ``the nearest enemy``."""
    if recipient == "self":
        return "itself"
    return _words(recipient) if recipient.startswith("each") else f"the {_words(recipient)}"


def modifier_words(m: Modifiers) -> str:
    """``attack +1, Fire Defense +2, move -1``: the modifiers that are not zero."""
    out = [f"{_words(k)} {signed(getattr(m, k))}" for k in (*STATS, "malus", "move") if getattr(m, k)]
    out += [f"{k} Defense {signed(v)}" for k, v in m.defenses.items()]
    out += [f"{_words(k)} {signed(v)}" for k, v in m.skills.items()]
    return ", ".join(out)


def node_words(node: Node, library: ContentLibrary) -> str:
    """One effect node below a card's line, in words."""
    statuses = library.sections.get("statuses", {})
    if isinstance(node, Move):
        way = "toward" if node.direction == "toward" else "away from"
        return f"move {node.distance} {way} {who(node.reference)}"
    if isinstance(node, Attack):
        aspects = ", ".join(node.aspects)
        text = f"attack {signed(node.attack)} ({aspects}, {node.range} range) on {who(node.target)}"
        if node.on_hit:
            text += ": on a hit " + _nodes(node.on_hit, library)
        if node.on_solid_hit:
            text += ("; " if node.on_hit else ": ") + "on a solid hit " + _nodes(node.on_solid_hit, library)
        return text
    if isinstance(node, Damage):
        return f"{node.amount} {'Poise ' if node.poise_only else ''}damage to {who(node.to)}"
    if isinstance(node, Effect):
        status = statuses.get(node.status)
        named = status.name if status is not None else _words(node.status)
        lasting = "the vignette" if node.rounds == "vignette" else f"{node.rounds} round{'s' * (node.rounds != 1)}"
        return f"{named} for {lasting} on {who(node.to)}"
    if isinstance(node, Recover):
        return f"{'it' if node.to == 'self' else who(node.to)} regains {node.poise} Poise"
    if isinstance(node, Save):
        text = f"{who(node.to)} saves ({node.save}, {_words(str(node.difficulty))})"
        if node.on_fail:
            text += ", failing: " + _nodes(node.on_fail, library)
        if node.on_success:
            text += ", succeeding: " + _nodes(node.on_success, library)
        return text
    assert isinstance(node, Check)
    text = f"a check of {_words(node.skill)} ({_words(str(node.difficulty))})"
    if node.on_success:
        text += ", succeeding: " + _nodes(node.on_success, library)
    if node.on_fail:
        text += ", failing: " + _nodes(node.on_fail, library)
    return text


def _nodes(nodes: Sequence[Node], library: ContentLibrary) -> str:
    return ", then ".join(node_words(n, library) for n in nodes)


def _named(library: ContentLibrary, section: str, item_id: str) -> str:
    item = library.sections.get(section, {}).get(item_id)
    return str(item.name) if item is not None else _words(item_id)


def sheet_entry(item_id: str, kind: str, sheet: Sheet, library: ContentLibrary) -> Entry:
    words = [
        f"Poise {sheet.poise}",
        f"Health {sheet.health}",
        f"Attack {signed(sheet.attack)}",
        f"Defense {signed(sheet.defense)}",
        f"Init {signed(sheet.init)}",
    ]
    if sheet.solid_damage:
        words.append(f"Damage on Solid Hit {sheet.solid_damage}")
    words += [f"{k} Defense {signed(v)}" for k, v in sheet.defenses.items()]
    summary = f"{sheet.name}: {', '.join(words)}; size {sheet.size}"
    if isinstance(sheet, Monster):
        summary = summary.replace(": ", f": {sheet.tier}, ", 1)
    for section, ids in (("traits", sheet.traits), ("armour", [sheet.armour] if sheet.armour else [])):
        for tid in ids:
            item = library.sections.get(section, {}).get(tid)
            mods = modifier_words(item.modifiers) if item is not None else ""
            summary += f"; {_named(library, section, tid)}" + (f" ({mods})" if mods else "")
    if isinstance(sheet, Monster):
        deck = Counter(sheet.deck)
        summary += "; deck " + ", ".join(
            _named(library, "cards", c) + (f" ×{n}" if n > 1 else "") for c, n in deck.items()
        )
        if sheet.weaknesses:
            summary += "; weak to " + ", ".join(sheet.weaknesses)
    elif isinstance(sheet, Character):
        if sheet.schools:
            summary += "; schools " + ", ".join(
                f"{_named(library, 'schools', s)} {n}" for s, n in sheet.schools.items()
            )
        if sheet.techniques:
            found = [t for t in sheet.techniques if t in library.sections.get("cards", {})]
            passives = [t for t in sheet.techniques if t not in found]
            summary += "; techniques " + ", ".join(
                [_named(library, "cards", t) for t in found] + [_named(library, "passives", t) for t in passives]
            )
    return Entry(item_id, kind, sheet.name, summary + ".", fields_of(sheet))


def card_entry(item_id: str, card: Card, library: ContentLibrary) -> Entry:
    where = f"{_named(library, 'schools', card.school)} level {card.level}" if card.school else "a monster's own"
    head = f"{card.kind} card ({where})"
    line = [] if card.kind == "psych" else [f"Init {signed(card.init)}", f"Defense {signed(card.defense)}"]
    line += [f"{k} Defense {signed(v)}" for k, v in card.defenses.items()]
    summary = f"{card.name}: {head}" + (f", {', '.join(line)}" if line else "")
    if card.below:
        summary += "; " + _nodes(card.below, library)
    if card.one_shot:
        summary += "; one-shot"
    if card.copies > 1:
        summary += f"; {card.copies} copies in a deck"
    return Entry(item_id, "card", card.name, summary + ".", fields_of(card))


def passive_entry(item_id: str, p: Passive, library: ContentLibrary) -> Entry:
    summary = f"{p.name}: passive technique ({_named(library, 'schools', p.school)} level {p.level})"
    mods = modifier_words(p.modifiers)
    return Entry(item_id, "technique", p.name, summary + (f", {mods}." if mods else "."), fields_of(p))


def trait_entry(item_id: str, kind: str, t: Trait) -> Entry:
    mods = modifier_words(t.modifiers)
    what = "armour set" if kind == "armour" else "trait"
    return Entry(item_id, kind, t.name, f"{t.name}: {what}" + (f", {mods}." if mods else "."), fields_of(t))


def status_entry(item_id: str, s: Status) -> Entry:
    words = []
    tick = [f"{s.tick.wounds} Wound" if s.tick.wounds else "", f"{s.tick.damage} damage" if s.tick.damage else ""]
    tick += [f"Poise {signed(s.tick.poise)}" if s.tick.poise else ""]
    if any(tick):
        words.append("each turn " + ", ".join(t for t in tick if t))
    if s.skip_turn:
        words.append("its bearer loses a turn")
    if s.no_poise_recovery:
        words.append("no Poise regained")
    if modifier_words(s.modifiers):
        words.append(modifier_words(s.modifiers))
    return Entry(item_id, "status", s.name, f"{s.name}: status, {'; '.join(words) or 'no effect'}.", fields_of(s))


def school_entry(item_id: str, s: School, library: ContentLibrary) -> Entry:
    summary = f"{s.name}: school, {s.levels} level{'s' * (s.levels != 1)}"
    if s.incompatible:
        summary += ", not with " + ", ".join(_named(library, "schools", x) for x in s.incompatible)
    return Entry(item_id, "school", s.name, summary + ".", fields_of(s))


def entries(library: ContentLibrary) -> list[Entry]:
    """Every item of ``library``, described (the record's ``library`` part)."""
    s = library.sections
    out = [sheet_entry(i, "character", ch, library) for i, ch in s.get("characters", {}).items()]
    out += [sheet_entry(i, "monster", m, library) for i, m in s.get("monsters", {}).items()]
    out += [card_entry(i, c, library) for i, c in s.get("cards", {}).items()]
    out += [passive_entry(i, p, library) for i, p in s.get("passives", {}).items()]
    out += [trait_entry(i, "trait", t) for i, t in s.get("traits", {}).items()]
    out += [trait_entry(i, "armour", t) for i, t in s.get("armour", {}).items()]
    out += [status_entry(i, x) for i, x in s.get("statuses", {}).items()]
    out += [school_entry(i, x, library) for i, x in s.get("schools", {}).items()]
    return out
