"""What a seat sees of a WaRP match (DESIGN.md, contract 6). Views are read-only: the static parts of
a sheet (traits, flaws, weapon profiles) are built once and shared between views.

Everyone sees where people stand, what they wield and wear, and whether they look hurt (Messed Up, down,
dead). A GM character's numbers (hit points, traits, flaws, experience) are the GM's: a player sees them
only for the characters it controls, and PC sheets are open to the whole table. In gestalt combat a side
of GM characters keeps its rolls and total hidden until the result (WR-35).
"""

from __future__ import annotations

from typing import Any

from affray.core.engine import Viewer, Window
from affray.rulesets.warp.gestalt import gm_side, totals
from affray.rulesets.warp.state import Arm, Fighter, WarpState


def _arm(a: Arm) -> dict[str, Any]:
    r = a.ranged
    return {"name": a.name, "handiness": a.handiness, "melee": a.melee,
            "ranged": None if r is None else {"factor": r.factor, "row": r.row, "gunfire": r.gunfire,
                                              "thrown": r.thrown, "temporary": r.temporary}}


def _static(f: Fighter) -> dict[str, Any]:
    """The parts of a sheet that never change in a fight, built once per character (read-only)."""
    if not f.view_cache:
        f.view_cache["traits"] = {t.id: {"name": t.name, "dice": t.dice, "combat": t.combat, "agility": t.agility,
                                         "fighting": t.fighting, "uses": list(t.uses)} for t in f.traits.values()}
        f.view_cache["flaws"] = [{"name": fl.name, "affects": list(fl.affects), "dodge_dice": fl.dodge_dice}
                                 for fl in f.flaws]
        f.view_cache["arms"] = {w: _arm(a) for w, a in f.arms.items()}
        f.view_cache["protection"] = {"dice": f.armour.dice, "flat": f.armour.flat,
                                      "bullet_dice": f.armour.bullet_dice, "penalty_dice": f.armour.penalty_dice}
    return f.view_cache


def stats(f: Fighter) -> dict[str, Any]:
    """A character's numbers: open for PCs and for the seats that control it, else GM-only."""
    static = _static(f)
    arms = static["arms"]
    return {
        "id": f.id, "hp": f.hp, "max_hp": f.max_hp, "stun": f.stun, "ceiling": f.ceiling,
        "experience": f.experience, "traits": static["traits"], "flaws": static["flaws"],
        "weapons": {w: {**arms[w], "count": f.carried.get(w, 1)} for w in arms
                    if w == "unarmed" or f.carried.get(w, 0) > 0},
        "protection": static["protection"], "locks": dict(f.locks), "cover_nearby": f.cover_nearby,
        "serious_wounds": [dict(s) for s in f.serious],
    }


def _fighter(f: Fighter, open_sheet: bool) -> dict[str, Any]:
    return {
        "name": f.name, "side": f.side, "pc": f.pc, "position": f.position, "status": f.status,
        "down_state": f.down_state, "messed_up": f.messed, "wielding": f.wielding,
        "weapon": _static(f)["arms"][f.wielding], "armour": list(f.armour.names), "cover": f.cover, "moved": f.moved,
        "prone": f.prone, "held_by": f.held_by, "holding": f.holding, "desperate": f.desperate,
        "initiative": f.initiative, "stats": stats(f) if open_sheet else None,
    }


def gestalt_total(side: str, total: int) -> dict[str, Any]:
    return {"side": side, "total": total}


def _gestalt(state: WarpState, viewer: Viewer) -> dict[str, Any] | None:
    g = state.gestalt
    if g is None:
        return None
    def shown(side: str) -> bool:
        return g.resolved or viewer.omniscient or not gm_side(state, side)

    rolls = {a: v for a, v in g.rolls.items() if shown(state.fighters[a].side) or viewer.may_see(a)}
    return {"round": g.round, "rolled": sorted(g.rolls), "rolls": rolls,
            "totals": [gestalt_total(side, total) for side, total in totals(state).items() if shown(side)],
            "winner": g.winner if g.resolved else None, "resolved": g.resolved}


def view(state: WarpState, viewer: Viewer, window: Window | None) -> dict[str, Any]:
    current = state.current()
    a = state.attack
    decision = state.decisions[0] if state.decisions else None
    return {
        "ruleset": "warp", "mode": state.mode, "round": state.round, "phase": state.phase, "seat": viewer.seat,
        "you": sorted(x for x in state.fighters if x in viewer.controls),
        "order": list(state.order), "turn": None if current is None else current.id,
        "pending": None if window is None else {"phase": window.phase, "actors": list(window.actors),
                                                "prompt": window.prompt},
        "darkness": state.darkness, "reach_m": state.options.melee_reach_m,
        "fighters": {x: _fighter(f, f.pc or viewer.may_see(x)) for x, f in state.fighters.items()},
        "attack": None if a is None else {"attacker": a.attacker, "target": a.target, "weapon": a.weapon,
                                          "mode": a.mode, "maneuver": a.maneuver, "special": a.special,
                                          "distance": a.distance, "claim": a.claim},
        "decision": None if decision is None else {"kind": decision.kind, "actor": decision.actor,
                                                   "about": decision.about},
        "ground": [{"weapon": w, "position": p} for w, p in state.ground],
        "special_maneuvers": [m.id for m in state.maneuvers.values() if m.special != "none"],
        "gestalt": _gestalt(state, viewer),
        "outcome": None if state.outcome is None else {"winner": state.outcome.winner,
                                                       "reason": state.outcome.reason},
    }
