"""``affray serve`` and ``affray table new`` (docs/table.md), against a real server process."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_run import affray
from tests.table.test_kill9 import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(f"sqlite:///{tmp_path_factory.mktemp('cli') / 'affray.db'}")
    served.start()
    yield served
    served.kill()


def test_table_new_prints_the_gm_and_seat_links(server: Server) -> None:
    done = affray(
        "table",
        "new",
        "witchhammer/yard_duel",
        "--server",
        server.url,
        "--controller",
        "bruna=human",
        "--option",
        "drama_timer=true",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    gm = re.fullmatch(r"GM page \(it lists every seat's link, with a QR code for phones\): (\S+)", lines[1])
    assert gm is not None, lines[1]
    bruna = next(line for line in lines if line.startswith(f"bruna (bruna): {server.url}/t/"))
    spectator = next(line for line in lines if line.startswith(f"spectator: {server.url}/t/"))
    # the GM's link carries the seats' tokens in its fragment (never a path or a query), for the GM page to show
    link, _, fragment = gm[1].partition("#")
    assert link.startswith(f"{server.url}/t/") and "?" not in link
    gm_token, *others = fragment.split("&")
    assert sorted(others) == sorted([f"bruna={bruna.rsplit('#', 1)[1]}", f"spectator={spectator.rsplit('#', 1)[1]}"])
    assert gm_token and "=" not in gm_token


def test_table_new_reports_a_refusal_in_one_message(server: Server, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: witchhammer\nname: x\nsides: 3\n")
    done = affray("table", "new", str(bad), "--server", server.url)
    assert done.returncode != 0 and "bad_scenario" in done.stderr + done.stdout
    assert "scenario.yaml: sides" in done.stderr + done.stdout and "Traceback" not in done.stderr


def test_serve_with_a_bad_database_fails_in_one_message() -> None:
    done = affray("serve", "--db", "nosuchdb://x", "--port", "1")
    assert done.returncode != 0 and "Traceback" not in done.stderr and done.stderr.strip()


def test_join_plays_a_seat_from_the_terminal_tells_the_story_and_saves_a_log_that_verifies(
    server: Server, tmp_path: Path
) -> None:
    made = affray(
        "table", "new", "witchhammer/yard_duel", "--server", server.url, "--controller", "bruna=human", "--json"
    )
    import json

    created = json.loads(made.stdout)
    link = f"{server.url}{created['seats']['bruna']['link']}"
    saved = tmp_path / "yard.json"
    # a child: the terminal client as a player starts it
    done = affray("join", link, "--log", str(saved), stdin="1\n" * 200 + "quit\n", process=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "as seat bruna" in done.stdout and "bruna (version" in done.stdout, done.stdout[:2000]
    # the story as sentences with names (the server's text), never a field dump
    assert "Bruna Halloway" in done.stdout and "The fight is over" in done.stdout
    assert '{"type"' not in done.stdout and "seal=" not in done.stdout
    assert re.search(r"hit \d+% · solid \d+%", done.stdout)  # the server's odds hints beside the choices
    assert f"check every die with affray verify {saved}" in " ".join(done.stdout.split())
    checked = affray("verify", str(saved))
    assert checked.returncode == 0 and "verified" in checked.stdout, checked.stdout + checked.stderr


def test_join_refuses_a_malformed_link() -> None:
    done = affray("join", "http://127.0.0.1:1/t/abc")
    assert done.returncode != 0 and "a table link looks like" in done.stderr and "Traceback" not in done.stderr
