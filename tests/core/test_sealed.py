"""Sealed commits: the canonical bytes they hash. Rule: X-5; DESIGN.md contract 6."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.core.rng import FastRNG
from affray.core.sealed import SealBroken, Sealed, canonical

atoms = st.one_of(st.text(max_size=6), st.integers(), st.booleans(), st.none())
anything = st.recursive(atoms | st.floats(allow_nan=False), lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)


@given(st.dictionaries(st.text(max_size=6), atoms, max_size=5) | anything)
def test_canonical_bytes_are_json_dumps_sorted_and_compact(payload: Any) -> None:
    """The direct writer for flat objects gives exactly json.dumps' bytes, so every digest stays the same."""
    assert canonical(payload) == json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()


def test_a_changed_payload_breaks_the_seal() -> None:
    sealed = Sealed.commit("a", "v1.a.slot1", {"card": "cleave", "slot": 1, "vignette": 1}, FastRNG(3))
    assert sealed.reveal() == {"card": "cleave", "slot": 1, "vignette": 1}
    sealed.payload["card"] = "lunge"
    with pytest.raises(SealBroken):
        sealed.reveal()
