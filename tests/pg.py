"""A real PostgreSQL 15 server for the test suite, started in a temporary folder and stopped afterwards.

``postgres_server()`` is a context manager; the fixtures ``pg_server`` (one server per test session, i.e. per
xdist worker) and ``pg_url`` (a fresh database on it for each test) are registered for every test by
``tests/conftest.py``. The server listens on 127.0.0.1 only, on a free port, with ``fsync=off`` (tests need
no crash safety from it). PostgreSQL refuses to run as root, so as root the server runs as the ``postgres``
user (or ``nobody``) and the folder is handed to that user. Missing binaries FAIL the tests with what to
install; nothing is ever skipped silently. Set ``AFFRAY_PG_BIN`` to use binaries from another folder.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

PG_BIN = Path(os.environ.get("AFFRAY_PG_BIN", "/usr/lib/postgresql/15/bin"))
USER = "affray"
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0
_names = itertools.count()

# Run by a watchdog process beside each server: it blocks reading a pipe whose other end only the test
# process holds. End of file (the test process died, however it died) means: stop the server and delete its
# folder. A byte means: the test process stopped the server itself, nothing to do.
WATCHDOG = """
import os, shutil, signal, sys, time
fd, pid, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
if os.read(fd, 1):
    sys.exit(0)
try:
    os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        os.kill(pid, 0)
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass
shutil.rmtree(folder, ignore_errors=True)
"""


class PgStartError(RuntimeError):
    """The test PostgreSQL server could not be started; the message says why and what to do."""


@dataclass
class PgServer:
    port: int
    folder: Path
    process: subprocess.Popen[bytes]

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = "postgres") -> psycopg.Connection[Any]:
        return psycopg.connect(
            host="127.0.0.1", port=self.port, user=USER, dbname=database, autocommit=True, connect_timeout=5
        )

    def create_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its SQLAlchemy URL."""
        name = f"{prefix}_{os.getpid()}_{next(_names)}"
        with self.connect() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _require_binaries() -> None:
    missing = [name for name in ("initdb", "postgres") if not (PG_BIN / name).is_file()]
    if missing:
        pytest.fail(
            f"the PostgreSQL 15 server binaries ({', '.join(missing)}) are not in {PG_BIN}; the store "
            "tests need them: install them with `apt-get install postgresql-15` (or set AFFRAY_PG_BIN)",
            pytrace=False,
        )


def _run_as() -> dict[str, Any]:
    """Popen arguments that drop root to an unprivileged user (PostgreSQL will not run as root)."""
    if os.geteuid() != 0:
        return {}
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
    raise PgStartError("running as root, and there is no 'postgres' or 'nobody' user to run PostgreSQL as")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _initdb(folder: Path, run_as: dict[str, Any]) -> Path:
    data = folder / "data"
    command = [
        str(PG_BIN / "initdb"),
        "-D",
        str(data),
        "-U",
        USER,
        "--auth=trust",
        "--no-locale",
        "-E",
        "UTF8",
        "--no-sync",
    ]
    done = subprocess.run(command, capture_output=True, env=_env(), timeout=120, check=False, **run_as)
    if done.returncode != 0:
        raise PgStartError(f"initdb failed ({done.returncode}): {done.stderr.decode(errors='replace')[-2000:]}")
    return data


def _env() -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"}


def _start(folder: Path, data: Path, run_as: dict[str, Any], port: int | None = None) -> PgServer:
    port = port or _free_port()
    logfile = folder / f"postgres-{port}.log"
    command = [
        str(PG_BIN / "postgres"),
        "-D",
        str(data),
        "-p",
        str(port),
        "-k",
        str(folder),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "shared_buffers=16MB",
        "-c",
        "max_connections=200",
    ]
    with logfile.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=_env(), **run_as)
    server = PgServer(port=port, folder=folder, process=process)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise PgStartError(
                f"postgres exited with {process.returncode}: {logfile.read_text(errors='replace')[-2000:]}"
            )
        try:
            server.connect().close()
            return server
        except psycopg.OperationalError:
            time.sleep(0.05)  # polling a condition (the server accepts connections), bounded by the deadline
    _stop(process)
    raise PgStartError(
        f"postgres did not accept connections within {START_TIMEOUT_S:.0f} s: "
        f"{logfile.read_text(errors='replace')[-2000:]}"
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Fast shutdown (SIGINT), then SIGKILL if it does not stop in time."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_TIMEOUT_S)


def stop(server: PgServer) -> None:
    """Stop ``server`` and keep its data, for :func:`start_again` (a test's database outage)."""
    _stop(server.process)


def start_again(server: PgServer) -> None:
    """Start ``server``, stopped by :func:`stop`, again on its port with its data. The watchdog still names the first
    process: should the test process die while this one runs, the folder is removed under it, and PostgreSQL stops
    itself within a minute (it checks its lock file)."""
    server.process = _start(server.folder, server.folder / "data", _run_as(), port=server.port).process


@contextlib.contextmanager
def _watchdog(server: PgServer) -> Iterator[None]:
    """Make sure the server dies with the test process, even if it is killed before its teardown."""
    read_end, write_end = os.pipe()
    dog = subprocess.Popen(
        [sys.executable, "-c", WATCHDOG, str(read_end), str(server.process.pid), str(server.folder)],
        pass_fds=(read_end,),
        start_new_session=True,
    )
    os.close(read_end)
    try:
        yield
    finally:
        os.write(write_end, b"x")
        os.close(write_end)
        dog.wait(timeout=STOP_TIMEOUT_S)


@contextlib.contextmanager
def postgres_server() -> Iterator[PgServer]:
    """Start a throwaway PostgreSQL server; stop it and delete its folder on exit."""
    _require_binaries()
    run_as = _run_as()
    # As root the folder must be reachable by the unprivileged user: /tmp, not a root-only pytest folder.
    folder = Path(tempfile.mkdtemp(prefix="affray-pg-", dir="/tmp" if run_as else None))
    try:
        if run_as:
            os.chown(folder, run_as["user"], run_as["group"])
        data = _initdb(folder, run_as)
        server = None
        for attempt in range(3):  # another process may take the free port before postgres binds it
            try:
                server = _start(folder, data, run_as)
                break
            except PgStartError:
                if attempt == 2:
                    raise
        assert server is not None
        try:
            with _watchdog(server):
                yield server
        finally:
            _stop(server.process)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    try:
        with postgres_server() as server:
            yield server
    except PgStartError as exc:
        pytest.fail(f"could not start the test PostgreSQL server: {exc}", pytrace=False)


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """The URL of a fresh, empty database on the session's PostgreSQL server."""
    return pg_server.create_database()
