"""What a seat sees of a WaRP match: the core envelope with WaRP's typed parts (DESIGN.md contract 6; core/view.py).

Everyone sees where people stand on the line (``Position("line", metres)``), what they wield and wear, and whether
they look hurt (Messed Up, down, dead). A GM character's numbers (hit points, traits, flaws, experience) are
GM-level information: a seat sees them only for the characters it controls, or with ``viewer.omniscient``; PC
sheets are open to the whole table. So the ``HP`` bar is omitted for a sheet the viewer may not see. In gestalt
combat a side of GM characters keeps its rolls and total hidden until the result (WR-35).

The typed parts themselves are :mod:`affray.rulesets.warp.view_types`. Views are read-only. The parts of a sheet
that never change in a fight (traits, flaws, weapon profiles, armour) are built once per match in ``memo.static``;
a whole view is kept for the match's version in ``memo.now``. :func:`sheet_rows` writes a combatant's sheet in
words for the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from affray.core.engine import Viewer, Window
from affray.core.memo import Memo
from affray.core.view import Bar, CombatantView, Fact, Position, Status, controlled, envelope
from affray.rulesets.warp.gestalt import gm_side, totals
from affray.rulesets.warp.state import Arm, Fighter, WarpState, holder_name
from affray.rulesets.warp.view_types import (
    AttackView,
    DecisionView,
    FlawView,
    GestaltRoll,
    GestaltView,
    GroundItem,
    ProtectionView,
    RangedView,
    SeriousWoundView,
    SideTotal,
    TraitLock,
    TraitView,
    WarpCombatantDetail,
    WarpDetail,
    WarpSheet,
    WarpView,
    WeaponView,
)

# The view's "down": out of the fight by harm, or taken out by the GM ("out"); an escape is not down.
OUT_BY_HARM = frozenset({"down", "dying", "dead", "beaten", "out"})


# -- the static parts of a sheet --------------------------------------------------------------------------
def weapon_view(wid: str, a: Arm) -> WeaponView:
    r = a.ranged
    ranged = None if r is None else RangedView(r.factor, r.row, r.gunfire, r.thrown, r.temporary)
    return WeaponView(wid, a.name, a.handiness, a.melee, ranged)


@dataclass(slots=True)
class StaticSheet:
    traits: dict[str, TraitView]
    flaws: tuple[FlawView, ...]
    arms: dict[str, WeaponView]
    protection: ProtectionView


def static_sheet(f: Fighter) -> StaticSheet:
    """What never changes in a fight: built once per match through ``memo.static``."""
    return StaticSheet(
        {
            t.id: TraitView(t.id, t.name, t.dice, t.combat, t.agility, t.fighting, tuple(t.uses))
            for t in f.traits.values()
        },
        tuple(FlawView(fl.name, tuple(fl.affects), fl.dodge_dice) for fl in f.flaws),
        {w: weapon_view(w, a) for w, a in f.arms.items()},
        ProtectionView(f.armour.dice, f.armour.flat, f.armour.bullet_dice, f.armour.penalty_dice),
    )


def _static(f: Fighter, memo: Memo) -> StaticSheet:
    return memo.static(("warp-sheet", f.id), lambda: static_sheet(f))


def sheet(f: Fighter, memo: Memo | None = None, static: StaticSheet | None = None) -> WarpSheet:
    """A character's numbers (the secret of a GM character, see ``WarpRuleset.secrets``)."""
    if static is None:
        static = _static(f, memo if memo is not None else Memo())
    counts = {w: f.carried.get(w, 1) for w in static.arms if w == "unarmed" or f.carried.get(w, 0) > 0}
    carried = static.arms if len(counts) == len(static.arms) else {w: static.arms[w] for w in counts}
    return WarpSheet(
        f.id,
        f.hp,
        f.max_hp,
        f.stun,
        f.ceiling,
        f.experience,
        static.traits,
        static.flaws,
        carried,
        counts,
        static.protection,
        tuple(TraitLock(t, r) for t, r in f.locks.items()) if f.locks else (),
        f.cover_nearby,
        tuple(SeriousWoundView(str(s.get("kind", "")), int(s.get("daily_loss", 0))) for s in f.serious)
        if f.serious
        else (),
    )


# -- combatants ---------------------------------------------------------------------------------------------
def statuses(state: WarpState, f: Fighter) -> tuple[Status, ...]:
    """Conditions with their remaining rounds where they have one (WR-24, WR-30, WR-31, WR-32, WR-06)."""
    out: list[Status] = []
    if f.messed and not f.out:
        out.append(Status("messed up"))
    if f.prone:
        out.append(Status("prone"))
    if f.held_by:
        out.append(Status(f"held by {holder_name(state, f.held_by)}"))
    if f.holding:
        out.append(Status("holding", 1))
    if f.desperate:
        out.append(Status("desperate defense", 1))
    if f.psych_round >= state.round:
        out.append(Status("psychological advantage", f.psych_round - state.round + 1))
    if f.unaware:
        out.append(Status("unaware"))
    if f.out:
        out.append(Status(f.down_state or f.status))
    return tuple(out)


#: The fighter's fields that its combatant view shows and a fight can change (fetched in one C call).
_CHANGING = attrgetter(
    "hp",
    "stun",
    "ceiling",
    "experience",
    "status",
    "down_state",
    "messed",
    "wielding",
    "cover",
    "moved",
    "prone",
    "held_by",
    "holding",
    "desperate",
    "initiative",
    "unaware",
    "position",
    "cover_nearby",
)


def fingerprint(state: WarpState, f: Fighter) -> tuple[object, ...]:
    """Everything of ``f``'s that its combatant view shows and a fight can change (the rest is static)."""
    return (
        _CHANGING(f),
        f.psych_round - state.round if f.psych_round >= state.round else None,
        tuple(f.carried.values()),
        tuple(f.locks.items()) if f.locks else (),
        len(f.serious),
    )  # carried has fixed keys; serious wounds are only ever appended


def combatant(state: WarpState, f: Fighter, viewer: Viewer, memo: Memo) -> CombatantView[WarpCombatantDetail]:
    """``f`` as ``viewer`` sees it, rebuilt only when its :func:`fingerprint` changes."""
    open_sheet = f.pc or viewer.may_see(f.id)
    mine = controlled(viewer, f.id)
    return memo.keyed(
        ("warp-combatant", f.id, open_sheet, mine),
        fingerprint(state, f),
        lambda: _combatant(state, f, open_sheet, mine, memo),
    )


def _combatant(
    state: WarpState, f: Fighter, open_sheet: bool, mine: bool, memo: Memo
) -> CombatantView[WarpCombatantDetail]:
    static = _static(f, memo)
    numbers = sheet(f, static=static) if open_sheet else None
    bars = (Bar("HP", f.hp, f.max_hp),) if open_sheet else ()
    detail = WarpCombatantDetail(
        f.pc,
        f.status,
        f.down_state,
        f.messed,
        f.wielding,
        static.arms[f.wielding],
        tuple(f.armour.names),
        f.cover,
        f.moved,
        f.prone,
        f.held_by,
        f.holding,
        f.desperate,
        f.initiative,
        numbers,
    )
    return CombatantView(
        f.id,
        f.name,
        f.side,
        mine,
        Position("line", f.position),
        bars,
        statuses(state, f),
        f.status in OUT_BY_HARM,
        f.status == "dead",
        detail,
        sheet_rows(detail),
    )


# -- the sheet in words ---------------------------------------------------------------------------------------
def dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def weapon_words(w: WeaponView, count: int = 1) -> str:
    """``lead pipe (melee 2, handiness 2)``; a thrown or gun weapon with its missile factor and row (WR-12, WR-15)."""
    parts = [] if w.melee is None else [f"melee {w.melee}"]
    r = w.ranged
    if r is not None:
        kind = "gun" if r.gunfire else "thrown" if r.thrown else "missile"
        parts.append(f"{kind} {r.factor}, row {r.row}")
    parts.append(f"handiness {w.handiness:+d}" if w.handiness else "handiness 0")
    return f"{w.name}{f' ×{count}' if count > 1 else ''} ({', '.join(parts)})"


def _kinds(t: TraitView) -> str:
    kinds = [w for w, on in (("combat", t.combat), ("fighting", t.fighting), ("agility", t.agility)) if on]
    return f" ({', '.join(kinds)})" if kinds else ""


def sheet_rows(d: WarpCombatantDetail) -> tuple[Fact, ...]:
    """The combatant's sheet in words (``CombatantView.sheet``): what it wields, wears and hides behind, and, for
    a sheet the seat may read, its numbers: stun and the recovery ceiling (WR-27, WR-29), experience, traits
    (WR-01), flaws, weapons carried (WR-12), armour (WR-19), this round's trait roles (WR-09) and serious wounds."""
    rows = [Fact("Wields", weapon_words(d.weapon))]
    if d.armour:
        rows.append(Fact("Wears", ", ".join(d.armour)))
    if d.cover != "none":
        rows.append(Fact("Cover", d.cover))
    if d.initiative:  # 0: not rolled yet, or the order is seated rather than rolled (option initiative, WR-05)
        rows.append(Fact("Initiative", str(d.initiative)))
    n = d.sheet
    if n is None:
        return tuple(rows)
    if n.stun:
        rows.append(Fact("Stun", str(n.stun)))
    rows.append(Fact("Recovers towards", f"{n.ceiling} HP"))
    rows.append(Fact("Experience", str(n.experience)))
    rows.append(Fact("Traits", "; ".join(f"{t.name} {dice(t.dice)}{_kinds(t)}" for t in n.traits.values())))
    if n.flaws:
        rows.append(
            Fact(
                "Flaws", "; ".join(f.name + (f" (dodge {dice(f.dodge_dice)})" if f.dodge_dice else "") for f in n.flaws)
            )
        )
    rows.append(Fact("Carries", "; ".join(weapon_words(w, n.counts.get(wid, 1)) for wid, w in n.weapons.items())))
    p = n.protection
    regular = " + ".join(([dice(p.dice)] if p.dice else []) + ([f"{p.flat} pt"] if p.flat else []))
    armour = ([regular] if regular else []) + (
        [f"{p.bullet_dice} bullet-proof {dice(p.bullet_dice).split()[1]}"] if p.bullet_dice else []
    )
    if p.penalty_dice:
        armour.append(f"{p.penalty_dice} penalty {dice(p.penalty_dice).split()[1]} on agility actions")
    if armour:
        rows.append(Fact("Armour", ", ".join(armour)))
    if n.locks:
        rows.append(
            Fact(
                "This round",
                "; ".join(
                    f"{n.traits[lock.trait].name if lock.trait in n.traits else lock.trait}: {lock.role}"
                    for lock in n.locks
                ),
            )
        )
    if n.cover_nearby != "none":
        rows.append(Fact("Cover nearby", n.cover_nearby))
    if n.serious_wounds:
        rows.append(
            Fact(
                "Serious wounds",
                "; ".join(
                    w.kind + (f" (loses {w.daily_loss} HP a day)" if w.daily_loss else "") for w in n.serious_wounds
                ),
            )
        )
    return tuple(rows)


# -- the view's own part ------------------------------------------------------------------------------------
def _gestalt(state: WarpState, viewer: Viewer) -> GestaltView | None:
    g = state.gestalt
    if g is None:
        return None

    def shown(side: str) -> bool:
        return g.resolved or viewer.omniscient or not gm_side(state, side)

    rolls = tuple(GestaltRoll(a, v) for a, v in g.rolls.items() if shown(state.fighters[a].side) or viewer.may_see(a))
    return GestaltView(
        g.round,
        tuple(sorted(g.rolls)),
        rolls,
        tuple(SideTotal(side, total) for side, total in totals(state).items() if shown(side)),
        g.winner if g.resolved else None,
        g.resolved,
    )


def detail(state: WarpState, viewer: Viewer, memo: Memo) -> WarpDetail:
    """The view's own part, rebuilt only when what it shows changes (gestalt views: always)."""
    if state.gestalt is not None:
        return _detail(state, viewer, memo)
    a = state.attack
    d = state.decisions[0] if state.decisions else None
    key = (
        None if a is None else (a.attacker, a.target, a.weapon, a.mode, a.maneuver, a.special, a.distance, a.claim),
        None if d is None else (d.kind, d.actor, d.about),
        tuple(state.ground) if state.ground else (),
    )
    return memo.keyed("warp-detail", key, lambda: _detail(state, viewer, memo))


def _detail(state: WarpState, viewer: Viewer, memo: Memo) -> WarpDetail:
    a = state.attack
    d = state.decisions[0] if state.decisions else None
    specials = memo.static(
        "warp-specials", lambda: tuple(m.id for m in state.maneuvers.values() if m.special != "none")
    )
    return WarpDetail(
        state.darkness,
        state.options.melee_reach_m,
        state.options.agility_rolls,
        state.options.untrained_agility,
        None
        if a is None
        else AttackView(a.attacker, a.target, a.weapon, a.mode, a.maneuver, a.special, a.distance, a.claim),
        None if d is None else DecisionView(d.kind, d.actor, d.about),
        tuple(GroundItem(w, p) for w, p in state.ground) if state.ground else (),
        specials,
        _gestalt(state, viewer),
    )


def build_view(state: WarpState, viewer: Viewer, window: Window | None, memo: Memo) -> WarpView:
    current = state.current()
    return envelope(
        "warp",
        mode=state.mode,
        round=state.round,
        phase=state.phase,
        order=state.order,
        window=window,
        outcome=state.outcome,
        viewer=viewer,
        combatants=tuple(combatant(state, f, viewer, memo) for f in state.fighters.values()),
        detail=detail(state, viewer, memo),
        turn=None if current is None else current.id,
    )


def view(state: WarpState, viewer: Viewer, window: Window | None, memo: Memo | None = None) -> WarpView:
    """A seat's view; with a memo, kept for the match's version (one per viewer)."""
    if memo is None:
        return build_view(state, viewer, window, Memo())
    return memo.now(("warp-view", viewer), lambda: build_view(state, viewer, window, memo))


def gestalt_total(side: str, total: int) -> SideTotal:
    return SideTotal(side, total)
