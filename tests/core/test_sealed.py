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
anything = st.recursive(
    atoms | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


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


def _found_seed(commitment: str, tries: int = 1000) -> bytes:
    """The attack on a public seed: integers tried until one's seed hashes to the commitment every seat reads."""
    from affray.core.rng import commitment_of, seed_from_int

    return next(seed_from_int(n) for n in range(tries) if commitment_of(seed_from_int(n)) == commitment)


def _bids_found(digest: str, seed: bytes) -> list[int]:
    """Each bid whose seal, salted as the seed's own salt stream salts the first seal (log format 3), gives
    ``digest``: what hashing the candidates finds before the reveal."""
    from affray.core.rng import derive_salt
    from affray.core.sealed import digest_of

    return [value for value in (1, 2, 3) if digest_of({"value": value}, derive_salt(seed, 0)) == digest]


def test_x5_a_public_seed_gives_no_seals_salt_when_the_match_salts_from_a_secret_of_its_own() -> None:
    """X-5, DESIGN.md contract 6. A match on the public seed 7: the seed is found from the
    commitment by trying integers, and with log format 3's salts (the seed's own salt stream) hashing the three
    possible bids against a's seal finds a's bid before b bids. Salted from the seal key of a salt secret of the
    match's own (format 4), nothing is found; after the end the seal key, revealed, opens the seal."""
    from affray.core.match import Match
    from affray.core.rng import derive_salt, new_salt_secret, seal_key, seed_from_int
    from affray.core.sealed import digest_of
    from tests.core.toy import ToyRuleset

    for key, found in ((None, [2]), (seal_key(new_salt_secret()), [])):
        match = Match(ToyRuleset(), {}, {}, seed=seed_from_int(7), seal_key=key)
        assert match.act("a", {"type": "bid", "value": 2}).ok
        digest = match.state.bids["a"].digest
        seed = _found_seed(match.commitment)
        assert seed == seed_from_int(7)
        assert _bids_found(digest, seed) == found
        if key is not None:
            assert digest_of({"value": 2}, derive_salt(key, 0)) == digest
