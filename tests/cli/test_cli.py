"""The command line, run as a user runs it (a subprocess): outputs, exit codes, no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_run import affray

ROOT = Path(__file__).parents[2]
DUEL = str(ROOT / "examples" / "hud" / "nerdified_duel.yaml")


def test_roll_json_has_total_and_dice_and_is_reproducible() -> None:
    first = affray("roll", "4d6kh3", "--seed", "5", "--json")
    assert first.returncode == 0
    data = json.loads(first.stdout)
    assert len(data["dice"]) == 4 and sum(d["kept"] for d in data["dice"]) == 3
    assert data["total"] == sum(d["value"] for d in data["dice"] if d["kept"])
    assert json.loads(affray("roll", "4d6kh3", "--seed", "5", "--json").stdout) == data


def test_bad_notation_exits_2_with_one_sentence() -> None:
    result = affray("roll", "3x6")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "expected something like 3d6+1b" in result.stderr and result.stdout == ""


def test_fight_json_log_and_verify(tmp_path: Path) -> None:
    log = tmp_path / "duel.json"
    result = affray("fight", DUEL, "--seed", "7", "--json", "--log", str(log))
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert {"ruleset", "outcome", "rounds", "commitment", "seed", "events"} <= set(data)
    assert data["ruleset"] == "hud" and data["outcome"] in ("witcher", "watch", "draw") and data["rounds"] >= 1
    verified = affray("verify", str(log))
    assert verified.returncode == 0 and "verified" in verified.stdout
    narrated = affray("replay", str(log))
    assert narrated.returncode == 0 and "Round 1" in narrated.stdout and "Victory for" in narrated.stdout


def test_verify_names_a_changed_roll(tmp_path: Path) -> None:
    log = tmp_path / "duel.json"
    affray("fight", DUEL, "--seed", "7", "--log", str(log))
    data = json.loads(log.read_text())
    die = data["setup_events"][1]["roll"]["dice"][0]
    die["value"] = die["value"] % 11 + 1
    log.write_text(json.dumps(data))
    result = affray("verify", str(log))
    assert result.returncode == 1 and f"draw {die['draw']} on a d11 is recorded as {die['value']}" in result.stderr


def test_narrated_fight_is_readable() -> None:
    result = affray("fight", DUEL, "--seed", "7")
    assert result.returncode == 0
    assert "Vesna of the Lynx declares" in result.stdout and "seed commitment" in result.stdout


def test_missing_and_broken_files_exit_with_a_message(tmp_path: Path) -> None:
    missing = affray("fight", str(tmp_path / "nope.yaml"))
    assert missing.returncode == 2 and "nope.yaml" in missing.stderr and "Traceback" not in missing.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "ruleset: hud\nsides:\n  - name: a\n    combatants: [{id: x, use: vesna, hp: many}]\n"
        "  - name: b\n    combatants: [{id: y, use: bors}]\n"
    )
    result = affray("fight", str(bad))
    assert result.returncode == 2 and "sides[0].combatants[0].hp" in result.stderr
    checked = affray("content", "check", str(tmp_path))
    assert checked.returncode == 1 and "bad.yaml: sides[0].combatants[0].hp" in checked.stderr
    assert affray("content", "check", str(ROOT / "examples")).returncode == 0


def test_play_a_seat_at_the_terminal_with_undo(tmp_path: Path) -> None:
    """--play lists the legal actions, takes a number; 'undo' takes back an action only while it revealed nothing
    (DESIGN.md contract 4) and while nobody has acted since: after Vesna's declaration the sergeant's attack came, so
    it stays."""
    result = affray(
        "fight",
        DUEL,
        "--seed",
        "3",
        "--play",
        "vesna",
        "--save",
        str(tmp_path / "s.json"),
        stdin="1\nundo\n" + "1\n" * 400,
    )
    assert result.returncode == 0, result.stderr
    assert "not_your_action" in result.stdout and "Undone" not in result.stdout and "Victory for" in result.stdout


def test_undo_at_the_terminal_takes_back_a_face_down_card(tmp_path: Path) -> None:
    """Take-back: a WitchHammer card placed face down revealed nothing, so its seat may take it back. (Tomas holds
    no Psych card here, WH-34/WH-A5 'learned': the first prompt is Planning, and 2 places Shield Block.)"""
    duel = str(ROOT / "examples" / "witchhammer" / "mill_gate_duel.yaml")
    result = affray(
        "fight",
        duel,
        "--seed",
        "3",
        "--play",
        "tomas",
        "--save",
        str(tmp_path / "s.json"),
        stdin="2\nundo\n" + "1\n" * 400,
    )
    assert result.returncode == 0, result.stderr
    assert "Undone" in result.stdout


def test_play_rejects_nonsense_and_quits_cleanly(tmp_path: Path) -> None:
    result = affray(
        "fight",
        DUEL,
        "--seed",
        "3",
        "--play",
        "vesna",
        "--save",
        str(tmp_path / "s.json"),
        stdin='99\nfoo\n{"type": "x"}\nquit\n',
    )
    assert result.returncode == 0
    assert "choose 1 to" in result.stdout and "no action starts like that" in result.stdout
    assert "not_allowed_now" in result.stdout


def test_options_lists_rulings_with_ids() -> None:
    result = affray("options", "hud")
    assert result.returncode == 0 and "riposte_margin" in result.stdout and "WL-B3" in result.stdout
    assert affray("options", "chess").returncode == 2


def test_play_narrates_only_what_the_seat_may_see(tmp_path: Path) -> None:
    """Contract 6 at the terminal: a player of a WaRP gestalt fight never sees the GM's secret rolls (WR-35);
    the GM's own narration does."""
    scenario = str(ROOT / "examples" / "warp" / "gestalt_raid.yaml")
    player = affray(
        "fight", scenario, "--seed", "2", "--play", "dana", "--save", str(tmp_path / "s.json"), stdin="1\n" * 20
    )
    assert player.returncode == 0 and "Dana Reyes rolls for the gestalt fight" in player.stdout
    assert "Cult Enforcer rolls for the gestalt fight" not in player.stdout and "gestalt totals" in player.stdout
    gm = affray("fight", scenario, "--seed", "2")
    assert "Cult Enforcer rolls for the gestalt fight" in gm.stdout


def test_view_at_the_terminal_is_a_table_and_a_text_map(tmp_path: Path) -> None:
    """A pleasant terminal, on the one envelope: 'view' lists every combatant's bars, statuses and square, and the grid
    rulesets draw a small text map (the viewer's own combatant in upper case)."""
    ford = str(ROOT / "examples" / "spellchrome" / "ford_duel.yaml")
    result = affray(
        "fight", ford, "--seed", "2", "--play", "tamsin", "--save", str(tmp_path / "s.json"), stdin="view\nquit\n"
    )
    out = result.stdout
    assert "HP 14/14" in out and "EX-HP 0/0" in out and "(2,0)" in out and "(3,0)" in out
    assert "..Tv.." in out.splitlines()  # row 0: Tamsin (the viewer's) at x=2, the cutthroat Vell at x=3
    assert "{" not in out.split("Tamsin Rook>")[1].split("quit")[0]  # no raw JSON


def test_the_entry_point_is_the_same_main(tmp_path: Path) -> None:
    """The suite runs most commands in this process (tests/cli_run.py); ``python -m affray`` as a child gives the
    same exit code, stdout and stderr, for an answer, a refusal and a character built from answers on stdin, and the
    in-process call leaves this process's working directory, environment and streams as they were."""
    import os
    import sys

    calls = [
        (("roll", "4d6kh3", "--seed", "5", "--json"), None),
        (("roll", "3x6"), None),
        (("character", "new", "hud", "--out", "vesna.yaml"), "Vesna\nA hunter.\n" + "\n" * 10),
    ]
    before = os.getcwd(), dict(os.environ), sys.stdout, sys.stderr, sys.stdin
    (tmp_path / "here").mkdir()
    (tmp_path / "child").mkdir()
    for args, stdin in calls:
        here = affray(*args, stdin=stdin, cwd=tmp_path / "here", env={"COLUMNS": "100"})
        child = affray(*args, stdin=stdin, cwd=tmp_path / "child", env={"COLUMNS": "100"}, process=True)
        assert (here.returncode, here.stdout, here.stderr) == (child.returncode, child.stdout, child.stderr), args
    assert [affray(*args, stdin=stdin).returncode for args, stdin in calls[:2]] == [0, 2]
    assert (tmp_path / "here" / "vesna.yaml").read_text() == (tmp_path / "child" / "vesna.yaml").read_text()
    assert "name: Vesna" in (tmp_path / "here" / "vesna.yaml").read_text()
    assert (os.getcwd(), dict(os.environ), sys.stdout, sys.stderr, sys.stdin) == before
