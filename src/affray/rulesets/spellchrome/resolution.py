"""Checking and applying a turn's actions: validate completely, then apply (DESIGN.md, contract 2).

Each ``check_*`` function reads the state and the action and returns either a :class:`Rejected` (stable
code and a sentence) or an ``apply`` closure; nothing is changed and no die is rolled until the closure
runs. Actions (JSON objects):

- ``move`` / ``withdraw`` ``{"to": [x, y], "path"?: [[x, y], ...], "tumble"?: bool}``: a move action
  (the standard action becomes a second move when the move action is gone: SC-15, SC-22); withdraw
  moves at max(5, 5·⌊speed/15⌋) ft and never provokes (SC-19).
- ``run`` ``{"to": [x, y]}``: full-round, a fairly straight path, 2 moves + ⌊Run/5⌋ squares (SC-18).
- ``step`` ``{"to": [x, y]}``: the 5-foot step, which never provokes (SC-21).
- ``attack`` ``{"target": id, "weapon"?: id}``, ``full_attack`` ``{"target": id}`` (SC-15, SC-B1).
- ``cast`` ``{"spell": id, "target": id}``, ``first_aid`` ``{"target": id}`` (SC-06, SC-27 (e)).
- ``draw`` ``{"weapon": id}`` (a move action spent without moving), ``give_up`` (SC-02), ``end_turn``.
"""

from __future__ import annotations

from collections.abc import Callable

from affray.core.engine import Action, Rejected
from affray.core.events import Defeated
from affray.core.fields import square, text
from affray.core.grid import Pos, adjacent
from affray.core.rng import RNG
from affray.rulesets.spellchrome.checks import Events
from affray.rulesets.spellchrome.combat import (
    TRIGGER_SPELL,
    attack_provokers,
    cast_provokers,
    concentration,
    first_aid,
    open_opportunity,
    perform_attack,
    reach_problem,
    resolve_spell,
)
from affray.rulesets.spellchrome.events import StatusChanged, WeaponDrawn
from affray.rulesets.spellchrome.health import after_the_fight, check_outcome
from affray.rulesets.spellchrome.movement import auto_path, check_path, end_ok
from affray.rulesets.spellchrome.moves import continue_motion, finish_motion, start_motion
from affray.rulesets.spellchrome.state import Arm, Combatant, Resume, SpellchromeState, SpellKnown, Turn
from affray.rulesets.spellchrome.turns import after_action, end_turn, step_available

Apply = Callable[[RNG, Events], None]
Checked = Rejected | Apply


def _pos(value: object, what: str = "to") -> Pos | Rejected:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    return Rejected("bad_action", f"'{what}' is a square written [x, y].")


def _path(value: object) -> list[Pos] | Rejected | None:
    if value is None:
        return None
    if not isinstance(value, list):
        return Rejected("bad_path", "A path is a list of squares [[x, y], ...].")
    out = []
    for item in value:
        p = _pos(item, "path")
        if isinstance(p, Rejected):
            return p
        out.append(p)
    return out


def _target(state: SpellchromeState, value: object) -> Combatant | Rejected:
    if not isinstance(value, str) or value not in state.combatants:
        return Rejected("no_such_target", f"There is no combatant called '{value}'.")
    return state.combatants[value]


def _spend_move(turn: Turn) -> None:
    """A move action, or the standard action used as a second move (SC-15, SC-22)."""
    if turn.move_left:
        turn.move_left, turn.move_used_for = False, "move"
    else:
        turn.standard_left = False
    turn.moved = True


def check_move(state: SpellchromeState, c: Combatant, turn: Turn, action: Action, kind: str) -> Checked:
    if turn.stepped:
        return Rejected("already_stepped", f"{c.name} took a 5-foot step and cannot move otherwise this turn (SC-21).")
    if not (turn.move_left or turn.standard_left):
        return Rejected("no_move_action", f"{c.name} has no move or standard action left this turn (SC-15).")
    to, path = _pos(action.get("to")), _path(action.get("path"))
    if isinstance(to, Rejected):
        return to
    if isinstance(path, Rejected):
        return path
    tumble = action.get("tumble", False) is True
    if tumble and (kind != "move" or "tumble" not in c.skills):
        return Rejected(
            "untrained", "Only a move by a character trained in Acrobatics and Tumbling can tumble (SC-24)."
        )
    walk = check_path(state, c, kind, to, path, tumble)
    if isinstance(walk, Rejected):
        return walk
    return _apply_move(state, c, turn, kind, walk, tumble)


def _apply_move(state: SpellchromeState, c: Combatant, turn: Turn, kind: str, walk: list[Pos], tumble: bool) -> Apply:
    def apply(rng: RNG, events: Events) -> None:
        _spend_move(turn)
        start_motion(state, rng, c, kind, walk, tumble, events)

    return apply


def check_run(state: SpellchromeState, c: Combatant, turn: Turn, action: Action) -> Checked:
    if not state.options.running:
        return Rejected("not_allowed", "Running is switched off in this fight (option 'running').")
    if not (turn.move_left and turn.standard_left) or turn.moved or turn.stepped:
        return Rejected(
            "needs_full_round", f"Running takes {c.name}'s whole turn: both actions, no other move (SC-18)."
        )
    to, path = _pos(action.get("to")), _path(action.get("path"))
    if isinstance(to, Rejected):
        return to
    if isinstance(path, Rejected):
        return path
    walk = check_path(state, c, "run", to, path)
    if isinstance(walk, Rejected):
        return walk

    def apply(rng: RNG, events: Events) -> None:
        turn.move_left = turn.standard_left = False
        turn.moved, turn.move_used_for = True, "move"
        start_motion(state, rng, c, "run", walk, False, events)

    return apply


def check_step(state: SpellchromeState, c: Combatant, turn: Turn, action: Action) -> Checked:
    to = _pos(action.get("to"))
    if isinstance(to, Rejected):
        return to
    if not step_available(state, turn):
        return Rejected(
            "no_five_foot_step",
            f"{c.name} cannot take a 5-foot step now: it moved, already stepped, "
            "or spent its move action on something else (SC-21).",
        )
    if not adjacent(c.pos, to):
        return Rejected("too_far", "A 5-foot step goes to one of the eight squares around (SC-21, SC-23).")
    grid = state.grid
    if not grid.passable(to):
        return Rejected("blocked_by_wall", f"{list(to)} is a wall.")
    if grid.cost(to) > 1:
        return Rejected("difficult_terrain", "A 5-foot step cannot enter difficult terrain (ruling SC-R11).")
    if not end_ok(state, c, to):
        return Rejected("occupied", f"{list(to)} is occupied (SC-21: a step goes to an unoccupied square).")
    return _apply_step(state, c, turn, to)


def _apply_step(state: SpellchromeState, c: Combatant, turn: Turn, to: Pos) -> Apply:
    def apply(rng: RNG, events: Events) -> None:
        turn.stepped = True
        if state.options.five_foot_step == "seed" and turn.move_left:
            turn.move_left, turn.move_used_for = False, "step"
        start_motion(state, rng, c, "step", [to], False, events)

    return apply


def _attack_target(state: SpellchromeState, c: Combatant, action: Action) -> Combatant | Rejected:
    target = _target(state, action.get("target"))
    if isinstance(target, Rejected):
        return target
    if target.side == c.side:
        return Rejected("not_a_foe", f"{target.name} fights on {c.name}'s side.")
    if target.hp_state == "dead" or target.surrendered or target.out:
        return Rejected("target_out", f"{target.name} is out of the fight.")
    return target


def check_attack(state: SpellchromeState, c: Combatant, turn: Turn, action: Action, full: bool) -> Checked:
    if full and not (turn.standard_left and (turn.move_left or turn.move_used_for == "step") and not turn.moved):
        return Rejected("needs_full_round", f"A full attack takes {c.name}'s standard and move actions (SC-15).")
    if not turn.standard_left:
        return Rejected("no_standard_action", f"{c.name} has used its standard action this turn (SC-15).")
    target = _attack_target(state, c, action)
    if isinstance(target, Rejected):
        return target
    weapon = action.get("weapon", c.wielding)
    if weapon not in (c.wielding, "unarmed"):
        return Rejected("not_wielded", f"{c.name} does not hold '{weapon}'; draw it first (a move action).")
    arm = c.arms[str(weapon)]
    problem = reach_problem(state, c, arm, target)
    if problem is not None:
        return Rejected(*problem)
    return _apply_attack(state, c, turn, target, arm, full)


def _apply_attack(state: SpellchromeState, c: Combatant, turn: Turn, target: Combatant, arm: Arm, full: bool) -> Apply:
    def apply(rng: RNG, events: Events) -> None:
        turn.standard_left = False
        if full:
            turn.move_left = False
            turn.move_used_for = turn.move_used_for or "still"
        trigger, foes = attack_provokers(state, c, arm, target)
        if not trigger or not open_opportunity(
            state, c, trigger, foes, {"kind": "attack", "target": target.id, "weapon": arm.id, "full": full}, events
        ):
            perform_attack(state, rng, c, target, arm, full, events)

    return apply


def check_cast(state: SpellchromeState, c: Combatant, turn: Turn, action: Action) -> Checked:
    if not turn.standard_left:
        return Rejected("no_standard_action", f"{c.name} has used its standard action this turn (SC-15).")
    spell = c.spells.get(str(action.get("spell")))
    if spell is None:
        return Rejected("unknown_spell", f"{c.name} does not know a spell called '{action.get('spell')}'.")
    if spell.casting != "standard":
        return Rejected("takes_minutes", f"{spell.name} takes minutes to cast: not in a fight (SC-08).")
    if spell.uses <= 0:
        return Rejected("no_uses_left", f"{c.name} has no casts of {spell.name} left this fight.")
    target = _target(state, action.get("target"))
    if isinstance(target, Rejected):
        return target
    if target.hp_state == "dead":
        return Rejected("target_out", f"{target.name} is dead.")
    if target.out:
        return Rejected("target_out", f"{target.name} is out of the fight.")
    if spell.effect == "steal_life" and target.side == c.side:
        return Rejected("not_a_foe", f"{spell.name} is cast on a foe.")
    reach = spell.range_squares
    if (reach == 0 and target is not c) or (
        reach and max(abs(target.pos[0] - c.pos[0]), abs(target.pos[1] - c.pos[1])) > reach
    ):
        return Rejected("out_of_range", f"{target.name} is beyond the reach of {spell.name}.")
    return _apply_cast(state, c, turn, spell, target)


def _apply_cast(state: SpellchromeState, c: Combatant, turn: Turn, spell: SpellKnown, target: Combatant) -> Apply:
    def apply(rng: RNG, events: Events) -> None:
        turn.standard_left = False
        spell.uses -= 1
        foes = cast_provokers(state, c)
        if not foes or concentration(state, rng, c, events):
            resolve_spell(state, rng, c, spell, target, events)
        elif state.options.failed_concentration_provokes == "after_spell":
            resolve_spell(state, rng, c, spell, target, events)
            open_opportunity(state, c, TRIGGER_SPELL, cast_provokers(state, c), None, events)
        else:
            open_opportunity(
                state, c, TRIGGER_SPELL, foes, {"kind": "cast", "spell": spell.id, "target": target.id}, events
            )

    return apply


def check_first_aid(state: SpellchromeState, c: Combatant, turn: Turn, action: Action) -> Checked:
    if not turn.standard_left:
        return Rejected("no_standard_action", f"{c.name} has used its standard action this turn (SC-15).")
    target = _target(state, action.get("target"))
    if isinstance(target, Rejected):
        return target
    if not adjacent(c.pos, target.pos) and target.pos != c.pos:
        return Rejected("out_of_reach", f"First aid needs {target.name} within reach (adjacent).")
    if target.status != "dying":
        return Rejected("not_dying", f"{target.name} is not dying (status: {target.status}).")

    def apply(rng: RNG, events: Events) -> None:
        turn.standard_left = False
        first_aid(state, rng, c, target, events)

    return apply


def check_draw(state: SpellchromeState, c: Combatant, turn: Turn, action: Action) -> Checked:
    weapon = action.get("weapon")
    if not isinstance(weapon, str) or weapon not in c.arms:
        return Rejected("no_such_weapon", f"{c.name} carries no weapon called '{weapon}'.")
    if weapon == c.wielding:
        return Rejected("already_in_hand", f"{c.name} already holds {c.arms[weapon].name}.")
    if not (turn.move_left or turn.standard_left):
        return Rejected("no_move_action", f"{c.name} has no action left to draw a weapon.")

    def apply(rng: RNG, events: Events) -> None:
        if turn.move_left:
            turn.move_left, turn.move_used_for = False, "still"  # spent without moving: a step stays open
        else:
            turn.standard_left = False
        c.wielding = weapon
        events.append(WeaponDrawn(c.id, c.arms[weapon].name))

    return apply


def check_give_up(state: SpellchromeState, c: Combatant, turn: Turn, action: Action) -> Checked:
    if c.kind == "character" or not state.options.npcs_may_give_up:
        return Rejected("not_allowed", "Only NPCs and monsters give up, when the option 'npcs_may_give_up' is on.")

    def apply(rng: RNG, events: Events) -> None:
        c.surrendered = True
        c.settle()
        events.append(StatusChanged(c.id, "surrendered", "gave up the fight (SC-02)"))
        events.append(Defeated(c.id, "gave up"))
        check_outcome(state, events)
        end_turn(state, rng, events)

    return apply


def check_end_turn(state: SpellchromeState, c: Combatant, turn: Turn, action: Action) -> Checked:
    def apply(rng: RNG, events: Events) -> None:
        end_turn(state, rng, events)

    return apply


BLOWS = frozenset({"attack", "full_attack", "give_up"})


def _harmful(c: Combatant, action: Action) -> bool:
    spell = c.spells.get(str(action.get("spell")))
    return spell is not None and spell.effect != "heal"


def trusted_turn_action(state: SpellchromeState, c: Combatant, turn: Turn, action: Action) -> Checked:
    """An action taken from ``c``'s legal listing (the journal does not ask for validation): attacks,
    spells and moves along the engine's path skip the checks that only refuse what the listing never offers; the
    path is the one the full check finds (:func:`~.movement.auto_path`), so the dice and the state are the same."""
    kind = action["type"]  # the listing's own specs: their fields are what the listing put there
    if kind in ("attack", "full_attack"):
        arm = c.arms[str(action.get("weapon", c.wielding))]
        return _apply_attack(state, c, turn, state.combatants[str(action["target"])], arm, kind == "full_attack")
    if kind == "end_turn":
        return check_end_turn(state, c, turn, action)  # what check_turn_action gives it, after the fight too
    if kind == "cast":
        return _apply_cast(state, c, turn, c.spells[text(action, "spell")], state.combatants[text(action, "target")])
    if kind in ("move", "withdraw") and action.get("path") is None:
        tumble = action.get("tumble", False) is True
        walk = auto_path(state, c, kind, square(action, "to"), tumble)
        if walk is not None:
            return _apply_move(state, c, turn, kind, walk, tumble)
    if kind == "step":  # the listing's steps go to open, free squares around, while a step is available (SC-21)
        return _apply_step(state, c, turn, square(action, "to"))
    return check_turn_action(state, c, turn, action)


def check_turn_action(state: SpellchromeState, c: Combatant, turn: Turn, action: Action) -> Checked:
    """Validate one turn action; see the module docstring for the shapes. After the fight (the dying bleed on,
    SC-04) no blow is struck: attacks, harmful spells and giving up are refused."""
    kind = str(action["type"])
    if after_the_fight(state) and (kind in BLOWS or (kind == "cast" and _harmful(c, action))):
        return Rejected(
            "fight_over",
            "The fight is over: no more blows. The dying bleed on until dead or stable; "
            "first aid, healing, moving or ending the turn remain (SC-04, SC-06).",
        )
    if kind in ("move", "withdraw"):
        return check_move(state, c, turn, action, kind)
    if kind in ("attack", "full_attack"):
        return check_attack(state, c, turn, action, kind == "full_attack")
    check = _CHECKS.get(kind)
    if check is None:
        known = "move, withdraw, run, step, attack, full_attack, cast, first_aid, draw, give_up, end_turn"
        return Rejected("unknown_action", f"'{kind}' is not a Spellchrome action; on your turn: {known}.")
    return check(state, c, turn, action)


_CHECKS: dict[str, Callable[[SpellchromeState, Combatant, Turn, Action], Checked]] = {
    "run": check_run,
    "step": check_step,
    "cast": check_cast,
    "first_aid": check_first_aid,
    "draw": check_draw,
    "give_up": check_give_up,
    "end_turn": check_end_turn,
}


def resume(state: SpellchromeState, rng: RNG, spec: Resume | None, events: Events) -> None:
    """Carry on with the action an attack of opportunity interrupted (if the provoker can still act)."""
    turn = state.turn
    if spec is not None and turn is not None and state.outcome is None:
        c = state.combatants[turn.actor]
        if spec["kind"] == "motion" and state.motion is not None:
            if c.able:
                continue_motion(state, rng, events)
            else:
                finish_motion(state, events)
        elif spec["kind"] == "attack" and c.able:
            perform_attack(
                state, rng, c, state.combatants[spec["target"]], c.arms[spec["weapon"]], spec["full"], events
            )
        elif spec["kind"] == "cast" and c.able:
            resolve_spell(state, rng, c, c.spells[spec["spell"]], state.combatants[spec["target"]], events)
    elif state.motion is not None:
        finish_motion(state, events)
    after_action(state, rng, events)
