"""Seat tokens: random secrets of 192 bits handed out once, kept only as their SHA-256 (docs/table.md, security)."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 24  # 192 bits (docs/table.md, 'The security model'); at least 128 make guessing hopeless


def new_token() -> str:
    """A fresh url-safe seat token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """The SHA-256 hex of a token: the only form the store keeps."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
