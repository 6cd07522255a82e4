"""Dice and RNG. Rule: X-1 (one seeded RNG service, dN for any N), DESIGN.md contract 5."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from affray.core.rng import (
    DiceExhausted,
    FastRNG,
    ScriptedRNG,
    VerifiableRNG,
    commitment_of,
    derive_die,
    seed_from_int,
)

SEED = bytes(range(32))


def test_x1_verifiable_draw_depends_only_on_seed_and_index() -> None:
    """X-1: draw i is a function of (seed, i, sides): two generators agree, and skipping ahead agrees."""
    a, b = VerifiableRNG(SEED), VerifiableRNG(SEED)
    seq_a = [a.die(13) for _ in range(50)]
    assert seq_a == [b.die(13) for _ in range(50)]
    late = VerifiableRNG(SEED, index=20)
    assert late.die(13) == seq_a[20]
    assert [derive_die(SEED, i, 13) for i in range(50)] == seq_a
    assert a.index == 50


def test_commitment_is_sha256_of_seed() -> None:
    assert VerifiableRNG(SEED).commitment == hashlib.sha256(SEED).hexdigest() == commitment_of(SEED)
    assert seed_from_int(7) == seed_from_int(7) != seed_from_int(8)


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 10, 11, 13, 20, 100])
def test_x1_every_die_size_stays_in_range(sides: int) -> None:
    rng = VerifiableRNG(SEED)
    values = {rng.die(sides) for _ in range(400)}
    assert min(values) >= 1 and max(values) <= sides
    assert len(values) == sides if sides <= 20 else len(values) > 90


def _chi_square(counts: Counter[int], sides: int, n: int) -> float:
    expected = n / sides
    return sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))


@pytest.mark.parametrize("rng_kind", ["verifiable", "fast"])
def test_x1_d13_is_uniform_chi_square(rng_kind: str) -> None:
    """X-1: d13 uniform. 26,000 draws; chi-square with 12 degrees of freedom must stay below 32.9
    (the 0.1% critical value), so a correct generator fails this about once in a thousand seeds; the
    seeds here are fixed, so the test is deterministic."""
    rng = VerifiableRNG(SEED) if rng_kind == "verifiable" else FastRNG(12345)
    n = 26_000
    counts = Counter(rng.die(13) for _ in range(n))
    assert _chi_square(counts, 13, n) < 32.9


def test_rejection_sampling_has_no_modulo_bias() -> None:
    """Unbiased mapping: for a die whose size does not divide 2^64, the rejection limit is a multiple of it."""
    space = 1 << 64
    for sides in (3, 11, 13, 20, 1_000_003):
        limit = space - space % sides
        assert limit % sides == 0 and space - limit < sides


def test_scripted_rng_returns_given_faces_and_refuses_bad_ones() -> None:
    rng = ScriptedRNG([3, 13])
    assert rng.die(6) == 3 and rng.die(13) == 13 and rng.remaining == 0
    with pytest.raises(DiceExhausted):
        rng.die(6)
    with pytest.raises(ValueError, match="not a face of a d6"):
        ScriptedRNG([7]).die(6)


def test_fast_rng_counts_draws() -> None:
    rng = FastRNG(1)
    for _ in range(5):
        assert 1 <= rng.die(20) <= 20
    assert rng.index == 5


def test_fast_rng_draws_what_random_randrange_draws() -> None:
    """FastRNG draws its dice as ``random.Random(seed).randrange(sides) + 1`` (the unbiased core it inlines): the same
    seeds give the same fights on every version of the engine, whatever die sizes come in whatever order."""
    import random

    sizes = [1, 2, 3, 4, 6, 8, 10, 12, 20, 100, 7, 5, 2**40 + 3, 1 << 64]
    for seed in (0, 1, 12345, 2**63 + 5):
        ours, theirs = FastRNG(seed), random.Random(seed)
        for i in range(2_000):
            sides = sizes[i % len(sizes)]
            assert ours.die(sides) == theirs.randrange(sides) + 1
