"""Fixtures of the API tests: a table service over a fresh SQLite file and an in-process client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.store import Store
from affray.table import TableService
from tests.web.helpers import make_app
from tests.web.inprocess import InProcessClient


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as opened:
        yield opened


@pytest.fixture
def served(store: Store) -> Iterator[tuple[TableService, TestClient]]:
    service, app = make_app(store)
    with InProcessClient(app) as client:
        yield service, client
    service.close()


@pytest.fixture
def client(served: tuple[TableService, TestClient]) -> TestClient:
    return served[1]


def create(client: TestClient, scenario: str = "witchhammer/mill_ambush", **body: Any) -> dict[str, Any]:
    body.setdefault("controllers", {"ilse": "human", "tomas": "human"} if scenario == "witchhammer/mill_ambush" else {})
    answer = client.post("/api/tables", json={"scenario": scenario, **body})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data
