"""What a seat sees of a Spellchrome match. Nothing is hidden on the battle map (HP, positions and the
attacks of opportunity left are all public at the table), so every viewer gets the same facts; ``you``
lists the combatants the viewer controls.

The parts of a view that never change during a match (the map, a combatant's weapons, feats and skills) are
built once and shared by every view of it: views are read-only.
"""

from __future__ import annotations

from typing import Any

from affray.core.engine import Viewer, Window
from affray.core.memo import per_object
from affray.rulesets.spellchrome.mechanics import defense
from affray.rulesets.spellchrome.state import MELEE_KINDS, Combatant, SpellchromeState

Static = tuple[dict[str, Any], list[str], dict[str, Any]]
_STATIC: dict[int, tuple[Any, Static]] = {}
_MAPS: dict[int, tuple[Any, list[str]]] = {}


def _static(c: Combatant) -> Static:
    """A combatant's weapons, feats and skills as views show them; none of them change in a fight."""
    return per_object(_STATIC, c, lambda: (
        {w: {"name": a.name, "kind": a.kind, "damage": a.damage, "range_squares": a.range_sq}
         for w, a in c.arms.items()}, sorted(c.feats), dict(c.skills)), limit=256)


def _combatant(c: Combatant) -> dict[str, Any]:
    weapons, feats, skills = _static(c)
    able = c.able  # read once: helpless, Defense (SC-B1) and melee_armed (SC-R3) all follow from it
    return {
        "name": c.name, "side": c.side, "kind": c.kind, "level": c.level, "position": list(c.pos),
        "hp": c.hp, "max_hp": c.max_hp, "ex_hp": c.ex_hp, "ex_hp_max": c.ex_hp_max, "status": c.status,
        "able": able, "helpless": not able,
        "defense": defense(c.mods["dexterity"], c.deflection, c.defense_bonus, helpless=not able),
        "speed_ft": c.speed_ft, "initiative": c.initiative, "aoo_left": c.aoo_left, "wielding": c.wielding,
        "melee_armed": able and c.arms[c.wielding].kind in MELEE_KINDS, "base_attack": c.base_attack,
        "weapons": weapons, "feats": feats, "skills": skills,
        "spells": {s: {"name": k.name, "effect": k.effect, "uses": k.uses, "range_squares": k.range_squares}
                   for s, k in c.spells.items()},
    }


def view(state: SpellchromeState, viewer: Viewer, window: Window | None) -> dict[str, Any]:
    turn, opp = state.turn, state.opportunity
    return {
        "ruleset": "spellchrome", "round": state.round, "seat": viewer.seat,
        "you": sorted(a for a in state.combatants if a in viewer.controls),
        "map": per_object(_MAPS, state.grid, lambda: list(state.grid.rows)), "order": list(state.order),
        "pending": None if window is None else {"phase": window.phase, "actors": list(window.actors),
                                                "prompt": window.prompt},
        "combatants": {a: _combatant(c) for a, c in state.combatants.items()},
        "turn": None if turn is None else {"actor": turn.actor, "move_left": turn.move_left,
                                           "standard_left": turn.standard_left, "moved": turn.moved,
                                           "stepped": turn.stepped},
        "opportunity": None if opp is None else {"provoker": opp.provoker, "trigger": opp.trigger,
                                                 "waiting": list(opp.foes)},
        "options": {"monsters_finish_the_dying": state.options.monsters_finish_the_dying},
        "outcome": None if state.outcome is None else {"winner": state.outcome.winner,
                                                       "reason": state.outcome.reason},
    }
