"""Running ``affray`` in this process (fast: no interpreter start), as the hostile corpus and CLI tests do."""

from __future__ import annotations

import io
import sys

import pytest

from affray.cli.main import main


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
            stdin: str = "") -> tuple[int, str, str]:
    """``affray ARGV`` with ``stdin``: its exit code, standard output and standard error."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    captured = capsys.readouterr()
    return code, captured.out, captured.err
