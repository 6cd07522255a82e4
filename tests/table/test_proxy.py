"""The proxy of docs/table.md ("Several processes"), as the docs give it: nginx (Debian's ``nginx-light``, which
``make test`` installs) in front of two real ``affray serve`` processes on one PostgreSQL. Every request and WebSocket
of a table reaches one process, the tables are shared between both, and a seat connected through the proxy hears every
action taken through it. The configuration is read from docs/table.md's ``nginx`` block, so the docs are what is
tested; only the upstreams' ports and the listening address are this test's. Behind a proxy a server opens tables only
with its creation key (docs/table.md, "Limits: a server on a public address"): both run with one, as the docs say."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from websockets.sync.client import connect

from tests.table.test_kill9 import Server, free_port
from tests.waiting import wait_for

DOCS = Path(__file__).resolve().parents[2] / "docs" / "table.md"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TABLES_AT_MOST = 16  # tables created until each process serves one (all on one: 2 ** -15)
KEY = "proxied-" + "k" * 24  # the servers' creation key


def proxy_config(upstreams: list[int], port: int, folder: Path) -> str:
    """docs/table.md's nginx block, served on 127.0.0.1:``port`` in front of ``upstreams``, logging which upstream
    answered each request."""
    block = re.search(r"```nginx\n(.*?)```", DOCS.read_text(), re.S)
    assert block is not None, "docs/table.md gives no nginx configuration"
    text = block.group(1)
    documented = re.findall(r"server (127\.0\.0\.1:\d+);", text)
    assert len(documented) == len(upstreams), documented
    for address, upstream in zip(documented, upstreams, strict=True):
        text = text.replace(f"server {address};", f"server 127.0.0.1:{upstream};")
    text, listens = re.subn(r"listen [^;]*;", f"listen 127.0.0.1:{port};", text)
    assert listens == 1
    return (
        f"daemon off; pid {folder}/nginx.pid; error_log {folder}/error.log;\nevents {{}}\nhttp {{\n"
        f"log_format upstream '$uri $upstream_addr';\naccess_log {folder}/access.log upstream;\n{text}}}\n"
    )


@pytest.fixture
def proxied(pg_url: str, tmp_path: Path) -> Iterator[str]:
    """The proxy's base URL, two servers behind it; everything stops at the end."""
    if not Path(NGINX).exists():
        pytest.fail("the proxy test needs nginx: run 'sudo apt-get install -y nginx-light' (make test does, as root)")
    servers = [Server(pg_url, options=("--create-key", KEY)), Server(pg_url, options=("--create-key", KEY))]
    proxy: subprocess.Popen[bytes] | None = None
    try:
        with ThreadPoolExecutor(2) as starting:  # both at once: each start waits for its server's first answer
            list(starting.map(Server.start, servers))
        port = free_port()
        (tmp_path / "nginx.conf").write_text(proxy_config([s.port for s in servers], port, tmp_path))
        stderr = tmp_path / "nginx.stderr"
        with stderr.open("wb") as into:  # the child keeps its own copy of the file
            proxy = subprocess.Popen(
                [NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], stdout=subprocess.DEVNULL, stderr=into
            )
        url = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            assert proxy is not None and proxy.poll() is None, f"nginx stopped: {stderr.read_text()}"
            return httpx.get(f"{url}/", timeout=1).status_code == 200

        wait_for(answers, 30, "the proxy to answer", ignoring=(httpx.HTTPError,))
        yield url
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=30)
        for server in servers:
            server.kill()


def test_the_documented_proxy_sends_each_table_to_one_process_and_shares_the_tables(
    proxied: str, tmp_path: Path
) -> None:
    created: list[dict[str, Any]] = []
    for _ in range(TABLES_AT_MOST):
        answer = httpx.post(
            f"{proxied}/api/tables",
            timeout=30,
            headers={"X-Create-Key": KEY},
            json={"scenario": "witchhammer/yard_duel", "seed": 5, "controllers": {"bruna": "human", "tomas": "human"}},
        )
        assert answer.status_code == 201, answer.text
        created.append(answer.json())
        for table in created:
            _play(proxied, table)
        served = _upstreams(tmp_path / "access.log")
        if len(set().union(*served.values())) == 2:
            break
    assert {table: len(upstreams) for table, upstreams in served.items()} == {t["table"]: 1 for t in created}
    assert len(set().union(*served.values())) == 2, "every table went to one process"


def _play(url: str, created: dict[str, Any]) -> None:
    """One action through the proxy, heard by a seat's WebSocket opened through it."""
    table, ws_url = created["table"], url.replace("http://", "ws://")
    tokens = [created["seats"][seat]["token"] for seat in ("bruna", "tomas")]
    with connect(f"{ws_url}/api/tables/{table}/ws?token={tokens[1]}", open_timeout=30) as ws:
        seen = json.loads(ws.recv(timeout=30))["version"]
        for token in tokens:
            state = httpx.get(
                f"{url}/api/tables/{table}", headers={"Authorization": f"Bearer {token}"}, timeout=30
            ).json()
            if state["legal"]:
                actor, specs = next(iter(state["legal"].items()))
                answer = httpx.post(
                    f"{url}/api/tables/{table}/actions",
                    timeout=30,
                    headers={"Authorization": f"Bearer {token}"},
                    json={"actor": actor, "action": specs[0]["action"], "version": state["version"]},
                )
                assert answer.status_code == 200, answer.text
                while seen < answer.json()["version"]:  # pushed through the proxy (recv is bounded)
                    seen = json.loads(ws.recv(timeout=30))["version"]
                return
    raise AssertionError(f"nobody was due at table {table}")


def _upstreams(log: Path) -> dict[str, set[str]]:
    """Each table's id: the upstreams that answered its requests (from the proxy's access log)."""
    served: dict[str, set[str]] = defaultdict(set)
    for line in log.read_text().splitlines() if log.exists() else ():
        found = re.match(r"/(?:api/tables|t)/([^/ ]+)\S* (\S+)$", line)
        if found:
            served[found.group(1)].add(found.group(2))
    return served
