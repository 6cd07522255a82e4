"""The suite's markers (tests/conftest.py): a test is ``server`` when its code or a fixture of it starts a server
process, a table server in a thread or PostgreSQL, and ``browser`` (with ``server``) when it drives Chromium; the
rest is what ``make test-quick`` runs. The helpers below are never called: ``starts`` reads their code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import starts


def _spawns_affray_serve(db: str) -> Any:
    from tests.table.test_kill9 import Server

    return Server(db)


def _serves_in_a_thread(db: Path) -> Any:
    from tests.web.browser import live_server

    return live_server(db)


def _drives_chromium() -> Any:
    from tests.web.browser import chromium

    return chromium()


def _plays_a_fight_in_process() -> Any:
    from tests.conformance.common import random_playout

    return random_playout("toy", 1)


def test_a_test_that_starts_an_affray_serve_process_or_a_threaded_server_is_marked_server() -> None:
    assert starts([_spawns_affray_serve], ["tmp_path"], {}) == {"server"}
    assert starts([_plays_a_fight_in_process, _serves_in_a_thread], [], {}) == {"server"}


def test_a_test_that_drives_chromium_is_marked_browser_and_server() -> None:
    assert starts([_drives_chromium], [], {}) == {"server", "browser"}


def test_a_test_on_postgresql_is_marked_server_by_its_fixture_or_its_store_case() -> None:
    assert starts([_plays_a_fight_in_process], ["tmp_path", "pg_url"], {}) == {"server"}
    assert starts([_plays_a_fight_in_process], ["store"], {"store_url": "postgresql"}) == {"server"}
    assert starts([_plays_a_fight_in_process], ["store"], {"store_url": "sqlite"}) == set()
    # a fixture that asks for pg_url only in its postgresql case (tests/web/test_races.py's db_url)
    assert starts([_plays_a_fight_in_process], ["two_servers", "db_url"], {"db_url": "postgresql"}) == {"server"}


def test_a_test_that_starts_nothing_has_no_marker() -> None:
    assert (
        starts([_plays_a_fight_in_process, test_a_test_that_starts_nothing_has_no_marker], ["monkeypatch"], {}) == set()
    )
