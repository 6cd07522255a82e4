"""Rebuilding a live table from the store: replay its records on its setup and seed, and check the replay against
the stored commitment and chain (DESIGN.md contract 4); bringing a live table back in line with the store (a lost
race, records or a re-keyed seat from another process). Also the conversions between the match's records and the
store's. The functions that bring a table in line are called under ``table.lock`` and may raise StoreError."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from affray.ai.runner import policies_for
from affray.core.engine import get_ruleset
from affray.core.match import Match
from affray.core.records import Record, ReplayError
from affray.core.rng import LEGACY_SALTS, commitment_of
from affray.store import ChatLine, RecordKind, Store, TableRow
from affray.store import Record as StoredRecord
from affray.store import Seat as StoredSeat
from affray.table.live import SeatInfo, Table

log = logging.getLogger(__name__)


class TableDamaged(RuntimeError):
    """The stored table does not replay to what was stored (commitment, chain or an action refused)."""


def to_store(record: Record, chain: str, submission_id: str | None) -> StoredRecord:
    """A match record as the store keeps it (an undo's payload is ``{"to": N}``)."""
    payload: Any = {"to": record.action["to"]} if record.kind == "undo" else record.action
    kind: RecordKind = "undo" if record.kind == "undo" else "gm" if record.kind == "gm" else "action"
    return StoredRecord(seq=record.seq, kind=kind, seat=record.seat, actor=record.actor or None, payload=payload,
                        chain=chain, submission_id=submission_id, chosen_at=record.chosen_at)


def from_store(record: StoredRecord) -> dict[str, Any]:
    """A stored record in the match's ``Record.to_dict`` form (what ``Match.restore`` and the chain read), with
    ``chosen_at`` where the store kept one."""
    action = {"type": "undo", "to": record.payload["to"]} if record.kind == "undo" else record.payload
    out = {"seq": record.seq, "kind": record.kind, "seat": record.seat or "", "actor": record.actor or "",
           "action": action}
    if record.chosen_at is not None:
        out["chosen_at"] = record.chosen_at
    return out


def build_table(row: TableRow, seats: Sequence[StoredSeat], records: Sequence[StoredRecord],
                chat: Sequence[ChatLine] = ()) -> Table:
    """The live table for a stored one, replayed and checked, with its chat; :class:`TableDamaged` if the check
    fails."""
    try:
        seed = bytes.fromhex(row.seed_hex)
    except ValueError:
        raise TableDamaged(f"table {row.id}: the stored seed is not hexadecimal") from None
    if commitment_of(seed) != row.commitment:
        raise TableDamaged(f"table {row.id}: the stored seed does not match its commitment")
    config = dict(row.config)
    try:
        match = Match.restore(get_ruleset(row.ruleset), row.setup, row.options, seed=seed,
                              records=[from_store(r) for r in records], seats=config.get("seats"),
                              controllers=config.get("controllers"), salts=config.get("salts", LEGACY_SALTS))
    except (ReplayError, KeyError, ValueError) as exc:
        raise TableDamaged(f"table {row.id}: the stored log does not replay: {exc}") from None
    if match.commitment != row.commitment:
        raise TableDamaged(f"table {row.id}: the replay's commitment differs from the stored one")
    table = Table(id=row.id, title=row.title, scenario=row.scenario, match=match, seed_hex=row.seed_hex,
                  seats={s.seat: SeatInfo(s.seat, s.role, s.actors, s.controller, s.token_hash) for s in seats},
                  policies=policies_for(match), config=config)
    for stored in records:
        if table.extend_chain() != stored.chain:
            raise TableDamaged(f"table {row.id}: record #{stored.seq} does not match its stored chain value")
        if stored.submission_id:
            table.by_submission[stored.submission_id] = stored.seq
    table.ended = row.outcome if row.ended_at is not None and match.outcome() is None else None
    table.stored_end = row.ended_at is not None
    table.chat = list(chat)
    return table


def reload(store: Store, table: Table) -> None:
    """Bring ``table`` back to exactly what the store holds (after a lost race or a failed write)."""
    row = store.table(table.id)
    if row is None:
        return
    fresh = build_table(row, store.seats(table.id), store.records(table.id), store.chat(table.id))
    table.match, table.chains, table.by_submission, table.chat = (fresh.match, fresh.chains, fresh.by_submission,
                                                                  fresh.chat)
    table.config, table.seats, table.ended, table.stored_end = fresh.config, fresh.seats, fresh.ended, \
        fresh.stored_end
    table.policies = fresh.policies


def catch_up(store: Store, table: Table) -> None:
    """Apply the records other processes appended since the table's version (reloading it if one does not match its
    stored chain)."""
    for stored in store.records(table.id, since_seq=table.version):
        table.match.apply_record(from_store(stored))
        if table.extend_chain() != stored.chain:
            log.error("table %s: record #%s does not match its stored chain; reloading", table.id, stored.seq)
            reload(store, table)
            return
        if stored.submission_id:
            table.by_submission[stored.submission_id] = stored.seq


def refresh_seats(store: Store, table: Table) -> None:
    """Read the seats' token hashes again (a GM may have replaced one, here or in another process)."""
    for s in store.seats(table.id):
        current = table.seats.get(s.seat)
        if current is not None:
            current.token_hash = s.token_hash


def refresh_from_row(store: Store, table: Table) -> None:
    """Another process may have paused, ended or re-keyed the table, or added chat lines: read its row, seats and
    new chat lines again."""
    row = store.table(table.id)
    if row is None:
        return
    table.chat.extend(store.chat(table.id, since_n=len(table.chat)))  # lines other processes added
    table.config = dict(row.config)
    if row.ended_at is not None:
        table.stored_end = True
        if table.match.outcome() is None:
            table.ended = row.outcome
    refresh_seats(store, table)
