"""A table's log checked the way docs/table.md ("The GM's tools", the log) tells a user to: a real ``affray serve``
on a free loopback port, a fight played to its end over the HTTP API with every kind of record and table line (an
action, a player's take back, a GM ruling, a chat line, a whisper, a free roll and a whispered one), ``GET /log``
saved to a file after the end, and ``affray verify FILE`` run as a child process: exit 0 and its sentence.

Rule: X-1 (every roll logged and re-derivable); DESIGN.md contracts 4 and 5. Before the fix, ``affray verify``
refused such a log at its shape check (``records[2].kind: 'action' or 'undo' (got 'gm')``) while the library's
``verify()``, which the other tests call, accepted it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.cli_run import affray
from tests.table.test_kill9 import Server
from tests.web.helpers import auth, play_to_end, tokens_of

SEED = 7


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    served = Server(f"sqlite:///{tmp_path / 'affray.db'}")
    served.start()
    yield served
    served.kill()


def ok(answer: httpx.Response) -> Any:
    assert answer.status_code == 200, answer.text
    return answer.json()


def dice_in(log: dict[str, Any]) -> int:
    """Every logged die: the setup's, every record's and the free rolls' (what ``verify`` re-derives)."""
    events = [*log["setup_events"], *(e for record in log["records"] for e in record["events"])]
    rolled = sum(len(e["roll"]["dice"]) for e in events if e["type"] == "rolled")
    return rolled + sum(len(r["roll"]["dice"]) for r in log["free_rolls"])


def test_affray_verify_accepts_a_served_log_with_every_kind_of_record(server: Server, tmp_path: Path) -> None:
    created = httpx.post(
        f"{server.url}/api/tables",
        timeout=30,
        json={"scenario": "witchhammer/yard_duel", "seed": SEED, "controllers": {"bruna": "human", "tomas": "human"}},
    )
    assert created.status_code == 201, created.text
    table, tokens = created.json()["table"], tokens_of(created.json())
    with httpx.Client(base_url=server.url, timeout=30) as client:
        at = f"/api/tables/{table}"
        bruna, gm = auth(tokens["bruna"]), auth(tokens["gm"])
        # an action, then the player's own take back (an undo record: nothing was revealed since)
        state = ok(client.get(at, headers=bruna))
        spec = state["legal"]["bruna"][0]
        ok(
            client.post(
                f"{at}/actions",
                headers=bruna,
                json={"actor": "bruna", "action": spec["action"], "version": state["version"], "id": "b-0"},
            )
        )
        assert ok(client.post(f"{at}/take_back", headers=bruna, json={"version": 1})) == {"version": 2}
        # a GM ruling (a record of kind gm): Tomas's Health down to 3, so the fight ends soon
        ruled = ok(
            client.post(
                f"{at}/gm/adjust",
                headers=gm,
                json={
                    "version": 2,
                    "id": "rule-1",
                    "reason": "a bruise from yesterday",
                    "changes": [{"combatant": "tomas", "bar": "Health", "value": 3}],
                },
            )
        )
        assert [e["type"] for e in ruled["events"]][:1] == ["ruled"]
        # chat and free rolls, to everyone and whispered to the GM (not records: lines beside the log)
        for body in ({"text": "Guard up!", "to": None}, {"text": "I feint left.", "to": "gm"}):
            ok(client.post(f"{at}/chat", headers=bruna, json=body))
        for body in ({"notation": "2d6+1", "to": None}, {"notation": "1d20", "to": "gm"}):
            ok(client.post(f"{at}/roll", headers=bruna, json=body))
        end = play_to_end(client, table, tokens, SEED)
        assert end["outcome"] is not None
        log = ok(client.get(f"{at}/log", headers=gm))
    assert {"action", "undo", "gm"} <= {record["kind"] for record in log["records"]}
    assert [r["notation"] for r in log["free_rolls"]] == ["2d6+1", "1d20"]  # the GM reads the whispered one too
    saved = tmp_path / "fight.json"
    saved.write_text(json.dumps(log))
    done = affray("verify", str(saved), process=True)  # the user's command, in its own process
    assert done.returncode == 0, done.stdout + done.stderr
    actions = sum(record["kind"] == "action" for record in log["records"])
    sentence = (
        f"verified: seed matches its commitment; {dice_in(log)} dice re-derived (with 2 free rolls), "
        f"{actions} actions replayed, events identical."
    )
    assert re.sub(r"\s+", " ", done.stdout).strip() == sentence
