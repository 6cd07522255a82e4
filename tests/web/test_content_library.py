"""The content library through the server (``GET /api/content/RULESET``, docs/table.md "The content library"): every
ruleset lists its characters, monsters, weapons, armour, cards, traits, techniques and statuses with their stats in
words. The sentences are checked word for word, with the numbers the rules give: HuD's d13 modifiers (WL-B2, WL-03),
Spellchrome's HP, Defense, attack bonuses and saves (SC-01, SC-B1, SC-12, SC-14), WaRP's trait dice, factors and
armour ratings (WR-01, WR-12, WR-B1, WR-B9), WitchHammer's stat lines, cards and statuses (WH-03, WH-05, WH-24)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.core.plugin import plugin_names
from affray.table import TableService
from affray.table.library import load_extra

#: (ruleset, id) -> (kind, the summary, word for word).
KNOWN = {
    ("hud", "drowner"): (
        "monster",
        "Drowner: Endurance 5, Agility 2, Strength 2; Claws and fangs: Attack d13+1, Damage d13+2; Defense d13 "
        "(in hand: Claws and fangs); Injury d13+2 (Thick hide, light armour).",
    ),
    ("hud", "brigandine"): ("armour", "Riveted brigandine: medium armour, attack penalty 1, injury +2."),
    ("hud", "steel_sword"): (
        "weapon",
        "Steel sword: melee weapon, 1-handed, carried on the back; attack +1, defense +1, damage +1.",
    ),
    ("spellchrome", "ash_jackal"): (
        "monster",
        "Ash Jackal: level 2, HP 13, Defense 14, Initiative +2, Speed 50 ft; Attack Bite +2 (1d6+1), Unarmed strike "
        "+2 (1d3+1); Fort +5, Ref +5, Will +1; armour Scaled hide.",
    ),
    ("spellchrome", "chain_hauberk"): ("armour", "Chain hauberk: armour, deflection +3, damage reduction 1."),
    ("spellchrome", "steal_life"): (
        "spell",
        "Steal Life: spell, steals life 2d6 + 1 per level (at most +10), range 6 squares, a standard action, "
        "Fortitude DC 14 for half.",
    ),
    ("warp", "dana"): (
        "character",
        "Dana Reyes: PC, HP 21; traits Fast on Their Feet 4d6, Street Brawler 3d6, Moves Like a Shadow 3d6; flaws "
        "Poor Eyesight; lead pipe (melee factor 2); armour thick leathers (1 point); Experience Pool 3 dice.",
    ),
    ("warp", "clumsy"): ("trait", "Clumsy: flaw, a penalty die on agility, dodging with at most 1 die."),
    ("warp", "medium_pistol"): (
        "weapon",
        "service pistol: weapon, ranged factor 4, range row pistol (gunfire), handiness 0, wounds as guns.",
    ),
    ("witchhammer", "bog_hound"): (
        "monster",
        "Bog Hound: beast, Poise 18, Health 14, Attack +1, Defense +1, Init +2; size medium; deck Hound Lunge, "
        "Savage Worry, Circle and Snarl; weak to bear urine, a thrown bone.",
    ),
    ("witchhammer", "hound_lunge"): (
        "card",
        "Hound Lunge: action card (a monster's own), Init +2, Defense +0; move 4 toward the nearest enemy, then "
        "attack +6 (melee, close range) on the nearest enemy: on a hit Bleeding for 2 rounds on the target.",
    ),
    ("witchhammer", "bleeding"): ("status", "Bleeding: status, each turn 1 Wound."),
    ("witchhammer", "thick_neck"): (
        "technique",
        "Thick Neck: passive technique (Raging Bull School level 1), poise +5.",
    ),
}


def library(client: TestClient, ruleset: str, **params: str) -> dict[str, Any]:
    answer = client.get(f"/api/content/{ruleset}", params=params)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


@pytest.mark.parametrize(("ruleset", "item_id"), list(KNOWN), ids=lambda v: str(v))
def test_an_entry_reads_its_stats_in_the_rulesets_words(client: TestClient, ruleset: str, item_id: str) -> None:
    """WL-B2, SC-B1, WR-12, WH-05: the summary a player reads, word for word, with the rules' numbers."""
    kind, summary = KNOWN[(ruleset, item_id)]
    entries = {e["id"]: e for e in library(client, ruleset)["entries"] if e["kind"] == kind}
    assert entries[item_id]["summary"] == summary
    assert entries[item_id]["name"] == summary.split(":")[0]


@pytest.mark.parametrize("ruleset", plugin_names())
def test_every_item_of_every_section_is_listed_with_words_and_no_ids(client: TestClient, ruleset: str) -> None:
    """Every item of the ruleset's content is an entry; its summary starts with its name and names no id (an id with
    an underscore never shows: the words use the names of what an item names)."""
    from affray.core.plugin import get_ruleset

    content = get_ruleset(ruleset).content()
    data = library(client, ruleset)
    listed = {e["id"] for e in data["entries"]}
    every = {item for items in content.sections.values() for item in items}
    assert listed == every and data["count"] == len(data["entries"])
    for entry in data["entries"]:
        assert set(entry) == {"id", "kind", "name", "summary", "stats", "derived"}
        assert entry["summary"].startswith(f"{entry['name']}: ") and entry["summary"].endswith(".")
        ids_with_underscores = {i for i in every if "_" in i}
        assert not any(i in entry["summary"] for i in ids_with_underscores), entry["summary"]


def test_the_numbers_come_with_the_words(client: TestClient) -> None:
    """SC-01, SC-B1: the Ash Jackal's derived numbers are its HP, Defense and attack bonus; its stats are its sheet's
    own fields (what a scenario's inline stats take)."""
    jackal = next(e for e in library(client, "spellchrome")["entries"] if e["id"] == "ash_jackal")
    assert jackal["derived"]["hp"] == 13 and jackal["derived"]["defense"] == 14
    assert jackal["derived"]["attacks"]["Bite"] == {"attack": 2, "damage": "1d6+1"}
    assert jackal["stats"]["max_hp"] == 13 and jackal["stats"]["weapons"] == ["bite"]


def test_a_search_keeps_the_names_that_hold_it(client: TestClient) -> None:
    data = library(client, "witchhammer", q="WOLF")
    assert [(e["id"], e["kind"]) for e in data["entries"]] == [("gloam_wolf", "monster"), ("wolf_snap", "card")]
    assert library(client, "hud", q="no such thing")["entries"] == []


def test_one_entry_by_id(client: TestClient) -> None:
    answer = client.get("/api/content/hud/drowner")
    assert answer.status_code == 200
    assert [e["summary"] for e in answer.json()["entries"]] == [KNOWN[("hud", "drowner")][1]]


def test_an_unknown_ruleset_or_id_is_a_404_with_a_sentence(client: TestClient) -> None:
    answer = client.get("/api/content/dnd")
    assert answer.status_code == 404
    assert answer.json() == {
        "code": "unknown_ruleset",
        "message": f"There is no ruleset 'dnd'; known rulesets: {', '.join(plugin_names())}.",
    }
    answer = client.get("/api/content/hud/drownr")
    assert answer.status_code == 404
    assert answer.json() == {
        "code": "unknown_content",
        "message": "There is no 'drownr' in the hud content; did you mean 'drowner'?",
    }


def test_the_servers_content_folder_joins_the_library(served: tuple[TableService, TestClient], tmp_path: Path) -> None:
    """``affray serve --content DIR``: its items are listed beside the bundled ones, in the same words, and a scenario
    sent to the server may name them (checked, simulated for the odds, opened as a table)."""
    service, client = served
    (tmp_path / "ghoul.yaml").write_text(
        "ruleset: hud\ncharacters:\n  ghoul:\n    name: Ghoul\n    endurance: 6\n    weapons: [claws]\n"
        "    tags: [monster]\n"
    )
    scenario = (
        "ruleset: hud\nmode: nerdified\nsides:\n- name: party\n  combatants:\n  - {id: vesna, use: vesna}\n"
        "- name: crypt\n  combatants:\n  - {id: ghoul, use: ghoul}\n"
    )
    before = client.post("/api/scenarios/check", json={"scenario": scenario})
    assert before.status_code == 422 and "ghoul" in before.json()["message"]
    service.content = load_extra([tmp_path])
    ghoul = client.get("/api/content/hud/ghoul").json()["entries"]
    assert [e["summary"] for e in ghoul] == [
        "Ghoul: Endurance 6, Agility 0, Strength 0; Claws and fangs: Attack d13+1, Damage d13+2; Defense d13 (in "
        "hand: Claws and fangs); Injury d13 (no armour)."
    ]
    assert "drowner" in {e["id"] for e in library(client, "hud")["entries"]}
    checked = client.post("/api/scenarios/check", json={"scenario": scenario})
    assert checked.status_code == 200, checked.text
    assert [c["name"] for c in checked.json()["combatants"]] == ["Vesna of the Lynx", "Ghoul"]
    opened = client.post("/api/tables", json={"scenario": scenario})
    assert opened.status_code == 201, opened.text
