"""Rebuilding on first use (DESIGN.md contract 4): an open table is replayed from the store and checked against the
stored commitment and hash chain; a table whose stored log does not check out is refused, not served."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from affray.core.json import as_list, as_object
from affray.store import Store
from affray.store import schema as s
from affray.table import Refusal, TableService


def opened(tmp_path: Path) -> tuple[Store, str]:
    store = Store(f"sqlite:///{tmp_path / 'affray.db'}")
    service = TableService(store, policy_pause=0)
    created = service.create("witchhammer/yard_duel", controllers={"bruna": "human", "tomas": "human"}, seed=4)
    table, seat = service.authenticate(created["table"], created["seats"]["bruna"]["token"])
    actor, specs = next(iter(as_object(service.state(table, seat)["legal"]).items()))
    service.submit(table, seat, actor, as_object(as_object(as_list(specs)[0])["action"]), 0)
    service.close()
    return store, created["table"]


def test_an_open_table_is_rebuilt_with_its_chain(tmp_path: Path) -> None:
    store, table_id = opened(tmp_path)
    service = TableService(store, policy_pause=0)
    table = service.table(table_id)
    assert table.version == 1 and table.head == store.records(table_id)[0].chain
    service.close()
    store.close()


@pytest.mark.parametrize("tamper", ["chain", "payload", "seed"])
def test_a_tampered_table_is_not_served(tmp_path: Path, tamper: str) -> None:
    store, table_id = opened(tmp_path)
    with store._engine.begin() as c:  # what a broken disk or a hand edit could do
        if tamper == "chain":
            c.execute(sa.update(s.records).values(chain="0" * 64))
        elif tamper == "payload":
            c.execute(sa.update(s.records).values(payload={"type": "ready", "edited": True}))
        else:
            c.execute(sa.update(s.tables).values(seed_hex="11" * 32))
    service = TableService(store, policy_pause=0)
    assert service.loaded() == []  # a table loads on first use
    with pytest.raises(Refusal) as refused:
        service.table(table_id)
    assert refused.value.code == "table_damaged" and refused.value.status == 503
    assert table_id in service.damaged and table_id not in service.loaded()
    service.close()
    store.close()
