"""Sealed commits: a hidden choice that others can see was made, but not what, until it is revealed.

A commit is ``SHA-256(salt || canonical JSON of the payload)``. The salt comes from the match RNG's salt stream
(:meth:`~affray.core.rng.RNG.salt`, apart from the dice), so on a live table (verifiable RNG) it is derived from the
secret seed: nobody can guess a small payload (a card name) by hashing candidates, and after the match, when the
seed is published, anyone can check every commit. A quiet step (:mod:`affray.core.journal`) keeps the payload
without salt or digest: nobody will ever check a simulated fight's seals, and no die moves either way.
:meth:`Sealed.reveal` re-checks the digest, so a payload changed after the commit is caught.
Rule: X-5 (model simultaneity as commit, then reveal); DESIGN.md contract 6.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii as _quote  # what json.dumps uses for str with ensure_ascii
from typing import Any

from affray.core.json import JsonObject
from affray.core.rng import RNG


class SealBroken(RuntimeError):
    """A revealed payload does not match its commitment (the state was tampered with)."""


# How json.dumps writes each atom (ensure_ascii strings; ints by int.__repr__, as json does for every int).
_ATOMS: dict[type, Callable[[Any], str]] = {
    str: _quote,
    int: int.__repr__,
    bool: lambda v: "true" if v else "false",
    type(None): lambda v: "null",
}


def canonical(payload: object) -> bytes:
    """The canonical JSON bytes of a payload: sorted keys, no whitespace, ASCII.

    A flat object of strings, integers, booleans and nulls (every card commit) is written directly, byte for
    byte what :func:`json.dumps` writes, without its per-call set-up; anything else goes through
    :func:`json.dumps`.
    """
    if type(payload) is dict:
        try:
            body = ",".join([f"{_quote(k)}:{_ATOMS[type(v)](v)}" for k, v in sorted(payload.items())])
        except (KeyError, TypeError):  # a nested value, a float, or a key that is not a string
            pass
        else:
            return b"{" + body.encode() + b"}"
    return json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()


def digest_of(payload: object, salt: bytes) -> str:
    return hashlib.sha256(salt + canonical(payload)).hexdigest()


def make_salt(rng: RNG) -> bytes:
    """16 bytes from the match RNG's salt stream."""
    return rng.salt()


@dataclass(slots=True)
class Sealed:
    """A committed payload held by the engine. Views show :meth:`public` to others, never the payload."""

    actor: str
    seal: str
    payload: Any
    salt: bytes
    digest: str

    @classmethod
    def commit(cls, actor: str, seal: str, payload: object, rng: RNG, *, loud: bool = True) -> Sealed:
        """Seal ``payload``; ``loud=False`` (a quiet journal) keeps it unsalted and undigested (see above)."""
        if not loud:
            return cls(actor, seal, payload, b"", "")
        salt = make_salt(rng)
        return cls(actor, seal, payload, salt, digest_of(payload, salt))

    def reveal(self) -> Any:
        """Return the payload after checking it against the digest; raise :class:`SealBroken` if changed.
        A quiet seal (no digest) has nothing to check."""
        if self.digest and digest_of(self.payload, self.salt) != self.digest:
            raise SealBroken(f"commit {self.seal} by {self.actor} does not match its hash")
        return self.payload

    def public(self) -> JsonObject:
        return {"committed": True, "seal": self.seal, "digest": self.digest}

    def to_dict(self) -> JsonObject:
        return {
            "actor": self.actor,
            "seal": self.seal,
            "payload": self.payload,
            "salt": self.salt.hex(),
            "digest": self.digest,
        }
