"""One memo keyed by the identity of an object: a setup's never-mutated card table, or a match's state.

What is derived from a setup that nothing changes after ``prepare`` (compiled cards, legal-action lists,
view parts) can be built once for every match sharing it; what a match derives from its own state can be
kept for the life of that state. The entry keeps the object alive, so its id cannot be reused.
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
