"""A scenario that holds a whole character sheet (``sheet:`` a mapping), as the Build-a-fight page writes a player's
sheet (docs/table.md, "Building a fight"): it plays exactly as the same scenario naming the sheet's file, opens a
table from uploaded text (which may name no file on the server), is refused at the combatant's field when the sheet
is broken, and ``affray sim`` reads it with no other file beside it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from affray.core.log import verify
from affray.table import TableService
from affray.table.errors import Refusal
from affray.table.scenarios import resolve_scenario, where
from tests.waiting import wait_for

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"


def inlined(example: str) -> tuple[dict[str, Any], str]:
    """The example's data, and its text with every ``sheet`` file replaced by the sheet itself."""
    data = yaml.safe_load((EXAMPLES / example).read_text())
    out = yaml.safe_load((EXAMPLES / example).read_text())
    for side in out["sides"]:
        for c in side["combatants"]:
            if isinstance(c.get("sheet"), str):
                c["sheet"] = yaml.safe_load((EXAMPLES / example).parent.joinpath(c["sheet"]).read_text())
    return data, yaml.safe_dump(out, sort_keys=False)


@pytest.mark.parametrize(
    "example",
    ["witchhammer/sheet_hunters.yaml", "warp/sheet_alley.yaml", "spellchrome/sheet_guard.yaml", "hud/sheet_duel.yaml"],
)
def test_a_sheet_written_in_the_scenario_plays_as_its_file_does(example: str) -> None:
    """WH-31 (Wendel carries his 3 Wounds in), WR-03, the sheet rules of every ruleset: the same fighters."""
    _, text = inlined(example)
    from_files, _ = resolve_scenario(example.removesuffix(".yaml"))
    written, label = resolve_scenario(text)
    assert label == "(uploaded)"
    assert written.setup["combatants"] == from_files.setup["combatants"]
    if example.startswith("witchhammer"):
        wendel = next(c for c in written.setup["combatants"] if c["id"] == "wendel")
        assert (wendel["health"], wendel["start_health"]) == (12, 9)  # 3 Wounds taken off his Health


def test_a_broken_sheet_in_the_scenario_is_refused_at_its_combatant() -> None:
    _, text = inlined("warp/sheet_alley.yaml")
    data = yaml.safe_load(text)
    data["sides"][0]["combatants"][0]["sheet"]["hp"] = "lots"
    with pytest.raises(Refusal) as refused:
        resolve_scenario(yaml.safe_dump(data))
    [problem] = refused.value.problems
    assert problem["field"] == "sides[0].combatants[0].sheet"
    assert problem["expected"] == (
        "a valid character sheet, but hp: Input should be a valid integer, unable to parse string as an integer "
        "(got 'lots')"
    )
    assert (problem["side"], problem["combatant"], problem["part"]) == ("0", "0", "sheet")


def test_uploaded_text_still_names_no_sheet_file() -> None:
    text = (EXAMPLES / "warp/sheet_alley.yaml").read_text()
    with pytest.raises(Refusal) as refused:
        resolve_scenario(text)
    assert refused.value.problems == [
        {
            "file": "scenario.yaml",
            "field": "sides[0].combatants[0].sheet",
            "expected": "no sheet files in uploaded text (write the sheet itself here, or use 'use' or stats)",
            "side": "0",
            "combatant": "0",
            "part": "sheet",
        }
    ]


def test_affray_sim_reads_a_scenario_holding_its_sheets_alone(tmp_path: Path) -> None:
    _, text = inlined("witchhammer/sheet_hunters.yaml")
    alone = tmp_path / "built.yaml"
    alone.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "affray", "sim", str(alone), "-n", "20", "--seed", "4", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["fights"] == 20
    assert set(report["sides"]) == {"hunters", "hounds"}


def test_the_builder_learns_how_each_ruleset_places_from_its_scenario_schema(client: TestClient) -> None:
    """SC-23's squares and terrain (SC-17), WH-07's square grid, WR-X2's metres along a line, WL-B13's bands: read from
    each ruleset's scenario schema (web/placing.py), so the page names no ruleset."""
    building = {name: info["building"] for name, info in client.get("/api/rulesets").json().items()}
    assert building == {
        "hud": {
            "grid": None,
            "line": None,
            "bands": ["engaged", "near", "far"],
            "modes": ["free_form", "simplified", "nerdified"],
            "mode": "free_form",
            "terrain": [],
            "size": [12, 10],
        },
        "spellchrome": {
            "grid": "position",
            "line": None,
            "bands": [],
            "modes": [],
            "mode": None,
            "terrain": [
                [".", "open"],
                ["#", "wall"],
                ["~", "half speed"],
                ["^", "third speed"],
                ["%", "5 ft per move action"],
            ],
            "size": [12, 10],
        },
        "warp": {
            "grid": None,
            "line": "position",
            "bands": [],
            "modes": ["combat", "gestalt"],
            "mode": "combat",
            "terrain": [],
            "size": [12, 10],
        },
        "witchhammer": {
            "grid": "at",
            "line": None,
            "bands": [],
            "modes": [],
            "mode": None,
            "terrain": [[".", "open"], ["#", "wall"], ["~", "difficult"], ["^", "difficult"], ["%", "a whole move"]],
            "size": [12, 12],
        },
    }


@pytest.mark.parametrize(
    ("field", "expected", "place"),
    [
        ("sides[1].combatants[2].use", "the id of a monster", {"side": "1", "combatant": "2", "part": "use"}),
        ("sides[0].name", "text", {"side": "0", "part": "name"}),
        (
            "sides[1].combatants",
            "List should have at least 1 item after validation, not 0 (got [])",
            {"side": "1", "expected": "at least one combatant; nobody is on this side yet"},
        ),
        ("line 12", "valid YAML (could not find expected ':')", {"line": "12"}),
        ("options.monsters_finish_the_dying", "a boolean", {"part": "options"}),
        ("map", "rows of one length", {"part": "map"}),
        ("(top level)", "a mapping", {}),
    ],
)
def test_a_scenarios_problem_says_where_it_is_for_the_page(field: str, expected: str, place: dict[str, str]) -> None:
    """The Build-a-fight page shows each problem at the field it names (table/scenarios.py ``where``)."""
    assert where(field, expected) == place


def test_a_table_opened_from_a_scenario_holding_its_sheets_verifies_at_the_end(
    served: tuple[TableService, TestClient],
) -> None:
    """The log of a fight whose hunters came from sheets written in the scenario, played to its end by the server's
    policies, replays on its own (WH-31's characters, checked again by ``verify``): it needs no sheet file."""
    service, client = served
    _, text = inlined("witchhammer/sheet_hunters.yaml")
    everyone = dict.fromkeys(("hilde", "wendel", "fang", "grip"), "heuristic")
    created = client.post("/api/tables", json={"scenario": text, "seed": 5, "controllers": everyone})
    assert created.status_code == 201, created.text
    table, gm = created.json()["table"], created.json()["gm"]["token"]
    live = service.table(table)
    wait_for(lambda: live.over, 120, "the policies to play the fight out")
    log = client.get(f"/api/tables/{table}/log", headers={"Authorization": f"Bearer {gm}"}).json()
    assert log["records"] and log["outcome"] is not None
    report = verify(log)
    assert report.ok, report.problems
