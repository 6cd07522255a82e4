"""What a seat sees of a Spellchrome match: the typed view (:mod:`affray.core.view`).

Nothing is hidden on the battle map: HP, EX-HP, positions and the attacks of opportunity left are all public at
the table, so every viewer gets the same facts and only ``controlled`` (and so ``you``) differs between seats.

The envelope and the combatant part are core's; the ruleset's part is :class:`SpellchromeDetail` (the map, the
acting combatant's turn, a pending attack of opportunity, the options a policy reads) and, per combatant,
:class:`SpellchromeCombatantDetail` (sheet numbers, weapons, spells). Bars: ``HP`` (SC-01) and ``EX-HP`` (SC-07).
Statuses: ``unconscious``, ``dying``, ``stable``, ``surrendered`` or ``dead`` (SC-02..SC-06), or ``out`` (taken out
of the fight by a GM ruling), without a duration (each lasts until something ends it).

Caching goes through the match's :class:`~affray.core.memo.Memo` only: the map and each combatant's weapons,
feats and skills once per match (``static``), the seat-independent part of every combatant once per version
(``now``), and each seat's view once per version. ``memo=None`` builds everything fresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from affray.core.engine import Viewer, Window
from affray.core.memo import Memo
from affray.core.view import Bar, CombatantView, Fact, PanelKind, Position, Status, View, controlled, envelope
from affray.rulesets.spellchrome.mechanics import defense
from affray.rulesets.spellchrome.state import MELEE_KINDS, Combatant, SpellchromeState

MODE = "grid"


@dataclass(slots=True)
class WeaponView:
    id: str
    name: str
    kind: str
    damage: str
    range_squares: int


@dataclass(slots=True)
class SpellView:
    id: str
    name: str
    effect: str
    uses: int
    range_squares: int


@dataclass(slots=True)
class SpellchromeCombatantDetail:
    """A combatant's sheet as the table sees it (SC-B1 Defense, SC-15 speed, SC-16 initiative, SC-26 AoO)."""

    kind: str
    level: int
    status: str
    able: bool
    defense: int
    speed_ft: int
    initiative: int
    aoo_left: int
    wielding: str
    melee_armed: bool
    base_attack: int
    weapons: tuple[WeaponView, ...]
    feats: tuple[str, ...]
    skills: dict[str, int]
    spells: tuple[SpellView, ...]

    def weapon(self, wid: str | None = None) -> WeaponView:
        """The weapon ``wid`` (the one in hand by default)."""
        want = self.wielding if wid is None else wid
        return next(w for w in self.weapons if w.id == want)

    def spell(self, sid: str) -> SpellView:
        return next(s for s in self.spells if s.id == sid)


@dataclass(slots=True)
class TurnView:
    """What the acting combatant has left this turn (SC-15, SC-21)."""

    actor: str
    move_left: bool
    standard_left: bool
    moved: bool
    stepped: bool


@dataclass(slots=True)
class OpportunityView:
    """A provocation waiting for the foes in ``waiting`` to decide (SC-27)."""

    provoker: str
    trigger: str
    waiting: tuple[str, ...]


@dataclass(slots=True)
class SpellchromeDetail:
    """The battle map (rows of ``.``, ``#``, ``~``...), the turn, a pending attack of opportunity, whether the
    fight is decided while the dying bleed on (SC-04), and the option the heuristic policy reads (SC-R7)."""

    #: The battle map, with the squares foes threaten (SC-26).
    PANELS: ClassVar[tuple[PanelKind, ...]] = ("grid",)

    map: tuple[str, ...]
    turn: TurnView | None
    opportunity: OpportunityView | None
    after_the_fight: bool
    monsters_finish_the_dying: bool


SpellchromeView = View[SpellchromeDetail, SpellchromeCombatantDetail]
#: The seat-independent part of one combatant: position, bars, statuses, down, dead, detail, sheet.
_Part = tuple[Position, tuple[Bar, ...], tuple[Status, ...], bool, bool, SpellchromeCombatantDetail, tuple[Fact, ...]]


def _static(memo: Memo, c: Combatant) -> tuple[tuple[WeaponView, ...], tuple[str, ...], dict[str, int]]:
    """A combatant's weapons, feats and skills: none of them change in a fight."""
    return memo.static(
        ("spellchrome.static", c.id),
        lambda: (
            tuple(WeaponView(w, a.name, a.kind, a.damage, a.range_sq) for w, a in c.arms.items()),
            tuple(sorted(c.feats)),
            dict(c.skills),
        ),
    )


def _part(memo: Memo, c: Combatant) -> _Part:
    weapons, feats, skills = _static(memo, c)
    able = c.able  # read once: helpless, Defense (SC-B1) and melee_armed (SC-R3) all follow from it
    status = c.status
    detail = SpellchromeCombatantDetail(
        c.kind,
        c.level,
        status,
        able,
        defense(c.mods["dexterity"], c.deflection, c.defense_bonus, helpless=not able),
        c.speed_ft,
        c.initiative,
        c.aoo_left,
        c.wielding,
        able and c.arms[c.wielding].kind in MELEE_KINDS,
        c.base_attack,
        weapons,
        feats,
        skills,
        tuple(SpellView(s, k.name, k.effect, k.uses, k.range_squares) for s, k in c.spells.items()),
    )
    bars = (Bar("HP", c.hp, c.max_hp), Bar("EX-HP", c.ex_hp, c.ex_hp_max))
    statuses = () if status == "normal" else (Status(status),)
    return (
        Position("square", c.pos[0], c.pos[1]),
        bars,
        statuses,
        not able,
        status == "dead",
        detail,
        sheet_rows(detail),
    )


def _words(key: str) -> str:
    return key.replace("_", " ")


def sheet_rows(d: SpellchromeCombatantDetail) -> tuple[Fact, ...]:
    """The combatant's sheet in words (``CombatantView.sheet``; nothing is hidden on the battle map): level,
    Defense (SC-B1), speed (SC-15), initiative (SC-16), attacks of opportunity left (SC-26), the weapon in hand,
    base attack, weapons, feats, skills and spells with their uses left."""
    weapons = {w.id: w for w in d.weapons}

    def weapon(w: WeaponView) -> str:
        reach = f", range {w.range_squares} squares" if w.range_squares > 1 else ""
        return f"{w.name} ({_words(w.kind)}, damage {w.damage}{reach})"

    rows = [
        Fact("Level", f"{d.level} ({_words(d.kind)})"),
        Fact("Defense", str(d.defense)),
        Fact("Speed", f"{d.speed_ft} ft"),
        Fact("Initiative", str(d.initiative)),
        Fact("Attacks of opportunity left", str(d.aoo_left)),
        Fact("Wields", weapon(weapons[d.wielding]) if d.wielding in weapons else _words(d.wielding)),
        Fact("Base attack", f"{d.base_attack:+d}"),
    ]
    if len(d.weapons) > 1:
        rows.append(Fact("Weapons", "; ".join(weapon(w) for w in d.weapons)))
    if d.feats:
        rows.append(Fact("Feats", ", ".join(_words(f) for f in d.feats)))
    if d.skills:
        rows.append(Fact("Skills", ", ".join(f"{_words(k)} {v:+d}" for k, v in d.skills.items())))
    if d.spells:
        rows.append(
            Fact(
                "Spells",
                "; ".join(
                    f"{s.name} ({_words(s.effect)}, {s.uses} {'use' if s.uses == 1 else 'uses'} left)" for s in d.spells
                ),
            )
        )
    return tuple(rows)


def _parts(state: SpellchromeState, memo: Memo) -> dict[str, _Part]:
    """Each combatant's part, rebuilt only when something it shows changed (most actions touch one or two)."""

    def build() -> dict[str, _Part]:
        out = {}
        for a, c in state.combatants.items():
            key = (
                c.hp,
                c.ex_hp,
                c.pos,
                c.stable,
                c.surrendered,
                c.knocked_out,
                c.out,
                c.aoo_left,
                c.initiative,
                c.wielding,
                c.abilities["constitution"],
                tuple(k.uses for k in c.spells.values()),
            )
            out[a] = memo.keyed(("spellchrome.part", a), key, lambda c=c: _part(memo, c))  # type: ignore[misc]
        return out

    return memo.now("spellchrome.parts", build)


def _detail(state: SpellchromeState, memo: Memo) -> SpellchromeDetail:
    turn, opp = state.turn, state.opportunity
    return SpellchromeDetail(
        memo.static("spellchrome.map", lambda: tuple(state.grid.rows)),
        None if turn is None else TurnView(turn.actor, turn.move_left, turn.standard_left, turn.moved, turn.stepped),
        None if opp is None else OpportunityView(opp.provoker, opp.trigger, tuple(opp.foes)),
        state.decided is not None and state.outcome is None,
        state.options.monsters_finish_the_dying,
    )


def view(state: SpellchromeState, viewer: Viewer, window: Window | None, memo: Memo | None = None) -> SpellchromeView:
    """The typed view of ``state`` for ``viewer`` (see the module docstring)."""
    memo = memo if memo is not None else Memo()
    return memo.now(("spellchrome.view", viewer), lambda: _build(state, viewer, window, memo))


def _combatant(memo: Memo, a: str, c: Combatant, mine: bool, part: _Part) -> CombatantView[SpellchromeCombatantDetail]:
    """``a`` as a seat that controls it (``mine``) or not sees it: one object for every such seat, kept while its part
    stays the same, so the seats' views share it (and a table server converts and writes it once for all of them)."""
    return memo.keyed(
        ("spellchrome.combatant", a, mine),
        (part, c.name, c.side),
        lambda: CombatantView(a, c.name, c.side, mine, *part),
    )


def _build(state: SpellchromeState, viewer: Viewer, window: Window | None, memo: Memo) -> SpellchromeView:
    parts = _parts(state, memo)
    combatants = tuple(_combatant(memo, a, c, controlled(viewer, a), parts[a]) for a, c in state.combatants.items())
    phase = window.phase if window is not None else "over" if state.outcome is not None else "setup"
    detail = memo.now("spellchrome.detail", lambda: _detail(state, memo))  # the same for every seat
    return envelope(
        "spellchrome",
        mode=MODE,
        round=state.round,
        phase=phase,
        order=state.order,
        window=window,
        outcome=state.outcome,
        viewer=viewer,
        combatants=combatants,
        detail=detail,
        turn=state.turn.actor if state.turn is not None and window is not None else None,
    )
