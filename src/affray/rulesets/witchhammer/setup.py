"""From a validated scenario to a self-contained setup, and from a setup to a fresh match state.

``prepare`` resolves every content reference (traits, armour, passives, schools, decks, statuses), so the setup
stored in a match log does not depend on content files that may change later. ``build_state`` turns that plain
data into the state dataclasses. A combatant may come from a character sheet file (``sheet``), checked by the
character rules before the fight and starting with the Wounds it carries.
Rules: WH-03, WH-33, WH-34, WH-B14, WH-B17, WH-B18.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Literal, TypedDict

from affray.core.content import ContentLibrary, ReferenceProblem
from affray.core.grid import Grid, MapError, Pos
from affray.core.json import as_shape
from affray.core.memo import Memo
from affray.core.sheets import load_sheet
from affray.rulesets.witchhammer import targeting
from affray.rulesets.witchhammer.content_model import (
    SIZES,
    Card,
    Character,
    Modifiers,
    Monster,
    Sheet,
    Status,
    WitchHammerCombatant,
    WitchHammerScenario,
)
from affray.rulesets.witchhammer.mechanics import malus_table
from affray.rulesets.witchhammer.options import WitchHammerOptions
from affray.rulesets.witchhammer.state import CardDef, Fighter, Node, StatusDef, WitchHammerState
from affray.rulesets.witchhammer.state import Status as InForce

GENERAL = "general"
DEFAULT_CARD = "hesitate"
FACINGS: dict[str, Pos] = {
    "n": (0, -1),
    "ne": (1, -1),
    "e": (1, 0),
    "se": (1, 1),
    "s": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (-1, -1),
}


class Stats(TypedDict):
    """A combatant's stat line after its traits, armour and passives (WH-03, WH-B17)."""

    poise: int
    health: int
    attack: int
    defense: int
    init: int
    solid_damage: int
    move: int
    defenses: dict[str, int]
    skills: dict[str, int]


class CombatantSetup(Stats):
    """One combatant of the setup: its stats, its deck (WH-B18), where it stands and faces (WH-B14), and the
    Poise and Health it starts with when not at its maximum."""

    id: str
    name: str
    side: str
    kind: str  # "pc" or "monster"
    size: int
    start_poise: int | None
    start_health: int | None
    at: list[int]
    facing: str | None
    deck: dict[str, int]


class CardSetup(TypedDict):
    """A card as the content gives it (:class:`~affray.rulesets.witchhammer.content_model.Card`, dumped)."""

    name: str
    kind: Literal["action", "psych"]
    school: str | None
    level: int
    one_shot: bool
    copies: int
    init: int
    defense: int
    defenses: dict[str, int]
    below: list[Node]
    text: str


class TickSetup(TypedDict):
    wounds: int
    damage: int
    poise: int


class ModifiersSetup(TypedDict):
    attack: int
    defense: int
    init: int
    poise: int
    health: int
    solid_damage: int
    malus: int
    move: int
    defenses: dict[str, int]
    skills: dict[str, int]


class StatusSetup(TypedDict):
    """A status effect as the content gives it (:class:`~affray.rulesets.witchhammer.content_model.Status`)."""

    name: str
    tick: TickSetup
    skip_turn: bool
    no_poise_recovery: bool
    modifiers: ModifiersSetup
    text: str


class WitchHammerSetup(TypedDict):
    """What ``prepare`` makes of a WitchHammer scenario (plain JSON in a match log): its name, the map's rows, the
    combatants, the General school's cards, and every card and status the fight may use."""

    name: str
    map: list[str]
    combatants: list[CombatantSetup]
    general: list[str]
    cards: dict[str, CardSetup]
    statuses: dict[str, StatusSetup]


def witchhammer_setup(data: Mapping[str, object]) -> WitchHammerSetup:
    """A setup read back as JSON (from a log, a table, a simulation spec) as what it is: ``prepare`` made it, and
    JSON keeps its shape, so it is taken as a :class:`WitchHammerSetup` unchecked."""
    return as_shape(WitchHammerSetup, data)


def _card(card: Card) -> CardSetup:
    return as_shape(CardSetup, card.model_dump())


def _status_setup(status: Status) -> StatusSetup:
    return as_shape(StatusSetup, status.model_dump())


def _grid(scenario: WitchHammerScenario) -> Grid:
    try:
        return Grid.open(*scenario.size) if scenario.map is None else Grid.parse(scenario.map)
    except MapError as exc:
        raise ReferenceProblem("size" if scenario.map is None else "map", str(exc)) from None


def prepare(scenario: WitchHammerScenario, content: ContentLibrary) -> WitchHammerSetup:
    """The scenario with content resolved into plain data (the match setup)."""
    grid = _grid(scenario)
    combatants: list[CombatantSetup] = []
    taken: dict[tuple[int, int], str] = {}
    for i, side in enumerate(scenario.sides):
        for j, c in enumerate(side.combatants):
            where = f"sides[{i}].combatants[{j}]"
            at = (c.at[0], c.at[1])
            if not grid.passable(at):
                raise ReferenceProblem(f"{where}.at", f"an open square on the map (got {list(at)})")
            if at in taken:
                raise ReferenceProblem(f"{where}.at", f"a free square ({taken[at]} already stands there)")
            taken[at] = c.id
            sheet = scenario.sheet_path(c.sheet) if c.sheet is not None else None
            combatants.append(_combatant(where, side.name, c, content, sheet))
    general = sorted(k for k, card in content.sections.get("cards", {}).items() if card.school == GENERAL)
    default = scenario.options.get("default_card", DEFAULT_CARD)
    if isinstance(default, str):  # an ill-typed option is refused by parse_options with its name
        content.require("cards", default, "options.default_card")
    card_ids = set(general) | {DEFAULT_CARD} | {k for c in combatants for k in c["deck"]}
    card_ids |= {default} if isinstance(default, str) else set()
    cards = {k: _card(content.require("cards", k, "cards")) for k in sorted(card_ids)}
    # every status the content defines, not only the cards' (a GM ruling may give any of them: docs, "GM rulings")
    status_ids = sorted(
        {s for card in cards.values() for s in _statuses(card["below"])} | set(content.sections.get("statuses", {}))
    )
    statuses = {k: _status_setup(content.require("statuses", k, f"cards: status '{k}'")) for k in status_ids}
    return {
        "name": scenario.name,
        "map": list(grid.rows),
        "combatants": combatants,
        "general": general,
        "cards": cards,
        "statuses": statuses,
    }


def _statuses(nodes: Iterable[Node]) -> Iterator[str]:
    for node in nodes:
        if node["type"] == "effect":
            yield node["status"]
        elif node["type"] == "attack":
            yield from _statuses(node["on_hit"])
            yield from _statuses(node["on_solid_hit"])
        elif node["type"] == "save" or node["type"] == "check":
            yield from _statuses(node["on_fail"])
            yield from _statuses(node["on_success"])


def _sheet(where: str, use: str | None, content: ContentLibrary) -> tuple[str, Sheet]:
    if use is None:
        raise ReferenceProblem(f"{where}.use", "the id of a character or monster in the content (or a 'sheet' file)")
    if use in content.sections.get("characters", {}):
        return "pc", content.get("characters", use)
    if use in content.sections.get("monsters", {}):
        return "monster", content.get("monsters", use)
    known = sorted(content.sections.get("characters", {})) + sorted(content.sections.get("monsters", {}))
    raise ReferenceProblem(f"{where}.use", f"a character or monster id (known: {', '.join(known)}); got '{use}'")


def _combatant(
    where: str, side: str, c: WitchHammerCombatant, content: ContentLibrary, sheet_file: Path | None = None
) -> CombatantSetup:
    wounds = 0
    if sheet_file is not None:
        loaded = load_sheet("witchhammer", sheet_file, content, f"{where}.sheet")
        kind, sheet, wounds = "pc", loaded.character, loaded.wounds
    else:
        kind, sheet = _sheet(where, c.use, content)
    mods: list[Modifiers] = [content.require("traits", t, f"{where}: trait").modifiers for t in sheet.traits]
    if sheet.armour is not None:
        mods.append(content.require("armour", sheet.armour, f"{where}: armour").modifiers)
    deck: dict[str, int] = {}
    if isinstance(sheet, Character):
        mods += _learn(where, sheet, content, deck)
    elif isinstance(sheet, Monster):
        for card_id in sheet.deck:
            _add_card(deck, card_id, content, f"{where}: deck")
    if c.deck is not None:
        deck = {}
        for card_id in c.deck:
            _add_card(deck, card_id, content, f"{where}.deck")
    stats = _apply(sheet, mods)
    most = {"health": stats["health"], "poise": stats["poise"]}
    for key, label in (("health", "Health"), ("poise", "Poise")):  # out of range is refused, never clamped silently
        if getattr(c, key) is not None and getattr(c, key) > most[key]:
            raise ReferenceProblem(
                f"{where}.{key}", f"a starting {label} of at most its maximum {most[key]} (got {getattr(c, key)})"
            )
    start_health = c.health if c.health is not None or not wounds else stats["health"] - wounds
    return {
        "id": c.id,
        "name": c.name or sheet.name,
        "side": side,
        "kind": kind,
        "size": SIZES[sheet.size],
        **stats,
        "start_poise": c.poise,
        "start_health": start_health,
        "at": [c.at[0], c.at[1]],
        "facing": c.facing,
        "deck": deck,
    }


def _add_card(deck: dict[str, int], card_id: str, content: ContentLibrary, where: str) -> None:
    card = content.require("cards", card_id, where)
    if deck.get(card_id, 0) >= card.copies:
        raise ReferenceProblem(
            where, f"at most {card.copies} cop{'y' if card.copies == 1 else 'ies'} of '{card_id}' (WH-B18)"
        )
    deck[card_id] = deck.get(card_id, 0) + 1


def _learn(where: str, pc: Character, content: ContentLibrary, deck: dict[str, int]) -> list[Modifiers]:
    """Check schools and techniques (WH-33, WH-34) and collect learned cards and passives."""
    known = {GENERAL: 1, **pc.schools}
    for school_id, level in known.items():
        school = content.require("schools", school_id, f"{where}: schools")
        if level > school.levels:
            raise ReferenceProblem(f"{where}: schools", f"{school.name} has {school.levels} level(s), not {level}")
        clash = [s for s in school.incompatible if s in known]
        if clash:
            raise ReferenceProblem(f"{where}: schools", f"{school.name} is incompatible with {', '.join(clash)}")
    mods: list[Modifiers] = []
    for tech in pc.techniques:
        item = content.sections.get("cards", {}).get(tech) or content.sections.get("passives", {}).get(tech)
        if item is None:
            raise ReferenceProblem(f"{where}: techniques", f"a card or passive id (got '{tech}')")
        if item.school not in known or item.level > known[item.school]:
            raise ReferenceProblem(f"{where}: techniques", f"'{tech}' needs {item.school} level {item.level}")
        if hasattr(item, "modifiers"):
            mods.append(item.modifiers)
        else:
            _add_card(deck, tech, content, f"{where}: techniques")
    return mods


def _apply(sheet: Sheet, mods: list[Modifiers]) -> Stats:
    line = {k: int(getattr(sheet, k)) for k in ("poise", "health", "attack", "defense", "init", "solid_damage")}
    line["move"] = 0
    defenses: dict[str, int] = {d: v for d, v in sheet.defenses.items()}
    skills: dict[str, int] = {s: v for s, v in sheet.skills.items()}
    for m in mods:
        for k in ("poise", "health", "attack", "defense", "init", "solid_damage", "move"):
            line[k] += getattr(m, k)
        for d, v in m.defenses.items():
            defenses[d] = defenses.get(d, 0) + v
        for s, v in m.skills.items():
            skills[s] = skills.get(s, 0) + v
    return {
        "poise": max(0, line["poise"]),
        "health": max(1, line["health"]),
        "attack": line["attack"],
        "defense": line["defense"],
        "init": line["init"],
        "solid_damage": line["solid_damage"],
        "move": line["move"],
        "defenses": defenses,
        "skills": skills,
    }


Compiled = tuple[dict[str, CardDef], dict[str, StatusDef]]


def compile_content(setup: WitchHammerSetup, memo: Memo | None = None) -> Compiled:
    """Cards and statuses of a setup as frozen dataclasses, read-only: with ``memo``, made once for every match that
    shares its setup part (:meth:`Memo.static`: a simulation chunk's thousands of fights)."""
    if memo is not None:
        return memo.static("witchhammer-compiled", lambda: compile_content(setup))
    cards = {
        k: CardDef(
            k,
            c["name"],
            c["kind"],
            c["init"],
            c["defense"],
            dict(c["defenses"]),
            tuple(c["below"]),
            c["one_shot"],
            c["text"],
        )
        for k, c in setup["cards"].items()
    }
    return cards, {k: _status(k, s) for k, s in setup["statuses"].items()}


def _status(key: str, s: StatusSetup) -> StatusDef:
    m, t = s["modifiers"], s["tick"]
    return StatusDef(
        key,
        s["name"],
        t["wounds"],
        t["damage"],
        t["poise"],
        s["skip_turn"],
        s["no_poise_recovery"],
        m["attack"],
        m["defense"],
        m["init"],
        m["malus"],
        m["move"],
        dict(m["defenses"]),
    )


def build_state(setup: WitchHammerSetup, options: WitchHammerOptions, memo: Memo | None = None) -> WitchHammerState:
    """Fresh state for ``setup``: fighters at their squares, facing set (WH-B14). ``memo``: see
    :func:`compile_content`; the fighters are built once for every match sharing its setup-only store too, each match
    starting from its own copies (:func:`fresh`)."""
    if memo is None:
        return _build_state(setup, options, None)
    made = memo.static("witchhammer.start", _build_state, setup, options, memo)
    return WitchHammerState(
        options, made.grid, made.cards, made.statuses, {a: fresh(f) for a, f in made.fighters.items()}
    )


def fresh(t: Fighter) -> Fighter:
    """A fighter equal to ``t`` whose parts a fight changes (its tables, deck, hand, face-down cards, statuses and
    afflictions) are its own; sealed cards and status definitions are shared, never changed. A match's copy of a
    setup's fighter (:func:`build_state`)."""
    return Fighter(
        t.id,
        t.name,
        t.side,
        t.kind,
        t.order,
        t.size,
        t.max_poise,
        t.poise,
        t.max_health,
        t.health,
        t.attack,
        t.defense,
        t.init,
        t.solid_damage,
        t.move,
        dict(t.defenses),
        dict(t.skills),
        t.malus_by_wounds,
        t.pos,
        t.facing,
        dict(t.deck),
        t.out,
        dict(t.hand),
        t.psych,
        t.psych_card,
        list(t.slots),
        t.ready,
        t.shown,
        t.card,
        [InForce(s.status, s.rounds, s.source) for s in t.statuses],
        t.mod_attack,
        t.mod_defense,
        t.mod_init,
        t.mod_malus,
        t.mod_move,
        dict(t.mod_defenses),
        t.stunned,
        t.no_recovery,
        t.ticking,
        list(t.afflictions),
        t.fate,
        t.dealt,
        t.taken,
    )


def _build_state(setup: WitchHammerSetup, options: WitchHammerOptions, memo: Memo | None) -> WitchHammerState:
    cards, statuses = compile_content(setup, memo)
    if options.default_card not in cards:
        raise ValueError(f"default_card '{options.default_card}' is not a card of this setup")
    rows = tuple(setup["map"])
    grid = Grid(len(rows[0]), len(rows), rows)
    fighters: dict[str, Fighter] = {}
    for n, c in enumerate(setup["combatants"]):
        deck = dict(c["deck"])
        if c["kind"] == "pc" and options.general_school_deck == "all":
            for card_id in setup["general"]:
                deck.setdefault(card_id, 1)
        poise = c["poise"] if c["start_poise"] is None else min(c["start_poise"], c["poise"])
        health = c["health"] if c["start_health"] is None else min(c["start_health"], c["health"])
        fighters[c["id"]] = Fighter(
            c["id"],
            c["name"],
            c["side"],
            c["kind"],
            n,
            c["size"],
            c["poise"],
            poise,
            c["health"],
            health,
            c["attack"],
            c["defense"],
            c["init"],
            c["solid_damage"],
            c["move"],
            dict(c["defenses"]),
            dict(c["skills"]),
            malus_table(c["health"]),
            (c["at"][0], c["at"][1]),
            FACINGS.get(c["facing"] or "", (0, 0)),
            deck,
        )
    state = WitchHammerState(options, grid, cards, statuses, fighters)
    for f in fighters.values():
        if f.facing == (0, 0):
            targeting.face_nearest_enemy(state, f)
    return state
