"""``affray serve --ws-compression`` (docs/table.md): WebSocket messages are compressed (permessage-deflate) only
when the operator turns it on; either way the seat gets the same message."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2 as httpx
import pytest
from websockets.sync.client import connect

from tests.table.test_kill9 import Server


@pytest.mark.parametrize("options, compressed", [((), False), (("--ws-compression",), True)])
def test_the_server_offers_compression_only_when_told_to(
    tmp_path: Path, options: tuple[str, ...], compressed: bool
) -> None:
    server = Server(f"sqlite:///{tmp_path / 'affray.db'}", options=options)
    server.start()
    try:
        created = httpx.post(
            f"{server.url}/api/tables",
            timeout=30,
            json={"scenario": "witchhammer/yard_duel", "seed": 5, "controllers": {"bruna": "human", "tomas": "human"}},
        ).json()
        token = created["seats"]["bruna"]["token"]
        with connect(
            f"ws://127.0.0.1:{server.port}/api/tables/{created['table']}/ws?token={token}", open_timeout=30
        ) as ws:  # the client offers permessage-deflate by default
            assert ws.response is not None
            extensions = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
            assert ("permessage-deflate" in extensions) is compressed
            message = json.loads(ws.recv(timeout=30))
        assert message["seat"] == "bruna" and message["version"] == 0 and message["legal"]
    finally:
        server.kill()
