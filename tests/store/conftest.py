"""Every store test runs twice: on an SQLite file and on the real PostgreSQL server the suite starts itself."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from affray.store import NewTable, Seat, Store


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('store') / 'affray.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    with Store(store_url) as opened:
        yield opened


def new_table(table_id: str = "tbl1") -> NewTable:
    """A small table as the table layer would store it (the values are arbitrary but fixed)."""
    return NewTable(
        id=table_id,
        ruleset="witchhammer",
        title="Mill ambush",
        scenario="witchhammer/mill_ambush",
        setup={"combatants": [{"name": "Ulla", "side": "party"}, {"name": "Rat", "side": "foes"}]},
        options={"drama_timer": True},
        seed_hex="00ff" * 8,
        commitment="ab" * 32,
        rules_version="1",
        config={"spectators": True, "policy_pause": 0.5},
    )


SEATS = (
    Seat(seat="gm", token_hash="a" * 64, actors=(), controller="human", role="gm"),
    Seat(seat="ulla", token_hash="b" * 64, actors=("Ulla",), controller="human", role="player"),
    Seat(seat="foes", token_hash=None, actors=("Rat",), controller="aggressive", role="player"),
    Seat(seat="spectator", token_hash="c" * 64, actors=(), controller="human", role="spectator"),
)
