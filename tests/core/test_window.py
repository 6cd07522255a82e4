"""Window.without: the same value as the frozen dataclass's own constructor makes, shared between matches (it is
memoised: core/engine.py)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from affray.core.engine import Window


def test_without_makes_the_window_the_constructor_makes() -> None:
    """Equal, with the same hash and fields, still frozen, copied and pickled like any window; asked again, the same
    object (a window is an immutable value)."""
    window = Window("planning", ("bruna", "knight", "gm"), "Place two Action cards", "v2.planning")
    narrowed = window.without("knight")
    made = Window("planning", ("bruna", "gm"), "Place two Action cards", "v2.planning")
    assert narrowed == made and hash(narrowed) == hash(made)
    assert dataclasses.astuple(narrowed) == dataclasses.astuple(made)
    assert copy.deepcopy(narrowed) == made and pickle.loads(pickle.dumps(narrowed)) == made
    assert window.without("nobody") == window and window.actors == ("bruna", "knight", "gm")
    assert window.without("knight") is narrowed
    with pytest.raises(dataclasses.FrozenInstanceError):
        narrowed.phase = "psych"  # type: ignore[misc]
