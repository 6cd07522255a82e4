"""GM rulings on a Sim HuD fight (:mod:`affray.core.adjust`): the GM changes what the view shows, through the rules.

- **Bar** ``HP`` (WL-04, WL-08): 0 to the combatant's maximum (3 in Dice Simplified and Free Form, Endurance in
  Combat Nerdified). At 0 the combatant is down, out of the fight; raised above 0 a downed combatant is back in.
- **Statuses** (Combat Nerdified, WL-17, WL-18), by the view's names: ``-2 to every roll`` or ``-4 to every roll``
  (this round: ``rounds`` 1 or null), ``-2 to every roll next round`` (``rounds`` 2, as the view counts it, or
  null) and ``charged`` (this round). Giving a penalty sets it; removing one clears it.
- **Position** (Combat Nerdified, WL-B13): a place id where someone in the fight stands, which engages whoever is
  there, or ``"near"`` / ``"far"``: a place of its own at that distance from the fight.
- **Out**: ``true`` takes the combatant out of the fight (``out``, its HP kept); ``false`` brings back one that is
  out or escaped (one down at 0 HP cannot stand: raise its HP instead). See :mod:`affray.rulesets.hud.leave` for
  what leaving and coming back do to the round, and how ``settle`` goes on after the ruling's last change.

- **Add** (reinforcements, :class:`~affray.core.adjust.Joiner`): a combatant joins a side from the next round, as
  :mod:`.join` says (Combat Nerdified: at a place of the GM's list, declaring from the next round with its initiative
  rolled then, WL-09; Dice Simplified and Free Form: in the post order, its first turn in the next round, WL-05).

The HuD hides nothing (WL-09), so no change is GM-level. Where the rules say nothing of a GM's change, the choices
are this project's rulings, documented in docs/hud.md ("GM rulings").
"""

from __future__ import annotations

from collections.abc import Mapping

from affray.core.adjust import Change
from affray.core.engine import Rejected
from affray.core.journal import Journal
from affray.core.json import Json, JsonObject
from affray.core.narration import listed
from affray.core.rng import RNG
from affray.rulesets.hud import join
from affray.rulesets.hud.leave import bring_back, settle, take_out
from affray.rulesets.hud.state import Fighter, HudState

HP = "HP"
THIS_ROUND = {"-2 to every roll": -2, "-4 to every roll": -4}
NEXT_ROUND = "-2 to every roll next round"
CHARGED = "charged"
#: Each status a GM may give, and the ``rounds`` it may be given for (``None``: until the round ends it).
STATUSES: dict[str, tuple[int | None, ...]] = {
    **dict.fromkeys(THIS_ROUND, (None, 1)),
    NEXT_ROUND: (None, 2),
    CHARGED: (None, 1),
}
NEW_PLACES = ("near", "far")


def _refuse(code: str, message: str) -> Rejected:
    return Rejected(code, message)


def shown_statuses(f: Fighter) -> list[str]:
    """The statuses of :data:`STATUSES` that ``f`` has now, by the view's names."""
    out = [f"{f.penalty:+d} to every roll"] if f.penalty else []
    return out + ([NEXT_ROUND] if f.penalty_next else []) + ([CHARGED] if f.charged else [])


def places(state: HudState, f: Fighter | None = None) -> list[int]:
    """The places where someone in the fight (other than ``f``) stands (WL-B13)."""
    return sorted({g.place for g in state.active() if g is not f})


def place_label(state: HudState, f: Fighter, where: Json) -> str:
    """A place as the GM's list names it, by who stands there (WL-B13): "with Watch Sergeant Hald", "where it stands
    now", "a place of its own near the fight"."""
    if where in NEW_PLACES:
        return f"a place of its own {where} the fight" if where == "near" else "a place of its own far from the fight"
    there = [g.name for g in state.active() if g.place == where and g is not f]
    with_them = f"with {listed(there)}" if there else "nobody"
    if where == f.place:
        return f"where it stands now ({with_them})" if there else "where it stands now"
    return with_them


def as_place(where: object) -> object:
    """A place as a form sends it: a numbered place may come as its digits ("0", a page's select), read as the
    number; anything else as it is."""
    return int(where) if isinstance(where, str) and where.isdigit() else where


class HudAdjuster:
    """The Sim HuD's side of GM rulings (see the module docstring)."""

    def check(self, state: HudState, change: Change) -> Rejected | None:
        if state.outcome is not None:
            return _refuse("match_over", "The fight is over (an earlier change of this ruling ended it).")
        f = state.fighters[change.combatant]
        if change.field == "bar":
            return self._check_bar(f, change)
        if change.field in ("status", "remove_status"):
            return self._check_status(state, f, change)
        if change.field == "position":
            return self._check_position(state, f, as_place(change.value))
        return self._check_out(f, change.value)

    @staticmethod
    def _check_bar(f: Fighter, change: Change) -> Rejected | None:
        if change.name != HP:
            return _refuse("unknown_bar", f"{f.name} has no bar '{change.name}' (the HuD shows HP).")
        if not 0 <= change.value <= f.max_hp:
            return _refuse("bad_value", f"{f.name}'s HP runs from 0 (down, WL-04, WL-08) to {f.max_hp}.")
        return None

    @staticmethod
    def _check_status(state: HudState, f: Fighter, change: Change) -> Rejected | None:
        known = list(STATUSES) if state.mode == "nerdified" else []
        if change.name not in known:
            named = ", ".join(known) if known else "none in this mode (set HP, or take the combatant out)"
            return _refuse(
                "unknown_status", f"'{change.name}' is not a status the GM can change here (statuses: {named})."
            )
        if change.field == "remove_status":
            if change.name not in shown_statuses(f):
                return _refuse("not_there", f"{f.name} does not have '{change.name}'.")
            return None
        if change.value not in STATUSES[change.name]:
            lasting = "next round (rounds 2)" if change.name == NEXT_ROUND else "this round (rounds 1)"
            return _refuse("bad_value", f"'{change.name}' lasts {lasting}; give it with those rounds or none.")
        return None

    @staticmethod
    def _check_position(state: HudState, f: Fighter, where: object) -> Rejected | None:
        if state.mode != "nerdified":
            return _refuse("not_adjustable", "Only Combat Nerdified has places (WL-B13).")
        if where in NEW_PLACES:
            return None
        others = places(state, f)
        if isinstance(where, bool) or not isinstance(where, int) or where not in others:
            shown = ", ".join(map(str, others))
            return _refuse(
                "bad_position",
                f"A place is one where someone in the fight stands ({shown}), or 'near' "
                "or 'far' for a place of its own.",
            )
        if where == f.place:
            return _refuse("bad_position", f"{f.name} already stands at place {where}.")
        return None

    @staticmethod
    def _check_out(f: Fighter, out: bool) -> Rejected | None:
        if out and f.out:
            return _refuse("already_out", f"{f.name} is already out of the fight ({f.out}).")
        if not out and not f.out:
            return _refuse("not_out", f"{f.name} is in the fight.")
        if not out and f.hp <= 0:
            return _refuse(
                "cannot_stand", f"{f.name} is down at {f.hp} HP and cannot stand (WL-04, WL-08): raise its HP instead."
            )
        return None

    def apply(self, state: HudState, change: Change) -> object:
        f = state.fighters[change.combatant]
        if change.field == "bar":
            was = f.hp
            f.hp = change.value
            if f.hp <= 0 and not f.out:
                take_out(state, f, "down")
            elif f.hp > 0 and f.out == "down":
                bring_back(state, f)
            return was
        if change.field == "status":
            return _give(f, change.name)
        if change.field == "remove_status":
            _give(f, change.name, remove=True)
            return change.name
        if change.field == "position":
            return _move(state, f, as_place(change.value))
        if change.value:
            take_out(state, f, "out")
            return False
        bring_back(state, f)
        return True

    def hidden(self, state: HudState, change: Change) -> bool:
        """The HuD hides nothing from any seat (WL-09)."""
        return False

    def settle(self, state: HudState, rng: RNG, journal: Journal) -> None:
        """Tell who the ruling took out, then go on from there with the match's dice, as after the step it stands
        for: the turn or the round's next actions, the pursuit, the fight's end (:func:`.leave.settle`)."""
        settle(state, rng, journal)

    #: Reinforcements join at a place (Combat Nerdified: as ``position``; the other modes have none: ``null``), which
    #: no scenario field names (:class:`~affray.core.adjust.Joiner`).
    joins = "place"
    place_field = None

    def scenario_fields(self, setup: Mapping[str, object]) -> JsonObject:
        """The fight's mode, as a scenario writes it."""
        return {"mode": str(setup["mode"])}

    def stand_in(self) -> JsonObject:
        return {}

    def add(
        self, state: HudState, entry: Mapping[str, Json], side: str, place: Json, rng: RNG, journal: Journal
    ) -> Rejected | None:
        """Reinforcements (see the module docstring; :mod:`.join`): no die is drawn now."""
        if state.outcome is not None:
            return _refuse("match_over", "The fight is over: nobody joins it now.")
        sides = sorted({f.side for f in state.fighters.values()})
        if side not in sides:
            return _refuse("unknown_side", f"There is no side '{side}' in this fight (there are {', '.join(sides)}).")
        where = as_place(place)
        if state.mode != "nerdified" and where is not None:
            return _refuse("bad_position", "Only Combat Nerdified has places (WL-B13): give no place.")
        if state.mode == "nerdified" and where not in (*places(state), *NEW_PLACES):
            shown = ", ".join(map(str, places(state)))
            return _refuse(
                "bad_position",
                f"A newcomer's place is one where someone in the fight stands ({shown}), or 'near' or 'far' for a "
                "place of its own (WL-B13).",
            )
        f = join.build_fighter(entry, side, state)
        if isinstance(f, Rejected):
            return f
        state.fighters[f.id] = f
        if state.mode == "nerdified":
            _move(state, f, where)
        join.enter_order(state, f)
        return None

    def forms(self, state: HudState) -> dict[str, JsonObject]:
        nerdified = state.mode == "nerdified"
        shown: list[Json] = [*places(state), *NEW_PLACES]
        return {
            a: {
                "bars": [{"name": HP, "min": 0, "max": f.max_hp}],
                "statuses": list(STATUSES) if nerdified else [],  # each says how long it lasts: no rounds box
                "position": "place" if nerdified else None,
                "places": shown if nerdified else [],
                "place_labels": [place_label(state, f, p) for p in shown] if nerdified else [],
                "out": bool(f.out),
            }
            for a, f in state.fighters.items()
        }


def _give(f: Fighter, name: str, remove: bool = False) -> str | None:
    """Set (or clear) one status; returns the one of its kind it replaces."""
    if name in THIS_ROUND:
        was = f"{f.penalty:+d} to every roll" if f.penalty else None
        f.penalty = 0 if remove else THIS_ROUND[name]
    elif name == NEXT_ROUND:
        was = NEXT_ROUND if f.penalty_next else None
        f.penalty_next = 0 if remove else -2
    else:
        was = CHARGED if f.charged else None
        f.charged = not remove
    return was


def _move(state: HudState, f: Fighter, where: object) -> int:
    """To a place where someone stands (engaging them, in that place's band), or to a new place (WL-B13)."""
    was = f.place
    if where in NEW_PLACES:
        f.place, f.band = state.new_place(), str(where)
    else:
        assert isinstance(where, int)  # checked: a place where someone stands
        f.place = where
        f.band = next(g.band for g in state.active() if g.place == f.place and g is not f)
    return was


ADJUSTER = HudAdjuster()
