"""``affray content show RULESET [ID]``: the content library with its numbers, in the very words the server's
``GET /api/content/RULESET`` answers (one code for both: affray.table.library), for every ruleset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from affray.core.plugin import plugin_names
from affray.table.library import as_json, entries
from tests.cli.inproc import run_cli


@pytest.mark.parametrize("ruleset", plugin_names())
def test_content_show_prints_the_apis_words_for_every_entry(ruleset: str) -> None:
    code, out, err = run_cli(["content", "show", ruleset])
    assert code == 0, err
    expected = [f"{e.kind} {e.id}: {e.summary}" for e in entries(ruleset)]
    assert out.splitlines() == expected


@pytest.mark.parametrize("ruleset", plugin_names())
def test_content_show_json_is_the_apis_answer(ruleset: str) -> None:
    code, out, err = run_cli(["content", "show", ruleset, "--json"])
    assert code == 0, err
    assert json.loads(out) == as_json(ruleset, entries(ruleset))


def test_one_id_and_a_search() -> None:
    """WL-B2: the Drowner's d13 modifiers, as the API words them."""
    code, out, _ = run_cli(["content", "show", "hud", "drowner"])
    assert code == 0
    assert out == (
        "monster drowner: Drowner: Endurance 5, Agility 2, Strength 2; Claws and fangs: Attack d13+1, Damage "
        "d13+2; Defense d13 (in hand: Claws and fangs); Injury d13+2 (Thick hide, light armour).\n"
    )
    code, out, _ = run_cli(["content", "show", "witchhammer", "-q", "wolf"])
    assert code == 0 and [line.split(":")[0] for line in out.splitlines()] == [
        "monster gloam_wolf",
        "card wolf_snap",
    ]


def test_an_unknown_ruleset_or_id_exits_2_with_a_sentence() -> None:
    code, out, err = run_cli(["content", "show", "dnd"])
    assert code == 2 and out == ""
    assert f"There is no ruleset 'dnd'; known rulesets: {', '.join(plugin_names())}." in err
    code, _, err = run_cli(["content", "show", "hud", "drownr"])
    assert code == 2 and "There is no 'drownr' in the hud content; did you mean 'drowner'?" in err


def test_a_broken_content_file_names_its_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: hud\ncharacters:\n  ghoul:\n    name: Ghoul\n    endurance: 99\n")
    code, _, err = run_cli(["content", "show", "hud", "--content", str(bad)])
    assert code == 2
    assert f"{bad}: characters.ghoul.endurance: Input should be less than or equal to 30 (got 99)" in err


def test_serve_refuses_a_broken_content_folder_before_it_listens(tmp_path: Path) -> None:
    """``affray serve --content DIR``: the folder is loaded at start; a broken file stops the server with its file and
    field (exit 2), before any port is opened."""
    (tmp_path / "bad.yaml").write_text("ruleset: hud\nweapons:\n  club:\n    name: Club\n    hands: 3\n")
    code, _, err = run_cli(["serve", "--content", str(tmp_path), "--db", f"sqlite:///{tmp_path / 'a.db'}"])
    assert code == 2
    assert f"--content: {tmp_path / 'bad.yaml'}: weapons.club.hands: Input should be 1 or 2 (got 3)" in err
    assert not (tmp_path / "a.db").exists()
