"""Damaged rows damage only their own table (docs/table.md, "Checking the database"), on SQLite and on PostgreSQL:
a table whose JSON columns hold JSON of another shape than affray writes (or none at all: SQLite only, as
PostgreSQL's json type refuses malformed text) is refused 503 ``table_damaged`` while the others are served, and
:func:`affray.store.check.check` names its table, row and column. And a seat's token of a table held in memory is
checked without the database (docs/table.md, "Limits")."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from affray.store import Store
from affray.store.check import check
from affray.table import Refusal, TableService


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'affray.db'}"
    found: str = request.getfixturevalue("pg_url")
    return found


def open_tables(url: str, count: int) -> list[tuple[str, str]]:
    """``count`` WitchHammer tables (their ids and Ilse's token), then the service is closed."""
    with Store(url) as store:
        service = TableService(store, policy_pause=0, idle_evict=None)
        try:
            made = [
                service.create("witchhammer/mill_ambush", controllers={"ilse": "human", "tomas": "human"})
                for _ in range(count)
            ]
        finally:
            service.close()
    return [(m["table"], m["seats"]["ilse"]["token"]) for m in made]


def test_rows_of_another_shape_make_their_table_503_and_are_named(url: str) -> None:
    tables = open_tables(url, 4)
    engine = sa.create_engine(url)
    with engine.begin() as db:
        db.execute(sa.text("UPDATE tables SET config = '[1]' WHERE id = :t"), {"t": tables[0][0]})
        db.execute(
            sa.text("UPDATE seats SET actors = '[1]' WHERE table_id = :t AND seat = 'ilse'"), {"t": tables[1][0]}
        )
        db.execute(sa.text("UPDATE tables SET setup = '\"text\"' WHERE id = :t"), {"t": tables[2][0]})
    engine.dispose()
    health = check(url)
    assert health.ok  # a damaged row does not make the database unfit to serve: only its table
    assert sorted(health.damaged_rows) == sorted(
        [
            f"table {tables[0][0]}: its config is JSON of another shape, not a JSON object",
            f"table {tables[1][0]}: seat ilse: its actors is JSON of another shape, not a JSON list of names",
            f"table {tables[2][0]}: its setup is JSON of another shape, not a JSON object",
        ]
    )
    with Store(url) as store:
        service = TableService(store, policy_pause=0, idle_evict=None)
        try:
            for table_id, token in tables[:3]:
                with pytest.raises(Refusal) as refused:
                    service.authenticate(table_id, token)
                assert refused.value.code == "table_damaged" and refused.value.status == 503
                assert table_id in service.damaged[table_id]
            table, seat = service.authenticate(*tables[3])  # the healthy one is served
            assert seat.name == "ilse" and table.version == 0
        finally:
            service.close()


def test_a_token_of_a_table_in_memory_is_checked_without_the_database(tmp_path: Path) -> None:
    """Once the table is held, neither a valid token nor a wrong one reads the seats' tokens from the database."""
    url = f"sqlite:///{tmp_path / 'affray.db'}"
    ((table_id, token),) = open_tables(url, 1)
    with Store(url) as store:
        service = TableService(store, policy_pause=0, idle_evict=None)
        try:
            service.authenticate(table_id, token)  # loads the table (a lookup: it was not in memory)
            looked_up: list[str] = []
            store.seat_by_token_hash = lambda hashed: looked_up.append(hashed)  # type: ignore[method-assign,assignment]
            assert service.authenticate(table_id, token)[1].name == "ilse"
            with pytest.raises(Refusal) as refused:
                service.authenticate(table_id, "w" * 32)
            assert refused.value.status == 401 and looked_up == []
        finally:
            service.close()
