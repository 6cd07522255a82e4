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

- ``add`` (reinforcements): a combatant joins a side at a square (as ``position``: on the map, not a wall, nobody
  able there), rolling its own initiative (SC-16: d20 + Dex modifier + bonuses, from the match's dice, so ``verify``
  replays it; no surprise bonus: the fight has begun) and entering the order by it; where it ties the combatants
  already in the order it comes after them (the rule option "joiners after ties", docs/spellchrome.md: the
  roll-offs are not rolled again mid-fight). Placed before the combatant whose turn it is, it acts next round.

A change draws no die and passes no turn by itself; once every change of a ruling is applied, ``settle`` goes on from
where they left the fight as the rules go on after any step, with the match's dice and into the ruling's record: it
tells who the ruling took out of the fight (``Defeated``), judges the outcome again (SC-R12; a fight decided while the
dying bleed on reopens if two sides stand again), drops from a pending attack of opportunity the foes who may no longer
punish (the provoking action goes on when none is left, SC-27; a provoker out of the fight stops where it stands), and
passes the turn of a combatant who can no longer act as ``end_turn`` does (the next combatant's DC 22 save, a round's
end with its 1d4 losses and re-rolled initiative: SC-04, SC-06, SC-B3, SC-16).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from affray.core.adjust import Change, Ruled
from affray.core.engine import Rejected
from affray.core.events import Defeated
from affray.core.fields import flag, integer, maybe_text, text
from affray.core.journal import Journal
from affray.core.json import Json, JsonObject
from affray.core.rng import RNG
from affray.rulesets.spellchrome.checks import roll
from affray.rulesets.spellchrome.combat import may_punish
from affray.rulesets.spellchrome.events import TAKEN_OUT
from affray.rulesets.spellchrome.health import after_the_fight, check_outcome
from affray.rulesets.spellchrome.mechanics import D20, DEAD_AT, initiative_key, initiative_total
from affray.rulesets.spellchrome.movement import end_ok, in_the_way
from affray.rulesets.spellchrome.resolution import resume
from affray.rulesets.spellchrome.setup import build_combatant
from affray.rulesets.spellchrome.state import Combatant, SpellchromeState
from affray.rulesets.spellchrome.turns import end_turn

BARS = ("HP", "EX-HP")
GIVEN = ("stable", "unconscious", "surrendered", "out")  # the statuses a ruling gives or ends
SHOWN = (*GIVEN, "dying", "dead")  # every status the view shows (views.py)


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

    def apply(self, state: SpellchromeState, change: Change) -> object:
        c = state.combatants[change.combatant]
        was: object
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
            c.settle()
        else:
            was = c.status
            _set_status(c, change)
        return was

    def hidden(self, state: SpellchromeState, change: Change) -> bool:
        """Nothing on the battle map is hidden (views.py): every seat reads every ruling."""
        return False

    def settle(self, state: SpellchromeState, rng: RNG, journal: Journal) -> None:
        """Go on from where the ruling's changes left the fight (see the module docstring): its events and dice
        join ``journal``, the ruling's own (which holds its :class:`~affray.core.adjust.Ruled` events first)."""
        changes = [change for e in journal if isinstance(e, Ruled) for change in e.changes]
        for c in state.combatants.values():
            if not c.able and able_before(c, changes):
                journal.append(Defeated(c.id, _HOW.get(c.status, "down")))
        if state.decided is not None and len({c.side for c in state.combatants.values() if c.able}) > 1:
            state.decided, state.decided_round = None, 0  # the dying bled on after the last blow; a fight again
        check_outcome(state, journal)
        if state.outcome is not None:
            return
        if state.opportunity is not None:
            _release(state, rng, journal)
        elif state.turn is not None and not state.combatants[state.turn.actor].able:
            end_turn(state, rng, journal)

    #: Reinforcements join on a square (:class:`~affray.core.adjust.Joiner`).
    joins = "square"

    def scenario_fields(self, setup: Mapping[str, object]) -> JsonObject:
        """The fight's map, as a scenario writes it."""
        rows = setup["map"]
        return {"map": "\n".join(str(row) for row in rows) if isinstance(rows, list) else str(rows)}

    def stand_in(self) -> JsonObject:
        """The resolving scenario's stand-in lies down (HP 0), so it may share the newcomer's square (SC-24)."""
        return {"hp": 0}

    def add(
        self, state: SpellchromeState, entry: Mapping[str, Json], side: str, place: Json, rng: RNG, journal: Journal
    ) -> Rejected | None:
        """Reinforcements (see the module docstring; SC-16, SC-24)."""
        sides = sorted({c.side for c in state.combatants.values()})
        if side not in sides:
            return Rejected("unknown_side", f"There is no side '{side}' in this fight (there are {', '.join(sides)}).")
        try:
            c = build_combatant({**entry, "side": side}, state.options)  # type: ignore[typeddict-item]
        except (KeyError, TypeError, ValueError) as exc:
            return Rejected("bad_combatant", f"The combatant added is not a Spellchrome combatant (field {exc}).")
        where = place if place is not None else list[Json](c.pos)
        refused = _check_position(state, c, where)
        if refused is not None:
            return refused
        assert isinstance(where, list)
        c.pos = (int(str(where[0])), int(str(where[1])))
        bonus = initiative_total(0, c.mods["dexterity"], c.initiative_bonus, 0)
        c.initiative = roll(rng, c.id, "initiative", D20, bonus, journal)
        state.combatants[c.id] = c
        mine = initiative_key(c.initiative, c.abilities["dexterity"], ())
        index = next(
            (
                i
                for i, a in enumerate(state.order)
                if initiative_key(state.combatants[a].initiative, state.combatants[a].abilities["dexterity"], ()) > mine
            ),
            len(state.order),
        )
        state.order.insert(index, c.id)
        if state.turn is not None and index <= state.turn_index:
            state.turn_index += 1  # the turn in progress stays its actor's
        return None

    def forms(self, state: SpellchromeState) -> dict[str, JsonObject]:
        return {
            a: {
                "bars": [
                    {"name": "HP", "min": DEAD_AT, "max": c.max_hp},
                    {"name": "EX-HP", "min": 0, "max": c.ex_hp_max},
                ],
                "statuses": list(GIVEN),
                "position": "square",
                "out": c.out,
            }
            for a, c in state.combatants.items()
        }


def _check_bar(c: Combatant, change: Change) -> Rejected | None:
    if change.name not in BARS:
        return Rejected("unknown_bar", f"{c.name} has no bar '{change.name}' (Spellchrome's are HP and EX-HP).")
    low, high = (DEAD_AT, c.max_hp) if change.name == "HP" else (0, c.ex_hp_max)
    if not low <= change.value <= high:
        why = (
            "−30 is dead (SC-05), and healing never passes the maximum (SC-08)"
            if change.name == "HP"
            else ("the armour's EX-HP (SC-07)")
        )
        return Rejected("bad_value", f"{c.name}'s {change.name} runs from {low} to {high}: {why}.")
    return None


def _check_status(state: SpellchromeState, c: Combatant, change: Change) -> Rejected | None:
    name = change.name
    if name not in SHOWN:
        return Rejected(
            "unknown_status",
            f"Spellchrome has no status '{name}'; the GM may give or end "
            f"{', '.join(GIVEN)} (dying and dead follow from HP).",
        )
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
        return Rejected(
            "bad_status",
            f"{c.name} is {c.status} at {c.hp} HP; only a combatant on its feet can be "
            f"{'knocked out (SC-10)' if name == 'unconscious' else 'give up (SC-02)'}.",
        )
    return None


def _check_position(state: SpellchromeState, c: Combatant, value: object) -> Rejected | None:
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return Rejected("bad_position", "A Spellchrome position is a square [x, y].")
    pos = (value[0], value[1])
    grid = state.grid
    if not grid.in_bounds(pos) or not grid.passable(pos):
        where = "off the map" if not grid.in_bounds(pos) else "a wall"
        return Rejected("bad_position", f"{list(pos)} is {where} ({grid.width}×{grid.height} map).")
    if not end_ok(state, c, pos):
        who = next(o.name for o in state.at(pos) if o is not c and in_the_way(state, o))
        return Rejected(
            "occupied", f"{who} stands on {list(pos)} (SC-24: no move ends on a square someone able stands on)."
        )
    return None


def _check_out(state: SpellchromeState, c: Combatant, out: bool) -> Rejected | None:
    if out:
        if c.out or c.hp_state == "dead":
            return Rejected("already_out", f"{c.name} is already out of the fight ({c.status}).")
        return None
    if not c.out:
        return Rejected("not_out", f"{c.name} is in the fight.")
    if c.hp < 1:
        return Rejected(
            "cannot_stand", f"{c.name} has {c.hp} HP and cannot stand (SC-03, SC-04): set HP to 1 or more first."
        )
    taken = [o.name for o in state.at(c.pos) if o is not c and in_the_way(state, o)]
    if taken:
        return Rejected(
            "occupied", f"{taken[0]} stands on {c.name}'s square {list(c.pos)}: move one of them first (SC-24)."
        )
    return None


def set_hp(state: SpellchromeState, c: Combatant, hp: int) -> None:
    """HP as the GM sets it, the states following (SC-02..SC-06): a combatant that begins dying does so this round
    (SC-B3); at 0 HP or more nobody is stable any more (as healing does, :func:`.health.restore`)."""
    dying = c.hp_state == "dying"
    c.hp = hp
    c.settle()
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
    c.settle()


def _release(state: SpellchromeState, rng: RNG, journal: Journal) -> None:
    """The foes deciding on an attack of opportunity are those who still may punish the provoker (SC-26, SC-27: able,
    melee-armed, beside it, an attack of opportunity left; nobody once the fight is decided); with none left the
    provoking action goes on as after the last one's answer (:func:`~.actions.resume`: a provoker out of the fight
    stops its move where it stands, and its turn passes)."""
    opp = state.opportunity
    assert opp is not None
    provoker = state.combatants[opp.provoker]
    opp.foes = (
        []
        if after_the_fight(state)
        else [f for f in opp.foes if may_punish(provoker, state.combatants[f]) and state.combatants[f].aoo_left > 0]
    )
    if not opp.foes:
        state.opportunity = None
        resume(state, rng, opp.resume, journal)


#: How a combatant a ruling left unable is out of the fight (``Defeated.how``, as a blow's or a surrender's), else
#: "down"; one the GM takes out is :data:`~.events.TAKEN_OUT` (its sentence: "leaves the fight").
_HOW = {"dead": "dead", "out": TAKEN_OUT, "surrendered": "gave up"}
_FLAGS = {"out": "out", "stable": "stable", "unconscious": "knocked_out", "surrendered": "surrendered"}


def able_before(c: Combatant, changes: Sequence[Mapping[str, Json]]) -> bool:
    """Whether ``c`` could act before the ruling whose ``changes`` (each with the value it replaced, ``was``) made it
    what it is: its changes undone on a copy, the last first. A status given says what ``c`` was before it; one it
    could be given while another masked it (surrendered while knocked out) leaves ``c`` unable either way."""
    was = copy.copy(c)
    for change in reversed(changes):
        if change["combatant"] != c.id:
            continue
        if change.get("bar") == "HP":
            was.hp = integer(change, "was")
        elif "out" in change:
            was.out = flag(change, "was")
        elif "status" in change or "remove_status" in change:
            name = maybe_text(change, "status") or text(change, "remove_status")
            setattr(was, _FLAGS[name], "remove_status" in change or change["was"] == name)
    return was.able_now()


ADJUSTER = SpellchromeAdjuster()
