"""``affray odds dice``: the exact distribution of any dice expression in ``affray roll``'s notation, and comparisons
between two, against a hand enumeration of every throw (``itertools.product`` over the faces), from the command line
as a designer runs it and from Python; bonus and penalty dice against the WaRP odds' own pool rules (WR-02, WR-B2);
refusals: one sentence naming the part that is wrong, exit 2, no traceback."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from affray.odds.expression import MAX_WORK, dice_odds
from affray.odds.notation import notation_dist
from affray.rulesets.warp.odds import roll_dist
from tests.cli_run import affray as run_affray

Faces = tuple[int, ...]


def affray(*args: str) -> tuple[int, str, str]:
    result = run_affray("odds", "dice", *args)
    return result.returncode, result.stdout, result.stderr


def by_hand(sides: Sequence[int], total: Callable[[Faces], int]) -> dict[int, Fraction]:
    """Every throw of dice with these ``sides``, each equally likely, mapped to its total."""
    counts: dict[int, int] = {}
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        counts[total(faces)] = counts.get(total(faces), 0) + 1
    throws = math.prod(sides)
    return {k: Fraction(n, throws) for k, n in sorted(counts.items())}


def highest(faces: Faces, n: int) -> int:
    return sum(sorted(faces)[len(faces) - n :])


def lowest(faces: Faces, n: int) -> int:
    return sum(sorted(faces)[:n])


#: (expression, the dice thrown, the total of one throw, worked out by hand from the notation's meaning)
EXPRESSIONS: list[tuple[str, list[int], Callable[[Faces], int]]] = [
    ("3d6", [6, 6, 6], sum),
    ("4d6kh3", [6] * 4, lambda f: highest(f, 3)),
    ("3d6kl2", [6] * 3, lambda f: lowest(f, 2)),
    ("2d6+1d4-1", [6, 6, 4], lambda f: f[0] + f[1] + f[2] - 1),
    ("1d8-1d4+2", [8, 4], lambda f: f[0] - f[1] + 2),
    ("2d10kh1 - 1d6", [10, 10, 6], lambda f: max(f[0], f[1]) - f[2]),
    ("d20", [20], sum),
    ("3d6+1b", [6] * 4, lambda f: highest(f, 3)),  # WR-02: a bonus die, the best three count
    ("2d6+2p", [6] * 4, lambda f: lowest(f, 2)),  # WR-02: penalty dice, the worst two count
    ("2d6+2b+1p", [6] * 3, lambda f: highest(f, 2)),  # WR-B2: one penalty die cancels one bonus die
    ("5", [], lambda f: 5),
]


@pytest.mark.parametrize(("text", "sides", "total"), EXPRESSIONS, ids=[e[0] for e in EXPRESSIONS])
def test_the_distribution_is_the_hand_enumeration_exactly(
    text: str, sides: list[int], total: Callable[[Faces], int]
) -> None:
    """Python and ``--json`` give each total's probability as the fraction of throws that make it, and at least /
    at most as the sums of those fractions."""
    want = by_hand(sides, total)
    assert dice_odds(text).left.dist == want
    code, out, err = affray(text, "--json")
    assert code == 0, err
    data = json.loads(out)
    rows = data["distribution"]
    assert {r["outcome"]: Fraction(r["exact"]) for r in rows} == want
    for r in rows:
        assert r["value"] == float(Fraction(r["exact"]))
        assert Fraction(r["at_least"]["exact"]) == sum(p for k, p in want.items() if k >= r["outcome"])
        assert Fraction(r["at_most"]["exact"]) == sum(p for k, p in want.items() if k <= r["outcome"])
    mean = sum(k * p for k, p in want.items())
    variance = sum(k * k * p for k, p in want.items()) - mean**2
    assert Fraction(data["mean"]["exact"]) == mean and Fraction(data["variance"]["exact"]) == variance
    assert data["sd"] == pytest.approx(math.sqrt(variance), rel=1e-15)


def test_3d6_mean_and_standard_deviation_in_the_text_table() -> None:
    """3d6: 1/216 for a 3, 1/8 for a 10 (at least 10: 5/8 = 62.50%), mean 21/2, sd √(35/4) = 2.958."""
    code, out, _ = affray("3d6")
    assert code == 0
    assert "1/216" in out and "62.50%" in out and "mean 21/2 ≈ 10.5" in out and "sd 2.958" in out
    odds = dice_odds("3d6")
    assert odds.left.variance == Fraction(35, 4)


COMPARED: list[tuple[str, list[int], Callable[[Faces], bool]]] = [
    ("3d6kh2 > 2d6+1", [6, 6, 6, 6, 6], lambda f: highest(f[:3], 2) > f[3] + f[4] + 1),
    ("2d6 >= 1d12", [6, 6, 12], lambda f: f[0] + f[1] >= f[2]),
    ("2d6 < 1d12", [6, 6, 12], lambda f: f[0] + f[1] < f[2]),
    ("2d6 <= 1d12", [6, 6, 12], lambda f: f[0] + f[1] <= f[2]),
    ("2d6 == 1d12", [6, 6, 12], lambda f: f[0] + f[1] == f[2]),
    ("2d6 != 1d12", [6, 6, 12], lambda f: f[0] + f[1] != f[2]),
    ("3d6 >= 10", [6, 6, 6], lambda f: sum(f) >= 10),
    ("1d20+5 > 2d8+1b", [20, 8, 8, 8], lambda f: f[0] + 5 > highest(f[1:], 2)),  # +1b: the best 2 of 3d8
    ("-1d4 != 1d4-5", [4, 4], lambda f: -f[0] != f[1] - 5),
]


@pytest.mark.parametrize(("text", "sides", "holds"), COMPARED, ids=[c[0] for c in COMPARED])
def test_a_comparison_is_the_share_of_throws_where_it_holds(
    text: str, sides: list[int], holds: Callable[[Faces], bool]
) -> None:
    want = by_hand(sides, lambda f: int(holds(f))).get(1, Fraction(0))
    odds = dice_odds(text)
    assert odds.probability == want
    code, out, err = affray(text, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["probability"] == {"exact": f"{want.numerator}/{want.denominator}", "value": float(want)}
    assert data["comparison"] in text and set(data) == {"expression", "comparison", "probability", "left", "right"}
    assert sum(Fraction(r["exact"]) for r in data["right"]["distribution"]) == 1


def test_the_issue_example_and_the_six_comparisons_agree() -> None:
    """``3d6kh2 > 2d6+1`` is 145/288 (the hand enumeration of 7,776 throws); > , < and == of two sides add to 1,
    and each of >=, <=, != is the complement of <, >, ==."""
    assert dice_odds("3d6kh2 > 2d6+1").probability == Fraction(145, 288)
    p: dict[str, Fraction] = {}
    for op in (">", ">=", "<", "<=", "==", "!="):
        holds = dice_odds(f"2d6 {op} 1d12").probability
        assert holds is not None
        p[op] = holds
    assert p[">"] + p["<"] + p["=="] == 1
    assert (p[">="], p["<="], p["!="]) == (1 - p["<"], 1 - p[">"], 1 - p["=="])
    code, out, _ = affray("3d6kh2 > 2d6+1")
    assert code == 0
    assert "P(3d6kh2 > 2d6+1) = 145/288 ≈ 50.35%" in out
    assert "3d6kh2: mean 203/24 ≈ 8.458, sd 2.215" in out and "2d6+1: mean 8, sd 2.415" in out


@pytest.mark.parametrize(
    ("text", "dice", "bonus", "penalty"),
    [("3d6+1b", 3, 1, 0), ("4d6+2p", 4, 0, 2), ("2d6+1b+1p", 2, 1, 1), ("2d6+3b+1p", 2, 3, 1), ("1d6+1p", 1, 0, 1)],
)
def test_wr02_wrb2_bonus_and_penalty_dice_are_the_warp_pools(text: str, dice: int, bonus: int, penalty: int) -> None:
    """WR-02 (a bonus die drops the lowest, a penalty die the highest), WR-B2 (they cancel one for one): the
    expression's distribution is the WaRP odds' own ``roll_dist`` (multisets through ``pool_total``)."""
    assert dice_odds(text).left.dist == roll_dist(dice, bonus, penalty)


@pytest.mark.parametrize("text", ["2d6+1d4-1", "4d6kh3", "3d6+1b", "10d10", "3d20kl2-2", "2d6+2p"])
def test_the_same_distribution_as_the_odds_notation_module(text: str) -> None:
    """The Spellchrome damage odds read notation by :func:`affray.odds.notation.notation_dist` (its own sums):
    both readings give the same fractions."""
    assert dice_odds(text).left.dist == notation_dist(text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("3d6 => 2", ["'=>'", "not a comparison"]),
        ("3d6 = 12", ["'='", "=="]),
        ("> 2", ["nothing on the left of '>'"]),
        ("3d6 >", ["nothing on the right of '>'"]),
        ("1 < 2 < 3", ["2 comparisons"]),
        ("3x6", ["'3x6' is not dice notation", "'x6'"]),
        ("3d6 > 2x", ["right side", "'2x' is not dice notation", "'x'"]),
        ("0d6", ["'0d6' rolls no dice"]),
        ("4d6kh5", ["cannot keep 5 of 4"]),
        ("3d6-1b", ["plus sign"]),
        ("2d6+1d4+1b", ["exactly one dice group"]),
        ("2d6 > 100d100", ["'100d100' alone", f"{MAX_WORK:,}"]),
        ("1d6 + 2d600kh1", ["'2d600kh1' in '1d6 + 2d600kh1'", "600 sides"]),
        ("1d20000", ["'1d20000' has 20,000 possible totals"]),
        ("2d6 >= 1d6000+1d6000", ["right side", "11,999 possible totals"]),
        ("", ["it is empty"]),
    ],
)
def test_a_bad_expression_is_one_sentence_naming_the_part(text: str, names: list[str]) -> None:
    code, out, err = affray(text)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    for name in names:
        assert name in err, err


def test_an_expression_may_start_with_a_minus_sign() -> None:
    """``-1d4 != 1d4-5`` is an expression, not an unknown option (with or without ``--`` before it): 3/4."""
    for args in (["-1d4 != 1d4-5"], ["--", "-1d4 != 1d4-5"]):
        code, out, _ = affray(*args)
        assert code == 0 and "P(-1d4 != 1d4-5) = 3/4 ≈ 75.00%" in out


def test_kl_pools_with_bonus_dice_are_refused_as_the_roll_command_refuses_them() -> None:
    """Bonus dice join a group without keep (WR-02); a group with its own keep and a bonus die is refused."""
    code, _, err = affray("1d20+5 > 2d8kl1+1b")
    assert code == 2 and "right side" in err and "exactly one dice group without keep" in err


def test_the_plot_is_a_png_of_the_distribution(tmp_path: Path) -> None:
    out, both = tmp_path / "4d6kh3.png", tmp_path / "compared.svg"
    code, text, _ = affray("4d6kh3", "--plot", str(out))
    assert code == 0 and f"plot written to {out}" in text.replace("\n", "")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000
    code, text, _ = affray("3d6kh2 > 2d6+1", "--plot", str(both), "--json")
    assert code == 0 and json.loads(text)["probability"]["exact"] == "145/288"
    svg = both.read_text()
    assert "P(3d6kh2 &gt; 2d6+1) = 145/288" in svg and "probability (%)" in svg


def test_a_plot_path_that_cannot_be_written_is_refused_before_the_work(tmp_path: Path) -> None:
    code, out, err = affray("3d6", "--plot", str(tmp_path / "odds.txt"))
    assert code == 2 and out == "" and "--plot expects a .png or .svg file name" in err
    code, out, err = affray("3d6", "--plot", str(tmp_path / "missing" / "odds.png"))
    assert code == 2 and "there is no folder" in err


def test_a_long_distribution_prints_as_plain_columns() -> None:
    """Past 400 totals the table is plain columns (rich takes seconds to lay out 10,000 rows): 1d1000 has 1,000
    rows, each 1/1000."""
    code, out, _ = affray("1d1000")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "1d1000" and lines[1].split() == ["total", "exact", "%", "at", "least", "at", "most"]
    assert lines[2].split()[:5] == ["1", "1/1000", "0.10%", "100%", "0.10%"] and len(lines) == 1 + 1 + 1000 + 1
