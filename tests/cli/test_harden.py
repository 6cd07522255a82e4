"""Against a hostile or careless user: nothing lost, nothing leaked, limits and a pleasant terminal — what the hardened
CLI now does."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import pytest

import affray
from affray.cli.render import escape
from affray.cli.terminal import Terminal, card_note, choice_table
from affray.core.engine import GM
from affray.core.files import FileProblem, check_output_path, load_yaml
from affray.core.options import OptionError, describe, parse_options
from affray.core.rng import FastRNG, commitment_of, seed_from_int
from affray.rulesets.hud.options import HudOptions
from tests.cli.inproc import run_cli

ROOT = Path(__file__).parents[2]
DUEL = str(ROOT / "examples" / "hud" / "nerdified_duel.yaml")
YARD = str(ROOT / "examples" / "witchhammer" / "yard_duel.yaml")
HUT = ROOT / "examples" / "witchhammer" / "witch_hut.yaml"

Cap = pytest.CaptureFixture[str]


def test_quit_saves_owner_only_and_resume_finishes_with_the_same_dice(tmp_path: Path) -> None:
    """Nothing lost: quitting a --play fight writes a 0600 save; --resume plays on from it and the finished
    log verifies against the commitment printed at the start (the same seed, the same dice)."""
    save, log = tmp_path / "s.json", tmp_path / "end.json"
    code, out, _ = run_cli(["fight", DUEL, "--seed", "3", "--play", "vesna", "--save", str(save)], "1\nquit\n")
    assert code == 0 and "quit: the match is saved in" in out and "--resume" in out
    assert stat.S_IMODE(save.stat().st_mode) == 0o600
    data = json.loads(save.read_text())
    assert data["seed"] is not None and "GM's file" in data["private"] and len(data["records"]) >= 1
    commitment = data["commitment"]
    code, out, err = run_cli(["fight", "--resume", str(save), "--play", "vesna", "--log", str(log)], "1\n" * 400)
    assert code == 0, err
    final = json.loads(log.read_text())
    assert final["commitment"] == commitment and final["seed"] == data["seed"]
    assert final["records"][: len(data["records"])] == data["records"]
    assert commitment_of(bytes.fromhex(final["seed"])) == commitment
    assert run_cli(["verify", str(log)])[0] == 0


def test_end_of_input_saves_and_exits_1_and_the_players_log_is_redacted(tmp_path: Path) -> None:
    """Nothing lost, contract 6: EOF keeps the match (exit 1, saved); the --log of an unfinished fight is the
    player's redacted log: no seed, and the other seat's face-down cards (WH-03) only as sealed commits."""
    save, log = tmp_path / "s.json", tmp_path / "mine.json"
    code, out, _ = run_cli(
        ["fight", YARD, "--seed", "3", "--play", "bruna", "--save", str(save), "--log", str(log)], "1\n"
    )
    assert code == 1 and "input ended: the match is saved" in out
    mine, whole = json.loads(log.read_text()), json.loads(save.read_text())
    assert mine["seed"] is None and mine["redacted_for"] == "bruna" and "private" not in mine
    assert stat.S_IMODE(log.stat().st_mode) != 0o600 or mine["seed"] is None
    pairs = [
        (w, m)
        for w, m in zip(whole["records"], mine["records"], strict=True)
        if w["seat"] == "tomas" and w["action"]["type"] != "ready"
    ]
    assert pairs and "seals" in pairs[-1][1]["action"], "tomas's last cards lie face down, sealed in bruna's log"
    for w, m in pairs:  # an earlier vignette's cards were revealed; the face-down ones show only their seals
        if "seals" in m["action"]:
            cards = w["action"].get("cards", [w["action"].get("card")])
            assert m["action"]["type"] == "commit" and not any(c and c in json.dumps(m) for c in cards)


def test_text_fight_prints_the_revealed_seed() -> None:
    """README's promise: the seed is revealed at the end, and it matches the commitment shown at the start."""
    code, out, _ = run_cli(["fight", DUEL, "--seed", "7"])
    assert code == 0
    commitment = re.search(r"seed commitment: ([0-9a-f]{64})", out)
    seed = re.search(r"seed: ([0-9a-f]{64}) \(revealed", out)
    assert commitment and seed and commitment_of(bytes.fromhex(seed[1])) == commitment[1]


def test_replay_verifies_first_and_refuses_a_changed_log_unless_unverified(tmp_path: Path) -> None:
    """Nothing lost (X-1): a changed die makes replay refuse (exit 1, nothing narrated); --unverified warns."""
    log = tmp_path / "duel.json"
    assert run_cli(["fight", DUEL, "--seed", "7", "--log", str(log)])[0] == 0
    data = json.loads(log.read_text())
    die = next(e for e in data["setup_events"] if e["type"] == "rolled")["roll"]["dice"][0]
    die["value"] = die["value"] % 11 + 1
    log.write_text(json.dumps(data))
    code, out, err = run_cli(["replay", str(log)])
    assert code == 1 and out == "" and f"is recorded as {die['value']}" in err and "--unverified" in err
    code, out, err = run_cli(["replay", str(log), "--unverified"])
    assert code == 0 and "warning:" in err and "Round 1" in out


def test_escape_shows_control_characters_and_markup_as_text() -> None:
    """The terminal is no attack surface: escape sequences, carriage returns, newlines and bidi overrides cannot reach
    the terminal."""
    assert escape("\x1b[31mred\x07") == "\\x1b[31mred\\x07"  # "[31m" is not Rich markup
    assert escape("a\rb\nc\u202ed") == "a\\x0db\\x0ac\\u202ed"
    assert escape("[bold]x[/]") == "\\[bold]x\\[/]"


def test_names_from_content_are_printed_escaped(tmp_path: Path) -> None:
    """The terminal is no attack surface: a combatant and a scenario named with escape sequences print as text."""
    text = Path(DUEL).read_text().replace("name: Duel on the Toll Bridge", 'name: "Evil\\e[2J"')
    text = text.replace("use: vesna\n", 'use: vesna\n        name: "V\\e]0;pwned\\a"\n')
    (tmp_path / "s.yaml").write_text(text)
    code, out, _ = run_cli(["fight", str(tmp_path / "s.yaml"), "--seed", "7"])
    assert code == 0 and "\x1b" not in out and "\x07" not in out and "Evil\\x1b" in out and "V\\x1b" in out


def _planning(scenario: str | Path, seat: str, deck: str = "learned") -> tuple[affray.Match, str]:
    """A match played by its policies up to ``seat``'s first Planning choice (WH-03); ``deck``: WH-A5's
    ``general_school_deck`` (``all``: every General card, for the longest lists)."""
    loaded = affray.load_scenario(scenario)
    match = affray.Match(
        loaded.plugin,
        loaded.setup,
        {**loaded.options, "general_school_deck": deck},
        seed=seed_from_int(3),
        seats=loaded.seats,
        controllers=loaded.controllers,
    )
    policies = loaded.policies(match)
    rng = FastRNG(1)
    while True:
        window = match.pending()
        assert window is not None
        mine = [a for a in window.actors if match.seats.get(a) == seat]
        if window.phase == "planning" and mine:
            return match, mine[0]
        actor = next(a for a in window.actors if a in policies or match.seats.get(a) == seat)
        legal = match.legal(actor)
        choice = (
            policies[actor].choose(match.observe(actor), match.choices(actor), rng)
            if actor in policies
            else legal[0].action
        )
        match.act(actor, choice)


def test_long_choice_lists_are_grouped_and_cards_show_their_numbers(capsys: Cap) -> None:
    """A pleasant terminal: WitchHammer Planning with every General card (WH-A5 ``all``) offers 241 choices; grouped
    by their first card they fit in a few dozen rows, every number kept; a card's row shows its init, Defense and
    what it does (WH-05)."""
    match, actor = _planning(YARD, "bruna", "all")
    specs = match.legal(actor)
    view = match.view_json("bruna")
    assert len(specs) == 241
    table = choice_table(specs, "plan", view)
    assert table.row_count < 40
    capsys.readouterr()
    from affray.cli.render import console

    console.print(table)
    out = capsys.readouterr().out
    assert "Dodge Away, then" in out and "241" in out
    assert card_note(view, "advance") == "init +1, defense +1; move 4"
    assert card_note(view, "dodge_away") == "init +4, defense +3, agility defense +2; move 2"


def test_spellchrome_move_targets_share_a_row() -> None:
    """A pleasant terminal: a Spellchrome turn's squares are grouped under 'move to' instead of one row each."""
    loaded = affray.load_scenario(ROOT / "examples" / "spellchrome" / "ford_duel.yaml")
    match = loaded.start(1)
    actor = match.pending().actors[0]  # type: ignore[union-attr]
    specs = match.legal(actor)
    padded = specs + [s for s in specs if s.action["type"] == "move"]  # over the grouping threshold
    table = choice_table(padded, "turn", match.view_json(actor))
    moves = sum(1 for s in padded if s.action["type"] == "move")
    assert table.row_count <= len(padded) - moves + 2


def test_the_drama_timer_runs_at_the_terminal_and_calls_time(capsys: Cap) -> None:
    """WH-B20 at the terminal: once the clock has run out, the GM's timeout is submitted and unfilled slots get
    the default card (the timeout is in the log like any action)."""
    match, actor = _planning(HUT, "bruna", "all")
    times = iter([0.0, 91.0, 91.0, 91.0])
    terminal = Terminal(match, "bruna", clock=lambda: next(times))
    assert terminal(match, actor) == {"type": "timeout"}
    assert match.log[-1].seat == GM and match.log[-1].action == {"type": "timeout"}
    assert "The Drama Timer runs out!" in capsys.readouterr().out


def test_version_and_short_help() -> None:
    """A pleasant terminal: `affray --version` and `-h` work."""
    code, out, _ = run_cli(["--version"])
    assert code == 0 and re.fullmatch(r"affray \d+\.\d+\.\d+\n", out)
    code, out, _ = run_cli(["fight", "-h"])
    assert code == 0 and "--resume" in out and "--save" in out


def test_roll_shows_which_die_belongs_to_which_group() -> None:
    """`roll` names each group's dice: 2d6+1d4-1 prints each group's dice; the total is their sum minus 1."""
    code, out, _ = run_cli(["roll", "2d6+1d4-1", "--seed", "3"])
    m = re.fullmatch(r"2d6\+1d4-1: 2d6 \[(\d) (\d)\] 1d4 \[(\d)\] -1 = (\d+)\n", out)
    assert code == 0 and m is not None
    a, b, c, total = map(int, m.groups())
    assert 1 <= c <= 4 and total == a + b + c - 1


def test_option_ranges_are_declared_and_enforced() -> None:
    """Checked before the work starts: out-of-range options are refused with the name, the value and the range (WL-B3,
    WL-B9)."""
    with pytest.raises(OptionError, match=r"'riposte_margin' must be 0 to 26, got -100 \(Rule: WL-B3\)"):
        parse_options(HudOptions, {"riposte_margin": -100})
    with pytest.raises(OptionError, match=r"'pursuit_escape_gap' must be 1 to 1000, got -5"):
        parse_options(HudOptions, {"pursuit_escape_gap": -5})
    assert parse_options(HudOptions, {"round_limit": 1}).round_limit == 1
    info = {i.name: i for i in describe(HudOptions)}
    assert info["round_limit"].range == "1 to 10000" and info["zero_based_dice"].range == ""


def test_the_log_records_who_really_played(tmp_path: Path) -> None:
    """The log records who played: --policy changes a seat's controller, and the log says so."""
    log = tmp_path / "l.json"
    assert run_cli(["fight", DUEL, "--seed", "7", "--policy", "witcher=random", "--log", str(log)])[0] == 0
    assert json.loads(log.read_text())["controllers"] == {"vesna": "random", "hald": "heuristic", "gm": "human"}


def test_content_check_takes_several_paths() -> None:
    """``content check`` takes several paths and checks each."""
    code, out, _ = run_cli(["content", "check", DUEL, YARD])
    assert code == 0 and "ok: 2 file(s) valid" in out


def test_house_rules_are_flagged_by_character_check(tmp_path: Path) -> None:
    """Contract 8: a sheet built under house rules is legal, and says so."""
    sheet = tmp_path / "h.yaml"
    sheet.write_text((ROOT / "examples" / "characters" / "hilde.yaml").read_text() + "house_rules: {outre_at: 4}\n")
    code, out, _ = run_cli(["character", "check", str(sheet)])
    assert code == 0 and "house rule: outre_at = 4 (the builder's default is 3)" in out


def test_output_paths_are_checked_before_the_work(tmp_path: Path) -> None:
    """Checked before the work starts: one check for --log, --plot, --save and sheets."""
    assert check_output_path(tmp_path / "a.png", (".png", ".svg"), "--plot") == tmp_path / "a.png"
    with pytest.raises(FileProblem, match=r"--plot expects a \.png or \.svg file name \(got '\.gif'\)"):
        check_output_path(tmp_path / "a.gif", (".png", ".svg"), "--plot")
    with pytest.raises(FileProblem, match="there is no folder"):
        check_output_path(tmp_path / "no" / "a.json", (".json",), "--log")
    with pytest.raises(FileProblem, match="this is a folder"):
        check_output_path(tmp_path, (), "--log")


def test_yaml_limits_refuse_bombs_and_recursion() -> None:
    """Size limits: an alias bomb, a recursive alias and deep nesting are refused before anything is built."""
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(6)
    )
    with pytest.raises(Exception, match="at most 50,000 values once aliases are expanded"):
        load_yaml(bomb)
    with pytest.raises(Exception, match="an alias that contains itself"):
        load_yaml("a: &s [*s]\n")
    with pytest.raises(Exception, match="at most 100 levels of nesting"):
        load_yaml("a: " + "[" * 101 + "]" * 101)
    assert load_yaml("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}
