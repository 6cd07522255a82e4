"""Rounds of WebSocket connects and disconnects against a real ``affray serve``, and the server's resident memory
after each (shared by tests/web/test_memory.py and bench/bench_ws_memory.py).

A round opens ``n`` WebSockets at once, from many loopback addresses (127.0.0.2, .3, ...: one address may hold at
most 64 connections), each to a seat of one of the tables: most with ``?token=``, some sending the token as their
first message, some with a wrong token (a refusal, then a close). Each reads its first message and closes. After the
round the server is asked (``/metrics``) until it counts no connection but the asking one, and its resident set is
read from ``/proc``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import httpx2 as httpx
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from tests.table.test_kill9 import Server
from tests.waiting import wait_for

ADDRESSES = 60
SETTLE = 60.0  # seconds the server may take to see every close of a round


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@dataclass
class Rounds:
    """The tables' WebSocket URLs (one per seat) of a server, and the RSS measured after each round."""

    server: Server
    urls: list[str] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)

    def open_tables(self, count: int) -> None:
        with httpx.Client(base_url=self.server.url, timeout=30) as http:
            for _ in range(count):
                created = http.post(
                    "/api/tables",
                    json={"scenario": "witchhammer/yard_duel", "controllers": {"bruna": "human", "tomas": "human"}},
                )
                assert created.status_code == 201, created.text
                data = created.json()
                for token in (data["gm"]["token"], *(seat["token"] for seat in data["seats"].values())):
                    self.urls.append(f"ws://127.0.0.1:{self.server.port}/api/tables/{data['table']}/ws?token={token}")

    def round(self, n: int) -> float:
        """One round of ``n`` connections; the server's RSS (MiB) once it has seen them all close."""
        asyncio.run(self._connect_all(n))
        self._settle()
        assert self.server.proc is not None
        self.rss.append(rss_mib(self.server.proc.pid))
        return self.rss[-1]

    async def _connect_all(self, n: int) -> None:
        await asyncio.gather(*(self._one(i) for i in range(n)))

    async def _one(self, i: int) -> None:
        url = self.urls[i % len(self.urls)]
        if i % 10 == 1:  # the token as the first message
            url, _, token = url.partition("?token=")
            first: str | None = json.dumps({"token": token})
        elif i % 10 == 2:  # a wrong token: refused, then closed by the server
            url, first = url.partition("?token=")[0] + "?token=" + "w" * 32, None
        else:
            first = None
        async with connect(
            url, open_timeout=120, close_timeout=30, local_addr=(f"127.0.0.{2 + i % ADDRESSES}", 0)
        ) as ws:
            if first is not None:
                await ws.send(first)
            await asyncio.wait_for(ws.recv(), 120)

    def _settle(self) -> None:
        wait_for(
            lambda: open_connections(self.server) <= 1,
            SETTLE,  # 1: the scrape's own
            "the server to count no connection after the round",
        )

    def growth(self) -> float:
        """RSS growth (MiB) from the first round (the warm-up) to the last."""
        return self.rss[-1] - self.rss[0]

    def least_growth(self) -> float:
        """The smallest RSS growth (MiB) of one round after the warm-up. A leak grows every round; a round that
        happens to reach a higher peak of live connections (a loaded machine runs more of them at once) raises the
        allocator's high-water mark once, which this does not count."""
        return min(after - before for before, after in pairwise(self.rss))


def open_connections(server: Server) -> float:
    text = httpx.get(f"{server.url}/metrics", timeout=30).text
    for family in text_string_to_metric_families(text):
        if family.name == "affray_connections_open":
            return float(family.samples[0].value)
    raise AssertionError("no affray_connections_open in /metrics")
