"""A fifth ruleset reaches the command line through its plug-in record alone: the toy of ``tests/core/toy.py``
declares a single check and sheet rules with one extra operation, and ``affray odds toy ...`` and ``affray
character ...`` work for it with no line of ``cli/`` naming it (the real CLI, run in this process)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from affray.core.plugin import register, unregister
from tests.cli.inproc import run_cli
from tests.core.toy import PLUGIN


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(PLUGIN)
    yield
    unregister("toy")


def test_odds_lists_the_toy_and_its_check_help_lists_the_declared_flags() -> None:
    code, out, _ = run_cli(["odds", "--help"])
    assert code == 0 and "toy" in out and "Single checks of Toy sealed bids." in out
    code, out, _ = run_cli(["odds", "toy", "bid", "--help"])
    assert code == 0
    assert "One sealed bid: the chance to win and to draw, and the margin" in out
    for flag, words in (
        ("--bid", "your bid"),
        ("--their-bid", "the other player's bid"),
        ("--luck", "your Luck (3 adds nothing)"),
        ("--their-luck", "their Luck"),
        ("--json", "print one JSON object"),
    ):
        assert flag in out and words in out
    assert "your bid  [1<=x<=3; required]" in out and "[default: 2; 1<=x<=3]" in out


def test_odds_toy_bid_prints_exact_numbers() -> None:
    """Bid 2 + d6 against 2 + 3 at Luck 3 each: a win on 4, 5, 6 (1/2), a draw on 3 (1/6); the margin runs -2..3
    with mean 1/2. One more Luck on our side shifts it by one (2/3 and 1/6)."""
    code, out, err = run_cli(["odds", "toy", "bid", "--bid", "2", "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["p_win"] == {"exact": "1/2", "value": 0.5} and data["p_draw"]["exact"] == "1/6"
    assert [(r["outcome"], r["exact"]) for r in data["margin"]] == [(k, "1/6") for k in range(-2, 4)]
    assert data["means"] == {"margin": {"exact": "1/2", "value": 0.5}}
    code, out, _ = run_cli(["odds", "toy", "bid", "--bid", "2", "--luck", "4"])
    assert code == 0 and "Toy bid: 2 + d6 against 2 + 3" in out and "2/3" in out and "1/6" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bid", "4"], "Invalid value for '--bid': Input should be less than or equal to 3"),
        (["--luck", "6", "--their-luck", "6", "--bid", "1"], "--luck and --their-luck together are at most 10"),
        ([], "Missing option '--bid'"),
    ],
)
def test_odds_toy_bid_refuses_bad_flags_with_a_sentence(args: list[str], words: str) -> None:
    code, out, err = run_cli(["odds", "toy", "bid", *args])
    assert code == 2 and out == "" and words in err and "Traceback" not in err


def _new(tmp_path: Path, luck: str = "5") -> Path:
    sheet = tmp_path / "pip.yaml"
    code, out, err = run_cli(["character", "new", "toy", "--out", str(sheet)], stdin=f"Pip\nA lucky one\n{luck}\n")
    assert code == 0, err
    assert f"saved {sheet}" in out
    return sheet


def test_character_new_check_and_show_a_toy_sheet(tmp_path: Path) -> None:
    sheet = _new(tmp_path)
    assert yaml.safe_load(sheet.read_text()) == {
        "format": "affray-sheet/1",
        "ruleset": "toy",
        "name": "Pip",
        "description": "A lucky one",
        "luck": 5,
    }
    code, out, _ = run_cli(["character", "check", str(sheet)])
    assert code == 0 and "is a legal toy character (Pip)" in out
    code, out, _ = run_cli(["character", "show", str(sheet), "--markdown"])
    assert code == 0 and out.startswith("# Pip (toy)") and "| Luck | 5 of 6 |" in out
    sheet.write_text(sheet.read_text().replace("name: Pip", "name: Nobody"))
    code, _, err = run_cli(["character", "check", str(sheet)])
    assert code == 1 and f"{sheet}: name: a name other than 'Nobody'" in err


def test_character_bless_is_the_toys_own_operation(tmp_path: Path) -> None:
    sheet = _new(tmp_path, luck="4")
    code, out, _ = run_cli(["character", "bless", "--help"])
    assert code == 0 and "Bless a toy character" in out and "--times" in out and "how many blessings" in out
    code, out, err = run_cli(["character", "bless", str(sheet), "--times", "2"])
    assert code == 0, err
    assert "✓ 2 blessing(s)" in out and "Luck 6 of 6" in out and "note: Luck 6: the most there is" in out
    assert yaml.safe_load(sheet.read_text())["luck"] == 6
    code, out, err = run_cli(["character", "bless", str(sheet)])
    assert code == 1 and "refused (1 blessing(s)): Luck runs from 0 to 6; 6 + 1 is 7; nothing was written." in err
    assert yaml.safe_load(sheet.read_text())["luck"] == 6


def test_an_operation_the_sheets_ruleset_does_not_offer_is_refused_with_what_it_offers(tmp_path: Path) -> None:
    """``affray character spend`` is WitchHammer's; on a toy sheet it names what toy sheets offer (exit 2)."""
    sheet = _new(tmp_path)
    before = sheet.read_text()
    code, out, err = run_cli(["character", "spend", str(sheet), "--attribute", "attack"])
    assert code == 2 and out == ""
    assert (
        f"{sheet}: `affray character spend` is not offered for toy sheets; toy sheets offer: new, check, show, bless."
    ) in err
    assert sheet.read_text() == before
