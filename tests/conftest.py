"""Fixtures shared by every test folder: a real PostgreSQL server (``pg_server``, ``pg_url``; see tests/pg.py).

Markers, set here at collection (pyproject.toml registers them): ``server`` on every test that starts a server — an
``affray serve`` process (``tests.table.test_kill9.Server``), a table server in a thread (``live_server``), or
PostgreSQL (the ``pg_server``/``pg_url`` fixtures, or the ``postgresql`` case of a parametrized fixture, which may
ask for ``pg_url`` only when it runs) — and ``browser`` (with ``server``) on every test that drives Chromium
(``chromium()``). A test counts as starting one when its own code or the code of a fixture it uses (from this
suite) calls a starter. ``make test-quick`` runs the rest: ``pytest -m "not server and not browser"``. The browser
tests run first, then the other server tests (see ``_weight``).
"""

from __future__ import annotations

import functools
import inspect
import re
import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

import pytest

pytest_plugins = ["tests.pg"]

#: A call that starts a server or a browser, as the suite's code spells it.
STARTS_SERVER = re.compile(r"(?<![\w.])(Server|live_server|postgres_server|chromium)\(")
STARTS_BROWSER = re.compile(r"(?<![\w.])chromium\(")
PG_FIXTURES = frozenset({"pg_server", "pg_url"})


def starts(functions: Iterable[Callable[..., Any]], fixtures: Iterable[str], params: dict[str, Any]) -> set[str]:
    """The markers of a test whose code and suite fixtures are ``functions``, which uses ``fixtures`` (every name,
    transitively) with ``params``: ``server``, ``browser``, both or none."""
    source = "\n".join(_source(f) for f in functions)
    marks = {"server", "browser"} if STARTS_BROWSER.search(source) else set()
    if STARTS_SERVER.search(source) or PG_FIXTURES & set(fixtures) or "postgresql" in params.values():
        marks.add("server")
    return marks


STARTER_NAMES = frozenset({"Server", "live_server", "postgres_server", "chromium"})


@functools.cache  # one function's source, read once: thousands of parametrized cases share a few hundred functions
def _source(function: Callable[..., Any]) -> str:
    function = inspect.unwrap(function)
    if not getattr(function, "__module__", "").startswith("tests"):
        return ""  # pytest's own fixtures (tmp_path, monkeypatch) start nothing
    code = getattr(function, "__code__", None)
    if code is not None and not STARTER_NAMES & _names(code):
        return ""  # its code names no starter: no need to read its source (a second of every collection)
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def _names(code: types.CodeType) -> set[str]:
    """Every name a function's code (its nested functions' and lambdas' included) reads or calls."""
    names = {*code.co_names, *code.co_freevars}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        info = getattr(item, "_fixtureinfo", None)  # pytest's record of the fixtures the test resolves to
        defs = info.name2fixturedefs.values() if info is not None else ()
        functions = [item.function, *(d.func for chain in defs for d in chain)]
        params = item.callspec.params if hasattr(item, "callspec") else {}
        for mark in sorted(starts(functions, item.fixturenames, params)):
            item.add_marker(mark)
    # The long tests first: the browser tests, then the other server tests, then the rest (each group in its own
    # order). xdist hands tests out in this order, so no worker is left driving a browser fight alone at the end;
    # make's --dist worksteal then lets an idle worker take the queued tests of a busy one (with the plain load
    # schedule, one worker still had the API secrets sweep queued, 23 s, when the other had finished).
    items.sort(key=_weight)


@pytest.fixture(autouse=True)
def _no_browser_outside_browser_tests(request: pytest.FixtureRequest) -> None:
    """Stop the process's shared Chromium (tests/web/browser.py) before a test that does not drive it: Playwright's
    event loop, set in this thread while it runs, would refuse the test's own ``asyncio.run``. The browser tests
    run first (``_weight``), so a worker starts and stops Chromium about once."""
    browser = sys.modules.get("tests.web.browser")
    if browser is not None and request.node.get_closest_marker("browser") is None:
        browser._stop_chromium()


def _weight(item: pytest.Item) -> int:
    return 0 if item.get_closest_marker("browser") else 1 if item.get_closest_marker("server") else 2
