"""docs/odds.md: every ``affray odds`` check reports means beside its distributions; ``--exact`` text shows
the fractions; the duel solvers report progress and refuse sizes they cannot finish, saying why."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from affray.odds.cyclic import solve_cyclic
from affray.odds.markov import Chain, NotSolvable, solve
from affray.odds.progress import EXACT_MAX_STATES, reporting, too_large
from affray.odds.reference import reference_duel

from .test_odds_cli import affray as run_affray


class _Result:
    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = code, stdout, stderr


def affray(*args: str) -> _Result:
    """``affray odds ARGS`` in this process (the subprocess runs of test_odds_cli cover the entry point)."""
    from typer.testing import CliRunner

    from affray.cli.main import app

    result = CliRunner().invoke(app, ["odds", *args], terminal_width=200)
    return _Result(result.exit_code, result.stdout, result.stderr)


@pytest.mark.parametrize(
    ("args", "golden"),
    [
        # WL-11..WL-13: the plain exchange hits 78/169 of the time and a hit costs 28/13 HP on average: 168/169
        (["hud", "exchange"], {"hp_loss": "168/169"}),
        # SC-B1/SC-B6: 11/20 hits; 1d8+2 less 1 averages 11/2 when it hits: 11/20 · 11/2 = 121/40
        (
            ["spellchrome", "attack", "--bonus", "5", "--defense", "15", "--damage", "1d8+2", "--dr", "1", "--hp", "8"],
            {"damage": "121/40", "hp_loss": "121/40"},
        ),
        (["warp", "attack", "--attack", "3", "--defense", "2", "--factor", "3", "--armour-dice", "1"], {}),
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
            {},
        ),
    ],
)
def test_every_check_reports_the_mean_of_each_distribution(args: list[str], golden: dict[str, str]) -> None:
    result = affray(*args, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    dists = [k for k, v in data.items() if isinstance(v, list)]
    assert dists and set(data["means"]) == set(dists)
    for name in dists:
        expected = sum(Fraction(r["exact"]) * r["outcome"] for r in data[name])
        assert Fraction(data["means"][name]["exact"]) == expected
    for name, exact in golden.items():
        assert data["means"][name]["exact"] == exact
    text = affray(*args).stdout
    assert all(f"mean {name.replace('_', ' ')}" in text for name in dists)


def test_sc04_sc06_the_dying_check_golden_values() -> None:
    """SC-04..SC-06: dying at −28 with Fort +0: dead 79/80, 5/4 rounds on average (see test_sc_aftermath)."""
    data = json.loads(affray("spellchrome", "dying", "--hp", "-28", "--fort", "0", "--json").stdout)
    assert data["p_dead"]["exact"] == "79/80" and data["means"]["rounds"]["exact"] == "5/4"
    refused = run_affray("spellchrome", "dying", "--hp", "0", "--fort", "0")  # the entry point's refusal
    assert refused.returncode == 2 and "−1 to −29" in refused.stderr and "Traceback" not in refused.stderr


def test_exact_duel_text_shows_the_fractions() -> None:
    result = affray("duel", "examples/spellchrome/ford_duel.yaml", "--exact")
    assert result.returncode == 0, result.stderr
    # the ford duel's exact answer (docs/odds.md: dockside 18.71%): the whole fraction is printed
    assert "236485707825360166533927388397/1263650306614349347787164876800" in result.stdout.replace("\n", "")
    assert "expected rounds: 6.0877 = " in result.stdout


def test_solvers_report_progress() -> None:
    seen: list[tuple[str, int, int | None]] = []
    with reporting(lambda stage, done, total: seen.append((stage, done, total))):
        reference_duel(20, exact=False, general=True)
    stages = {s for s, _, _ in seen}
    assert "rounds" in stages
    rounds = [d for s, d, _ in seen if s == "rounds"]
    assert rounds == sorted(rounds) and rounds[0] == 1
    seen.clear()
    reference_duel(20, exact=False, general=True)  # outside ``reporting``: nobody is told
    assert seen == []


def _walk(n: int) -> Chain[int]:
    """A chain 0 → 1 → ... → n (absorbed at n): n states, each a coin between moving on and staying."""
    return Chain(
        0, lambda s, exact: {s + 1: Fraction(1, 2), s: Fraction(1, 2)}, lambda s: "end" if s >= n else None, ("end",)
    )


def _grid(n: int) -> Chain[tuple[int, int]]:
    """A chain over (i, j) < (n, n): each step one of the two goes up; absorbed when either reaches n."""
    return Chain(
        (0, 0),
        lambda s, exact: {(s[0] + 1, s[1]): Fraction(1, 2), (s[0], s[1] + 1): Fraction(1, 2)},
        lambda s: "end" if max(s) >= n else None,
        ("end",),
    )


def test_solvers_refuse_sizes_they_cannot_finish_and_say_why(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(NotSolvable, match="more than 50 states: too large"):
        solve(_walk(100), max_states=50)
    with pytest.raises(NotSolvable, match="more than 50 states"):
        solve_cyclic(_walk(100), max_states=50)
    monkeypatch.setattr("affray.odds.progress.EXACT_MAX_STATES", 400)
    with pytest.raises(NotSolvable, match=r"more than 400 states: exact fractions .*without --exact"):
        solve(_grid(25), exact=True, max_states=10**9)  # 625 states, more than the exact limit
    assert solve(_grid(25), max_states=10**9).states == 625  # the float solver takes them
    with pytest.raises(NotSolvable, match="in a row"):
        solve(_walk(30_000), max_states=10**9)  # deeper than the recursive solver can go
    assert "without --exact" in too_large(400, True) and "affray sim" in too_large(EXACT_MAX_STATES + 1, False)
    assert solve(_walk(10), exact=True).expected_rounds == 20  # 10 steps of 2 rounds each on average
