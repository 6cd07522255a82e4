"""The in-world HuD's own LSL (integrations/secondlife/affray_hud.lsl, run by lummao: tests/secondlife/harness.py)
against a real ``affray serve`` on 127.0.0.1: seats claimed by code (``/5 join CODE``), fights played to the end
only by dialog answers and die-button touches, free rolls in a Free Form scene, a region change and a server
restart mid-fight, and the exported log checked by ``affray verify``. Second Life's limits are asserted by the
harness on every call. Rules: WL-B2 (the five dice), the Sim HuD's modes; docs/secondlife.md."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from lummao import Key  # type: ignore[import-untyped]

from tests.cli_run import affray
from tests.secondlife.harness import BUTTONS, CHANGED_REGION, NULL, Hud, Region, World, pump
from tests.table.test_kill9 import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    served = Server(f"sqlite:///{tmp_path / 'affray.db'}")
    served.start()
    yield served
    served.kill()


def open_table(server: Server, scenario: str, controllers: dict[str, str]) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/tables", json={"scenario": scenario, "controllers": controllers}, timeout=30)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def code_for(server: Server, table: dict[str, Any], seat: str) -> str:
    """The GM's API: the seat's claim code."""
    gm = {"Authorization": f"Bearer {table['gm']['token']}"}
    answer = httpx.post(f"{server.url}/api/tables/{table['table']}/gm/seats/{seat}/code", headers=gm, timeout=10)
    assert answer.status_code == 200, answer.text
    code: str = answer.json()["code"]
    assert len(code) == 8
    return code


async def seated(world: World, server: Server, table: dict[str, Any], seats: list[str]) -> list[Hud]:
    huds = []
    for seat in seats:
        hud = Hud(world, f"{seat.title()} Resident", server.url)
        await hud.run()  # state_entry: the server from the description, the owner's channel 5
        await hud.chat(5, f"join {code_for(server, table, seat).lower()}")
        huds.append(hud)
    await pump(huds, lambda: all(h.script.gToken and "/5 join" not in h.hover for h in huds))
    assert all(f"Joined table {table['table']}" in " ".join(h.owner_said) for h in huds)
    return huds


def over(huds: list[Hud]) -> bool:
    return all(any(s.startswith("The fight is over") for s in h.owner_said) for h in huds)


async def play(
    huds: list[Hud], moves: int = 400, to_the_end: bool = True, fresh: dict[int, int] | None = None
) -> dict[str, int]:
    """Play ``moves`` moves, or until the fight is over: whenever a HuD shows a new dialog, touch the die button its
    answer maps (the first of the five), or click the dialog's first choice that is not a page or back button.
    ``fresh``: per HuD, how many of its dialogs to pass over (their listeners may be gone)."""
    seen = {id(h): (fresh or {}).get(id(h), 0) for h in huds}
    touched = {"button": 0, "dialog": 0}
    for _ in range(moves):
        await pump(huds, lambda: over(huds) or any(len(h.dialogs) > seen[id(h)] for h in huds))
        if over(huds):
            return touched
        hud = next(h for h in huds if len(h.dialogs) > seen[id(h)])
        seen[id(hud)] = len(hud.dialogs)
        dice = json.loads(hud.script.gDice)
        if dice:
            await hud.touch(next(b for b in BUTTONS if b.lower() in dice))
            touched["button"] += 1
        else:
            dialog = hud.dialogs[-1]
            actions = [b for b in dialog.buttons if b not in ("«", "»", "« Back")]
            await hud.answer(actions[0] if actions else "»")
            touched["dialog"] += 1
    assert not to_the_end, "the fight did not end"
    return touched


def verify_export(server: Server, table: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    gm = {"Authorization": f"Bearer {table['gm']['token']}"}
    at = f"{server.url}/api/tables/{table['table']}"
    log: dict[str, Any] = httpx.get(f"{at}/gm/export", headers=gm, timeout=30).json()
    saved = tmp_path / "fight.json"
    saved.write_text(json.dumps(log))
    done = affray("verify", str(saved), process=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("verified:")
    return log


def test_two_huds_play_a_dice_simplified_duel_to_the_end(server: Server, tmp_path: Path) -> None:
    """Dice Simplified (WL-B2): the attacker's Attack or Damage button, the defender's Defense or Injury button,
    nothing else touched; every roll of the log said once in local chat under the roller's name; the log
    verifies."""
    table = open_table(server, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})

    async def scene() -> World:
        world = World()
        huds = await seated(world, server, table, ["ilka", "drowner"])
        assert "Ilka Reedwhistle" in huds[0].hover and "HP 3/3" in huds[0].hover
        touched = await play(huds)
        assert touched["button"] >= 4 and touched["dialog"] == 0
        assert all(h.cut_bodies == 0 for h in huds)  # every answer fit 2,048 bytes
        assert all(h.throttled == 0 for h in huds)  # never past 25 requests in 20 s
        sent = [len(h.requests) for h in huds]
        await pump(huds, lambda: False, rounds=120, step=1.0, fail=False)  # two minutes after the end
        assert [len(h.requests) for h in huds] == sent  # no more polls once the fight is over
        assert all(sum(s.startswith("The fight is over") for s in h.owner_said) == 1 for h in huds)  # said once
        return world

    world = asyncio.run(scene())
    log = verify_export(server, table, tmp_path)
    rolled = [e for r in log["records"] for e in r["events"] if e["type"] == "rolled"]
    assert rolled and all(e["purpose"] in ("attack", "damage", "defense", "injury") for e in rolled)
    # Each roll said once, under its roller's name (each HuD says its own seat's lines as it hears of them: two
    # HuDs' lines may come in either order, as two players' would in local chat).
    said = [(who, text) for who, text in world.local_chat if " rolls " in text]
    names = {"ilka": "Ilka Reedwhistle", "drowner": "Drowner"}
    assert all(text.startswith(f"{who} rolls ") for who, text in said)
    heard = sorted((who, int(text.split(" = ")[1].split()[0])) for who, text in said)
    assert heard == sorted((names[e["actor"]], e["roll"]["total"]) for e in rolled)


def test_two_huds_play_a_combat_nerdified_fight_to_the_end(server: Server, tmp_path: Path) -> None:
    """Combat Nerdified: each round's declaration chosen step by step in dialogs (the step tree, paged by its
    More... choice), the actions' answers by dialog or die button; the fight ends and the log verifies."""
    table = open_table(server, "hud/nerdified_duel", {"vesna": "human", "hald": "human"})

    async def scene() -> dict[str, int]:
        world = World()
        huds = await seated(world, server, table, ["vesna", "hald"])
        touched = await play(huds)
        assert all(h.cut_bodies == 0 and 0 < h.largest <= 2048 for h in huds)
        assert any("declares" in text for _, text in world.local_chat)
        return touched

    touched = asyncio.run(scene())
    assert touched["dialog"] >= 2
    log = verify_export(server, table, tmp_path)
    assert {"declare"} <= {r["action"]["type"] for r in log["records"] if r["kind"] == "action"}


#: What Bors's five buttons roll in Free Form: his die (WL-01: Chance d11, the others d13, WL-B1) plus his modifier
#: (WL-B2: arming sword attack +1 and damage +0, gambeson light (WL-03: attack penalty 0) with injury +1, the sword's
#: defense +1 and the round shield's +2 in hand; Chance nothing); then Attack again with the owner's own ``/5 mod``.
BORS_FREE_ROLLS = ["1d11", "1d13+1", "1d13+3", "1d13", "1d13+1", "1d13+5"]


def test_a_free_form_scene_rolls_the_five_dice_as_free_rolls(server: Server, tmp_path: Path) -> None:
    """Free Form (WL-00, WL-02): each of the five buttons rolls its die as a free roll with the character's modifier
    the server gives (WL-01, WL-B1, WL-B2), and with the owner's own once set (``/5 mod attack 5``), from the
    table's seed, said in local chat under the character's name; a post takes the owner's own words (llTextBox);
    the exported log's free rolls verify."""
    table = open_table(server, "hud/free_form_tavern", {"bors": "human", "hald": "human"})

    async def scene() -> World:
        world = World()
        huds = await seated(world, server, table, ["bors", "hald"])
        bors = huds[0]
        for button in (*BUTTONS, "mod", "Attack"):
            if button == "mod":
                await bors.chat(5, "mod attack 5")
                continue
            await bors.touch(button)
            await pump(huds, lambda: bors.script.gReq == NULL and not bors.script.gQueued)
        await pump(huds, lambda: sum(" rolls " in t for _, t in world.local_chat) == 6)
        await pump(huds, lambda: bool(bors.dialogs) and "t" in str(bors.script.gChoices))
        post = next(b for b in bors.dialogs[-1].buttons if b.lower().startswith("post"))
        await bors.answer(post)
        while not bors.text_boxes:  # a step on the way to the post: its first choice
            await pump(huds, lambda: bool(bors.text_boxes) or len(bors.dialogs) > 1)
            if not bors.text_boxes:
                await bors.answer(bors.dialogs[-1].buttons[0])
        await bors.type_text("Bors slams his tankard down.")
        await pump(huds, lambda: any("tankard" in t for _, t in world.local_chat))
        return world

    world = asyncio.run(scene())
    rolls = [(who, t) for who, t in world.local_chat if " rolls " in t]
    assert [t.split(" rolls ")[1].split(":")[0] for _, t in rolls] == BORS_FREE_ROLLS
    assert {who for who, _ in rolls} == {"Bors the Ferryman's Son"}
    gm = {"Authorization": f"Bearer {table['gm']['token']}"}
    ended = httpx.post(f"{server.url}/api/tables/{table['table']}/gm/end", headers=gm, timeout=10)
    assert ended.status_code == 200, ended.text
    log = verify_export(server, table, tmp_path)
    assert [r["notation"] for r in log["free_rolls"]] == BORS_FREE_ROLLS


def test_a_region_change_and_a_server_restart_mid_fight(server: Server, tmp_path: Path) -> None:
    """Mid-duel, one HuD changes region (its poll in flight is lost: it polls again) and the server restarts: the
    HuDs back off while it is down (a few requests, not one a second), then play on to the end; the log verifies."""
    table = open_table(server, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})

    async def scene() -> None:
        world = World()
        huds = await seated(world, server, table, ["ilka", "drowner"])
        await play(huds, moves=2, to_the_end=False)
        moved = huds[0]
        moved.region = Region("Toll Bridge")
        await moved.event("changed", CHANGED_REGION)
        await pump(huds, lambda: moved.requests[-1][2]["X-SecondLife-Region"].startswith("Toll Bridge"))
        server.kill()
        before = sum(len(h.requests) for h in huds)
        await pump(huds, lambda: False, rounds=60, step=1.0, fail=False)  # a minute of the world's time, server down
        assert sum(len(h.requests) for h in huds) - before <= 16  # backing off: 2, 4, 8, 16... seconds
        assert all(h.script.gBackoff >= 8 for h in huds)
        server.start()
        await pump(huds, lambda: all(h.script.gBackoff == 0 for h in huds))  # a poll answered again
        fresh = {id(h): len(h.dialogs) for h in huds}
        for hud in huds:  # the owner touches the HuD for the dialog its listener's minute let go
            if hud.script.gChoices != "[]":
                await hud.touch("affray HuD")
        assert any(len(h.dialogs) > fresh[id(h)] for h in huds)
        await play(huds, fresh=fresh)
        assert all(h.cut_bodies == 0 for h in huds)

    asyncio.run(scene())
    verify_export(server, table, tmp_path)


def test_the_hud_backs_off_when_throttled_and_lets_its_dialog_listener_go_after_a_minute() -> None:
    """No server needed: a throttled request (``NULL_KEY``) makes the HuD wait 2 s, then 4...; so does a refusal
    (a table gone: said once, asked again ever more slowly, never every second); two answers to the same story
    cursors say their lines once; a dialog's listener
    (random channel, owner only) is removed 60 s after the dialog; a stranger's words on channel 5 are ignored."""

    async def scene() -> None:
        world = World()
        hud = Hud(world, "Ilka Resident", "http://127.0.0.1:9")
        await hud.run()
        script = hud.script
        script.gChoices, script.gAsk = '[["1", "Roll Attack"]]', "Your move"
        await hud.chat(5, "menu")
        assert hud.dialogs[-1].buttons == ["Roll Attack"] and len(hud.listens) == 2
        assert hud.dialogs[-1].channel < 0  # a random negative channel
        await pump([hud], lambda: len(hud.listens) == 1, rounds=300, pause=0.001)
        assert 60 <= world.now - 1000 <= 62  # a minute after the dialog
        script.gToken, script.gTable = "t" * 32, "table"
        hud.sent = [world.now] * 25  # 25 requests in the last 20 seconds
        await pump([hud], lambda: hud.throttled == 1, pause=0.001)
        assert script.gBackoff == 2.0 and hud.requests == []
        await pump([hud], lambda: hud.throttled == 2, pause=0.001)
        assert script.gBackoff == 4.0
        hud.answer_with = (404, '{"code": "unknown_table", "message": "No such table."}')
        hud.sent, script.gBackoff, script.gResumeAt = [], 0.0, 0.0
        await pump([hud], lambda: False, rounds=120, step=1.0, fail=False, pause=0.001)  # two minutes, a gone table
        assert 3 <= len(hud.requests) <= 6  # after 2, 4, 8, 16, 32... seconds, not every second
        assert hud.owner_said.count("The server said 404: No such table.") == 1
        # Two answers to the same cursors (a page read while the poll was out): their lines are said once.
        body = json.dumps({"v": 3, "l": 3, "c": 0, "from": [0, 0], "n": "Ilka", "t": "Ilka", "say": ["Ilka rolls 9"]})
        hud.answer_with, script.gBackoff, script.gResumeAt = None, 0.0, 0.0
        for _ in range(2):
            script.gPoll = Key(str(uuid.uuid4()))
            await hud.event("http_response", script.gPoll, 200, [], body)
        assert world.local_chat == [("Ilka", "Ilka rolls 9")] and (script.gL, script.gC) == (3, 0)
        said = len(hud.owner_said)
        hud.script.queue_event("listen", (5, "Stranger", Key(str(uuid.uuid4())), "leave"))
        await hud.run()
        assert len(hud.owner_said) == said and script.gToken == "t" * 32

    asyncio.run(scene())
