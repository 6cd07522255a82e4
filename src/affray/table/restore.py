"""Rebuilding a live table from the store: replay its records on its setup and seed, and check the replay against
the stored commitment and chain (DESIGN.md contract 4), from the table's newest snapshot on when it has one that
checks out (:mod:`affray.table.snapshot`); bringing a live table back in line with the store (a lost
race, records or a re-keyed seat from another process). Also the conversions between the match's records and the
store's. The functions that bring a table in line are called under ``table.lock`` and may raise StoreError.

A table made under another version of its ruleset's rules than this affray runs (``TableRow.rules_version``; "1" for
a table stored before versions were recorded) is not replayed at all: this affray holds only its own rules, and a
replay under others would make another fight or stop half-way. It is refused with :class:`RulesChanged`, a 409 whose
sentence names both versions, and nothing of it is changed: an affray that runs its rules serves it again."""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence

from affray.ai.runner import policies_for
from affray.core.json import JsonObject, as_names, as_str
from affray.core.match import Match
from affray.core.plugin import plugin
from affray.core.records import Record, ReplayError
from affray.core.rng import LEGACY_SALTS, commitment_of, seal_key
from affray.store import ChatLine, RecordKind, Snapshot, Store, TableRow
from affray.store import Record as StoredRecord
from affray.store import Seat as StoredSeat
from affray.table import budget
from affray.table.errors import CONFLICT, Refusal
from affray.table.seats import SeatInfo
from affray.table.snapshot import SnapshotRefused, load
from affray.table.state import Table

log = logging.getLogger(__name__)


class TableDamaged(RuntimeError):
    """The stored table does not replay to what was stored (commitment, chain or an action refused)."""


class RulesChanged(Refusal):
    """The stored table was made under another version of its ruleset's rules than this affray runs: 409
    ``rules_changed`` with the sentence naming both (see the module docstring)."""

    def __init__(self, message: str) -> None:
        super().__init__("rules_changed", message, CONFLICT)


def to_store(record: Record, chain: str, submission_id: str | None) -> StoredRecord:
    """A match record as the store keeps it (an undo's payload is ``{"to": N}``)."""
    payload: JsonObject = {"to": record.action["to"]} if record.kind == "undo" else record.action
    kind: RecordKind = "undo" if record.kind == "undo" else "gm" if record.kind == "gm" else "action"
    return StoredRecord(
        seq=record.seq,
        kind=kind,
        seat=record.seat,
        actor=record.actor or None,
        payload=payload,
        chain=chain,
        submission_id=submission_id,
        chosen_at=record.chosen_at,
    )


def from_store(record: StoredRecord) -> JsonObject:
    """A stored record in the match's ``Record.to_dict`` form (what ``Match.restore`` and the chain read), with
    ``chosen_at`` where the store kept one."""
    action = {"type": "undo", "to": record.payload["to"]} if record.kind == "undo" else record.payload
    out: JsonObject = {
        "seq": record.seq,
        "kind": record.kind,
        "seat": record.seat or "",
        "actor": record.actor or "",
        "action": action,
    }
    if record.chosen_at is not None:
        out["chosen_at"] = record.chosen_at
    return out


def build_table(
    row: TableRow,
    seats: Sequence[StoredSeat],
    records: Sequence[StoredRecord],
    chat: Sequence[ChatLine] = (),
    snapshot: Snapshot | None = None,
    shared: dict[Hashable, object] | None = None,
) -> Table:
    """The live table for a stored one, checked, with its chat; :class:`TableDamaged` if the check fails. From its
    ``snapshot`` and the records after it when the snapshot checks out (:mod:`affray.table.snapshot`), else replayed
    from the start. ``shared``: the memo's setup-only store of the tables of this setup and options. A table of other
    rules: :class:`RulesChanged`, before anything replays."""
    try:
        refusal = row.rules_refusal()
    except KeyError as exc:
        raise TableDamaged(f"table {row.id}: {exc.args[0]}") from None
    if refusal is not None:
        log.warning("table %s: %s", row.id, refusal)
        raise RulesChanged(refusal[:1].upper() + refusal[1:] + ".")
    try:
        seed = bytes.fromhex(row.seed_hex)
    except ValueError:
        raise TableDamaged(f"table {row.id}: the stored seed is not hexadecimal") from None
    if commitment_of(seed) != row.commitment:
        raise TableDamaged(f"table {row.id}: the stored seed does not match its commitment")
    config = dict(row.config)
    entries = [from_store(r) for r in records]
    try:
        match, resumed = _from_snapshot(row, config, seed, entries, records, snapshot, shared)
        for entry in entries[match.version :]:
            match.apply_record(entry)
    except (ReplayError, KeyError, ValueError) as exc:
        raise TableDamaged(f"table {row.id}: the stored log does not replay: {exc}") from None
    if match.commitment != row.commitment:
        raise TableDamaged(f"table {row.id}: the replay's commitment differs from the stored one")
    table = Table(
        id=row.id,
        title=row.title,
        scenario=row.scenario,
        match=match,
        seed_hex=row.seed_hex,
        seats={s.seat: SeatInfo(s.seat, s.role, s.actors, s.controller, s.token_hash) for s in seats},
        policies=policies_for(match),
        config=config,
        salt_hex=row.salt_hex or "",
    )
    # The whole chain is checked either way (two hashes per record: 1,000 records take some 25 ms), so a snapshot never
    # vouches for records the store holds.
    for stored in records:
        if table.extend_chain() != stored.chain:
            raise TableDamaged(f"table {row.id}: record #{stored.seq} does not match its stored chain value")
        if stored.submission_id:
            table.by_submission[stored.submission_id] = stored.seq
    table.ended = row.outcome if row.ended_at is not None and match.outcome() is None else None
    table.stored_end = row.ended_at is not None
    table.chat = list(chat)
    # A snapshot set aside counts as none: the table writes a good one at its next chance (its next records, its
    # eviction), in its place.
    table.snapshot_seq = snapshot.seq if resumed and snapshot is not None else 0
    budget.meter(table)  # its policies' moves charged to whoever opened it (or loads it now: table/budget.py)
    return table


def _from_snapshot(
    row: TableRow,
    config: JsonObject,
    seed: bytes,
    entries: list[JsonObject],
    records: Sequence[StoredRecord],
    snapshot: Snapshot | None,
    shared: dict[Hashable, object] | None,
) -> tuple[Match, bool]:
    """A fresh match of the stored table, put at its snapshot when that checks out (True), else at its setup (False:
    the caller replays every record)."""
    # A table stored with a salt secret salts its seals from its seal key (log format 4); one stored before, as
    # its config says (the seed's salt stream, or the dice stream before that).
    key = seal_key(bytes.fromhex(row.salt_hex)) if row.salt_hex else None

    def fresh() -> Match:
        return Match(
            plugin(row.ruleset),
            row.setup,
            row.options,
            seed=seed,
            seats=as_names(config.get("seats")),
            controllers=as_names(config.get("controllers")),
            salts=as_str(config.get("salts", LEGACY_SALTS)),
            shared=shared,
            seal_key=key,
        )

    match = fresh()
    if snapshot is None:
        return match, False
    try:
        if not 0 < snapshot.seq <= len(records):
            raise SnapshotRefused(f"the store holds {len(records)} records")
        load(match, snapshot, entries[: snapshot.seq], records[snapshot.seq - 1].chain)
    except SnapshotRefused as exc:
        log.warning(
            "table %s: its snapshot at version %s is not used (%s): replaying its %s records",
            row.id,
            snapshot.seq,
            exc,
            len(records),
        )
        return fresh(), False
    return match, True


def reload(store: Store, table: Table, shared: dict[Hashable, object] | None = None) -> None:
    """Bring ``table`` back to exactly what the store holds (after a lost race or a failed write)."""
    row = store.table(table.id)
    if row is None:
        return
    fresh = build_table(
        row, store.seats(table.id), store.records(table.id), store.chat(table.id), store.snapshot(table.id), shared
    )
    table.match, table.chains, table.by_submission, table.chat = (
        fresh.match,
        fresh.chains,
        fresh.by_submission,
        fresh.chat,
    )
    table.config, table.seats, table.ended, table.stored_end = fresh.config, fresh.seats, fresh.ended, fresh.stored_end
    table.policies, table.snapshot_seq = fresh.policies, fresh.snapshot_seq
    budget.meter(table)  # the policies metered for this table, not for ``fresh``


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
