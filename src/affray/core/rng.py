"""Randomness as data: one interface, two generators.

Rules never import :mod:`random`; they receive an object satisfying :class:`RNG` and ask it for dice.
Every draw has an index, so a roll in the log of record can be tied back to the generator that made it.

- :class:`VerifiableRNG` is for live tables. Draw ``i`` is derived from a secret seed and ``i`` alone
  (HMAC-SHA256), mapped to ``1..N`` without bias by rejection sampling. The seed's SHA-256 is published
  when the match starts (the *commitment*) and the seed when it ends, so anyone can re-derive every roll.
  Because a die depends only on its draw index, replaying the same actions gives the same dice: undo
  cannot be used to fish for a better roll.
- :class:`FastRNG` is for simulation: a seeded Mersenne Twister, about ten times faster per draw.

Sealed commits are salted from a **stream of their own** (:meth:`RNG.salt`), derived from the same seed but apart
from the dice (log format 3): a quiet simulated fight, which computes no seal, draws exactly the dice of a loud
one. Logs of format 3 on use it; logs of formats 1 and 2 drew each salt as two 64-bit dice from the dice stream
(``salts=LEGACY_SALTS``), and are still verified that way.

Rule: X-1 (one seeded RNG service with dN for any N).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Callable
from typing import Protocol

_SPACE = 1 << 64
#: Salts from their own stream (log format 3 on) or, as logs of formats 1 and 2 did, two dice from the dice stream.
OWN_SALTS = "own"
LEGACY_SALTS = "dice"
SALT_SCHEMES = (OWN_SALTS, LEGACY_SALTS)


class RNG(Protocol):
    """What the rules may ask of randomness: a die of any size, and the index of the next draw."""

    index: int

    def die(self, sides: int) -> int:
        """Return a uniform integer in ``1..sides`` and advance :attr:`index` by one."""
        ...

    def salt(self) -> bytes:
        """16 bytes to salt a sealed commit, from the salt stream (the dice do not move)."""
        ...


def seed_from_int(number: int) -> bytes:
    """The 32-byte secret seed used when a person asks for ``--seed N``.

    The seed is public once N is known, which is what a fixed seed is for (demos, tests, bug reports).
    """
    return hashlib.sha256(b"affray-seed:" + str(number).encode()).digest()


def new_secret_seed() -> bytes:
    """A fresh unpredictable 32-byte seed for a live match."""
    return secrets.token_bytes(32)


def commitment_of(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, hex-encoded."""
    return hashlib.sha256(seed).hexdigest()


FREE_STREAM = "free:"  # the table's free rolls (chat): their own stream, so they never change the fight's dice


def derive_die(seed: bytes, index: int, sides: int, stream: str = "") -> int:
    """The value of draw ``index`` for a die of ``sides`` faces under ``seed``.

    Each attempt takes 64 bits of HMAC-SHA256(seed, "index:attempt"); values in the incomplete top
    block are rejected so every face is exactly equally likely. ``stream`` prefixes the message: the fight's dice
    have none, a table's free rolls :data:`FREE_STREAM` ("free:index:attempt").
    """
    if sides < 1:
        raise ValueError(f"a die needs at least 1 side, got {sides}")
    limit = _SPACE - (_SPACE % sides)
    attempt = 0
    while True:
        mac = hmac.digest(seed, f"{stream}{index}:{attempt}".encode(), "sha256")
        value = int.from_bytes(mac[:8], "big")
        if value < limit:
            return value % sides + 1
        attempt += 1


def derive_salt(seed: bytes, index: int) -> bytes:
    """Salt ``index`` of the salt stream under ``seed``: 16 bytes of HMAC-SHA256(seed, "salt:index")."""
    return hmac.digest(seed, f"salt:{index}".encode(), "sha256")[:16]


def _dice_salt(rng: RNG) -> bytes:
    """A salt as logs of formats 1 and 2 drew it: two 64-bit dice from the dice stream."""
    return (rng.die(_SPACE) - 1).to_bytes(8, "big") + (rng.die(_SPACE) - 1).to_bytes(8, "big")


class VerifiableRNG:
    """Dice derived from a committed secret seed; see the module docstring.

    ``salts``: :data:`OWN_SALTS` (the default; :func:`derive_salt`) or :data:`LEGACY_SALTS` to replay a log of
    format 1 or 2, whose salts were drawn from the dice stream. ``stream``: "" for a fight's dice,
    :data:`FREE_STREAM` for a table's free rolls (:func:`derive_die`).
    """

    __slots__ = ("index", "salt_index", "salts", "seed", "stream")

    def __init__(self, seed: bytes, index: int = 0, *, salts: str = OWN_SALTS, stream: str = "") -> None:
        if len(seed) < 16:
            raise ValueError("a verifiable seed needs at least 16 bytes")
        if salts not in SALT_SCHEMES:
            raise ValueError(f"salts must be one of {', '.join(SALT_SCHEMES)}, not {salts!r}")
        self.seed = seed
        self.index = index
        self.salt_index = 0
        self.salts = salts
        self.stream = stream

    @property
    def commitment(self) -> str:
        return commitment_of(self.seed)

    def die(self, sides: int) -> int:
        value = derive_die(self.seed, self.index, sides, self.stream)
        self.index += 1
        return value

    def salt(self) -> bytes:
        if self.salts == LEGACY_SALTS:
            return _dice_salt(self)
        value = derive_salt(self.seed, self.salt_index)
        self.salt_index += 1
        return value


class FastRNG:
    """A seeded pseudo-random generator for simulation (not verifiable, not secret)."""

    __slots__ = ("_bits", "_salts", "_seed", "index")

    def __init__(self, seed: int) -> None:
        # The Mersenne Twister's raw bits, drawn as random.Random._randbelow draws them (see die). Seeding it takes
        # microseconds, so it is seeded at the first draw: a simulated fight's policies mostly never draw.
        self._bits: Callable[[int], int] | None = None
        self._seed = seed
        self._salts: random.Random | None = None  # made on the first salt: most fights seal nothing
        self.index = 0

    def die(self, sides: int) -> int:
        # random.Random._randbelow_with_getrandbits, inline (two calls less per die, the same draws; a test compares
        # the two): k bits, drawn again until below ``sides``. It is randrange's unbiased core without its checks.
        self.index += 1
        bits = self._bits
        if bits is None:
            bits = self._bits = random.Random(self._seed).getrandbits
        k = sides.bit_length()
        r = bits(k)
        while r >= sides:
            r = bits(k)
        return r + 1

    def salt(self) -> bytes:
        if self._salts is None:
            self._salts = random.Random(f"affray-salts:{self._seed}")
        return self._salts.getrandbits(128).to_bytes(16, "big")


#: A simulated fight on ``FastRNG(seed)`` gives its policies ``FastRNG(seed ^ POLICY_KEY)``.
POLICY_KEY = 0x5DEECE66D


def policy_rng(dice: RNG) -> FastRNG:
    """The generator a match's policies draw from: a stream of its own, derived from the match's seed so that
    its decisions are reproducible from that seed and differ between seeds, yet apart from the dice (a policy's
    draws never move them) and one-way (the stream reveals nothing of a secret seed: it is seeded by
    HMAC-SHA256(seed, "affray-policies")). Dice with no seed (scripted ones) give ``FastRNG(0)``."""
    if isinstance(dice, VerifiableRNG):
        return FastRNG(int.from_bytes(hmac.digest(dice.seed, b"affray-policies", "sha256")[:8], "big"))
    if isinstance(dice, FastRNG):
        return FastRNG(dice._seed ^ POLICY_KEY)
    return FastRNG(0)


class DiceExhausted(RuntimeError):
    """A :class:`ScriptedRNG` was asked for more dice than it was given."""


class ScriptedRNG:
    """Dice given in advance: physical dice typed in at a table, or the exact faces a test needs.

    Each ``die(sides)`` returns the next value, which must lie in ``1..sides``.
    """

    __slots__ = ("index", "salt_index", "values")

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.index = 0
        self.salt_index = 0

    def die(self, sides: int) -> int:
        if self.index >= len(self.values):
            raise DiceExhausted(f"draw {self.index} (a d{sides}) was not scripted")
        value = self.values[self.index]
        if not 1 <= value <= sides:
            raise ValueError(f"scripted draw {self.index} is {value}, not a face of a d{sides}")
        self.index += 1
        return value

    def salt(self) -> bytes:
        """A fixed salt per call (the scripted dice do not move): ``SHA-256("affray-scripted-salt:n")``."""
        self.salt_index += 1
        return hashlib.sha256(f"affray-scripted-salt:{self.salt_index}".encode()).digest()[:16]

    @property
    def remaining(self) -> int:
        return len(self.values) - self.index
