"""``affray odds`` for WitchHammer, WaRP and Spellchrome, run as a user runs it: the JSON shape of docs/odds.md
(probabilities as {"exact", "value"}, distributions over the whole check), tables, and refusals (exit 2,
one sentence, no traceback)."""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.cli_run import affray as run_affray

ROOT = Path(__file__).parents[2]


def affray(*args: str) -> subprocess.CompletedProcess[str]:
    return run_affray("odds", *args, cwd=ROOT)


def check_shape(data: dict[str, Any], probabilities: set[str], distributions: set[str]) -> None:
    assert set(data) >= probabilities | distributions
    for key in probabilities:
        p = Fraction(data[key]["exact"])
        assert abs(float(p) - data[key]["value"]) < 1e-15 and 0 <= p <= 1
    for key in distributions:
        rows = data[key]
        assert [r["outcome"] for r in rows] == sorted(r["outcome"] for r in rows)
        assert sum(Fraction(r["exact"]) for r in rows) == 1  # over the whole check: a miss is 0


@pytest.mark.parametrize(
    ("args", "probabilities", "distributions", "golden"),
    [
        (
            ["witchhammer", "attack", "--attack", "11", "--defense", "4"],
            {"p_hit", "p_solid_hit", "p_crit", "p_fumble"},
            {"damage"},
            {"p_hit": "17/20", "p_solid_hit": "2/5"},
        ),
        (
            [
                "witchhammer",
                "attack",
                "--attack",
                "11",
                "--defense",
                "4",
                "--target-poise",
                "5",
                "--target-health",
                "14",
            ],
            {"p_hit", "p_solid_hit", "p_crit", "p_fumble", "p_down"},
            {"damage", "wounds"},
            {"p_down": "1/20"},
        ),
        (
            ["warp", "attack", "--attack", "3", "--defense", "2", "--factor", "3", "--armour-dice", "1"],
            {"p_hit"},
            {"damage"},
            {"p_hit": "1009/1296"},
        ),
        (
            ["spellchrome", "attack", "--bonus", "5", "--defense", "15", "--damage", "1d8+2", "--dr", "1", "--hp", "8"],
            {"p_hit", "p_down"},
            {"damage", "hp_loss"},
            {"p_hit": "11/20"},
        ),
        (["spellchrome", "save", "--bonus", "3", "--dc", "22"], {"p_success"}, set(), {"p_success": "1/10"}),
        (["witchhammer", "save", "--bonus", "2", "--difficulty", "15"], {"p_success"}, set(), {"p_success": "2/5"}),
    ],
)
def test_json_has_the_documented_shape_and_golden_values(
    args: list[str], probabilities: set[str], distributions: set[str], golden: dict[str, str]
) -> None:
    result = affray(*args, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    check_shape(data, probabilities, distributions)
    for key, exact in golden.items():
        assert data[key]["exact"] == exact


def test_table_and_bars_without_json() -> None:
    result = affray("warp", "attack", "--attack", "3", "--defense", "2")
    assert result.returncode == 0
    assert "1009/1296" in result.stdout and "█" in result.stdout and "damage" in result.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["witchhammer", "attack", "--attack", "11", "--defense", "4", "--target-poise", "5"], "--target-health"),
        (["warp", "attack", "--attack", "-1", "--defense", "2"], "cannot be negative"),
        (["warp", "attack", "--attack", "12", "--defense", "2", "--attack-bonus", "4"], "at most 14"),
        (["spellchrome", "attack", "--bonus", "2", "--defense", "12", "--damage", "1x8"], "not dice notation"),
        (["spellchrome", "attack", "--bonus", "2", "--defense", "12"], "--damage"),
        (["duel", "examples/witchhammer/ember_wight.yaml"], "one combatant on each"),
    ],
)
def test_bad_flags_exit_2_with_a_sentence(args: list[str], words: str) -> None:
    result = affray(*args)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert words in result.stderr and result.stdout == ""


@pytest.mark.parametrize("flag", ["--attack", "--defense"])
def test_odds_warp_attack_with_0_dice_is_refused(flag: str) -> None:
    """The user's step: ``affray odds warp attack --attack 0`` (or ``--defense 0``). A WaRP roll throws at least one
    die (a trait's dice, 2 without one: WR-03; distance dice start at 1: WR-15); 0 used to be answered as a roll of
    no dice."""
    other = "--defense" if flag == "--attack" else "--attack"
    result = affray("warp", "attack", flag, "0", other, "2")
    assert result.returncode == 2 and "Traceback" not in result.stderr and result.stdout == ""
    assert f"{flag} is the" in result.stderr and "at least 1" in result.stderr and "WR-03" in result.stderr


def test_duel_json_names_its_model() -> None:
    result = affray("duel", "examples/warp/knight_duel.yaml", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert 0 < data["outcomes"]["theo"]["value"] < 1 and "steady" in data["model"]
    assert abs(sum(v["value"] for v in data["outcomes"].values()) - 1) < 1e-12


@pytest.mark.parametrize("damage", ["0d6", "1d8+0d6"])
def test_odds_spellchrome_attack_damage_of_zero_dice_is_refused(damage: str) -> None:
    """The user's step: ``affray odds spellchrome attack --damage 0d6``. It used to be answered as a damage of 0
    on every hit; a term of no dice is refused with a sentence naming the notation, exit 2."""
    result = affray("spellchrome", "attack", "--bonus", "3", "--defense", "12", "--damage", damage)
    assert result.returncode == 2 and "Traceback" not in result.stderr and result.stdout == ""
    assert f"'{damage}' is not dice notation: '0d6' rolls no dice" in result.stderr
