"""Fixtures of the table service's tests: a service over a fresh SQLite file, its policies moving at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from affray.store import Store
from affray.table import TableService


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as store:
        served = TableService(store, policy_pause=0)
        yield served
        served.close()
