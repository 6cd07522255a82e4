"""``run_cli``: the tuple form of :func:`tests.cli_run.affray` run in this process, for the tests that read a
command's exit code, stdout and stderr as three values (the hostile corpus, the first hour, the sweeps)."""

from __future__ import annotations

import pytest

from tests.cli_run import affray


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
            stdin: str = "") -> tuple[int, str, str]:
    """``affray ARGV`` with ``stdin``: its exit code, standard output and standard error.

    ``capsys`` and ``monkeypatch`` are the callers' fixtures, taken so that whatever a test set up with them (a
    patched module, captured output before the call) is in force during the call; the streams are swapped by
    :func:`tests.cli_run.affray` itself."""
    del capsys, monkeypatch
    done = affray(*argv, stdin=stdin)
    return done.returncode, done.stdout, done.stderr
