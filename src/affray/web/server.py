"""Running the table server: open the store, build the service and the app, serve with uvicorn (``affray serve``)."""

from __future__ import annotations

import gc
import ipaddress
import logging
import socket
import sys
from collections.abc import Mapping
from pathlib import Path

import uvicorn
from uvicorn.config import STARTUP_FAILURE

from affray.core.content import ContentLibrary
from affray.store import Store, StoreError
from affray.store.check import check, sqlite_path
from affray.table import TableService
from affray.table.budget import CpuBudget
from affray.table.service import IDLE_EVICT
from affray.web.app import create_app
from affray.web.bounds import KEEP_ALIVE, MAX_CONNECTIONS, ConnectionLimits
from affray.web.connections import guarded_protocols
from affray.web.limits import DEFAULT_BODY_LIMIT

SERVER_GC_THRESHOLDS = (700, 10, 1_000)  # gc.set_threshold for the server process (default: 700, 10, 10)
MIN_CREATE_KEY = 16  # characters of a creation key (secrets.token_urlsafe(24) gives 32)
MAKE_KEY = "python3 -c 'import secrets; print(secrets.token_urlsafe(24))'"
log = logging.getLogger(__name__)


def loopback(host: str) -> bool:
    """Whether ``host`` (``--host``) is reachable from this machine only: ``localhost`` or a loopback address."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: whatever it resolves to may be reachable from elsewhere


def creation_refusal(
    host: str,
    create_key: str | None,
    open_creation: bool,
    forwarded_allow_ips: str | None,
) -> str | None:
    """Why ``affray serve`` refuses to start with these options (a sentence), or None. A server others can reach
    (bound to anything but loopback, or trusting a proxy's forwarded headers) opens tables only with a creation key,
    unless ``--open-creation`` says that anyone may (docs/table.md, "Limits: a server on a public address")."""
    if create_key is not None and open_creation:
        return "--create-key and --open-creation contradict each other: choose one"
    if create_key is not None and len(create_key) < MIN_CREATE_KEY:
        return (
            f"--create-key needs at least {MIN_CREATE_KEY} characters, or it can be guessed (make one with {MAKE_KEY})"
        )
    if create_key is None and not open_creation and (not loopback(host) or forwarded_allow_ips is not None):
        where = (
            f"other machines can reach (--host {host})"
            if not loopback(host)
            else "behind a proxy (--forwarded-allow-ips)"
        )
        return (
            f"a server {where} needs a creation key, so that not everyone who reaches it can open tables: start "
            f"it with --create-key KEY or AFFRAY_CREATE_KEY=KEY (at least {MIN_CREATE_KEY} characters; make one "
            f"with {MAKE_KEY}), or with --open-creation to let anyone open tables"
        )
    return None


def listening(address: str, port: int) -> socket.socket:
    """A socket bound to ``address``:``port`` (as uvicorn binds its own: address reuse, so a restarted server gets its
    port back at once). Raises :class:`OSError` with a sentence naming the address when it cannot be bound."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((address, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {address} port {port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def checked(db: str) -> None:
    """Refuse a damaged database before anything opens it (store/check.py: SQLite's quick_check and the schema);
    say so in the log when it is new, so an emptied file is not served as if nothing happened."""
    health = check(db, server_rows=False)
    if not health.ok:
        raise StoreError(health.refusal())
    for row in health.damaged_rows:  # its table alone is refused (503 table_damaged); the others are served
        log.error("the database %s: damaged row: %s", health.where, row)
    if health.more_damaged_rows:
        log.error(
            "the database %s: %d more damaged rows ('affray db check' lists them)",
            health.where,
            health.more_damaged_rows,
        )
    if health.new:
        path = sqlite_path(db)
        if path is None or path.exists():
            state = "exists but is empty" if path is not None and path.stat().st_size == 0 else "holds no tables"
        else:
            state = "does not exist yet"
        log.warning("the database %s %s: starting it as a new, empty database", health.where, state)


def serve(
    host: str,
    port: int,
    db: str,
    *,
    create_key: str | None = None,
    policy_pause: float = 0.5,
    examples_dir: Path | None = None,
    log_level: str = "warning",
    ws_compression: bool = False,
    limits: ConnectionLimits | None = None,
    max_connections: int | None = MAX_CONNECTIONS,
    idle_evict: float | None = IDLE_EVICT,
    open_creation: bool = False,
    forwarded_allow_ips: str | None = None,
    cpu_budget: CpuBudget | None = None,
    lan: str | None = None,
    public_url: str | None = None,
    content: Mapping[str, ContentLibrary] | None = None,
) -> None:
    """Serve until interrupted. The store opens (and is checked) before the port does; tables load on first use.
    ``ws_compression``: offer permessage-deflate to WebSocket clients (off by default: since pushes are patches of
    what changed, 2-5 KB, compressing them cost a fifth of the server's CPU per action and 45 KiB of state per
    connection, docs/performance.md "Patches"; on for players on very slow links). ``limits``: the bounds
    of each connection (:mod:`affray.web.connections`); ``max_connections``: of all of them (None: no bound);
    ``idle_evict``: seconds an unused table stays in memory (None: for ever; docs/table.md, "Tables in memory");
    ``open_creation``: a request through a proxy may open tables without a key; ``forwarded_allow_ips``: the
    proxies whose forwarded headers name the client (uvicorn's; None: its default, ``FORWARDED_ALLOW_IPS`` or
    127.0.0.1); ``cpu_budget``: what the server's policies may spend (:mod:`affray.table.budget`). The caller checks
    :func:`creation_refusal` first. ``lan``: an address to listen on as well as ``host`` (the machine's LAN address,
    :mod:`affray.web.lan`); ``public_url``: the server's address for the people at the table (the GM page's seat
    links and QR codes carry it, a meta of every page: templates/base.html). ``content``: each ruleset's content
    merged with the server's own ``--content`` folder, which the content library lists (web/building.py)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    checked(db)
    store = Store(db)
    service = TableService(store, examples_dir=examples_dir, policy_pause=policy_pause, idle_evict=idle_evict)
    service.content = dict(content or {})  # --content: the library lists it, uploaded scenarios may name it
    # Python's cyclic collector, at its default thresholds, walks every live match of every table in its full
    # collections: with 100 tables those pauses were the p99 of an action (250-350 ms against a p50 of 17 ms,
    # bench_table --think 5). Matches free almost everything by reference counting, so full collections can be a
    # hundred times rarer (every 10,000 young collections instead of 100) at little cost in memory. The young
    # collections keep their default size: at 50,000 objects each one paused the server 16-30 ms every few seconds,
    # which put them back in the p99; at 700 they take under 4 ms. Measured in docs/performance.md (Python 3.11;
    # Python 3.14's incremental collector ignores the third threshold, and its full collections no longer pause the
    # whole heap at once).
    gc.set_threshold(*SERVER_GC_THRESHOLDS)
    bounds = limits or ConnectionLimits()
    http, ws, addresses = guarded_protocols(bounds, max_connections)
    try:
        app = create_app(
            service,
            create_key=create_key,
            connections=lambda: addresses.open,
            first_message=bounds.first_message,
            open_creation=open_creation,
            cpu_budget=cpu_budget,
        )
        app.state.public_url = public_url
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level=log_level,
            http=http,
            ws=ws,
            timeout_keep_alive=KEEP_ALIVE,
            limit_concurrency=max_connections,
            ws_per_message_deflate=ws_compression,
            ws_max_size=DEFAULT_BODY_LIMIT,  # a client's frame: a token or an action, as small as a body
            ws_ping_interval=bounds.ping_interval,
            forwarded_allow_ips=forwarded_allow_ips,
        )
        # What uvicorn.run does, with the sockets of both addresses when there are two
        server = uvicorn.Server(config)
        sockets = [] if lan is None or lan == host else [listening(address, port) for address in (host, lan)]
        try:
            server.run(sockets=sockets or None)
        except KeyboardInterrupt:
            pass
        finally:
            for sock in sockets:
                sock.close()
        if not server.started:
            sys.exit(STARTUP_FAILURE)  # uvicorn said why (the port is taken...)
    finally:
        service.close()
        store.close()
