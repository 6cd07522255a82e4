"""What a new user hits first at the command line, each refused with a sentence that says what to do instead:
``--play gm`` where the GM plays nothing, a sweep path with a typo, a scenario with one side."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.cli.inproc import run_cli

EXAMPLES = Path(__file__).parents[2] / "examples"
DUEL = EXAMPLES / "hud" / "nerdified_duel.yaml"


def test_fight_play_gm_where_the_gm_plays_nothing_is_refused(tmp_path: Path) -> None:
    """The user's step: ``affray fight nerdified_duel.yaml --play gm``. No combatant sits at the gm seat and the
    HuD gives the GM no calls, so the fight used to run to its end without one prompt; it is refused, naming the
    seats that can be played, and nothing is saved."""
    save = tmp_path / "s.json"
    code, out, err = run_cli(["fight", str(DUEL), "--seed", "1", "--play", "gm", "--save", str(save)], stdin="q\n")
    assert code == 2 and "Traceback" not in err and out == ""
    assert "--play gm: the GM plays nothing in this fight" in err and "seats you can play: hald, vesna" in err
    assert not save.exists()


def test_fight_play_gm_with_gm_calls_or_a_gm_seated_combatant_prompts(tmp_path: Path) -> None:
    """``--play gm`` is accepted where the GM plays something: the Night-Widow sits at the gm seat; a WaRP fight
    with ``gm_decisions: table`` has the GM rule on attacks (ruling WR-X1). Both stop at the GM's first prompt."""
    data = yaml.safe_load((EXAMPLES / "warp" / "melee_brawl.yaml").read_text())
    data["options"] = {"gm_decisions": "table"}
    ruled = tmp_path / "ruled.yaml"
    ruled.write_text(yaml.safe_dump(data))
    for scenario in (EXAMPLES / "hud" / "nerdified_night_widow.yaml", ruled):
        save = tmp_path / f"{scenario.stem}.json"
        code, out, err = run_cli(
            ["fight", str(scenario), "--seed", "1", "--play", "gm", "--save", str(save)], stdin="q\n"
        )
        assert code == 0, err
        assert "quit: the match is saved" in out and save.exists()


@pytest.mark.parametrize(
    ("param", "words"),
    [
        (
            "hald.stats.endurence=4..6",
            "'endurence' is not a field of sides[1].combatants[0].stats; did you mean 'endurance'?",
        ),
        ("hal.stats.endurance=4..6", "'hal' is not a field of the scenario; did you mean 'hald'?"),
        ("sides[1].combatants[0].stat.endurance=4..6", "did you mean 'stats'?"),
        (
            "options.riposte_margn=4..8",
            "'riposte_margn' is not an option of this ruleset; did you mean 'riposte_margin'?",
        ),
        (
            "content.characters.sergeant.endurence=4..6",
            "'endurence' is not a field of content.characters.sergeant; did you mean 'endurance'?",
        ),
    ],
)
def test_sweep_a_path_with_a_typo_suggests_the_nearest_field(param: str, words: str) -> None:
    """The user's step: ``affray sweep nerdified_duel.yaml --param hald.stats.endurence=4..6`` (a typo). The error
    names the field that does not exist, where, and the nearest one; it used to say only "Extra inputs are not
    permitted"."""
    code, _, err = run_cli(["sweep", str(DUEL), "--param", param, "-n", "10", "--workers", "1"])
    assert code == 2 and "Traceback" not in err
    assert words in " ".join(err.split())


def test_a_scenario_with_one_side_needs_two(tmp_path: Path) -> None:
    """The user's step: ``affray content check`` (and ``fight``) on a scenario with one side: "a scenario needs at
    least two sides", where pydantic's "List should have at least 2 items" used to show."""
    data = yaml.safe_load(DUEL.read_text())
    data["sides"] = data["sides"][:1]
    lonely = tmp_path / "lonely.yaml"
    lonely.write_text(yaml.safe_dump(data))
    for argv in (["content", "check", str(lonely)], ["fight", str(lonely)]):
        code, _, err = run_cli(argv)
        assert code != 0 and "Traceback" not in err
        assert "sides: a scenario needs at least two sides (this one has 1)" in err
        assert "at least 2 items" not in err
