"""GM rulings on a Spellchrome fight (:mod:`affray.core.adjust`): the GM edits a token as a VTT's GM does, and the
rules check each change and carry on from it. ``docs/spellchrome.md``, "GM rulings", is the table's version.

- ``bar``: ``HP`` from −30 (dead, SC-05) to the maximum (SC-08: never above it), the hit-point states following from
  it (SC-02..SC-05: 0 unconscious, −1..−29 dying, from this round, SC-B3); HP 0 or more ends a stable state, 1 or
  more stands the combatant up again (unless knocked out, surrendered or out); ``EX-HP`` from 0 to the armour's
  (SC-07).
- ``status`` / ``remove_status`` (no rounds: each lasts until something ends it): ``stable`` (only the dying,
  SC-06; ending it makes it dying again), ``unconscious`` (a knockout at 1 HP or more, SC-10; waking ends it),
  ``surrendered`` (gives up, SC-02), ``out`` (as ``out``). ``dying`` and ``dead`` follow from HP: set the bar.
- ``position``: a square ``[x, y]`` on the map, not a wall, where a move could end (SC-24: nobody able stands
  there); the mover of a move paused for attacks of opportunity stops where it is put.
- ``out``: ``true`` takes the combatant out of the fight (no turns, no blows given or taken, no threat, off the board
  for occupancy, and no more bleeding); ``false`` brings it back at its initiative count, on its own square, when it
  can stand (HP 1 or more).

After each change the fight goes on as the rules say (:func:`go_on`): the outcome is judged again (SC-R12, and a
fight decided while the dying bleed on reopens if two sides stand again), the foes still deciding on an attack of
opportunity are those who still may, and a turn whose combatant can no longer act passes. A ruling draws no die,
so where going on needs one (a resumed attack, a dying combatant's save or losses, SC-04, SC-06) the window stays
with the one who held it, whose only choice is then to pass (``end_turn``, ``decline``): its step rolls them.
"""

from __future__ import annotations

import copy
from typing import Any

from affray.core.adjust import Change
from affray.core.engine import Rejected
from affray.core.journal import QUIET, Journal
from affray.core.rng import RNG
from affray.rulesets.spellchrome.actions import resume
from affray.rulesets.spellchrome.combat import may_punish
from affray.rulesets.spellchrome.health import after_the_fight, check_outcome
from affray.rulesets.spellchrome.mechanics import DEAD_AT
from affray.rulesets.spellchrome.movement import end_ok
from affray.rulesets.spellchrome.state import Combatant, SpellchromeState
from affray.rulesets.spellchrome.turns import end_turn

BARS = ("HP", "EX-HP")
GIVEN = ("stable", "unconscious", "surrendered", "out")  # the statuses a ruling gives or ends
SHOWN = (*GIVEN, "dying", "dead")  # every status the view shows (views.py)


class NeedsDice(Exception):
    """Going on from a ruling would roll a die (:class:`NoDice`)."""


class NoDice:
    """The RNG a ruling goes on with: it has no dice (core/adjust.py: "No die is drawn")."""

    index = 0

    def die(self, sides: int) -> int:
        raise NeedsDice

    def salt(self) -> bytes:
        raise NeedsDice


class SpellchromeAdjuster:
    """Spellchrome's side of GM rulings (see the module docstring)."""

    def check(self, state: SpellchromeState, change: Change) -> Rejected | None:
        c = state.combatants[change.combatant]
        if change.field == "bar":
            return _check_bar(c, change)
        if change.field in ("status", "remove_status"):
            return _check_status(state, c, change)
        if change.field == "position":
            return _check_position(state, c, change.value)
        return _check_out(state, c, bool(change.value))

    def apply(self, state: SpellchromeState, change: Change) -> Any:
        c = state.combatants[change.combatant]
        was: Any
        if change.field == "bar" and change.name == "EX-HP":
            was, c.ex_hp = c.ex_hp, change.value
        elif change.field == "bar":
            was = c.hp
            set_hp(state, c, change.value)
        elif change.field == "position":
            was = list(c.pos)
            place(state, c, (change.value[0], change.value[1]))
        elif change.field == "out":
            was, c.out = c.out, bool(change.value)
        else:
            was = c.status
            _set_status(c, change)
        go_on(state)
        return was

    def hidden(self, state: SpellchromeState, change: Change) -> bool:
        """Nothing on the battle map is hidden (views.py): every seat reads every ruling."""
        return False

    def settle(self, state: SpellchromeState, rng: RNG, journal: Journal) -> None:
        """Nothing yet: what must run after a ruling waits for the next combatant's "go on" (to be moved here)."""

    def forms(self, state: SpellchromeState) -> dict[str, dict[str, Any]]:
        return {a: {"bars": [{"name": "HP", "min": DEAD_AT, "max": c.max_hp},
                             {"name": "EX-HP", "min": 0, "max": c.ex_hp_max}],
                    "statuses": list(GIVEN), "position": "square", "out": c.out}
                for a, c in state.combatants.items()}


def _check_bar(c: Combatant, change: Change) -> Rejected | None:
    if change.name not in BARS:
        return Rejected("unknown_bar", f"{c.name} has no bar '{change.name}' (Spellchrome's are HP and EX-HP).")
    low, high = (DEAD_AT, c.max_hp) if change.name == "HP" else (0, c.ex_hp_max)
    if not low <= change.value <= high:
        why = "−30 is dead (SC-05), and healing never passes the maximum (SC-08)" if change.name == "HP" else (
            "the armour's EX-HP (SC-07)")
        return Rejected("bad_value", f"{c.name}'s {change.name} runs from {low} to {high}: {why}.")
    return None


def _check_status(state: SpellchromeState, c: Combatant, change: Change) -> Rejected | None:
    name = change.name
    if name not in SHOWN:
        return Rejected("unknown_status", f"Spellchrome has no status '{name}'; the GM may give or end "
                                          f"{', '.join(GIVEN)} (dying and dead follow from HP).")
    if change.field == "status" and change.value is not None:
        return Rejected("bad_value", "Spellchrome's conditions last until something ends them: give no rounds.")
    if name in ("dying", "dead"):
        return Rejected("derived_status", f"'{name}' follows from HP (SC-04, SC-05): set {c.name}'s HP instead.")
    if name == "out":
        if change.field == "remove_status" and not c.out:
            return Rejected("not_there", f"{c.name} is not out of the fight.")
        return _check_out(state, c, change.field == "status")
    if change.field == "remove_status":
        if c.status != name:
            return Rejected("not_there", f"{c.name} is not {name} (it is {c.status}).")
        if name == "unconscious" and not c.knocked_out:
            return Rejected("derived_status", f"{c.name} is unconscious at 0 HP (SC-03): set HP to 1 or more.")
        return None
    return _check_give(c, name)


def _check_give(c: Combatant, name: str) -> Rejected | None:
    if c.out or c.hp_state == "dead":
        return Rejected("bad_status", f"{c.name} is {c.status}: bring it back first.")
    if name == "stable" and c.hp_state != "dying":
        return Rejected("bad_status", f"Only a dying combatant can be stable (SC-06); {c.name} is {c.status}.")
    if name in ("unconscious", "surrendered") and c.hp < 1 and c.status != name:
        return Rejected("bad_status", f"{c.name} is {c.status} at {c.hp} HP; only a combatant on its feet can be "
                                      f"{'knocked out (SC-10)' if name == 'unconscious' else 'give up (SC-02)'}.")
    return None


def _check_position(state: SpellchromeState, c: Combatant, value: Any) -> Rejected | None:
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return Rejected("bad_position", "A Spellchrome position is a square [x, y].")
    pos = (value[0], value[1])
    grid = state.grid
    if not grid.in_bounds(pos) or not grid.passable(pos):
        where = "off the map" if not grid.in_bounds(pos) else "a wall"
        return Rejected("bad_position", f"{list(pos)} is {where} ({grid.width}×{grid.height} map).")
    if not end_ok(state, c, pos):
        who = next(o.name for o in state.at(pos) if o is not c and not o.helpless)
        return Rejected("occupied", f"{who} stands on {list(pos)} (SC-24: no move ends on a square someone able "
                                    f"stands on).")
    return None


def _check_out(state: SpellchromeState, c: Combatant, out: bool) -> Rejected | None:
    if out:
        if c.out or c.hp_state == "dead":
            return Rejected("already_out", f"{c.name} is already out of the fight ({c.status}).")
        return None
    if not c.out:
        return Rejected("not_out", f"{c.name} is in the fight.")
    if c.hp < 1:
        return Rejected("cannot_stand", f"{c.name} has {c.hp} HP and cannot stand (SC-03, SC-04): set HP to 1 or "
                                        f"more first.")
    taken = [o.name for o in state.at(c.pos) if o is not c and o.able]
    if taken:
        return Rejected("occupied", f"{taken[0]} stands on {c.name}'s square {list(c.pos)}: move one of them first "
                                    f"(SC-24).")
    return None


def set_hp(state: SpellchromeState, c: Combatant, hp: int) -> None:
    """HP as the GM sets it, the states following (SC-02..SC-06): a combatant that begins dying does so this round
    (SC-B3); at 0 HP or more nobody is stable any more (as healing does, :func:`.health.restore`)."""
    dying = c.hp_state == "dying"
    c.hp = hp
    if hp >= 0:
        c.stable = False
    if c.hp_state == "dying" and not dying:
        c.dropped_round = state.round


def place(state: SpellchromeState, c: Combatant, pos: tuple[int, int]) -> None:
    """Put ``c`` on ``pos``; a move of ``c`` paused for attacks of opportunity ends there (SC-24: a legal square)."""
    c.pos = pos
    m = state.motion
    if m is not None and m.actor == c.id:
        m.start, m.path, m.index, m.walked, m.reported = pos, [], 0, [], 0


def _set_status(c: Combatant, change: Change) -> None:
    on = change.field == "status"
    if change.name == "out":
        c.out = on
    elif change.name == "stable":
        c.stable = on
    elif change.name == "unconscious":
        c.knocked_out = on and c.hp >= 1
    else:
        c.surrendered = on


def go_on(state: SpellchromeState) -> None:
    """Carry the fight on from a ruling without a die (see the module docstring): first on a copy, to learn whether
    the turn or the attack of opportunity can pass now; then for real, passing it only if it can."""
    trial = copy.deepcopy(state)
    try:
        _settle(trial, passing=True)
    except NeedsDice:
        _settle(state, passing=False)
        return
    _settle(state, passing=True)


def _settle(state: SpellchromeState, passing: bool) -> None:
    dice = NoDice()
    sides = {c.side for c in state.combatants.values() if c.able}
    if state.decided is not None and len(sides) > 1:  # the dying bled on after the last blow; now it is a fight again
        state.decided, state.decided_round = None, 0
    check_outcome(state, QUIET)
    if state.outcome is not None:
        return
    opp = state.opportunity
    if opp is not None:
        provoker = state.combatants[opp.provoker]
        still = [] if after_the_fight(state) else [
            f for f in opp.foes if may_punish(provoker, state.combatants[f]) and state.combatants[f].aoo_left > 0]
        if still or not passing:
            opp.foes = still or opp.foes[:1]  # with nobody left, the one deciding keeps the window to let it go
            return
        state.opportunity = None
        resume(state, dice, opp.resume, QUIET)
        return
    turn = state.turn
    if passing and turn is not None and not state.combatants[turn.actor].able:
        end_turn(state, dice, QUIET)
ADJUSTER = SpellchromeAdjuster()
