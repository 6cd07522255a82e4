"""What a new designer trips on at the command line, each answered with a sentence that says what is wrong and
what to do instead, never a traceback: dice of no dice, a file of the wrong kind where a scenario is expected, a
scenario field with a typo, a misspelt flag, a flag without help, a note about people where no person plays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli_run import affray

EXAMPLES = Path(__file__).parents[2] / "examples"
DUEL = EXAMPLES / "hud" / "nerdified_duel.yaml"


@pytest.mark.parametrize(
    ("notation", "term", "words"),
    [
        ("0d6", "0d6", "rolls no dice"),
        ("1d6+0d4", "0d4", "rolls no dice"),
        ("2d6-0d3", "0d3", "rolls no dice"),
        ("1d6+0b", "0b", "adds no dice"),
        ("4d6kh0", "4d6kh0", "keeps no dice"),
    ],
)
def test_roll_of_zero_dice_is_refused_naming_the_notation(notation: str, term: str, words: str) -> None:
    """The user's step: ``affray roll 0d6`` (or a 0-dice term inside a longer notation). It used to answer
    ``0d6: [] = 0``; a pool of no dice is a typo, so it is refused with a sentence naming the notation and the
    term, exit 2."""
    done = affray("roll", notation, "--seed", "1")
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert f"'{notation}' is not dice notation: '{term}' {words}" in done.stderr


def _human(tmp_path: Path, combatant: str) -> Path:
    """The HuD duel with ``combatant`` played by a person (``controller: human``)."""
    data = yaml.safe_load(DUEL.read_text())
    for side in data["sides"]:
        for c in side["combatants"]:
            if c["id"] == combatant:
                c["controller"] = "human"
    path = tmp_path / "human.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_sim_where_no_person_plays_prints_no_note_about_people() -> None:
    """The user's step: ``affray sim nerdified_duel.yaml``. Every combatant is a policy's and the GM plays nothing,
    yet every run printed "gm is played by a person at the table; the simulation uses 'heuristic'"."""
    done = affray("sim", str(DUEL), "-n", "20", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert "note:" not in done.stdout and "played by a person" not in done.stdout
    as_json = affray("sim", str(DUEL), "-n", "20", "--workers", "1", "--json")
    assert json.loads(as_json.stdout)["notes"] == []


def test_sim_notes_a_person_s_combatant_unless_policy_covers_it(tmp_path: Path) -> None:
    """``affray sim`` of a scenario where a person plays vesna: one note, for vesna, saying which policy plays her
    and how to choose another; ``--policy vesna=random`` or ``--policy witcher=random`` (her side) covers her, and
    the note is gone."""
    scenario = _human(tmp_path, "vesna")
    done = affray("sim", str(scenario), "-n", "20", "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["notes"] == [
        "vesna is played by a person at the table (seat vesna); the simulation plays it with 'heuristic' "
        "(--policy vesna=NAME picks another)"
    ]
    for cover in ("vesna=random", "witcher=random"):
        covered = affray("sim", str(scenario), "-n", "20", "--workers", "1", "--policy", cover)
        assert covered.returncode == 0, covered.stderr
        assert "played by a person" not in covered.stdout


SHEET = EXAMPLES / "characters" / "dana.yaml"
CONTENT = Path(__file__).parents[2] / "src" / "affray" / "rulesets" / "hud" / "content" / "armour.yaml"


@pytest.mark.parametrize(
    "command",
    [
        ["fight"],
        ["sim", "-n", "5", "--workers", "1"],
        ["odds duel"],
        ["sweep", "--param", "hald.stats.endurance=4..6", "-n", "5", "--workers", "1"],
    ],
)
@pytest.mark.parametrize(
    ("path", "sentence"),
    [
        (SHEET, "is a character sheet, not a scenario; a scenario names it under `sheet:` (`affray character check "),
        (CONTENT, "is a content file, not a scenario; a scenario names it under `content:` (`affray content check "),
    ],
)
def test_a_sheet_or_content_file_given_as_the_scenario_is_named_for_what_it_is(
    command: list[str], path: Path, sentence: str
) -> None:
    """The user's step: ``affray fight examples/characters/dana.yaml`` (or sim, odds duel, sweep), a character sheet
    or a content file where a scenario is expected. It used to get a dozen "Extra inputs are not permitted" lines
    and "sides: Field required"; it gets one sentence saying what the file is and where a scenario names it."""
    done = affray(*command[0].split(), str(path), *command[1:])
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"error: {path} {sentence}{path}` checks it)"]


def test_a_scenario_field_with_a_typo_is_answered_with_the_nearest_field(tmp_path: Path) -> None:
    """The user's step: ``affray fight`` of a scenario with misspelt fields (``nmae``, a combatant's ``contoller``,
    a stat ``endurence``). Each problem names the nearest field of its place ("did you mean"); a name near none
    lists the fields that place has."""
    data = yaml.safe_load(DUEL.read_text())
    data["nmae"] = data.pop("name")
    vesna, hald = (side["combatants"][0] for side in data["sides"])
    vesna["contoller"] = vesna.pop("controller")
    hald.update({"stats": {"endurence": 5}, "zzz": 1})
    path = tmp_path / "typos.yaml"
    path.write_text(yaml.safe_dump(data))
    done = affray("fight", str(path), "--seed", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert f"error: {path}: nmae: an unknown field (got 'Duel on the Toll Bridge'); did you mean 'name'?" in lines
    assert (
        f"error: {path}: sides[0].combatants[0].contoller: an unknown field (got 'heuristic'); did you mean "
        "'controller'?"
    ) in lines
    assert (
        f"error: {path}: sides[1].combatants[0].stats.endurence: an unknown field (got 5); did you mean 'endurance'?"
    ) in lines
    assert (
        f"error: {path}: sides[1].combatants[0].zzz: an unknown field (got 1); the fields here are at_range, "
        "band, controller, distance, hidden, hp, id, name, seat, sheet, stats, use"
    ) in lines


@pytest.mark.parametrize(
    ("argv", "answer"),
    [
        (["sim", str(DUEL), "--n", "10"], "No such option: --n (Possible options: -n)"),
        (
            ["sweep", str(DUEL), "--param", "hald.stats.endurance=4..6", "--n", "10"],
            "No such option: --n (Possible options: -n)",
        ),
        (["sim", str(DUEL), "--fight", "10"], "No such option: --fight (Possible options: --fights)"),
        (["odds", "hud", "exchange", "--attack", "1"], "No such option: --attack (Possible options: --attack-mod)"),
        (["--verzion"], "No such option: --verzion (Possible options: --version)"),
    ],
)
def test_a_misspelt_flag_is_answered_with_the_nearest_flag_short_ones_included(argv: list[str], answer: str) -> None:
    """The user's step: ``affray sim nerdified_duel.yaml --n 10`` (``-n`` meant). Click compared the typed flag with
    the long flags only, dashes included, and answered "(Possible options: --chunk, --json)"; the answer is the
    nearest flags by name, ``-n`` among them, at every level of the command line."""
    done = affray(*argv)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert answer in done.stderr.splitlines()[-1]


def _commands() -> list[tuple[list[str], Any]]:
    """Every command of the command line, groups included, as ``(path, command)``; the groups found at run time
    (``odds RULESET``, ``character``'s operations) are listed the way ``--help`` lists them."""
    import typer
    from typer._click.core import Context

    from affray.cli.main import app

    found: list[tuple[list[str], Any]] = []

    def walk(command: Any, path: list[str], ctx: Context) -> None:
        found.append((path, command))
        for name in command.list_commands(ctx) if hasattr(command, "list_commands") else []:
            sub = command.get_command(ctx, name)
            walk(sub, [*path, name], Context(sub, parent=ctx, info_name=name))

    root = typer.main.get_command(app)
    walk(root, [], Context(root, info_name="affray"))
    return found


def test_every_flag_of_every_command_has_help() -> None:
    """The user's step: ``affray sweep --help`` (or ``odds hud exchange --help``): ``--workers``, ``--policy``,
    ``--plot``, ``--scheduler``, ``--engine`` and the exchange's modifiers were listed with no word of what they
    do. Every command's ``--help`` runs, and every option of every command (generated ones too) says what it is."""
    commands = _commands()
    assert len(commands) > 40 and ["odds", "hud", "exchange"] in [path for path, _ in commands]
    bare = [
        f"affray {' '.join(path)} {param.opts[0]}"
        for path, command in commands
        for param in command.params
        if param.param_type_name == "option" and not (param.help or "").strip()
    ]
    assert bare == []
    for path, _ in commands:
        shown = affray(*path, "--help")
        assert shown.returncode == 0 and "Traceback" not in shown.stderr, path
