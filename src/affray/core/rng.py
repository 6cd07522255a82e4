"""Randomness as data: one interface, two generators.

Rules never import :mod:`random`; they receive an object satisfying :class:`RNG` and ask it for dice.
Every draw has an index, so a roll in the log of record can be tied back to the generator that made it.

- :class:`VerifiableRNG` is for live tables. Draw ``i`` is derived from a secret seed and ``i`` alone
  (HMAC-SHA256), mapped to ``1..N`` without bias by rejection sampling. The seed's SHA-256 is published
  when the match starts (the *commitment*) and the seed when it ends, so anyone can re-derive every roll.
  Because a die depends only on its draw index, replaying the same actions gives the same dice: undo
  cannot be used to fish for a better roll.
- :class:`FastRNG` is for simulation: a seeded Mersenne Twister, about ten times faster per draw.

Sealed commits are salted from a **stream of their own** (:meth:`RNG.salt`), apart from the dice: a quiet simulated
fight, which computes no seal, draws exactly the dice of a loud one. Where that stream comes from:

- log format 4 (:data:`SECRET_SALTS`, a live table's): from the *seal key*, derived from a **salt secret** of the
  match's own (32 random bytes beside the seed, :func:`new_salt_secret`), so a seal cannot be opened by anyone who
  knows or guesses the seed (a public ``--seed 7`` is found from its commitment in a fraction of a second). The same
  secret gives the hash chain's record salts (:func:`chain_key`) and each pair of seats' whispered free rolls
  (:func:`whisper_key`). At the end the seal and chain keys are revealed, never the salt secret itself, so a third
  seat still cannot derive a whisper's dice;
- format 3 (:data:`OWN_SALTS`): from the seed itself (a library match given no salt secret);
- formats 1 and 2 (:data:`LEGACY_SALTS`): two 64-bit dice from the dice stream, still verified that way.

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
#: Salts from the seal key of a salt secret (log format 4), from the seed's own salt stream (format 3) or, as logs of
#: formats 1 and 2 did, two dice from the dice stream.
SECRET_SALTS = "secret"
OWN_SALTS = "own"
LEGACY_SALTS = "dice"
SALT_SCHEMES = (SECRET_SALTS, OWN_SALTS, LEGACY_SALTS)


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


def new_salt_secret() -> bytes:
    """A fresh unpredictable 32-byte salt secret (see the module docstring): never derived from the seed."""
    return secrets.token_bytes(32)


def _subkey(salt_secret: bytes, label: str) -> bytes:
    if len(salt_secret) < 16:
        raise ValueError("a salt secret needs at least 16 bytes")
    return hmac.digest(salt_secret, f"affray-{label}".encode(), "sha256")


def seal_key(salt_secret: bytes) -> bytes:
    """The key of the seals' salt stream: HMAC-SHA256(salt secret, "affray-seals"); revealed at the end."""
    return _subkey(salt_secret, "seals")


def chain_key(salt_secret: bytes) -> bytes:
    """The key of the hash chain's record salts (:mod:`affray.core.chain`): HMAC-SHA256(salt secret,
    "affray-chain"); revealed at the end."""
    return _subkey(salt_secret, "chain")


def whisper_key(salt_secret: bytes, one: str, other: str) -> bytes:
    """The key of the free rolls whispered between seats ``one`` and ``other`` (either way round):
    HMAC-SHA256(salt secret, "affray-whisper:A|B"), A and B in sorted order. Given to those two seats only (in their
    logs at the end): no other seat can derive it, the seed and the revealed keys notwithstanding."""
    first, second = sorted((one, other))
    return _subkey(salt_secret, f"whisper:{first}|{second}")


def commitment_of(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, hex-encoded."""
    return hashlib.sha256(seed).hexdigest()


FREE_STREAM = "free:"  # the table's free rolls (chat): their own stream, so they never change the fight's dice
WHISPER_STREAM = "whisper:"  # a whispered free roll's, under its pair's whisper_key instead of the seed


def derive_die(seed: bytes, index: int, sides: int, stream: str = "") -> int:
    """The value of draw ``index`` for a die of ``sides`` faces under ``seed``.

    Each attempt takes 64 bits of HMAC-SHA256(seed, "index:attempt"); values in the incomplete top
    block are rejected so every face is exactly equally likely. ``stream`` prefixes the message: the fight's dice
    have none, a table's free rolls :data:`FREE_STREAM` ("free:index:attempt"), a whispered free roll
    :data:`WHISPER_STREAM` (under its pair's :func:`whisper_key` as ``seed``).
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

    ``salts``: :data:`OWN_SALTS` (the default; :func:`derive_salt` under the seed), :data:`SECRET_SALTS` (under
    ``seal_key``, :func:`seal_key` of the match's salt secret: log format 4) or :data:`LEGACY_SALTS` to replay a log
    of format 1 or 2, whose salts were drawn from the dice stream. ``stream``: "" for a fight's dice,
    :data:`FREE_STREAM` for a table's free rolls (:func:`derive_die`).
    """

    __slots__ = ("index", "salt_index", "salts", "seal_key", "seed", "stream")

    def __init__(
        self, seed: bytes, index: int = 0, *, salts: str = OWN_SALTS, stream: str = "", seal_key: bytes | None = None
    ) -> None:
        if len(seed) < 16:
            raise ValueError("a verifiable seed needs at least 16 bytes")
        if salts not in SALT_SCHEMES:
            raise ValueError(f"salts must be one of {', '.join(SALT_SCHEMES)}, not {salts!r}")
        if (salts == SECRET_SALTS) != (seal_key is not None):
            raise ValueError("a seal key is given with salts=SECRET_SALTS, and only then")
        self.seed = seed
        self.index = index
        self.salt_index = 0
        self.salts = salts
        self.stream = stream
        self.seal_key = seal_key

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
        value = derive_salt(self.seal_key or self.seed, self.salt_index)
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
