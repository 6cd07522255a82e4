"""The one caching mechanism: a :class:`Memo` owned by each match and keyed by its version (the caching rule).

What a ruleset derives from its state to build views and legal lists can be kept here instead of inside the rule
state or in module globals:

- :meth:`Memo.now` keeps a value until the match's version changes (any accepted action, undo or rewind) or its
  owner lets go of it (:meth:`Memo.release`: a table server, once the version is sent);
- :meth:`Memo.keyed` keeps one value per name while a key the ruleset computes stays the same (WitchHammer's
  fighter parts between two board changes); with a fixed key (``None``), until the state is rebuilt (a seat's
  read-only windows on the combatants);
- :meth:`Memo.static` keeps a value for the life of the match (what only the setup and options determine: a map,
  weapon tables, compiled cards). Whoever starts many matches of one setup and options (a :class:`Scenario`, a
  simulation chunk) may hand them all the same ``static`` store, so those parts are built once for all of them:
  the store is the caller's, passed explicitly, never a module global;
- :meth:`Memo.cache` keeps a bounded :class:`Cache` in the static store, for values that come back from decision to
  decision and from fight to fight (Spellchrome's specs and move listings). Its bound depends on :attr:`Memo.shared`:
  large when many matches read the store (a simulation), small when one live match owns it (a table server holds
  hundreds of matches, each with its own memo).

The match calls :meth:`advance` with its version after every change and :meth:`reset` when it rebuilds its state
(undo, rewind), so nothing derived from a state outlives it. Values are shared: treat them as read-only. A memo is
never shared between matches, so a server holding hundreds of matches holds one small memo per match.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, ParamSpec, TypeVar

T = TypeVar("T")
P = ParamSpec("P")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Cache(dict[K, V]):
    """A dict that holds at most ``limit`` entries: :meth:`keep` starts it again (clears it) when it is full. Its
    values are shared by every reader: read-only."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` (after clearing a full cache) and return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


class TableStatic(dict[Hashable, object]):
    """A static store that a table server shares between its live tables of one setup and options. Unlike a
    simulation's, its caches keep the small bounds of a match's own store: a server may hold tables of many setups,
    each with a store, and its tables decide seconds apart, so large caches would hold memory for little. It can be
    weakly referenced, so that the server's index of stores lets one go with its last table."""

    __slots__ = ("__weakref__",)


class Memo:
    """Derived values of one match (see the module docstring)."""

    __slots__ = ("_keyed", "_now", "_static", "shared", "version")

    def __init__(self, static: dict[Hashable, object] | None = None) -> None:
        self.version = 0
        #: Whether the static store was handed in (shared by the matches of one setup) rather than this match's own
        #: (a live table's :class:`TableStatic` counts as its own: small caches).
        self.shared = static is not None and not isinstance(static, TableStatic)
        self._now: dict[Hashable, Any] = {}
        self._keyed: dict[Hashable, tuple[Hashable, Any]] = {}
        self._static: dict[Hashable, Any] = {} if static is None else static

    def advance(self, version: int) -> None:
        """The match is now at ``version``: drop what was derived from the previous state."""
        if version != self.version:
            self.version = version
            self._now.clear()

    def reset(self, version: int = 0) -> None:
        """The state was rebuilt (undo, rewind): drop everything derived from the old one but the setup's parts."""
        self.version = version
        self._now.clear()
        self._keyed.clear()

    def release(self) -> None:
        """Drop the values kept for the current version (:meth:`now`): they are built again if asked. A table server
        calls it once it has sent a version to its seats (the parts a later request needs are kept as text,
        :mod:`affray.table.parts`): kept until the table's next change, seconds or minutes later, a version's views
        were the objects the cyclic collector walked most, young and then old, at every table's every action
        (docs/performance.md, "Garbage collection and pings")."""
        self._now.clear()

    def now(self, key: Hashable, build: Callable[[], T]) -> T:
        """``build()`` once per version."""
        try:
            value: T = self._now[key]
        except KeyError:
            value = self._now[key] = build()
        return value

    def keyed(self, name: Hashable, key: Hashable, build: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``build(*args, **kwargs)`` again only when ``key`` differs from the key it was last built for under
        ``name``."""
        hit = self._keyed.get(name)
        if hit is not None and hit[0] == key:
            value: T = hit[1]
            return value
        value = build(*args, **kwargs)
        self._keyed[name] = (key, value)
        return value

    def static(self, key: Hashable, build: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``build(*args, **kwargs)`` once for the life of the match. Passing the arguments, rather than a closure
        over them, makes nothing when the value is found (the usual case: views and observations ask at every
        decision)."""
        try:
            value: T = self._static[key]
        except KeyError:
            value = self._static[key] = build(*args, **kwargs)
        return value

    def cache(self, key: Hashable, shared: int, own: int) -> Cache[Any, Any]:
        """The :class:`Cache` under ``key`` in the static store, made on first use with room for ``shared`` entries
        when the store is shared by many matches and ``own`` when it is this match's alone."""
        try:
            found: Cache[Any, Any] = self._static[key]
        except KeyError:
            found = self._static[key] = Cache(shared if self.shared else own)
        return found
