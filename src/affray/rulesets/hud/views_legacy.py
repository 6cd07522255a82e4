# TEMPORARY until the core contract of issue 11 lands (the dict view the current runner reads); removed then.
"""What a seat sees of a HuD match. The HuD hides nothing (declarations are public, WL-09), so every
viewer gets the same facts; ``you`` lists the combatants the viewer controls. Views are read-only:
unchanging parts (weapon statistics) are shared between successive views."""

from __future__ import annotations

from typing import Any

from affray.core.engine import Viewer, Window
from affray.rulesets.hud.freeform import REFERENCE
from affray.rulesets.hud.state import Fighter, HudState


def _weapons(f: Fighter) -> dict[str, Any]:
    return {a.id: {"name": a.name, "kind": a.kind, "hands": a.hands, "attack": a.attack, "defense": a.defense,
                   "damage": a.damage} for a in f.arms.values()}


def _fighter(f: Fighter, weapons: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": f.name, "side": f.side, "hp": f.hp, "max_hp": f.max_hp, "out": f.out, "place": f.place,
        "band": f.band, "closed": f.closed,
        "agility": f.agility, "strength": f.strength, "armour": f.armour, "armour_penalty": f.armour_penalty,
        "injury": f.injury_mod, "actions": f.actions, "initiative": f.initiative,
        "in_hand": [a.id for a in f.arms.values() if a.location == "hand"],
        "carried": weapons, "locations": {a.id: a.location for a in f.arms.values()},
        "plan": f.plan if f.declared else None, "defenses": f.defenses, "penalty": f.penalty,
        "additional_used": f.additional_used,
    }


def _static(state: HudState, f: Fighter) -> dict[str, Any]:
    """Weapon statistics never change in a fight: built once, shared by every view (views are read-only)."""
    return _weapons(f)


def view(state: HudState, viewer: Viewer, window: Window | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleset": "hud", "mode": state.mode, "round": state.round, "phase": state.phase,
        "seat": viewer.seat, "you": sorted(a for a in state.fighters if a in viewer.controls),
        "order": list(state.order),
        "pending": None if window is None else {"phase": window.phase, "actors": list(window.actors),
                                                "prompt": window.prompt},
        "fighters": {a: _fighter(f, _static(state, f)) for a, f in state.fighters.items()},
        "exchange": None, "pursuit": None, "duel": None,
        "outcome": None if state.outcome is None else {"winner": state.outcome.winner,
                                                       "reason": state.outcome.reason},
    }
    if state.exchange is not None:
        ex = state.exchange
        out["exchange"] = {"attacker": ex.attacker, "defender": ex.defender, "kind": ex.kind, "stage": ex.stage,
                           "attack": ex.attack, "defense": ex.defense}
    if state.pursuit is not None:
        out["pursuit"] = {"fleeing": state.pursuit.fleeing, "choices": dict(state.pursuit.choices),
                          "waiting": list(state.pursuit.waiting)}
    if state.duel is not None:
        out["duel"] = {"attacker": state.duel.attacker, "defender": state.duel.defender,
                       "die": state.duel.attacker_die, "total": state.duel.attacker_total}
    if state.mode == "free_form":
        out["reference"] = REFERENCE
    return out
