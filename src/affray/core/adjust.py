"""GM rulings: the GM changes the fight directly, as a VTT's GM edits a token, but through the rules.

A ruling is a record of the log of record (kind ``gm``): who (the GM's seat), what (a list of changes) and why (a
reason), in the hash chain, replayed by ``verify`` and undone by a take back like any record. Its action is::

    {"type": "ruling", "reason": "the bridge gives way", "changes": [CHANGE, ...]}

with each change one of

- ``{"combatant": ID, "bar": NAME, "value": INT}``: a bar as the view names it (HP, Poise, Health, Wounds...);
- ``{"combatant": ID, "status": NAME, "rounds": INT | null}``: give a status (``null``: until something ends it);
- ``{"combatant": ID, "remove_status": NAME}``;
- ``{"combatant": ID, "position": POSITION}``: a square ``[x, y]``, a WaRP distance in metres, a HuD place;
- ``{"combatant": ID, "out": true | false}``: out of the fight, or back into it;
- ``{"combatant": ID, "reveal": true}``: a hidden combatant shown to every seat (the match's own change, not the
  ruleset's: :mod:`affray.core.hidden`);
- ``{"add": ENTRY, "side": SIDE, "place": POSITION | null}``: reinforcements, a combatant joining mid-fight.
  ``ENTRY`` is the combatant's *resolved* setup entry (as the ruleset's ``prepare`` builds it, so the record
  replays on a machine without the content it came from: :func:`affray.table.gm.adjust` resolves what the GM
  wrote); ``place`` its square, distance or place (``null``: the entry's own). The ruleset's
  :meth:`Joiner.add` places it in the turn order as its rules say; the match seats it at the GM's seat.

:func:`parse` checks the shape (the same for every ruleset); the ruleset's :class:`Adjuster` (``Plugin.adjuster``)
checks each change against the state and applies it, each against the state the ones before it left; a refused
change puts the state back, so a refused ruling changes nothing. Then the adjuster's ``settle`` goes on from where
the changes left the fight, with the match's dice (a turn passes, a phase ends), and after it the ruleset's
invariants must hold, or the ruling is refused and the state put back (:meth:`affray.core.match.Match.rule`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, TypeGuard, TypeVar, runtime_checkable

from affray.core.engine import GM, Rejected
from affray.core.events import Event
from affray.core.journal import Journal
from affray.core.json import Json, JsonObject
from affray.core.rng import RNG

FieldName = Literal["bar", "status", "remove_status", "position", "out", "reveal", "add"]
FIELDS: tuple[FieldName, ...] = ("bar", "status", "remove_status", "position", "out", "reveal")
#: The longest id a combatant added mid-fight may have.
MAX_ID = 40
MAX_CHANGES = 20
MAX_REASON = 300
MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class Change:
    """One change of a ruling: ``field`` of ``combatant``; ``name`` the bar or status; ``value`` the bar's new value,
    the status's rounds (``None``: until ended), the position (the ruleset's form) or ``out`` (a bool)."""

    combatant: str
    field: FieldName
    #: The bar or status; for ``add``, the side it joins.
    name: str = ""
    # Checked by parse for its field (an int for a bar, int | None for a status, a bool for out, JSON for a
    # position); loose so that each adjuster reads the kind its field has.
    value: Any = None

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"combatant": self.combatant}
        if self.field == "bar":
            out.update(bar=self.name, value=self.value)
        elif self.field == "status":
            out.update(status=self.name, rounds=self.value)
        elif self.field == "remove_status":
            out["remove_status"] = self.name
        elif self.field == "add":
            return {"add": self.value["entry"], "side": self.name, "place": self.value["place"]}
        else:
            out[self.field] = self.value
        return out


def _bad(message: str) -> Rejected:
    return Rejected("bad_change", message)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _added(where: str, raw: dict[str, object]) -> Change | Rejected:
    """The ``add`` form: ``{"add": ENTRY, "side": SIDE, "place": POSITION | null}`` (reinforcements)."""
    if set(raw) - {"add", "side", "place"}:
        return _bad(f"{where}: an addition is {{add, side, place}}.")
    entry, side = raw["add"], raw.get("side")
    if not isinstance(entry, dict):
        return _bad(f"{where}: 'add' is the combatant, an object with an id.")
    ident = entry.get("id")
    if not isinstance(ident, str) or not 0 < len(ident) <= MAX_ID:
        return _bad(f"{where}: the combatant added has an id of 1 to {MAX_ID} characters.")
    if not isinstance(side, str) or not 0 < len(side) <= MAX_NAME:
        return _bad(f"{where}: 'side' names the side it joins (1 to {MAX_NAME} characters).")
    return Change(ident, "add", side, {"entry": entry, "place": raw.get("place")})


def _change(i: int, raw: object) -> Change | Rejected:
    where = f"Change {i + 1}"
    if isinstance(raw, dict) and "add" in raw:
        return _added(where, raw)
    if not isinstance(raw, dict):
        return _bad(f"{where} is not an object with a combatant and one of: {', '.join(FIELDS)}.")
    combatant = raw.get("combatant")
    if not isinstance(combatant, str) or not combatant:
        return _bad(f"{where} names no combatant.")
    fields = [f for f in FIELDS if f in raw]
    extra = set(raw) - {"combatant", "value", "rounds", *FIELDS}
    if len(fields) != 1 or extra:
        return _bad(
            f"{where} must change exactly one of: {', '.join(FIELDS)}"
            + (f" (unknown: {', '.join(sorted(extra))})." if extra else ".")
        )
    field = fields[0]
    if field in ("bar", "status", "remove_status"):
        name = raw[field]
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            return _bad(f"{where}: '{field}' is a name of 1 to {MAX_NAME} characters.")
        if field == "bar":
            if set(raw) != {"combatant", "bar", "value"} or not _whole(raw["value"]):
                return _bad(f"{where}: a bar change is {{combatant, bar, value}} with a whole number value.")
            return Change(combatant, "bar", name, raw["value"])
        if field == "status":
            rounds = raw.get("rounds")
            if set(raw) - {"combatant", "status", "rounds"} or not (rounds is None or (_whole(rounds) and rounds > 0)):
                return _bad(
                    f"{where}: a status change is {{combatant, status, rounds}}, rounds a whole number above "
                    f"0 or null (until something ends it)."
                )
            return Change(combatant, "status", name, rounds)
        if set(raw) != {"combatant", "remove_status"}:
            return _bad(f"{where}: a status removal is {{combatant, remove_status}}.")
        return Change(combatant, "remove_status", name)
    if set(raw) != {"combatant", field}:
        return _bad(f"{where}: a {field} change is {{combatant, {field}}}.")
    if field == "out" and not isinstance(raw["out"], bool):
        return _bad(f"{where}: 'out' is true (out of the fight) or false (back in).")
    if field == "reveal" and raw["reveal"] is not True:
        return _bad(f"{where}: 'reveal' is true (a hidden combatant shown to every seat).")
    return Change(combatant, field, "", raw[field])


def parse(action: Mapping[str, object]) -> tuple[str, list[Change]] | Rejected:
    """The reason and changes of a ruling action, or ``bad_change`` naming the first problem of shape."""
    reason = action.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        return _bad(f"The reason is a text of at most {MAX_REASON} characters.")
    raw = action.get("changes")
    if not isinstance(raw, list) or not 0 < len(raw) <= MAX_CHANGES:
        return _bad(f"A ruling lists 1 to {MAX_CHANGES} changes.")
    changes = []
    seen = set()
    for i, item in enumerate(raw):
        change = _change(i, item)
        if isinstance(change, Rejected):
            return change
        key = (change.combatant, change.field if change.field != "remove_status" else "status", change.name)
        if key in seen:
            return _bad(f"Change {i + 1} changes what an earlier change of this ruling already changes.")
        seen.add(key)
        changes.append(change)
    return reason.strip(), changes


#: The ruleset's match state, as an adjuster reads and changes it (only taken: contravariant).
S_contra = TypeVar("S_contra", contravariant=True)
S = TypeVar("S")


class Adjuster(Protocol[S_contra]):
    """A ruleset's side of GM rulings (``Plugin.adjuster``). ``state`` is the ruleset's match state.

    ``check`` refuses (a stable code and a sentence: ``unknown_bar``, ``bad_value``, ``unknown_status``,
    ``not_there``, ``bad_position``, ``occupied``...) or accepts one change against the state as it is, changing
    nothing. ``apply`` makes an accepted change and returns the value it replaces (for the ruling's line: "was 23");
    afterwards the state is one the rules go on from: a combatant taken out leaves every window it was in (its turn
    passes), one brought back takes part again from the next round, and the outcome follows (the last foe taken
    out ends the fight). ``hidden`` is true when the change's values are GM-level information the other seats do not
    see in their views (a WaRP extra's HP). ``forms`` describes, for the GM's page, what can be changed now:
    ``{combatant: {"bars": [{"name", "min", "max"}], "statuses": [names], "position": "square"|"line"|"place"|null,
    "places": [...] and "place_labels": [the same places in words] (HuD), "out": bool}}``, and where a status is given
    for a choice of rounds ``"rounds": {status: [{"value": int | null, "label": the ruleset's words}]}`` (a status
    not there takes no rounds: the page shows no rounds box for it)."""

    def check(self, state: S_contra, change: Change) -> Rejected | None: ...

    def apply(self, state: S_contra, change: Change) -> object: ...

    def hidden(self, state: S_contra, change: Change) -> bool: ...

    def forms(self, state: S_contra) -> Mapping[str, JsonObject]: ...

    def settle(self, state: S_contra, rng: RNG, journal: Journal) -> None:
        """After every change of a ruling is applied: go on from where the ruling left the fight, as the rules do
        after any step, with the match's dice and into the ruling's journal: the turn of a combatant taken out
        passes, a round or a phase whose last chooser left ends (initiative rolled, cards revealed), the outcome
        follows. Nothing to do is the common case. A die drawn here is a die of the fight like any other (the
        ruling's record then rolled dice: a take back by the GM is refused, a rewind is not). When it is called the
        journal already holds the ruling's :class:`Ruled` events, each change with the value it replaced (``was``),
        so settle may read what the ruling did; it appends after them."""
        ...


@runtime_checkable
class Joiner(Protocol[S_contra]):
    """A ruleset's side of reinforcements (the ``add`` change): an :class:`Adjuster` that has these too.

    ``joins`` is the kind of ``place`` (as :meth:`Adjuster.forms` names positions: ``"square"``, ``"line"``);
    ``scenario_fields`` the fight's own scenario fields read from its setup (a map, a mode) and ``stand_in`` what
    the resolving scenario's stand-in foe changes of the newcomer (:func:`affray.table.gm.resolve_addition`)."""

    joins: str

    def scenario_fields(self, setup: Mapping[str, object]) -> JsonObject: ...

    def stand_in(self) -> JsonObject: ...

    def add(
        self, state: S_contra, entry: Mapping[str, Json], side: str, place: Json, rng: RNG, journal: Journal
    ) -> Rejected | None:
        """Refuse (``unknown_side``, ``bad_position``, ``occupied``, ``bad_combatant``: the state unchanged) or add
        the combatant ``entry`` (a resolved setup entry) to ``side`` at ``place`` (``None``: the entry's own),
        entering the turn order as the ruleset's rules say, its dice drawn from ``rng`` into ``journal``."""
        ...


def apply_changes(
    adjuster: Adjuster[S], state: S, reason: str, changes: Sequence[Change], names: Mapping[str, str]
) -> Rejected | list[Ruled]:
    """Check and apply ``changes`` one after another, each against the state the ones before it left (a refusal
    part-way leaves the earlier ones applied: the caller puts the state back). Returns the ruling's events: one
    :class:`Ruled` with the public changes and, if any, one private one with the GM-level changes."""
    from affray.core.events import to_jsonable

    public: list[JsonObject] = []
    private: list[JsonObject] = []
    for change in changes:
        if change.combatant not in names:
            return unknown(change.combatant, sorted(names))
        refused = adjuster.check(state, change)
        if refused is not None:
            return refused
        hidden = adjuster.hidden(state, change)
        was = adjuster.apply(state, change)
        (private if hidden else public).append({**change.to_dict(), "was": to_jsonable(was)})
    events = [Ruled(reason, public)] if public else []
    if private:
        events.append(Ruled(reason, private, private=True))
    return events


def rule_on(
    adjuster: Adjuster[S] | None, title: str, state: S, rng: RNG, action: Mapping[str, object], names: Mapping[str, str]
) -> Rejected | list[Event]:
    """A ruling on ``state``: its changes checked and applied (:func:`apply_changes`) by the ruleset's ``adjuster``
    (its plug-in record's, which the match carries; ``None``: the ruleset called ``title`` takes no rulings), then
    the adjuster goes on from where they left the fight with ``rng`` (:meth:`Adjuster.settle`); the ruling's events.
    A refusal part-way leaves the state changed: the caller (:meth:`affray.core.match.Match.rule`) puts it back."""
    parsed = parse(action)
    if isinstance(parsed, Rejected):
        return parsed
    if adjuster is None:
        return Rejected("no_rulings", f"{title} does not take GM rulings.")
    ruled = apply_changes(adjuster, state, parsed[0], parsed[1], names)
    if isinstance(ruled, Rejected):
        return ruled
    journal = Journal(ruled)
    adjuster.settle(state, rng, journal)
    return list(journal)


def unknown(combatant: str, known: Sequence[str]) -> Rejected:
    """The refusal of a change that names no combatant of the fight."""
    return Rejected(
        "unknown_combatant", f"There is no combatant '{combatant}' in this fight (there are {', '.join(known)})."
    )


def describe_change(change: Mapping[str, Json], names: Mapping[str, str]) -> str:
    """One change of a ruling in words ("Tomas's Poise 15 (was 23)"), from its dict with ``was``."""
    who = names[str(change["combatant"])]
    was = change.get("was")
    if "bar" in change:
        return f"{who}'s {change['bar']} {change['value']}" + (f" (was {was})" if was is not None else "")
    if "status" in change:
        rounds = change.get("rounds")
        return f"{who} is {change['status']}" + (f" for {rounds} round{'s' if rounds != 1 else ''}" if rounds else "")
    if "remove_status" in change:
        return f"{who} is no longer {change['remove_status']}"
    if "position" in change:
        where = change["position"]
        shown = f"({where[0]}, {where[1]})" if isinstance(where, list) and len(where) == 2 else str(where)
        return f"{who} is moved to {shown}"
    if "reveal" in change:
        return f"{who} is revealed"
    return f"{who} is out of the fight" if change.get("out") else f"{who} is back in the fight"


@dataclass(slots=True)
class Joined(Event):
    """Reinforcements: ``actor`` (``name``) joins the fight for ``side`` (a ruling's ``add`` change)."""

    kind: ClassVar[str] = "joined"
    actor: str
    name: str
    side: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names.get(self.actor, self.name)} joins the fight for the {self.side}."


@dataclass(slots=True)
class Ruled(Event):
    """A GM ruling: why, and each change with the value it replaced (``was``). A ruling whose changes include
    GM-level values (:meth:`Adjuster.hidden`) is told in two events: the public changes, and a ``private`` one that
    only the GM's seat (and the seat of the combatants it changes) reads in full; the others read that the GM ruled
    on those combatants, not what (:meth:`redacted`)."""

    kind: ClassVar[str] = "ruled"
    reason: str
    changes: list[JsonObject]
    private: bool = False

    def audience(self) -> frozenset[str] | None:
        return frozenset({GM, *(str(c["combatant"]) for c in self.changes)}) if self.private else None

    def redacted(self) -> JsonObject:
        return {
            "type": "ruled",
            "reason": self.reason,
            "changes": [],
            "private": True,
            "unseen": list[Json](sorted({str(c["combatant"]) for c in self.changes})),
        }

    def describe(self, names: Mapping[str, str]) -> str:
        return ruling_sentence(self.reason, self.changes, (), names)


def ruling_sentence(
    reason: str,
    changes: Sequence[Mapping[str, Json]],
    unseen: Sequence[str],
    names: Mapping[str, str],
    told: Callable[[Mapping[str, Json], Mapping[str, str]], str] | None = None,
) -> str:
    """The GM ruling line every seat reads: "GM ruling (the bridge gives way): Tomas's Poise 15 (was 23)." Each
    change in words by ``told`` (a ruleset narrator's own :meth:`~affray.core.narration.Narrator.change`), by
    :func:`describe_change` when none is given."""
    parts = [(told or describe_change)(c, names) for c in changes]
    parts += [f"something of {names[c]}'s that you cannot see" for c in unseen]
    why = f" ({reason})" if reason else ""
    return f"GM ruling{why}: {'; '.join(parts)}."
