"""``affray content list RULESET [KIND]``: the content ids a scenario can name, with their names, so a new user
need not read the package's YAML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from affray.core.plugin import get_ruleset
from tests.cli.inproc import run_cli

EXAMPLES = Path(__file__).parents[2] / "examples"


def listed(argv: list[str]) -> dict[str, list[dict[str, str]]]:
    code, out, err = run_cli(["content", "list", *argv, "--json"])
    assert code == 0, err
    data = json.loads(out)
    sections: dict[str, list[dict[str, str]]] = data["sections"]
    return sections


@pytest.mark.parametrize("ruleset", ["hud", "warp", "spellchrome", "witchhammer"])
def test_content_list_names_every_id_a_scenario_uses(ruleset: str) -> None:
    """The user's step: ``affray content list RULESET``. Every section of the built-in content is listed with
    every id and its name, and every ``use:`` of the ruleset's examples (those on the built-in content) is among
    the characters (or monsters)."""
    sections = listed([ruleset])
    library = get_ruleset(ruleset).content()
    assert {s: [r["id"] for r in rows] for s, rows in sections.items()} == {
        s: sorted(items) for s, items in library.sections.items() if items
    }
    for section, rows in sections.items():
        for row in rows:
            assert row["name"] == str(getattr(library.get(section, row["id"]), "name", "") or "")
    assert any(row["name"] for rows in sections.values() for row in rows)
    usable = {r["id"] for s in ("characters", "monsters") for r in sections.get(s, [])}
    for path in (EXAMPLES / ruleset).rglob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        if data.get("content"):  # brings content files of its own (content list --content lists those too)
            continue
        for side in data.get("sides", []):
            for c in side["combatants"]:
                assert c.get("use") is None or c["use"] in usable, (path, c["use"])


def test_content_list_one_kind_with_names() -> None:
    """The user's step: ``affray content list witchhammer monster`` (singular or plural): the monsters alone,
    ``ember_wight`` named "Ember Wight"; the table says they are what ``use:`` takes."""
    sections = listed(["witchhammer", "monster"])
    assert list(sections) == ["monsters"]
    assert {"id": "ember_wight", "name": "Ember Wight"} in sections["monsters"]
    code, out, _ = run_cli(["content", "list", "witchhammer", "monsters"])
    assert code == 0 and "witchhammer monsters (9; a combatant's use: id)" in out and "Ember Wight" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["chess"], "unknown ruleset 'chess'; known rulesets: hud, spellchrome, warp, witchhammer."),
        (["warp", "weapn"], "no content kind 'weapn'; did you mean 'weapons'? Kinds: "),
    ],
)
def test_content_list_refuses_what_does_not_exist(argv: list[str], words: str) -> None:
    code, out, err = run_cli(["content", "list", *argv])
    assert code == 2 and out == "" and "Traceback" not in err and words in err
