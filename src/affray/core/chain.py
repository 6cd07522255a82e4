"""The hash chain over a log of record (docs/table.md, 'The security model').

Each record's chain value is ``SHA-256(previous chain + canonical JSON of the record)``, starting from the seed
commitment, so the head (the last value) pins the whole history of one table: a seat that kept the head it saw can
later show that a history was rewritten, because a log that extends the one it saw must pass through that head.
The record is canonical JSON (sorted keys, no spaces) of ``{"seq", "kind", "seat", "actor", "action"}``: the
inputs, never the derived events.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

RECORD_KEYS = ("seq", "kind", "seat", "actor", "action")


def canonical(record: Mapping[str, Any]) -> bytes:
    """The canonical JSON bytes of a record's inputs (a missing ``kind`` is an action, as in log version 1)."""
    data = {key: record.get(key) for key in RECORD_KEYS}
    data["kind"] = data["kind"] or "action"
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def link(previous: str, record: Mapping[str, Any]) -> str:
    """The chain value of ``record`` after the value ``previous`` (hex)."""
    return hashlib.sha256(previous.encode() + canonical(record)).hexdigest()


def chain_of(start: str, records: Iterable[Mapping[str, Any]]) -> list[str]:
    """The chain value after each record, starting from ``start`` (the seed commitment)."""
    out, head = [], start
    for record in records:
        head = link(head, record)
        out.append(head)
    return out


def chain_problems(data: Mapping[str, Any], records: Sequence[Mapping[str, Any]], head: str | None = None) -> list[str]:
    """What is wrong with a log's chain: a record whose ``chain`` differs from the recomputed value, a ``chain``
    (head) field that is not the last value, or a ``head`` the caller kept that the log does not pass through."""
    values = chain_of(str(data.get("commitment", "")), records)
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
