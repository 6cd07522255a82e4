"""Policies: who chooses an action when no person does (DESIGN.md, contract 9).

A policy sees what its seat sees and what its actor may do, and returns one action::

    choose(seen: Observation, choices: Choices, rng) -> Action

- :class:`Observation`: typed and read-only, redacted exactly as the seat's view is (the leak test walks every
  property of every observation). A ruleset's observation reads the state lazily, so a policy pays only for what it
  asks; ``seen.view()`` builds the whole typed view when a policy wants it.
- :class:`Choices`: the actor's legal actions, answered on demand: which kinds, is this action legal, the best
  action of a kind by a key, a random one; :meth:`Choices.all` lists everything only when asked. A ruleset's
  subclass answers from the state without listing where that pays (Spellchrome's ~90 moves).

Policies never read the match state, and draw from their own generator, never the match's dice. Each ruleset's
plug-in record names its policies (:mod:`affray.core.plugin`); ``random`` serves every ruleset.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Generic, Protocol, Self, TypeVar

from affray.core.engine import Action, ActionSpec, Viewer
from affray.core.fields import text
from affray.core.memo import Memo
from affray.core.rng import RNG

if TYPE_CHECKING:
    from affray.core.view import View

S = TypeVar("S")


class Ordered(Protocol):
    """A key :meth:`Choices.best` can order: ``a < b`` between two of its kind (numbers, strings, tuples of them)."""

    def __lt__(self, other: Self, /) -> bool: ...


class Observation(Protocol):
    """What a policy sees for ``actor``: read-only, redacted for the seat that plays it (see the module docstring)."""

    @property
    def actor(self) -> str:
        """The combatant the policy acts for."""
        ...

    def view(self) -> View[object, object]:
        """The seat's whole typed view (:mod:`affray.core.view`), built when asked."""
        ...


class ViewObservation:
    """The plainest observation: the actor and the seat's typed view, built on the first :meth:`view` call.

    For rulesets whose policies read the view itself (the toy ruleset); the built-in rulesets have typed observations
    of their own that read only what a policy asks.
    """

    __slots__ = ("_actor", "_build", "_view")

    def __init__(self, actor: str, build: Callable[[], View[object, object]]) -> None:
        """``build``: the seat's typed view (already bound to its viewer, so it has that seat's redaction)."""
        self._actor = actor
        self._build = build
        self._view: View[object, object] | None = None

    @property
    def actor(self) -> str:
        return self._actor

    def view(self) -> View[object, object]:
        if self._view is None:
            self._view = self._build()
        return self._view


class StateObservation(Generic[S]):
    """The part every ruleset's observation shares: the state it reads lazily, the seat's viewer (whose redaction it
    keeps), the actor and the match's memo, none of them writable from outside. A ruleset's observation subclasses
    it, adds its read-only properties and its :meth:`view` (see :class:`Observation`)."""

    __slots__ = ("_actor", "_memo", "_state", "_viewer")

    def __init__(self, state: S, viewer: Viewer, actor: str, memo: Memo | None) -> None:
        self._state, self._viewer, self._actor, self._memo = state, viewer, actor, memo

    @property
    def actor(self) -> str:
        return self._actor


class Combatant(Protocol):
    """What every ruleset's combatant state has: its id and side."""

    @property
    def id(self) -> str: ...

    @property
    def side(self) -> str: ...


F = TypeVar("F", bound=Combatant)


class SeenCombatant(Generic[F]):
    """The part every ruleset's read-only combatant in an observation shares: the state it wraps (never handed out)
    and what every seat sees of it, its id and side. A ruleset's subclass adds its own read-only properties, with the
    seat's redaction."""

    __slots__ = ("_f",)

    def __init__(self, f: F) -> None:
        self._f = f

    @property
    def id(self) -> str:
        return self._f.id

    @property
    def side(self) -> str:
        return self._f.side


class Choices:
    """An actor's legal actions now, answered on demand (see the module docstring).

    Contract: every answer agrees with :meth:`all`, which is exactly ``Ruleset.legal`` for the actor, in the same
    order (``tests/conformance`` checks it over random playouts of every example). This base class lists once, on
    the first question, and answers from the list; a ruleset's subclass overrides the questions it can answer from
    the state, and must keep them equal to what this class would answer.
    """

    __slots__ = ("_all", "_listing", "actor")

    def __init__(self, actor: str, listing: Callable[[], list[ActionSpec]]) -> None:
        self.actor = actor
        self._listing = listing
        self._all: list[ActionSpec] | None = None

    def all(self) -> list[ActionSpec]:
        """Every legal action, as ``Ruleset.legal`` lists them (read-only)."""
        if self._all is None:
            self._all = self._listing()
        return self._all

    def __len__(self) -> int:
        return len(self.all())

    def __bool__(self) -> bool:
        """Whether the actor has any legal action (the runner and the table server ask before every policy move;
        a ruleset's subclass answers from its cheapest part instead of listing everything)."""
        return bool(self.all())

    def kinds(self) -> frozenset[str]:
        """The action types the actor may take now."""
        return frozenset(text(spec.action, "type") for spec in self.all())

    def of(self, kind: str) -> list[ActionSpec]:
        """The legal actions of type ``kind``, in listing order."""
        return [spec for spec in self.all() if spec.action["type"] == kind]

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is one of the listed actions (a free parameter's other values are not checked here:
        ``step`` judges those)."""
        return any(spec.action == action for spec in self.all())

    def best(self, kind: str, key: Callable[[ActionSpec], Ordered]) -> ActionSpec | None:
        """The action of type ``kind`` with the highest ``key`` (the first listed among equals), or ``None``."""
        best: tuple[ActionSpec, Ordered] | None = None
        for spec in self.of(kind):
            k = key(spec)
            if best is None or best[1] < k:
                best = (spec, k)
        return None if best is None else best[0]

    def pick(self, rng: RNG) -> Action:
        """A uniformly random legal action: ``all()[rng.die(len) - 1]`` (one draw of the policy's generator)."""
        listed = self.all()
        return listed[rng.die(len(listed)) - 1].action


class Policy(Protocol):
    """Chooses ``choices.actor``'s action from what it has ``seen``; see the module docstring."""

    name: str

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        """Return one legal action for ``choices.actor`` (``choices`` is never empty)."""
        ...


class RandomPolicy:
    """Uniformly random among the legal actions: the baseline that explores every rule."""

    name = "random"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        return choices.pick(rng)


_ATOMS = frozenset({bool, int, float, str, type(None)})


def exposed(seen: object, depth: int = 8) -> object:
    """Everything an observation shows a policy, as JSON-ready data: every public attribute and property, read
    recursively, and its ``view()``. The leak test (``tests/conformance``) searches it for other seats' secrets, so
    an observation cannot show more than its seat's view does. (The exact built-in types are answered first and
    each class's public names are listed once: the leak test calls this at every step of every fight.)"""
    if type(seen) in _ATOMS:
        return seen
    if depth <= 0:
        return seen.hex() if isinstance(seen, bytes) else seen
    if isinstance(seen, dict):
        return {str(k): exposed(v, depth - 1) for k, v in seen.items()}
    if isinstance(seen, list | tuple):
        return [exposed(v, depth - 1) for v in seen]
    return _exposed_object(seen, depth)


def _exposed_object(seen: object, depth: int) -> object:
    from affray.core.events import to_jsonable

    if isinstance(seen, bool | int | float | str | bytes):
        return seen.hex() if isinstance(seen, bytes) else seen
    if isinstance(seen, Mapping):
        return {str(k): exposed(v, depth - 1) for k, v in seen.items()}
    items = getattr(seen, "items", None)
    if callable(items):  # a mapping by its shape
        return {str(k): exposed(v, depth - 1) for k, v in items()}
    if isinstance(seen, list | tuple | set | frozenset):
        return [exposed(v, depth - 1) for v in seen]
    names, is_record = _public_names(type(seen))
    if is_record:
        return {name: exposed(getattr(seen, name), depth - 1) for name in names}
    out: dict[str, object] = {}
    for name in names:
        value = getattr(seen, name)
        if name == "view" and callable(value):
            out[name] = to_jsonable(value())
            continue
        if not callable(value):
            out[name] = exposed(value, depth - 1)
    return out


_NAMES: dict[type, tuple[tuple[str, ...], bool]] = {}


def _public_names(kind: type) -> tuple[tuple[str, ...], bool]:
    """A dataclass's fields (and True), or every public name of any other class (each class listed once)."""
    known = _NAMES.get(kind)
    if known is None:
        if dataclasses.is_dataclass(kind):
            known = tuple(f.name for f in dataclasses.fields(kind)), True
        else:
            known = tuple(name for name in dir(kind) if not name.startswith("_")), False
        _NAMES[kind] = known
    return known
