"""The ``affray`` command line run the way a user runs it: arguments, answers on stdin, exit code, stdout and stderr.

One runner for every test of the CLI (there were six local copies of ``subprocess.run([sys.executable, "-m",
"affray", ...])``). A call runs in this process by default: ``affray.cli.main.main`` is called with the arguments,
with stdin, stdout, stderr, the environment and the working directory swapped for the call and put back after, and
the exit code is the one ``SystemExit`` carried (0 when ``main`` returns). That is the code path of ``python -m
affray`` after the imports (``affray/__main__.py`` only calls ``main()``), at a few milliseconds a call instead of the
0.3 s of an interpreter start and affray's imports, which was a quarter of the quick suite's time.

What a process alone shows keeps a child process: ``process=True`` (a signal, a server, a terminal client that
blocks on the network), and ``AFFRAY_CLI_PROCESS=1`` in the environment sends every call through a child, so the
entry point itself can be run under the whole CLI suite (``test_the_entry_point_is_the_same_main`` keeps one
child-process call in every run).

Differences an in-process call cannot remove, and why they do not matter here: the streams are not terminals (as
with a child's pipes); what affray caches at module level (loaded scenarios, compiled tables) stays warm between
calls, as it does within one long run.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

PROCESS_ENV = "AFFRAY_CLI_PROCESS"
TIMEOUT = 120


def affray(
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    process: bool = False,
    timeout: float = TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    """``affray ARGS`` with ``stdin`` as its input, run in ``cwd`` (default: this process's working directory) with
    ``env`` added to the environment. ``timeout`` bounds a child process (an in-process call has no clock)."""
    if process or os.environ.get(PROCESS_ENV):
        return subprocess.run(
            [sys.executable, "-m", "affray", *args],
            capture_output=True,
            text=True,
            input=stdin,
            cwd=cwd,
            env={**os.environ, **(env or {})},
            timeout=timeout,
        )
    return _in_process(list(args), stdin, cwd, env or {})


def _in_process(
    argv: list[str], stdin: str | None, cwd: Path | None, env: Mapping[str, str]
) -> subprocess.CompletedProcess[str]:
    from affray.cli.main import main

    out, err = io.BytesIO(), io.BytesIO()
    code: int = 0
    with _swapped(stdin or "", out, err, cwd, env) as streams:
        try:
            main(argv)
        except SystemExit as stop:
            code = _exit_code(stop.code)
        finally:
            for stream in streams:
                stream.flush()
    return subprocess.CompletedProcess(
        ["affray", *argv], code, out.getvalue().decode(), err.getvalue().decode(errors="backslashreplace")
    )


def _exit_code(code: object) -> int:
    """What a process's exit status would be for ``sys.exit(code)``: None is 0, an int is itself, a message is 1."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


@contextmanager
def _swapped(
    stdin: str, out: io.BytesIO, err: io.BytesIO, cwd: Path | None, env: Mapping[str, str]
) -> Iterator[tuple[io.TextIOWrapper, io.TextIOWrapper]]:
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_cwd = os.getcwd()
    saved_env = {name: os.environ.get(name) for name in env}
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    sys.stdout, sys.stderr = stdout, stderr
    os.environ.update(env)
    if cwd is not None:
        os.chdir(cwd)
    try:
        yield stdout, stderr
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
