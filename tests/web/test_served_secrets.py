"""The secrets every seat could read off a table on a public address, attacked as a seat would:
a real ``affray serve`` on a free loopback port, driven over its HTTP API, each attack with one seat's token and
what that seat's answers hold (docs/table.md, "The security model"). DESIGN.md contract 6; Rules: X-1, X-5.

- a hidden GM ruling (a WaRP extra's HP) is in no record a player reads, neither its action nor its events;
- a face-down card is not found by hashing the candidates against the chain head a seat reads, nor by opening its
  seal with salts derived from a public seed found from the commitment; after the end the whole log verifies against
  the head the seat kept (``affray verify --head``);
- a whispered free roll is not re-derived by a third seat after the end (the seed and every revealed key tried), the
  chat's numbers show that seat no gap, its public rolls' draws count no whisper, and ``affray verify`` says which
  rolls a log gives no key for.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from affray.core.chain import link
from affray.core.log import verify
from affray.core.rng import FREE_STREAM, WHISPER_STREAM, commitment_of, derive_die, derive_salt, seed_from_int
from affray.core.sealed import digest_of
from tests.cli_run import affray
from tests.table.test_kill9 import Server
from tests.web.helpers import auth, play_to_end, tokens_of

SEED = 7  # a public seed: anyone finds it from the commitment by trying integers


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    served = Server(f"sqlite:///{tmp_path_factory.mktemp('served') / 'affray.db'}")
    served.start()
    yield served
    served.kill()


@pytest.fixture
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as opened:
        yield opened


def ok(answer: httpx.Response) -> Any:
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def open_table(client: httpx.Client, scenario: str, controllers: dict[str, str]) -> tuple[str, dict[str, str]]:
    created = ok(client.post("/api/tables", json={"scenario": scenario, "seed": SEED, "controllers": controllers}))
    return created["table"], tokens_of(created)


def found_seed(commitment: str) -> bytes:
    """The public seed, found from the commitment every seat reads by trying integers."""
    return next(seed_from_int(n) for n in range(10_000) if commitment_of(seed_from_int(n)) == commitment)


def test_a_hidden_ruling_is_in_no_record_a_player_reads(client: httpx.Client) -> None:
    """The GM sets a Dock Thug's HP (GM-level in WaRP). Every other seat's message and log hold the ruling
    record without that change, in its action as in its events; the GM's holds it whole."""
    table, tokens = open_table(
        client, "warp/melee_brawl", {"dana": "human", "theo": "human", "thug1": "gm", "thug2": "gm", "thug3": "gm"}
    )
    at, gm = f"/api/tables/{table}", auth(tokens["gm"])
    version = ok(client.get(at, headers=gm))["version"]
    ok(
        client.post(
            f"{at}/gm/adjust",
            headers=gm,
            json={
                "version": version,
                "id": "r1",
                "reason": "hurt before",
                "changes": [
                    {"combatant": "thug1", "bar": "HP", "value": 3},
                    {"combatant": "dana", "bar": "HP", "value": 5},
                ],
            },
        )
    )
    needle = json.dumps({"bar": "HP", "combatant": "thug1", "value": 3}, sort_keys=True)[:-1]  # with "was" too
    for seat in ("dana", "theo", "spectator", "gm"):
        message = ok(client.get(at, headers=auth(tokens[seat])))
        log = ok(client.get(f"{at}/log", headers=auth(tokens[seat])))["log"]
        ruling = [record for record in message["log"] if record["kind"] == "gm"]
        assert [r["action"] for r in ruling] == [r["action"] for r in log if r["kind"] == "gm"] and len(ruling) == 1
        seen = needle in json.dumps([message, log], sort_keys=True)
        if seat == "gm":
            assert seen and ruling[0]["action"]["changes"][0] == {"combatant": "thug1", "bar": "HP", "value": 3}
            continue
        assert not seen, seat
        assert ruling[0]["action"] == {
            "type": "ruling",
            "reason": "hurt before",
            "unseen": ["thug1"],
            "changes": [{"combatant": "dana", "bar": "HP", "value": 5}],
        }
        assert [event["changes"] for event in ruling[0]["events"]] == [
            [{"combatant": "dana", "bar": "HP", "value": 5, "was": 21}],
            [],
        ]


def test_a_face_down_card_is_found_neither_from_the_head_nor_from_a_public_seed(
    client: httpx.Client, tmp_path: Path
) -> None:
    """Tomas reads the chain head before and after Bruna places a card face down, and her record as
    a commit. Hashing each card she could have placed into the record, as the chain used to, gives no head; the
    seed, found from the commitment, salts no candidate into her seal's digest. After the end the log Tomas fetches
    verifies through the head he kept, by the library and by ``affray verify --head``."""
    table, tokens = open_table(client, "witchhammer/yard_duel", {"bruna": "human", "tomas": "human"})
    at, bruna, tomas = f"/api/tables/{table}", auth(tokens["bruna"]), auth(tokens["tomas"])
    before = ok(client.get(at, headers=tomas))
    own = ok(client.get(at, headers=bruna))
    specs = [s["action"] for s in own["legal"]["bruna"]]
    placed = next(a for a in specs if a.get("card") or a.get("cards"))
    ok(
        client.post(
            f"{at}/actions",
            headers=bruna,
            json={"actor": "bruna", "action": placed, "version": own["version"], "id": "b-0"},
        )
    )
    after = ok(client.get(at, headers=tomas))
    record = after["log"][-1]
    assert record["action"]["type"] == "commit" and "card" not in json.dumps(record["action"])
    base = {"seq": record["seq"], "kind": "action", "seat": "bruna", "actor": "bruna"}
    assert placed in specs and not [a for a in specs if link(before["chain"], {**base, "action": a}) == after["chain"]]
    seed = found_seed(after["commitment"])
    cards = {c for a in specs for c in ([a["card"]] if a.get("card") else a.get("cards") or [])}
    for seal in record["action"]["seals"]:
        vignette, slot = int(seal["seal"].split(".")[0][1:]), seal["seal"].split(".")[2]
        slots = [0] if slot == "psych" else [int(slot.removeprefix("slot"))]
        opened = [
            card
            for card in cards
            for s in slots
            for i in range(16)
            if digest_of({"card": card, "slot": s, "vignette": vignette}, derive_salt(seed, i)) == seal["digest"]
        ]
        assert opened == [], seal
    kept = after["chain"]
    end = play_to_end(client, table, tokens, SEED)
    assert end["outcome"] is not None
    log = ok(client.get(f"{at}/log", headers=tomas))
    report = verify(log, head=kept)
    assert report.ok and report.unchecked == [], report.problems
    saved = tmp_path / "fight.json"
    saved.write_text(json.dumps(log))
    assert affray("verify", str(saved), "--head", kept).returncode == 0
    assert affray("verify", str(saved), "--head", before["chain"][::-1]).returncode == 1


def test_a_whisper_roll_is_not_rederived_by_a_third_seat_and_the_chat_shows_no_gap(
    client: httpx.Client, tmp_path: Path
) -> None:
    """Ilse rolls in the open, the GM whispers Tomas a roll of 6d20, Ilse rolls again. Ilse's chat is
    numbered 0, 1 and her second roll's draws follow her first's; after the end the seed and every key the log
    reveals, on every stream, give no run of six d20 equal to the whisper's. Tomas's log verifies the whisper with
    its pair's key; without it ``affray verify`` passes and says the roll was not checked."""
    table, tokens = open_table(client, "witchhammer/mill_ambush", {"ilse": "human", "tomas": "human"})
    at = f"/api/tables/{table}"
    first = ok(client.post(f"{at}/roll", headers=auth(tokens["ilse"]), json={"notation": "2d6", "to": None}))
    whisper = ok(client.post(f"{at}/roll", headers=auth(tokens["gm"]), json={"notation": "6d20", "to": "tomas"}))
    second = ok(client.post(f"{at}/roll", headers=auth(tokens["ilse"]), json={"notation": "1d6", "to": None}))
    assert (first["n"], second["n"], first["first"], second["first"]) == (0, 1, 0, 2)
    for seat, count in (("ilse", 2), ("spectator", 2), ("tomas", 3), ("gm", 3)):
        chat = ok(client.get(at, headers=auth(tokens[seat])))["chat"]
        assert [line["n"] for line in chat] == list(range(count)), seat
    ok(client.post(f"{at}/gm/end", headers=auth(tokens["gm"])))
    dice = [d["value"] for d in whisper["roll"]["dice"]]
    ilse_log = ok(client.get(f"{at}/log", headers=auth(tokens["ilse"])))
    assert [r["notation"] for r in ilse_log["free_rolls"]] == ["2d6", "1d6"]
    keys = [bytes.fromhex(ilse_log[k]) for k in ("seed", "seal_key", "chain_key")]
    for key in keys:
        for stream in (FREE_STREAM, WHISPER_STREAM, ""):
            runs = [[derive_die(key, i + k, 20, stream) for k in range(6)] for i in range(40)]
            assert dice not in runs, stream
    tomas_log = ok(client.get(f"{at}/log", headers=auth(tokens["tomas"])))
    report = verify(tomas_log)
    assert report.ok and report.free_rolls_checked == 3 and report.unchecked == [], report.problems
    held = next(r for r in tomas_log["free_rolls"] if r["to"] == "tomas")
    assert held["n"] == 1 and [derive_die(bytes.fromhex(held["key"]), i, 20, WHISPER_STREAM) for i in range(6)] == dice
    del held["key"]
    report = verify(tomas_log)
    assert report.ok and report.free_rolls_checked == 2
    assert report.unchecked == [
        "free roll #1 (gm to tomas: 6d20) is a whisper this log holds no key for: its dice are not checked"
    ]
    saved = tmp_path / "fight.json"
    saved.write_text(json.dumps(tomas_log))
    done = affray("verify", str(saved))
    assert done.returncode == 0 and "not checked" in done.stdout and "free roll #1" in done.stdout
