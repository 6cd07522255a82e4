"""GM rulings on a WaRP fight (:mod:`affray.core.adjust`): the GM changes what the view shows, through the rules.

- **Bar** ``HP`` (WR-24..WR-26, WR-B9): from minus the maximum (death, WR-B10) to the maximum. Lowered, the rules
  follow as after a wound: Messed Up at half or less, down for the count at 0 or less (taser damage counted,
  WR-29), at -max a PC is at death's door and gives a reason to live, a GM character dies. Raised, a character
  down for the count is back in the fight once its HP (less taser damage) are above 0, and one at death's door is
  no longer dying above -max; the dead stay dead (bring them back with ``out``: the GM's word, as a reason to live
  the GM accepts, WR-26).
- **Statuses**, by the view's names: ``prone`` (until its next turn, WR-30), ``held by <name>`` (a foe within
  reach holds it, WR-30; by its id where two fighters share the name, and a ruling recorded with the id is still
  read), ``desperate defense`` (to the end of the round, WR-32, with the optional rule on),
  ``psychological advantage`` (rounds 1: this round's rolls; 2: the next round's, as an intimidation win gives,
  WR-31), ``unaware`` (until its first turn or the first attack on it, WR-31). ``messed up`` follows HP (WR-24).
- **Position**: metres on the line (ruling WR-X2). Moving leaves cover (WR-X13) and any hold out of reach; beyond
  ``escape_m`` from every foe a character has left the fight (WR-X4).
- **Out**: ``true`` takes a character out of the fight (``out``); ``false`` brings back one that is out in any way
  whose HP, less taser damage, are above 0.
- **Add** (reinforcements): a character joins a side at a distance on the line and takes part from the next
  round (WR-05: everyone acts once a round in the order rolled at the start; the rules are silent on newcomers, so
  by the rule option "joiners next round", docs/warp.md). With trait initiative it rolls its own now (its best
  initiative trait, 2 dice otherwise, WR-03, from the match's dice), or takes its side's shared GM roll with
  ``gmc_single_initiative``, and enters the order by it, after those it ties; with seating initiative it sits last
  of its kind (PCs or GM characters). Before the first round's initiative is rolled it simply rolls with everyone.

A GM character's HP are GM-level (docs/warp.md, "What each seat sees"): a ruling on them is read in full only by
the GM and that character's seat. What leaving and coming back do to the round, and how ``settle`` goes on after
the ruling's last change: :mod:`affray.rulesets.warp.leave`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from affray.core.adjust import Change
from affray.core.engine import Rejected
from affray.core.journal import QUIET, Journal
from affray.core.json import Json, JsonObject
from affray.core.rng import RNG
from affray.rulesets.warp.attack import leave_cover
from affray.rulesets.warp.leave import bring_back, leave_windows, settle, worse
from affray.rulesets.warp.mechanics import DOWN_STATES, is_dead
from affray.rulesets.warp.setup import build_fighter
from affray.rulesets.warp.state import Fighter, WarpState, holder, holder_name
from affray.rulesets.warp.turns import _initiative_roll
from affray.rulesets.warp.wounds import condition, release

HP = "HP"
HELD_BY = "held by "
PRONE, DESPERATE, PSYCH, UNAWARE = "prone", "desperate defense", "psychological advantage", "unaware"
#: Each status a GM may give and the ``rounds`` it may be given for (``None``: until the rules end it).
ROUNDS: dict[str, tuple[int | None, ...]] = {PRONE: (None,), DESPERATE: (None, 1), PSYCH: (1, 2), UNAWARE: (None,)}
#: The one status given for a choice of rounds, as the GM's page offers it (WR-31: an intimidation win gives the
#: next round's); the others last until the rules end them.
NEXT_ROUNDS: JsonObject = {"value": 2, "label": "for the next round's rolls"}
FOLLOWS_HP = "messed up"
MAX_METRES = 10_000.0  # the line's bound for a move (action_types: "to")


def _no(code: str, message: str) -> Rejected:
    return Rejected(code, message)


def statuses(state: WarpState, f: Fighter) -> list[str]:
    """The statuses the GM may give ``f`` now, by the view's names (a hold by its holder's name)."""
    out = [PRONE, *([DESPERATE] if state.options.desperate_defense else []), PSYCH, UNAWARE]
    reach = state.options.melee_reach_m
    return out + [HELD_BY + holder_name(state, g.id) for g in state.foes(f) if abs(g.position - f.position) <= reach]


def has(state: WarpState, f: Fighter, name: str) -> bool:
    """Whether ``f`` shows status ``name`` now (views.statuses; a hold by its holder's name or id)."""
    return {PRONE: f.prone, DESPERATE: f.desperate, PSYCH: f.psych_round >= state.round, UNAWARE: f.unaware}.get(
        name, bool(f.held_by) and name.startswith(HELD_BY) and holder(state, name[len(HELD_BY) :]) == f.held_by
    )


class WarpAdjuster:
    """WaRP's side of GM rulings (see the module docstring)."""

    def check(self, state: WarpState, change: Change) -> Rejected | None:
        if state.outcome is not None:
            return _no("match_over", "The fight is over (an earlier change of this ruling ended it).")
        f = state.fighters[change.combatant]
        if change.field == "bar":
            if change.name != HP:
                return _no("unknown_bar", f"{f.name} has no bar '{change.name}' (WaRP shows HP).")
            if not -f.max_hp <= change.value <= f.max_hp:
                return _no("bad_value", f"{f.name}'s HP runs from -{f.max_hp} (death, WR-26) to {f.max_hp}.")
            return None
        if change.field in ("status", "remove_status"):
            return _check_status(state, f, change)
        if change.field == "position":
            where = change.value
            if (
                isinstance(where, bool)
                or not isinstance(where, int | float)
                or not math.isfinite(where)
                or abs(where) > MAX_METRES
            ):
                return _no(
                    "bad_position", f"A position is metres on the line, from -{MAX_METRES:g} to {MAX_METRES:g} (WR-X2)."
                )
            return None
        return _check_out(f, change.value)

    #: Reinforcements join at metres on the line (:class:`~affray.core.adjust.Joiner`).
    joins = "line"

    def scenario_fields(self, setup: Mapping[str, object]) -> JsonObject:
        """The fight's mode, as a scenario writes it."""
        return {"mode": str(setup["mode"])}

    def stand_in(self) -> JsonObject:
        return {}

    def add(
        self, state: WarpState, entry: Mapping[str, Json], side: str, place: Json, rng: RNG, journal: Journal
    ) -> Rejected | None:
        """Reinforcements (see the module docstring; WR-03, WR-05)."""
        sides = sorted({f.side for f in state.fighters.values()})
        if side not in sides:
            return _no("unknown_side", f"There is no side '{side}' in this fight (there are {', '.join(sides)}).")
        where = entry.get("position", 0.0) if place is None else place
        if isinstance(where, bool) or not isinstance(where, int | float) or not math.isfinite(where):
            return _no("bad_position", "A position is metres on the line (WR-X2).")
        if abs(where) > MAX_METRES:
            return _no("bad_position", f"A position is metres on the line, from -{MAX_METRES:g} to {MAX_METRES:g}.")
        try:
            f = build_fighter({**entry, "side": side, "position": where}, state.options)  # type: ignore[typeddict-item]
        except (KeyError, TypeError, ValueError) as exc:
            return _no("bad_combatant", f"The character added is not a WaRP character (field {exc}).")
        state.fighters[f.id] = f
        if state.phase == "initiative" and state.round <= 1:
            return None  # the first round's initiative is still to roll: it rolls with everyone
        f.turn_done = True  # WR-05: it acts from the next round
        if state.options.initiative != "trait":
            kind = [a for a in state.order if state.fighters[a].pc == f.pc]
            index = state.order.index(kind[-1]) + 1 if kind else (0 if f.pc else len(state.order))
        else:
            mates = [g for g in state.fighters.values() if g.side == f.side and not g.pc and g is not f]
            if state.options.gmc_single_initiative and not f.pc and mates:
                f.initiative, f.initiative_pool = mates[0].initiative, mates[0].initiative_pool
            else:
                f.initiative, f.initiative_pool = _initiative_roll(state, rng, f, journal)
            index = next(
                (i for i, a in enumerate(state.order) if state.fighters[a].initiative < f.initiative), len(state.order)
            )
        state.order.insert(index, f.id)
        if index <= state.turn_index and state.phase == "turn":
            state.turn_index += 1  # the turn in progress stays its actor's
        return None

    def apply(self, state: WarpState, change: Change) -> object:
        f = state.fighters[change.combatant]
        before = f.status
        was = _apply(state, f, change)
        if worse(before, f):
            state.leaving.append(f.id)  # settle tells it
        return was

    def hidden(self, state: WarpState, change: Change) -> bool:
        """A GM character's HP are GM-level; everything else a ruling changes the view shows every seat."""
        return change.field == "bar" and not state.fighters[change.combatant].pc

    def settle(self, state: WarpState, rng: RNG, journal: Journal) -> None:
        """Tell who the ruling took out, then go on from there with the match's dice, as after any step: the next
        turn, a round and its initiative, the gestalt's totals, the fight's end (:func:`.leave.settle`)."""
        settle(state, rng, journal)

    def forms(self, state: WarpState) -> dict[str, JsonObject]:
        return {
            a: {
                "bars": [{"name": HP, "min": -f.max_hp, "max": f.max_hp}],
                "statuses": [*statuses(state, f)],
                "position": "line",
                "out": f.out,
                "rounds": {PSYCH: [{"value": 1, "label": "for this round's rolls"}, NEXT_ROUNDS]},
            }
            for a, f in state.fighters.items()
        }


def _apply(state: WarpState, f: Fighter, change: Change) -> object:
    """Make one accepted change; the value it replaces."""
    if change.field == "bar":
        return _set_hp(state, f, change.value)
    if change.field == "status":
        return _give(state, f, change.name, change.value)
    if change.field == "remove_status":
        _take(f, change.name)
        return change.name
    if change.field == "position":
        return _move(state, f, float(change.value))
    if change.value:
        f.status, f.down_state = "out", "out of the fight"
        leave_windows(state, f)
        return False
    bring_back(state, f)
    return True


def _check_status(state: WarpState, f: Fighter, change: Change) -> Rejected | None:
    name = change.name
    if name == FOLLOWS_HP:
        return _no("not_adjustable", "Messed Up follows HP (WR-24): set the HP bar instead.")
    if change.field == "remove_status":
        return None if has(state, f, name) else _no("not_there", f"{f.name} is not {name}.")
    known = statuses(state, f)
    if name.startswith(HELD_BY) and (g := holder(state, name[len(HELD_BY) :])) is not None:
        name = HELD_BY + holder_name(state, g)  # a hold given by the holder's id, as older rulings were recorded
    if name not in known:
        return _no(
            "unknown_status", f"'{name}' is not a status the GM can give {f.name} now (statuses: {', '.join(known)})."
        )
    if f.out:
        return _no("not_in_fight", f"{f.name} is out of the fight; bring it back first.")
    allowed = ROUNDS.get(name, (None,))
    if change.value not in allowed:
        shown = " or ".join("none" if r is None else str(r) for r in allowed)
        return _no("bad_value", f"'{name}' is given for {shown} rounds.")
    return None


def _check_out(f: Fighter, out: bool) -> Rejected | None:
    if out and f.out:
        return _no("already_out", f"{f.name} is already out of the fight ({f.status}).")
    if not out and not f.out:
        return _no("not_out", f"{f.name} is in the fight.")
    if not out and f.hp - f.stun <= 0:
        return _no(
            "cannot_stand",
            f"{f.name} is at {f.hp - f.stun} HP (less taser damage) and cannot stand (WR-25): raise its HP first.",
        )
    return None


def _set_hp(state: WarpState, f: Fighter, hp: int) -> int:
    """HP as a wound or a recovery leaves them (WR-24..WR-26, WR-29)."""
    was, before = f.hp, f.status
    f.hp = hp
    effective = f.hp - f.stun
    if f.status == "dying" and not is_dead(f.hp, f.max_hp, state.options.minus_max_is_death):
        f.status = "down"  # no longer at death's door (WR-26); condition() below brings it up above 0
        f.down_state = DOWN_STATES.get(f.wound_class, DOWN_STATES["fists"])
        state.decisions = [
            d for d in state.decisions if not (d.kind in ("plea", "verdict") and f.id in (d.actor, d.about))
        ]
    if f.status == "down" and effective > 0:
        bring_back(state, f)
    condition(state, f, f.wound_class or "fists", QUIET)  # Messed Up, down, death, as after a wound
    if f.out and before == "fighting":
        leave_windows(state, f)
    return was


def _give(state: WarpState, f: Fighter, name: str, rounds: int | None) -> bool | int | str | None:
    """Give one status; returns what it replaces (the flag, the round of the advantage, the holder)."""
    was: bool | int | str | None
    if name == PRONE:
        was, f.prone = f.prone, True
    elif name == DESPERATE:
        was, f.desperate = f.desperate, True
    elif name == UNAWARE:
        was, f.unaware = f.unaware, True
    elif name == PSYCH:  # the bonus die falls on one round's rolls (WR-31): this one, or the next
        was, f.psych_round = f.psych_round, state.round + (rounds or 1) - 1
    else:
        was, f.held_by = f.held_by or None, holder(state, name[len(HELD_BY) :]) or name[len(HELD_BY) :]
    return was


def _take(f: Fighter, name: str) -> None:
    if name == PRONE:
        f.prone = False
    elif name == DESPERATE:
        f.desperate = False
    elif name == UNAWARE:
        f.unaware = False
    elif name == PSYCH:
        f.psych_round = -1
    else:
        f.held_by = ""


def _move(state: WarpState, f: Fighter, metres: float) -> float:
    """To ``metres`` on the line: out of cover, out of holds beyond reach, away if beyond every foe (WR-X4)."""
    was, f.position = f.position, metres
    leave_cover(state, f)
    reach = state.options.melee_reach_m
    if f.held_by and abs(state.fighters[f.held_by].position - metres) > reach:
        f.held_by = ""
    for g in state.fighters.values():
        if g.held_by == f.id and abs(g.position - metres) > reach:
            g.held_by = ""
    foes = state.foes(f)
    if not f.out and foes and all(abs(g.position - metres) > state.options.escape_m for g in foes):
        f.status = "escaped"
        release(state, f)
        leave_windows(state, f)
    return was


ADJUSTER = WarpAdjuster()
