"""Typed events: the derived output of a match, for narration, UIs and audit.

Events are not the record (the action log is, see :mod:`affray.core.match`); they are recomputed
exactly by replay, which is how ``verify`` detects tampering. Each event is a slotted dataclass with a
``kind`` and a one-line ``describe`` for narration; ``to_dict`` gives its JSON form.

An event may be private: :meth:`Event.audience` names the actors allowed to see it (``None`` means
everyone). Per-viewer logs replace what a viewer may not see by :meth:`Event.redacted`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from affray.core.dice import Roll
from affray.core.json import JsonObject

_ATOMS = frozenset({type(None), bool, int, float, str})
# Per dataclass type without a to_dict: its converter (:func:`_converter`) and its shared one, each made once.
_CONVERT: dict[type, Callable[[object], JsonObject]] = {}
_SHARED: dict[type, Callable[[object, dict[int, tuple[object, object]]], JsonObject]] = {}


def to_jsonable(value: object) -> Any:
    """Turn event/state values (dataclasses, tuples, sets, rolls) into JSON-ready values. A value with a ``to_dict``
    method is trusted to return JSON."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    convert = _CONVERT.get(kind)
    if convert is not None:
        return convert(value)
    if kind is tuple or kind is list:
        return [v if type(v) in _ATOMS else to_jsonable(v) for v in value]  # type: ignore[attr-defined]
    if kind is dict:
        return {str(k): v if type(v) in _ATOMS else to_jsonable(v) for k, v in value.items()}  # type: ignore[attr-defined]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _converter(kind)(value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(to_jsonable(v) for v in value)
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    raise TypeError(f"cannot serialise {type(value).__name__} to JSON")


def _converter(kind: type) -> Callable[[object], JsonObject]:
    """The converter of dataclass type ``kind`` (without a ``to_dict``), made once: one function that builds the
    field dict, an atom field kept as it is and any other through :func:`to_jsonable`. It is generated as source,
    as :mod:`dataclasses` makes ``__init__`` (the names are the class's own field names, never input): against a
    loop over the names with ``getattr`` it made the views' JSON 2.5-3.3 times as fast (bench/bench_json.py)."""
    convert: Callable[[object], JsonObject] = _generate(kind, "value", "_to_jsonable(_v)")
    _CONVERT[kind] = convert
    return convert


def _generate(kind: type, signature: str, other: str) -> Callable[..., JsonObject]:
    """A function of ``signature`` returning the dict of ``kind``'s fields, each atom as it is, any other ``_v``
    as ``other`` says."""
    names = tuple(f.name for f in dataclasses.fields(kind))
    items = ", ".join(f"{name!r}: (_v if type(_v := value.{name}) in _ATOMS else {other})" for name in names)
    scope: dict[str, object] = {"_ATOMS": _ATOMS, "_to_jsonable": to_jsonable, "_shared": to_jsonable_shared}
    exec(f"def convert({signature}):\n    return {{{items}}}\n", scope)  # the class's field names only, never input
    # The function just written returns a dict of atoms and converted values: JSON by construction.
    return cast("Callable[..., JsonObject]", scope["convert"])


def to_jsonable_shared(value: object, done: dict[int, tuple[object, object]]) -> Any:
    """:func:`to_jsonable`, converting each dataclass instance and each tuple once for every call given the same
    ``done``: values that hold the same objects (the views of one state for several seats share most of their parts:
    a combatant's bars, statuses and sheet rows) share their conversion. The result equals :func:`to_jsonable`'s, as
    the conversion depends on the object only; ``done`` keeps each object beside its JSON, so an id is never reused
    while it is there. Share the results as JSON text, not as objects (they hold each other's parts)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    convert = _SHARED.get(kind)
    if convert is not None:
        hit = done.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        out = convert(value, done)
        done[id(value)] = (value, out)
        return out
    if kind is tuple:  # immutable, like the dataclasses of a view: a tuple the views share is converted once
        hit = done.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        items = [v if type(v) in _ATOMS else to_jsonable_shared(v, done) for v in value]  # type: ignore[attr-defined]
        done[id(value)] = (value, items)
        return items
    if kind is list:
        return [v if type(v) in _ATOMS else to_jsonable_shared(v, done) for v in value]  # type: ignore[attr-defined]
    if kind is dict:
        return {str(k): to_jsonable_shared(v, done) for k, v in value.items()}  # type: ignore[attr-defined]
    if kind in _CONVERT:  # a dataclass without a to_dict: its shared converter, made once
        _SHARED[kind] = _generate(kind, "value, done", "_shared(_v, done)")
        return to_jsonable_shared(value, done)
    return to_jsonable(value)  # the rest as to_jsonable (atoms' subclasses, to_dict, sets, a type seen first)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` for narration, plural unless ``n`` is 1: ``1 square``, ``3 squares``, ``0 squares``."""
    return f"{n} {noun if abs(n) == 1 else plural or noun + 's'}"


@dataclass(slots=True)
class Event:
    """Base of all events. Subclasses set ``kind`` and override :meth:`describe`."""

    kind: ClassVar[str] = "event"
    #: A private event about a face-down choice: hidden from the GM too, unless the GM plays one of its audience.
    sealed: ClassVar[bool] = False

    def audience(self) -> frozenset[str] | None:
        """Actors who may see this event in full; ``None`` means it is public."""
        return None

    def redacted(self) -> JsonObject:
        """What a viewer outside the audience sees instead of :meth:`to_dict`."""
        return {"type": "hidden"}

    def describe(self, names: Mapping[str, str]) -> str:
        return self.kind

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"type": self.kind}
        for f in dataclasses.fields(self):
            out[f.name] = to_jsonable(getattr(self, f.name))
        return out


@dataclass(slots=True)
class Rolled(Event):
    """Dice were rolled by ``actor`` for ``purpose`` (e.g. ``"attack"``). Rule: X-1."""

    kind: ClassVar[str] = "rolled"
    actor: str
    purpose: str
    roll: Roll

    def lead(self, names: Mapping[str, str]) -> str:
        """The sentence without its dice (a page draws the dice as chips beside it)."""
        return f"{names[self.actor]} rolls {self.purpose}"

    def dice_text(self) -> str:
        """The dice as text: notation, natural faces (dropped ones in brackets), modifier, total."""
        faces = " ".join(str(d.value) if d.kept else f"({d.value})" for d in self.roll.dice)
        mod = f" {self.roll.modifier:+d}" if self.roll.modifier else ""
        return f"{self.roll.notation} [{faces}]{mod} = {self.roll.total}"

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{self.lead(names)}: {self.dice_text()}"


@dataclass(slots=True)
class Note(Event):
    """Free narration (a post, a ruling, a GM remark)."""

    kind: ClassVar[str] = "note"
    text: str
    actor: str = ""

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]}: {self.text}" if self.actor else self.text


@dataclass(slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    round: int

    def describe(self, names: Mapping[str, str]) -> str:
        return f"— Round {self.round} —"


@dataclass(slots=True)
class PhaseStarted(Event):
    kind: ClassVar[str] = "phase_started"
    phase: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"[{self.phase}]"


@dataclass(slots=True)
class Committed(Event):
    """A sealed commit: everyone sees that ``actor`` committed and the hash, never what."""

    kind: ClassVar[str] = "committed"
    actor: str
    seal: str
    digest: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} commits a hidden choice ({self.digest[:10]}…)"


@dataclass(slots=True)
class Revealed(Event):
    """A sealed commit was opened and checked against its hash."""

    kind: ClassVar[str] = "revealed"
    actor: str
    seal: str
    payload: JsonObject

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} opens a sealed choice; it matches its commitment"


@dataclass(slots=True)
class Defeated(Event):
    """An actor is out of the fight (down, dead, escaped...)."""

    kind: ClassVar[str] = "defeated"
    actor: str
    how: str

    def describe(self, names: Mapping[str, str]) -> str:
        return f"{names[self.actor]} is {self.how}."


@dataclass(slots=True)
class Ended(Event):
    """The match has an outcome."""

    kind: ClassVar[str] = "ended"
    winner: str | None
    reason: str

    def describe(self, names: Mapping[str, str]) -> str:
        who = f"{self.winner} wins" if self.winner else "Draw"
        return f"{who} ({self.reason})."
