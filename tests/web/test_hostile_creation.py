"""Creation is bounded (docs/table.md, "Limits: a server on a public address"), each attack as it was
made, against real ``affray serve`` processes on free ports of 127.0.0.1 (a trusted proxy's ``X-Forwarded-For`` names
the client, as behind the documented proxy), and the CPU budget in process where a clock is needed:

- a server others can reach (``--host`` not loopback, or ``--forwarded-allow-ips``) will not start without a
  creation key (or ``--open-creation``, which warns): a sentence, exit 2, no traceback;
- a keyed server opens tables and checks scenarios only with its key, counting wrong keys against the guesser; a
  loopback server without a key serves only its own machine; scenario checks are held to 5 a second (20 at once);
- tables whose combatants the server plays are charged to the opener's and the server's CPU budgets: spent, a new
  one is 429 ``cpu_budget_spent`` (tables people play are still opened), a running one stops moving until the budget
  refills, then plays on;
- 2,457 self-playing tables once took 1 GB of memory that never came back: here rounds of self-playing tables leave
  memory (``--idle-evict 1``) and the server's resident memory after each round stays within 5 MiB of where the first
  round left it;
- the lobby takes the key from its link's fragment, or asks for it once, and keeps it (a browser).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import expect

from affray.store import Store
from affray.table import Refusal, TableService, budget
from affray.table.budget import OPEN_CHARGE, CpuBudget
from affray.web.app import CHECK_BURST, CHECK_RATE
from affray.web.logins import ADDRESS_FAILURES
from affray.web.server import MIN_CREATE_KEY
from tests.cli_run import affray
from tests.table.test_kill9 import Server, free_port
from tests.waiting import wait_for
from tests.web.browser import chromium, open_seat
from tests.web.helpers import auth
from tests.web.rounds import rss_mib

KEY = "k3y-" + "x" * 28
SELF_PLAYING = {"scenario": "witchhammer/mill_ambush"}  # every combatant the heuristic's, by default
PEOPLE = {"scenario": "witchhammer/yard_duel", "controllers": {"bruna": "human", "tomas": "human"}}


def keyed(key: str | None = KEY, address: str | None = None) -> dict[str, str]:
    """The headers of a request with ``key`` from ``address`` (forwarded by the trusted proxy, 127.0.0.1)."""
    return {
        **({"X-Create-Key": key} if key is not None else {}),
        **({"X-Forwarded-For": address} if address is not None else {}),
    }


def open_table(server: Server, body: dict[str, Any], **headers: str) -> httpx.Response:
    return httpx.post(f"{server.url}/api/tables", json=body, headers=headers, timeout=30)


def check(server: Server, **headers: str) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/scenarios/check", json={"scenario": "witchhammer/yard_duel"}, headers=headers, timeout=30
    )


def running(folder: Path, name: str, *options: str) -> Server:
    served = Server(f"sqlite:///{folder / f'{name}.db'}", log=folder / f"{name}.log", options=options)
    served.start()
    return served


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("creation")


@pytest.fixture(scope="module")
def keyed_server(folder: Path) -> Iterator[Server]:
    served = running(folder, "keyed", "--create-key", KEY)
    yield served
    served.kill()
    assert "Traceback" not in (folder / "keyed.log").read_text()


@pytest.fixture(scope="module")
def open_server(folder: Path) -> Iterator[Server]:
    served = running(folder, "open")
    yield served
    served.kill()
    assert "Traceback" not in (folder / "open.log").read_text()


# -- who may open tables ---------------------------------------------------------------------------------------------

PROXIED = "a server behind a proxy (--forwarded-allow-ips) needs a creation key"


@pytest.mark.parametrize(
    ("options", "env", "said"),
    [
        (("--host", "0.0.0.0"), {}, "a server other machines can reach (--host 0.0.0.0) needs a creation key"),
        (("--host", "::"), {}, "a server other machines can reach (--host ::) needs a creation key"),
        (("--forwarded-allow-ips", "127.0.0.1"), {}, PROXIED),
        ((), {"FORWARDED_ALLOW_IPS": "10.0.0.1"}, PROXIED),
        (
            ("--host", "0.0.0.0", "--create-key", "sesame"),
            {},
            f"--create-key needs at least {MIN_CREATE_KEY} characters",
        ),
        (("--create-key", KEY, "--open-creation"), {}, "--create-key and --open-creation contradict each other"),
    ],
    ids=["any-ipv4", "any-ipv6", "forwarded", "forwarded-env", "short-key", "both"],
)
def test_a_server_others_can_reach_will_not_start_without_a_key(
    tmp_path: Path, options: tuple[str, ...], env: dict[str, str], said: str
) -> None:
    done = affray("serve", "--port", str(free_port()), "--db", f"sqlite:///{tmp_path / 'affray.db'}", *options, env=env)
    assert done.returncode == 2, done
    assert said in done.stderr, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert not (tmp_path / "affray.db").exists()  # refused before the database is opened


def test_open_creation_warns_and_lets_anyone_open_tables(folder: Path) -> None:
    served = running(folder, "anyone", "--forwarded-allow-ips", "127.0.0.1", "--open-creation")
    try:
        assert open_table(served, PEOPLE, **keyed(None, "203.0.113.9")).status_code == 201
    finally:
        served.kill()
    assert (
        "warning: --open-creation: anyone who reaches this server may open tables"
        in (folder / "anyone.log").read_text()
    )


def test_a_keyed_server_opens_tables_and_checks_scenarios_only_with_its_key(keyed_server: Server) -> None:
    for headers in (keyed(None), keyed("wrong-" + KEY)):
        for refused in (open_table(keyed_server, PEOPLE, **headers), check(keyed_server, **headers)):
            assert refused.status_code == 401 and refused.json()["code"] == "bad_create_key", refused.text
    assert open_table(keyed_server, PEOPLE, **keyed()).status_code == 201
    checked = check(keyed_server, **keyed())
    assert checked.status_code == 200 and checked.json()["ruleset"] == "witchhammer"


def test_wrong_creation_keys_count_against_the_guesser(keyed_server: Server) -> None:
    """Guessing the key from one address: its 20 failures, then 429 ``too_many_failures``; the key from another
    address still opens a table."""
    statuses = [
        open_table(keyed_server, PEOPLE, **keyed(f"guess-{n:04d}-" + "x" * 20, "203.0.113.50")).status_code
        for n in range(int(ADDRESS_FAILURES[0]) + 5)
    ]
    assert statuses[: int(ADDRESS_FAILURES[0])] == [401] * int(ADDRESS_FAILURES[0])
    assert statuses[int(ADDRESS_FAILURES[0]) :] == [429] * 5
    assert open_table(keyed_server, PEOPLE, **keyed(KEY, "203.0.113.50")).json()["code"] == "too_many_failures"
    assert open_table(keyed_server, PEOPLE, **keyed(KEY, "198.51.100.7")).status_code == 201


def test_scenario_checks_are_held_to_a_rate_fit_for_a_page_that_checks_as_one_types(keyed_server: Server) -> None:
    """30 checks as fast as they go from one address: the first 20 (the burst) are answered, then 429
    ``rate_limited`` beyond 5 a second; another address is answered meanwhile."""
    started = time.monotonic()
    answers = [check(keyed_server, **keyed(KEY, "203.0.113.60")) for _ in range(30)]
    elapsed = time.monotonic() - started
    statuses = [a.status_code for a in answers]
    assert statuses[: int(CHECK_BURST)] == [200] * int(CHECK_BURST)
    assert statuses.count(200) <= CHECK_BURST + CHECK_RATE * elapsed + 1, (statuses, elapsed)
    assert {a.json()["code"] for a in answers if a.status_code != 200} == {"rate_limited"}
    assert check(keyed_server, **keyed(KEY, "203.0.113.61")).status_code == 200


def test_a_loopback_server_without_a_key_opens_tables_for_its_own_machine_only(open_server: Server) -> None:
    assert open_table(open_server, PEOPLE).status_code == 201
    for refused in (
        open_table(open_server, PEOPLE, **keyed(None, "203.0.113.7")),
        check(open_server, **keyed(None, "203.0.113.7")),
    ):
        assert refused.status_code == 403 and refused.json()["code"] == "create_key_needed", refused.text
        assert "--create-key" in refused.json()["message"]


# -- the CPU budget --------------------------------------------------------------------------------------------------


def test_self_playing_tables_are_refused_once_the_cpu_budget_is_spent(folder: Path) -> None:
    """Budgets of 0.25 CPU s per address and 0.45 in all, and policies that never move (their pause is an hour), so
    that only the openings count (0.1 s each): one address opens 3 self-playing tables and its 4th is 429 with a
    sentence, while a table people play opens; a second address opens 2 before the whole budget is spent; a third
    then opens none."""
    served = running(
        folder,
        "budget",
        "--create-key",
        KEY,
        "--ai-cpu-per-address",
        "0.25",
        "--ai-cpu-total",
        "0.45",
        "--policy-pause",
        "3600",
    )
    try:
        first = [open_table(served, SELF_PLAYING, **keyed(KEY, "203.0.113.1")) for _ in range(4)]
        assert [a.status_code for a in first] == [201, 201, 201, 429]
        assert first[3].json()["code"] == "cpu_budget_spent"
        assert "your address's tables have spent the CPU time" in first[3].json()["message"]
        assert open_table(served, PEOPLE, **keyed(KEY, "203.0.113.1")).status_code == 201  # nothing the server plays
        second = [open_table(served, SELF_PLAYING, **keyed(KEY, "203.0.113.2")).status_code for _ in range(3)]
        assert second == [201, 201, 429]
        third = open_table(served, SELF_PLAYING, **keyed(KEY, "203.0.113.3"))
        assert third.status_code == 429 and "the tables of this server have spent" in third.json()["message"]
    finally:
        served.kill()
    assert "Traceback" not in (folder / "budget.log").read_text()


def test_a_self_playing_table_stops_moving_while_its_budget_is_spent(folder: Path) -> None:
    """Search policies for the hunters (some 1.3 s of CPU for the fight) with 0.12 CPU s for the address, refilled
    over ten minutes: after its first moves the table stops where it is (a 3 s long-poll sees no move, where the
    policies move every few tens of milliseconds), while a table people play at the same address goes on."""
    served = running(folder, "paused", "--create-key", KEY, "--ai-cpu-per-address", "0.12")
    try:
        hunters = {"scenario": "witchhammer/mill_ambush", "controllers": {"ilse": "search", "tomas": "search"}}
        created = open_table(served, hunters, **keyed(KEY, "203.0.113.4"))
        assert created.status_code == 201, created.text
        table, gm = created.json()["table"], created.json()["gm"]["token"]
        with httpx.Client(base_url=served.url, headers=auth(gm), timeout=30) as http:
            version = http.get(f"/api/tables/{table}").json()["version"]
            for _ in range(5):  # each long-poll returns at the next move, if any: until one sees none in 3 s
                after = http.get(f"/api/tables/{table}", params={"since": version, "timeout": 3}).json()
                if after["version"] == version:
                    break
                version = after["version"]
            else:
                raise AssertionError(f"the table kept moving, at version {version}")
            assert after["outcome"] is None
        people = open_table(served, PEOPLE, **keyed(KEY, "203.0.113.4")).json()
        token = people["seats"]["bruna"]["token"]
        state = httpx.get(f"{served.url}/api/tables/{people['table']}", headers=auth(token), timeout=30).json()
        acted = httpx.post(
            f"{served.url}/api/tables/{people['table']}/actions",
            headers=auth(token),
            timeout=30,
            json={"actor": "bruna", "action": state["legal"]["bruna"][0]["action"], "version": state["version"]},
        )
        assert acted.status_code == 200, acted.text
    finally:
        served.kill()
    assert "Traceback" not in (folder / "paused.log").read_text()


def test_cpu_budget_buckets_charge_refuse_and_refill() -> None:
    now = [0.0]
    cpu = CpuBudget(0.25, 10.0, clock=lambda: now[0], refill=(1.0, 100.0))  # 0.25 CPU s a second for an address
    for _ in range(3):
        cpu.open("a")
    assert cpu.left("a")[0] == pytest.approx(0.25 - 3 * OPEN_CHARGE)
    with pytest.raises(Refusal) as spent:
        cpu.open("a")
    assert spent.value.status == 429 and spent.value.code == "cpu_budget_spent"
    assert cpu.wait("a") == pytest.approx(0.05 / 0.25, abs=2e-3)
    cpu.open("b")  # another address's budget
    now[0] += 0.3  # refilled past zero
    assert cpu.wait("a") == 0
    cpu.charge("a", 1.0)  # a move's measured CPU
    assert cpu.left("a")[0] == pytest.approx(0.25 - 3 * OPEN_CHARGE + 0.3 * 0.25 - 1.0)
    assert cpu.left("b")[1] == pytest.approx(10.0 - 4 * OPEN_CHARGE - 1.0 + 0.3 * 0.1)


def test_a_paused_table_plays_on_when_its_budget_refills(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In process: a self-playing fight (WitchHammer's witch hut, some 60 ms of CPU) opened for an address with 0.105
    CPU s, refilled at 0.21 a second: its policies pause at least once and the fight still ends, and the CPU its
    moves took is charged to that address."""
    pauses: list[float] = []
    run = budget.run

    def counted(job: Any) -> float | None:
        paused = run(job)
        if paused is not None:
            pauses.append(paused)
        return paused

    monkeypatch.setattr(budget, "run", counted)
    cpu = CpuBudget(0.105, 100.0, refill=(0.5, 1e6))  # the whole budget hardly refills: what was charged stays
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as store:
        service = TableService(store, policy_pause=0)
        try:
            marker = budget.paying(cpu, "203.0.113.5")
            try:
                created = service.create("witchhammer/witch_hut")
            finally:
                budget.reset(marker)
            table = service.table(created["table"])
            wait_for(lambda: table.over, 60, "the paused fight to end")
        finally:
            service.close()
    assert pauses, "the policies never paused"
    assert cpu.left("203.0.113.5")[1] < 100.0 - OPEN_CHARGE - 0.01  # its moves' CPU, charged


# -- memory comes back -----------------------------------------------------------------------------------------------

ROUND, ADDRESSES, RSS_MARGIN = 36, 6, 5.0  # tables a round, from as many addresses; MiB the rounds may add


def test_memory_comes_back_after_rounds_of_self_playing_tables(folder: Path) -> None:
    """Rounds of 36 self-playing tables (WitchHammer's mill ambush, with the key, from 6 addresses: within every
    limit), each played to its end and gone from memory (``--idle-evict 1``): after the first round, two more leave
    the server's resident memory within 5 MiB of where the first left it. (Kept in memory, 60 of them held 11 MiB
    more a round, measured: 1 GB once for 2,457 tables.)"""
    served = running(folder, "memory", "--create-key", KEY, "--idle-evict", "1")
    log = folder / "memory.log"
    assert served.proc is not None
    after: list[float] = []
    try:
        for n in range(3):
            with ThreadPoolExecutor(ADDRESSES) as opening:
                list(
                    opening.map(
                        lambda i: [
                            open_table(served, SELF_PLAYING, **keyed(KEY, f"203.0.113.{i + 20}")).raise_for_status()
                            for _ in range(ROUND // ADDRESSES)
                        ],
                        range(ADDRESSES),
                    )
                )
            gone = ROUND * (n + 1)
            wait_for(lambda: left_memory(log) >= gone, 60, "the round's tables to leave memory")  # noqa: B023
            after.append(rss_mib(served.proc.pid))
    finally:
        served.kill()
    assert after[-1] - after[0] < RSS_MARGIN, f"resident memory after each round (MiB): {after}"
    assert "Traceback" not in log.read_text()


def left_memory(log: Path) -> int:
    """How many tables the server's log says left memory (table/residency.py's line)."""
    return sum(int(n) for n in re.findall(r"(\d+) idle table\(s\) left memory", log.read_text()))


# -- the lobby keeps the key -----------------------------------------------------------------------------------------


def test_the_lobby_takes_the_key_from_its_link_or_asks_once_and_keeps_it(keyed_server: Server) -> None:
    """A browser opened at ``/#key=KEY`` (what ``make run`` prints) keeps the key, clears it from the address bar
    and opens a table; another browser, opened at ``/``, is asked for the key when the server refuses, and once it
    typed it opens a table, and the next one without being asked."""
    with chromium() as browser:
        linked = open_seat(browser, f"{keyed_server.url}/?example=witchhammer/yard_duel#key={KEY}")
        linked.page.wait_for_selector('#example option[value="witchhammer/yard_duel"]', state="attached")
        assert "key" not in linked.page.url
        linked.page.click("#create")
        linked.page.wait_for_url(re.compile(r"/t/"), timeout=15_000)

        asked = open_seat(browser, f"{keyed_server.url}/?example=witchhammer/yard_duel")
        asked.page.wait_for_selector('#example option[value="witchhammer/yard_duel"]', state="attached")
        asked.page.click("#create")
        expect(asked.page.locator("#key-box")).to_be_visible(timeout=10_000)
        expect(asked.page.locator("#problems")).to_contain_text("creation key")
        asked.page.fill("#create-key", KEY)
        asked.page.click("#create")
        asked.page.wait_for_url(re.compile(r"/t/"), timeout=15_000)
        asked.page.goto(f"{keyed_server.url}/?example=witchhammer/yard_duel")
        asked.page.wait_for_selector('#example option[value="witchhammer/yard_duel"]', state="attached")
        asked.page.click("#create")
        asked.page.wait_for_url(re.compile(r"/t/"), timeout=15_000)
        assert linked.errors == [] and asked.errors == []
        assert Counter(r for r in asked.requests if r == "POST /api/tables")["POST /api/tables"] == 3
