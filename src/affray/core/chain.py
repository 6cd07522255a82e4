"""The hash chain over a log of record (docs/table.md, 'The security model').

Each record's chain value is ``SHA-256(previous chain + canonical JSON)``, starting from the seed commitment, so the
head (the last value) pins the whole history of one table: a seat that kept the head it saw can later show that a
history was rewritten, because a log that extends the one it saw must pass through that head. Every seat reads the
head, so what it hashes must be what every seat may read:

- **log format 4** (a table with a salt secret, :func:`sealed_link`): the record's *public form*, as the
  least-privileged seat (the spectator) reads it when it is made (:func:`public_form`): ``seq``, ``kind``, ``seat``,
  ``actor``, the action redacted (:func:`public_action`: a face-down commit as its seals, a GM ruling without the
  changes only the GM may see; a hidden combatant's record, :mod:`affray.core.hidden`, as "the GM acts": seat ``gm``,
  no actor, action ``{"type": "concealed"}``), and ``digest``: SHA-256 of the record's salt followed by the canonical
  JSON of its whole inputs. The salt is HMAC-SHA256(chain key, "chain:SEQ"), its first 16 bytes, the chain key being
  derived from the table's salt secret (:func:`affray.core.rng.chain_key`) and revealed at the end. Before the end,
  hashing candidate cards (or rulings) against the head finds nothing; after it, the chain key re-derives every salt,
  so ``affray verify`` (and ``--head``) check the whole log: the digests pin the records' full inputs.
- **formats 1-3** (:func:`link`): the canonical JSON of the record's inputs, as sent (a face-down card included: a
  table stored before format 4 keeps that chain, and its logs are still verified by it).

The inputs are ``{"seq", "kind", "seat", "actor", "action"}``, never the derived events (the public form reads the
events only to redact the action as a seat's log does, :mod:`affray.core.seatlog`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import cast

from affray.core.adjust import Ruled
from affray.core.engine import GM
from affray.core.events import Committed
from affray.core.hidden import CONCEALED, Concealed
from affray.core.json import Json, JsonObject, as_list
from affray.core.records import RULING, Record
from affray.core.seatlog import commit_form, ruling_without

RECORD_KEYS = ("seq", "kind", "seat", "actor", "action")


def _json(data: object) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def canonical(record: Mapping[str, object]) -> bytes:
    """The canonical JSON bytes of a record's inputs (a missing ``kind`` is an action, as in log version 1)."""
    data = {key: record.get(key) for key in RECORD_KEYS}
    data["kind"] = data["kind"] or "action"
    return _json(data)


def link(previous: str, record: Mapping[str, object]) -> str:
    """The chain value of ``record`` after the value ``previous`` (hex), as log formats 1-3 chain it."""
    return hashlib.sha256(previous.encode() + canonical(record)).hexdigest()


def record_salt(key: bytes, seq: int) -> bytes:
    """The salt of record ``seq`` under the chain key ``key``: HMAC-SHA256(key, "chain:SEQ"), 16 bytes."""
    return hmac.digest(key, f"chain:{seq}".encode(), "sha256")[:16]


def record_digest(record: Mapping[str, object], key: bytes) -> str:
    """The salted digest of the record's whole inputs (hex): SHA-256(its salt + :func:`canonical`)."""
    seq = record.get("seq")
    return hashlib.sha256(record_salt(key, seq if isinstance(seq, int) else -1) + canonical(record)).hexdigest()


def public_action(record: Mapping[str, object]) -> Json:
    """The record's action as the least-privileged seat reads it when the record is made (the spectator, nothing yet
    revealed), from the record with its events (``Record.to_dict`` form, or a log's): a record that commits face-down
    choices shows its seals (:func:`~affray.core.seatlog.commit_form`), a GM ruling with private changes shows the
    ruling without them (:func:`~affray.core.seatlog.ruling_without`), anything else its action."""
    events = [e for e in as_list(record.get("events") or []) if isinstance(e, dict)]
    seals = [(str(e.get("seal")), str(e.get("digest"))) for e in events if e.get("type") == "committed"]
    if seals:
        return commit_form(seals)
    action = record.get("action")
    if not isinstance(action, dict):
        return None
    if record.get("kind") == RULING:
        unseen = [
            change
            for e in events
            if e.get("type") == "ruled" and e.get("private")
            for change in as_list(e.get("changes") or [])
            if isinstance(change, dict)
        ]
        if unseen:
            return ruling_without(action, unseen)
    return action


def public_form(record: Mapping[str, object], key: bytes) -> JsonObject:
    """What format 4 chains of ``record``: its inputs with the action as :func:`public_action` gives it, and the
    salted digest of its whole inputs (:func:`record_digest`)."""
    data: JsonObject = {name: cast(Json, record.get(name)) for name in RECORD_KEYS}
    data["kind"] = data["kind"] or "action"
    data["action"] = public_action(record)
    events = record.get("events") or []
    if isinstance(events, list) and any(isinstance(e, dict) and e.get("type") == CONCEALED for e in events):
        # a hidden combatant's record (core/hidden.py): as the spectator reads it, "The GM acts."
        data.update(seat=GM, actor="", action={"type": CONCEALED})
    data["digest"] = record_digest(record, key)
    return data


def sealed_link(previous: str, record: Mapping[str, object], key: bytes) -> str:
    """The format-4 chain value of ``record`` (with its events) after ``previous``: SHA-256(previous +
    canonical JSON of :func:`public_form`)."""
    return hashlib.sha256(previous.encode() + _json(public_form(record, key))).hexdigest()


def link_record(previous: str, record: Mapping[str, object], key: bytes | None) -> str:
    """The chain value of ``record`` after ``previous``: format 4 (:func:`sealed_link`) under the chain key ``key``,
    formats 1-3 (:func:`link`) when there is none (a table stored before format 4)."""
    return link(previous, record) if key is None else sealed_link(previous, record, key)


def chain_value(previous: str, record: Record, key: bytes | None) -> str:
    """:func:`link_record` of one of the match's records (what a table appends to its chain). Of its events only
    those :func:`public_action` reads are converted (commits and rulings: the rest would cost 20 us a record)."""
    data = record.to_dict(events=False)
    if key is not None:
        data["events"] = [e.to_dict() for e in record.events if isinstance(e, Committed | Ruled | Concealed)]
    return link_record(previous, data, key)


def chain_of(start: str, records: Iterable[Mapping[str, object]], key: bytes | None = None) -> list[str]:
    """The chain value after each record, starting from ``start`` (the seed commitment); ``key``: format 4's chain
    key (the records then carry their events)."""
    out, head = [], start
    for record in records:
        head = link_record(head, record, key)
        out.append(head)
    return out


def chain_problems(
    data: Mapping[str, object],
    records: Sequence[Mapping[str, object]],
    head: str | None = None,
    key: bytes | None = None,
) -> list[str]:
    """What is wrong with a log's chain: a record whose ``chain`` differs from the recomputed value, a ``chain``
    (head) field that is not the last value, or a ``head`` the caller kept that the log does not pass through.
    ``key``: the chain key of a format-4 log (by default the one it reveals at the end, ``chain_key``, if any)."""
    if key is None and isinstance(data.get("chain_key"), str):
        key = bytes.fromhex(str(data["chain_key"]))
    values = chain_of(str(data.get("commitment", "")), records, key)
    problems = []
    for record, value in zip(records, values, strict=True):
        stored = record.get("chain")
        if stored is not None and stored != value:
            problems.append(f"record #{record.get('seq')} has chain {stored} but its contents give {value}")
            break
    final = values[-1] if values else str(data.get("commitment", ""))
    if data.get("chain") is not None and data["chain"] != final:
        problems.append(f"the log's chain head is {data['chain']} but its records give {final}")
    if head is not None and head not in (str(data.get("commitment", "")), *values):
        problems.append(f"the log does not extend the history with head {head}: it was rewritten or is another table's")
    return problems
