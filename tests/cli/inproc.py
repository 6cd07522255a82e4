"""``run_cli``: the tuple form of :func:`tests.cli_run.affray` run in this process, for the tests that read a
command's exit code, stdout and stderr as three values (the hostile corpus, the first hour, the sweeps)."""

from __future__ import annotations

from tests.cli_run import affray


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``affray ARGV`` with ``stdin``, in this process: its exit code, standard output and standard error (the
    streams are swapped by :func:`tests.cli_run.affray` itself, so whatever a test patched is in force)."""
    done = affray(*argv, stdin=stdin)
    return done.returncode, done.stdout, done.stderr
