"""Every command holds up against a hostile user.

For every case of :mod:`tests.hostile.corpus`, run in-process: a non-zero exit, no traceback, a message naming the
file or the flag, and nothing written or changed that should not be.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli.inproc import run_cli
from tests.hostile.corpus import DIR, FIFO, Case, all_cases
from tests.sweep import sample

CASES = all_cases()


def command(case: Case) -> str:
    """The command a case runs: ``roll``, or ``odds duel`` for the commands with subcommands."""
    return case.argv[0] if case.argv[0] not in ("odds", "character", "content") else " ".join(case.argv[:2])


def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    code, out, err = run_cli(argv, stdin)
    return code, out + err


def _write(tmp: Path, files: dict[str, object]) -> None:
    for name, content in files.items():
        path = tmp / name
        if content is DIR:
            path.mkdir()
        elif content is FIFO:
            os.mkfifo(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(str(content), encoding="utf-8")


def test_the_corpus_has_at_least_150_cases_over_every_command() -> None:
    """The floor: 150 hostile cases, over every command of the CLI."""
    assert len(CASES) >= 150
    commands = {command(c) for c in CASES}
    assert {
        "roll",
        "fight",
        "sim",
        "sweep",
        "replay",
        "verify",
        "options",
        "content check",
        "content list",
        "odds duel",
        "odds spellchrome",
        "odds warp",
        "odds witchhammer",
        "odds hud",
        "character check",
        "character show",
        "character spend",
        "character advance",
        "character new",
        "character leader",
        "character wound",
        "character heal",
    } <= commands
    assert len({c.id for c in CASES}) == len(CASES)


RUN: list[Case] = sample(CASES, group=command)  # make test-quick: a third of each command's cases (tests/sweep.py)


@pytest.mark.parametrize("case", RUN, ids=lambda c: c.id)
def test_hostile_input_is_refused_with_a_message(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a default save (affray-save.json) would land here, and is checked below
    _write(tmp_path, case.files)
    before = {name: (tmp_path / name).read_bytes() for name in case.unchanged}
    code, out = run([a.replace("{tmp}", str(tmp_path)) for a in case.argv], case.stdin)
    assert code != 0, out
    if case.code is not None:
        assert code == case.code, out
    assert "Traceback" not in out and "internal error" not in out, out
    assert case.expect in out, out
    for name in case.absent:
        assert not (tmp_path / name).exists(), f"{name} was written"
    for name, data in before.items():
        assert (tmp_path / name).read_bytes() == data, f"{name} was changed"
    assert not (tmp_path / "affray-save.json").exists()
