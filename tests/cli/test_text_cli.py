"""No traceback from text, on the command line (docs/table.md, "Bad input"; docs/content.md, "Limits"): the limits
the table server applies to scenario text are the CLI's own (one loader, core/files.py), so a scenario nested 50,000
brackets deep is refused by ``content check`` and by the server behind ``table new`` alike, and a lone surrogate
(``\\ud800``) in a file, a log or an argument is refused with a sentence, before any request is sent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.inproc import run_cli
from tests.table.test_kill9 import Server
from tests.web.test_text import DEEP


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(f"sqlite:///{tmp_path_factory.mktemp('text-cli') / 'affray.db'}")
    served.start()
    yield served
    served.kill()


def refused(argv: list[str]) -> str:
    code, out, err = run_cli(argv)
    said = " ".join((out + err).split())
    assert code != 0 and "Traceback" not in said and "internal error" not in said, said
    return said


def test_a_deep_scenario_is_refused_by_the_cli_and_by_the_server(server: Server, tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("ruleset: hud\nsides: " + DEEP + "\n")
    assert "at most 100 levels of nesting" in refused(["content", "check", str(deep)])
    said = refused(["table", "new", str(deep), "--server", server.url])
    assert "bad_scenario" in said and "at most 100 levels of nesting" in said


def test_a_lone_surrogate_is_refused_wherever_it_comes_from(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text('ruleset: hud\nname: "\\ud800"\n')
    assert "valid YAML" in refused(["fight", str(scenario)])
    log = tmp_path / "log.json"
    log.write_text(json.dumps({"format": 3, "ruleset": "hud", "note": "\ud800"}))  # json.dumps escapes it
    assert "names no character" in refused(["verify", str(log)])
    said = refused(
        ["table", "new", "witchhammer/yard_duel", "--option", 'title="\\ud800"', "--server", "http://127.0.0.1:9"]
    )
    assert "not Unicode text" in said and "options.title" in said


def test_a_scenario_file_that_is_not_utf8_is_refused_before_sending(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_bytes(b"ruleset: hud\nname: \xff\n")
    said = refused(["table", "new", str(scenario), "--server", "http://127.0.0.1:9"])
    assert f"{scenario}: UTF-8 text (byte 0xff at offset 19 is not UTF-8)" in said
