"""One memo keyed by the identity of a never-mutated object (a setup's card table, a card summary).

Setups are plain data that nothing changes after ``prepare``, and every match of one setup shares its card
table; so what is derived from it (compiled cards, legal-action lists, view parts, a policy's card profiles)
can be built once for all those matches. The entry keeps the object alive, so its id cannot be reused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def per_object(store: dict[int, tuple[Any, T]], obj: Any, build: Callable[[], T], limit: int = 64) -> T:
    """``build()`` once per object ``obj`` (by identity); the store is emptied past ``limit`` entries."""
    hit = store.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    if len(store) >= limit:
        store.clear()
    value = build()
    store[id(obj)] = (obj, value)
    return value
