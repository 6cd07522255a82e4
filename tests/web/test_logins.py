"""Failed logins limited per client address and network (docs/table.md, "Limits"), against a real ``affray
serve``: 300 random tokens from one address get 20 refusals (401) and then 429 ``too_many_failures``, each without a
database lookup; a seat with a valid token at the same address still reads and acts; wrong tokens spread over many
addresses of one network exhaust the network's budget, not the table's. Loopback has many addresses (127.0.0.2,
.3, ...): each client below is bound to its own."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from websockets.sync.client import connect

from affray.web.limits import RateLimiter
from affray.web.logins import ADDRESS_FAILURES, NETWORK_FAILURES, FailedLogins
from tests.table.test_kill9 import Server, new_yard_duel
from tests.web.helpers import auth


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("logins")
    served = Server(f"sqlite:///{folder / 'affray.db'}", log=folder / "server.log")
    served.start()
    yield served
    served.kill()
    assert "Traceback" not in (served.log or Path()).read_text()


def client(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)


def act(http: httpx.Client, server: Server, table: str, token: str) -> int:
    """Read the seat and take its first legal action: the status of the action."""
    state = http.get(f"{server.url}/api/tables/{table}", headers=auth(token))
    assert state.status_code == 200, state.text
    actor, specs = next((a, s) for a, s in state.json()["legal"].items() if s)
    body = {"actor": actor, "action": specs[0]["action"], "version": state.json()["version"]}
    return http.post(f"{server.url}/api/tables/{table}/actions", json=body, headers=auth(token)).status_code


def test_wrong_tokens_from_one_address_get_429_while_a_valid_seat_there_still_acts(server: Server) -> None:
    created = new_yard_duel(server.url, 3)
    table, seat = created["table"], created["seats"]["bruna"]["token"]
    with client("127.0.0.5") as http:
        codes = [
            http.get(f"{server.url}/api/tables/{table}", headers=auth(secrets.token_urlsafe(24))) for _ in range(300)
        ]
        statuses = [answer.status_code for answer in codes]
        assert statuses[:20] == [401] * 20
        assert set(statuses) == {401, 429} and Counter(statuses)[429] >= 270, Counter(statuses)
        assert {answer.json()["code"] for answer in codes if answer.status_code == 429} == {"too_many_failures"}
        assert act(http, server, table, seat) == 200
    with connect(
        f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws?token={seat}",
        open_timeout=30,
        source_address=("127.0.0.5", 0),
    ) as ws:
        assert '"seat":"bruna"' in str(ws.recv(timeout=30)).replace(" ", "")
    with client("127.0.0.6") as other:  # another address is not held to the first one's failures
        assert other.get(f"{server.url}/api/tables/{table}", headers=auth("x" * 32)).status_code == 401


def test_wrong_tokens_over_many_addresses_of_one_network_exhaust_its_budget_not_the_tables(server: Server) -> None:
    """Failures count against the guesser's network (an IPv4 /24), never against the table: a seat elsewhere and a
    fresh address elsewhere are not held to them."""
    created = new_yard_duel(server.url, 3)
    table, seat = created["table"], created["seats"]["bruna"]["token"]
    per_address = int(ADDRESS_FAILURES[0]) - 1  # under each address's own limit
    statuses = []
    for n in range(int(NETWORK_FAILURES[0]) // per_address + 2):
        with client(f"127.0.1.{n + 1}") as http:
            statuses += [
                http.get(f"{server.url}/api/tables/{table}", headers=auth(secrets.token_urlsafe(24))).status_code
                for _ in range(per_address)
            ]
    assert statuses[:100] == [401] * 100 and Counter(statuses[100:])[429] >= per_address
    with client("127.0.1.200") as http:  # a fresh address of that network: the network's budget stops it
        fresh = [http.get(f"{server.url}/api/tables/{table}", headers=auth("y" * 32)).status_code for _ in range(5)]
        assert 429 in fresh, fresh
        assert act(http, server, table, seat) == 200
    with client("127.0.2.1") as http:  # another network, at the same table: its own budget
        assert http.get(f"{server.url}/api/tables/{table}", headers=auth("y" * 32)).status_code == 401


def test_the_failure_budgets_refill_with_time() -> None:
    """20 failures at once from an address, then one every 6 s; its network's 100, then one every 2 s."""
    clock = [0.0]
    logins = FailedLogins(
        RateLimiter(rate=ADDRESS_FAILURES[1], burst=ADDRESS_FAILURES[0], clock=lambda: clock[0]),
        RateLimiter(rate=NETWORK_FAILURES[1], burst=NETWORK_FAILURES[0], clock=lambda: clock[0]),
    )
    for _ in range(20):
        logins.check("10.0.0.1")
        logins.failed("10.0.0.1")
    with pytest.raises(Exception, match="Too many wrong tokens"):
        logins.check("10.0.0.1")
    logins.check("10.0.0.2")  # another address
    clock[0] = 5.9
    with pytest.raises(Exception, match="Too many wrong tokens"):
        logins.check("10.0.0.1")
    clock[0] = 6.0
    logins.check("10.0.0.1")
