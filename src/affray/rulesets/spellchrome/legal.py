"""The legal-action list, with warnings on every choice that provokes (SC-28).

SC-28: "warn the player before an action provokes, and offer withdraw as the alternative". Each move,
run, attack or cast that would give a foe an attack of opportunity carries a note naming the foes, and
the withdraw and 5-foot-step actions are listed beside it. Moves are listed to every legal end square
(with the path the engine would take: one that provokes nobody if there is one); runs along the eight
compass lines. Any other square on a legal path may still be submitted with an explicit ``path``.
"""

from __future__ import annotations

from affray.core.engine import ActionSpec
from affray.core.grid import DIRECTIONS, Pos
from affray.rulesets.spellchrome.combat import attack_provokers, cast_provokers, reach_problem
from affray.rulesets.spellchrome.mechanics import iterative_bonuses, squares, withdraw_distance
from affray.rulesets.spellchrome.movement import (
    PROVOKING_KINDS,
    destinations,
    end_ok,
    open_squares,
    opponent_squares,
    threat_map,
)
from affray.rulesets.spellchrome.state import Combatant, SpellchromeState, Turn
from affray.rulesets.spellchrome.turns import step_available

COMPASS = dict(zip(("nw", "n", "ne", "w", "e", "sw", "s", "se"), DIRECTIONS, strict=True))


def provoke_note(state: SpellchromeState, c: Combatant, foes: list[Combatant]) -> tuple[str, ...]:
    if not foes:
        return ()
    names = ", ".join(f.name for f in foes)
    safe = f"withdraw ({withdraw_distance(c.speed_ft)} ft) or a 5-foot step does not provoke"
    return (f"provokes an attack of opportunity from {names}", safe)


def path_provokers(threats: dict[Pos, list[Combatant]], c: Combatant, path: list[Pos]) -> list[Combatant]:
    """Foes whose attack of opportunity this path would give (SC-27 (a)/(b)), once each (SC-R9);
    ``threats`` is :func:`threat_map` for the mover."""
    seen: dict[str, Combatant] = {}
    for here in [c.pos, *path[:-1]]:
        for f in threats.get(here, ()):
            seen.setdefault(f.id, f)
    return list(seen.values())


def _moves(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    if turn.stepped or not (turn.move_left or turn.standard_left):
        return []
    specs = []
    threats = threat_map(state, c)
    second = "" if turn.move_left else " (standard action as a second move)"
    plain = destinations(state, c, "move")
    for kind in ("move", "withdraw"):
        for to, path in (plain if kind == "move" else destinations(state, c, kind)).items():
            notes = provoke_note(state, c, path_provokers(threats, c, path)) if kind in PROVOKING_KINDS else ()
            specs.append(ActionSpec({"type": kind, "to": list(to)}, f"{kind} to {list(to)}{second}", notes))
    if "tumble" in c.skills:
        for to, path in destinations(state, c, "move", tumble=True).items():
            if to not in plain:
                notes = (f"tumbles through an opponent: Acrobatics and Tumbling DC {state.options.tumble_dc}",
                         *provoke_note(state, c, path_provokers(threats, c, path)))
                specs.append(ActionSpec({"type": "move", "to": list(to), "tumble": True},
                                        f"tumble to {list(to)}{second}", notes))
    return specs


def _runs(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    if not state.options.running or not (turn.move_left and turn.standard_left) or turn.moved or turn.stepped:
        return []
    specs = []
    sure = 2 * squares(c.speed_ft)
    threats = threat_map(state, c)
    blocked = opponent_squares(state, c)
    terrain = open_squares(state.grid)
    for name, (dx, dy) in COMPASS.items():
        # along a compass line the only fairly straight path is the line itself (SC-18, ruling SC-R2)
        path: list[Pos] = []
        best: list[Pos] = []
        spent = 0
        here = c.pos
        while True:
            here = (here[0] + dx, here[1] + dy)
            cost = terrain.get(here)
            if cost is None or here in blocked or spent + cost > sure:
                break
            spent += cost
            path.append(here)
            if end_ok(state, c, here):
                best = list(path)
        if best:
            notes = provoke_note(state, c, path_provokers(threats, c, best))
            specs.append(ActionSpec({"type": "run", "to": list(best[-1])}, f"run {name} to {list(best[-1])}", notes))
    return specs


def _steps(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    if not step_available(state, turn):
        return []
    specs = []
    for dx, dy in DIRECTIONS:
        to = (c.pos[0] + dx, c.pos[1] + dy)
        if state.grid.passable(to) and state.grid.cost(to) == 1 and end_ok(state, c, to):
            specs.append(ActionSpec({"type": "step", "to": list(to)}, f"5-foot step to {list(to)}",
                                    ("never provokes (SC-21)",)))
    return specs


def _attacks(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    if not turn.standard_left:
        return []
    full_ok = (turn.move_left or turn.move_used_for == "step") and not turn.moved
    specs = []
    for t in state.foes_of(c):
        if t.hp_state == "dead" or t.surrendered:
            continue
        for wid in dict.fromkeys([c.wielding, "unarmed"]):
            arm = c.arms[wid]
            if reach_problem(state, c, arm, t) is not None:
                continue
            trigger, foes = attack_provokers(state, c, arm, t)
            notes = provoke_note(state, c, foes) if trigger else ()
            helpless = (f"{t.name} is helpless ({t.status})",) if t.helpless else ()
            action = {"type": "attack", "target": t.id, "weapon": wid}
            specs.append(ActionSpec(action, f"attack {t.name} with {arm.name}", notes + helpless))
            if full_ok and wid == c.wielding and len(iterative_bonuses(c.base_attack)) > 1:
                specs.append(ActionSpec({"type": "full_attack", "target": t.id},
                                        f"full attack on {t.name} (full-round)", notes + helpless))
    return specs


def _spells(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    if not turn.standard_left:
        return []
    specs = []
    risk = cast_provokers(state, c)
    notes = () if not risk else (
        f"casting in melee: Concentration DC 15, or it provokes an attack of opportunity from "
        f"{', '.join(f.name for f in risk)}", f"withdraw ({withdraw_distance(c.speed_ft)} ft) or a 5-foot step first")
    for spell in c.spells.values():
        if spell.casting != "standard" or spell.uses <= 0:
            continue
        for t in state.combatants.values():
            if t.hp_state == "dead":
                continue
            if spell.effect == "steal_life" and (t.side == c.side or t.surrendered):
                continue
            if spell.effect == "heal" and (t.side != c.side or t.hp >= t.max_hp):
                continue
            dist = max(abs(t.pos[0] - c.pos[0]), abs(t.pos[1] - c.pos[1]))
            if (spell.range_squares == 0 and t is not c) or dist > spell.range_squares:
                continue
            specs.append(ActionSpec({"type": "cast", "spell": spell.id, "target": t.id},
                                    f"cast {spell.name} on {t.name}", notes))
    return specs


def _support(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    specs = []
    if turn.standard_left:
        for t in state.combatants.values():
            if t.status == "dying" and max(abs(t.pos[0] - c.pos[0]), abs(t.pos[1] - c.pos[1])) <= 1:
                specs.append(ActionSpec({"type": "first_aid", "target": t.id},
                                        f"first aid on {t.name} (Heal DC 15)"))
    if turn.move_left or turn.standard_left:
        for wid, arm in c.arms.items():
            if wid != c.wielding:
                specs.append(ActionSpec({"type": "draw", "weapon": wid}, f"take up {arm.name} (move action)"))
    if c.kind != "character" and state.options.npcs_may_give_up:
        specs.append(ActionSpec({"type": "give_up"}, "give up the fight (SC-02)"))
    specs.append(ActionSpec({"type": "end_turn"}, "end the turn"))
    return specs


def turn_actions(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    return (_attacks(state, c, turn) + _spells(state, c, turn) + _steps(state, c, turn) + _moves(state, c, turn)
            + _runs(state, c, turn) + _support(state, c, turn))


def opportunity_actions(state: SpellchromeState, foe: Combatant) -> list[ActionSpec]:
    opp = state.opportunity
    assert opp is not None
    who = state.combatants[opp.provoker].name
    return [ActionSpec({"type": "attack_of_opportunity"}, f"attack {who} ({opp.trigger})",
                       ("uses this round's one attack of opportunity (SC-26)",)),
            ActionSpec({"type": "decline"}, f"let {who} go")]
