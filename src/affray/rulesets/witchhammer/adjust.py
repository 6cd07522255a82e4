"""GM rulings on a WitchHammer fight (:mod:`affray.core.adjust`): the GM edits a token as a VTT's GM does, and the
rules check each change and carry on from it. ``docs/witchhammer.md``, "GM rulings", is the table's version.

Rulings are made while the cards are being chosen (the Psych and Planning windows: Violence resolves inside the step
that ends Planning); once the fight is over and only the death's-door fates remain, none.

- ``bar``: ``Poise`` from 0 to its maximum (WH-19); ``Health`` from minus its maximum to its maximum (WH-22: it may go
  negative); ``Wounds`` (Health lost, WH-19) from 0 to twice the maximum, which sets Health. At 0 Health or less a PC
  is down and a monster defeated (WH-22, WH-B9); above 0 a downed one stands again (a defeated monster on its
  square, which must be free).
- ``status`` / ``remove_status``: the content's statuses by name (Bleeding, Stunned...: WH-24), for ``rounds`` of the
  bearer's turns or, with none, the rest of the vignette (WH-02, WH-B11); a status given again replaces the one it
  had. Afflictions (WH-23's table) are lasting tags: given without rounds, or removed.
- ``position``: a free square ``[x, y]`` on the map, not a wall (WH-07, WH-B13); the facing stays.
- ``out``: ``true`` takes the combatant off the board (``out`` "removed"); ``false`` puts it back on its square.

A change draws no die and ends no phase by itself; once every change of a ruling is applied, ``settle`` goes on from
where they left the fight as the rules go on after any step, with the match's dice and into the ruling's record:

- it tells who the ruling took out or down (``Defeated``, as a blow's: WH-22, WH-B9);
- a combatant out of the fight leaves the open window, and its face-down cards (its Psych card, its slots) are set
  aside unrevealed (WH-02, WH-03): nobody ever reads them;
- when the ruling leaves one side standing the fight ends at once as after a Violence phase (WH-01; the death's-door
  saves of the PCs down, WH-29, WH-B8), every face-down card set aside unrevealed;
- when the last combatant still choosing leaves the window, the phase ends as the last "ready" ends it: the Psych
  cards turn over and resolve (WH-02), or the Violence phase is played and the next vignette begins (WH-04).

One brought back or stood up takes part from the next phase that opens (Planning after Psych, else the next vignette).

- ``add`` (reinforcements, :class:`~affray.core.adjust.Joiner`): a combatant joins a side on a free square (as
  ``position``), while the cards are chosen; it arrives at the next vignette, its hand dealt then as every hand is
  (WH-01, WH-04: the rule option "joiners next vignette", :mod:`.join`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from affray.core.adjust import Change, Ruled
from affray.core.engine import GM, Rejected, Window
from affray.core.events import Defeated
from affray.core.fields import integer
from affray.core.journal import QUIET, Journal
from affray.core.json import Json, JsonObject
from affray.core.rng import RNG
from affray.rulesets.witchhammer import join, planning, vignette, violence
from affray.rulesets.witchhammer.mechanics import AFFLICTIONS
from affray.rulesets.witchhammer.state import OFF_THE_MAP, Fighter, Status, StatusDef, WitchHammerState
from affray.rulesets.witchhammer.wounds import DOWN_HOW, check_down

BARS = ("Poise", "Health", "Wounds")
REMOVED = "removed"
TAKEN_OUT = "taken out of the fight"  # Defeated.how of one a ruling takes out (out "removed")
VIGNETTE = -1  # a status for the rest of the vignette (effects.VIGNETTE)


def bounds(f: Fighter, bar: str) -> tuple[int, int]:
    """The values a ruling may give ``bar`` (see the module docstring)."""
    if bar == "Poise":
        return 0, f.max_poise
    if bar == "Health":
        return -f.max_health, f.max_health
    return 0, 2 * f.max_health


class WitchHammerAdjuster:
    """WitchHammer's side of GM rulings (see the module docstring)."""

    def check(self, state: WitchHammerState, change: Change) -> Rejected | None:
        if state.phase not in ("psych", "planning"):
            return Rejected("fight_over", "The fight is over: rule on the death's-door saves (fate) instead.")
        f = state.fighters[change.combatant]
        if change.field == "bar":
            return _check_bar(state, f, change)
        if change.field in ("status", "remove_status"):
            return _check_status(state, f, change)
        if change.field == "position":
            return _check_position(state, f, change.value)
        return _check_out(state, f, bool(change.value))

    def apply(self, state: WitchHammerState, change: Change) -> object:
        f = state.fighters[change.combatant]
        was: object
        if change.field == "bar" and change.name == "Poise":
            was, f.poise = f.poise, change.value
        elif change.field == "bar":
            wounds = change.name == "Wounds"
            was = max(0, f.max_health - f.health) if wounds else f.health
            set_health(state, f, f.max_health - change.value if wounds else change.value)
        elif change.field == "position":
            was, f.pos = list(f.pos), (change.value[0], change.value[1])
        elif change.field == "out":
            was = not f.up
            f.out = REMOVED if change.value else ""
        else:
            was = _set_status(state, f, change)
        return was

    def hidden(self, state: WitchHammerState, change: Change) -> bool:
        """Bars, statuses and squares are public at the table (views.py): every seat reads every ruling."""
        return False

    def settle(self, state: WitchHammerState, rng: RNG, journal: Journal) -> None:
        """Go on from where the ruling's changes left the fight (see the module docstring): its events and dice
        join ``journal``, the ruling's own (which holds its :class:`~affray.core.adjust.Ruled` events first)."""
        state.board += 1  # a ruling changes the board: views and listings built from the old one are stale
        changes = [change for e in journal if isinstance(e, Ruled) for change in e.changes]
        for f in state.fighters.values():
            if not f.up:
                if up_before(f, changes):
                    journal.append(Defeated(f.id, DOWN_HOW.get(f.out, TAKEN_OUT)))
                set_aside(f)
        if violence.decided(state):  # the fight is over: nobody's face-down cards will be turned over
            for f in state.fighters.values():
                set_aside(f)
            vignette.finish(state, rng, journal)
            return
        window = state.window
        assert window is not None
        state.window = Window(
            window.phase,
            tuple(a for a in window.actors if a == GM or state.fighters[a].up),
            window.prompt,
            window.simultaneous,
        )
        if planning.everyone_ready(state):
            vignette.phase_done(state, rng, journal)

    #: Reinforcements join on a square (:class:`~affray.core.adjust.Joiner`), which a scenario names ``at``.
    joins = "square"
    place_field = "at"

    def scenario_fields(self, setup: Mapping[str, object]) -> JsonObject:
        """The fight's map, as a scenario writes it, with an open row below it for the stand-in's own square
        (:meth:`stand_in_for`): scenario checks refuse two combatants on one square (WH-B13)."""
        rows = _rows(setup)
        return {"map": "\n".join([*rows, "." * len(rows[0])])}

    def stand_in(self) -> JsonObject:
        """The stand-in's fields without the fight's setup: none (:meth:`stand_in_for` places it)."""
        return {}

    def stand_in_for(self, setup: Mapping[str, object]) -> JsonObject:
        """The resolving scenario's stand-in foe stands on the open row below the fight's map."""
        return {"at": [0, len(_rows(setup))]}

    def add(
        self, state: WitchHammerState, entry: Mapping[str, Json], side: str, place: Json, rng: RNG, journal: Journal
    ) -> Rejected | None:
        """Reinforcements (see the module docstring; :mod:`.join`): no die is drawn."""
        if state.phase not in ("psych", "planning"):
            return Rejected("fight_over", "The fight is over: nobody joins it now.")
        sides = sorted({f.side for f in state.fighters.values()})
        if side not in sides:
            return Rejected("unknown_side", f"There is no side '{side}' in this fight (there are {', '.join(sides)}).")
        f = join.build_fighter(entry, side, state)
        if isinstance(f, Rejected):
            return f
        where = place if place is not None else list[Json](f.pos)
        f.pos = (-1, -1)  # not yet on the board: its own square is checked as any other
        refused = _check_position(state, f, where)
        if refused is not None:
            return refused
        assert isinstance(where, list)
        f.pos = (int(str(where[0])), int(str(where[1])))
        join.place(state, f)
        return None

    def forms(self, state: WitchHammerState) -> dict[str, JsonObject]:
        statuses: list[Json] = [sd.name for sd in state.statuses.values()]
        return {
            a: {
                "bars": [{"name": b, "min": bounds(f, b)[0], "max": bounds(f, b)[1]} for b in BARS],
                "statuses": statuses,
                "position": "square",
                "out": not f.up,
                "rounds": {name: LASTS for name in statuses if isinstance(name, str)},
            }
            for a, f in state.fighters.items()
        }


def _rows(setup: Mapping[str, object]) -> list[str]:
    rows = setup["map"]
    return [str(row) for row in rows] if isinstance(rows, list) else str(rows).split()


def _lasting(turns: int) -> Json:
    return {"value": turns, "label": f"for {turns} of its turns" if turns > 1 else "for its next turn"}


#: How long a status given by the GM lasts (WH-02, WH-B11): the rest of the vignette, or a number of the bearer's
#: turns; the afflictions are lasting tags and take none.
LASTS: list[Json] = [
    {"value": None, "label": "for the rest of the vignette"},
    *(_lasting(n) for n in range(1, 6)),
]


def _check_bar(state: WitchHammerState, f: Fighter, change: Change) -> Rejected | None:
    if change.name not in BARS:
        return Rejected(
            "unknown_bar", f"{f.name} has no bar '{change.name}' (WitchHammer's are Poise, Health and Wounds)."
        )
    low, high = bounds(f, change.name)
    if not low <= change.value <= high:
        return Rejected("bad_value", f"{f.name}'s {change.name} runs from {low} to {high} here.")
    health = f.max_health - change.value if change.name == "Wounds" else change.value
    if change.name != "Poise" and health > 0 and f.out in ("defeated", "fallen", "down"):
        return _square_free(state, f)
    return None


def _square_free(state: WitchHammerState, f: Fighter) -> Rejected | None:
    """A combatant coming back stands on its own square, which must be free (WH-B13)."""
    if f.pos in state.occupied(f):
        who = next(g.name for g in state.fighters.values() if g is not f and g.pos == f.pos)
        return Rejected("occupied", f"{who} stands on {f.name}'s square {list(f.pos)}: move one of them first.")
    return None


def _statuses_by_name(state: WitchHammerState) -> dict[str, StatusDef]:
    return {sd.name: sd for sd in state.statuses.values()}


def _check_status(state: WitchHammerState, f: Fighter, change: Change) -> Rejected | None:
    name, known = change.name, _statuses_by_name(state)
    if name not in known and name not in AFFLICTIONS:
        return Rejected(
            "unknown_status",
            f"WitchHammer has no status '{name}'; the statuses are "
            f"{', '.join(known)}, and the afflictions of the table (WH-23).",
        )
    if change.field == "remove_status":
        present = name in f.afflictions if name in AFFLICTIONS else any(s.status.name == name for s in f.statuses)
        return None if present else Rejected("not_there", f"{f.name} is not {name}.")
    if name in AFFLICTIONS:
        if change.value is not None:
            return Rejected("bad_value", f"An affliction is a lasting tag (WH-23, WH-B23): give {name} no rounds.")
        return None
    if not f.up:
        return Rejected("bad_status", f"{f.name} is out of the fight ({f.out}): a status would do nothing (WH-22).")
    return None


def _set_status(state: WitchHammerState, f: Fighter, change: Change) -> bool | int | None:
    """Give or end the status; returns what it replaced (its rounds as the view shows them, or ``None``)."""
    name = change.name
    if name in AFFLICTIONS:
        had = name in f.afflictions
        f.afflictions = [a for a in f.afflictions if a != name] + ([name] if change.field == "status" else [])
        return had
    before = [s for s in f.statuses if s.status.name == name]
    f.statuses = [s for s in f.statuses if s.status.name != name]
    if change.field == "status":
        rounds = VIGNETTE if change.value is None else int(change.value)
        f.statuses.append(Status(_statuses_by_name(state)[name], rounds, "the GM"))
    f.refresh_mods()
    return (before[0].rounds if before[0].rounds >= 0 else None) if before else None


def _check_position(state: WitchHammerState, f: Fighter, value: object) -> Rejected | None:
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return Rejected("bad_position", "A WitchHammer position is a square [x, y].")
    pos, grid = (value[0], value[1]), state.grid
    if not grid.in_bounds(pos) or not grid.passable(pos):
        where = "off the map" if not grid.in_bounds(pos) else "not open ground"
        return Rejected("bad_position", f"{list(pos)} is {where} ({grid.width}×{grid.height} map).")
    if pos != f.pos and pos in state.occupied(f):
        who = next(g.name for g in state.fighters.values() if g is not f and g.pos == pos and g.out not in OFF_THE_MAP)
        return Rejected("occupied", f"{who} stands on {list(pos)}.")
    return None


def _check_out(state: WitchHammerState, f: Fighter, out: bool) -> Rejected | None:
    if out:
        return None if f.up else Rejected("already_out", f"{f.name} is already out of the fight ({f.out}).")
    if f.up:
        return Rejected("not_out", f"{f.name} is in the fight.")
    if f.out != REMOVED or f.health <= 0:
        return Rejected(
            "cannot_stand",
            f"{f.name} is {f.out} at {f.health} Health and cannot stand (WH-22): set Health above 0 first.",
        )
    return _square_free(state, f)


def set_health(state: WitchHammerState, f: Fighter, health: int) -> None:
    """Health as the GM sets it: at 0 or less a PC is down and a monster defeated (WH-22, WH-B9); above 0 one
    downed stands again (one the GM took out stays out until brought back)."""
    f.health = health
    if health <= 0:
        check_down(state, f, QUIET)
    elif f.out in ("down", "defeated", "fallen"):
        f.out = ""


def set_aside(f: Fighter) -> None:
    """``f``'s face-down cards leave the table unrevealed (a Psych card already shown stays): WH-02, WH-03."""
    f.slots, f.shown, f.card, f.ready = [], 0, None, True
    if not f.psych_card:
        f.psych = None


def up_before(f: Fighter, changes: Sequence[Mapping[str, Json]]) -> bool:
    """Whether ``f`` was in the fight before the ruling whose ``changes`` (each with the value it replaced, ``was``)
    made it what it is: its changes undone on a copy, the last first. Only a ruling raises Health, and it stands
    the downed up (:func:`set_health`), so one down or defeated is at 0 Health or less: a Health change undone
    undoes what it did to ``out``."""
    was = copy.copy(f)
    for change in reversed(changes):
        if change["combatant"] != f.id:
            continue
        if "out" in change:  # was: out before it, which only one the GM took out (removed) comes back from
            was.out = REMOVED if change["was"] else ""
        elif change.get("bar") in ("Health", "Wounds"):
            was.health = integer(change, "was") if change["bar"] == "Health" else f.max_health - integer(change, "was")
            if was.out in DOWN_HOW and was.health > 0:
                was.out = ""  # this change downed it
            elif not was.out and was.health <= 0:
                was.out = "down"  # this change stood it up
    return was.up


ADJUSTER = WitchHammerAdjuster()
