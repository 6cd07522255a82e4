"""Balance by target (docs/simulation.md, "Balance by target"): ``affray balance`` finds the whole-number value that
brings a side's win chance closest to a target, exactly on a solvable duel (``--exact``: the duel solver of
``affray odds duel``, bisected) or by simulation within its stated precision, and says so in a sentence when no
value in the range reaches the target. ``affray sweep --exact`` gives a duel's exact chances point by point."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from affray.core.scenario import load_scenario_data
from affray.rulesets.hud.odds import duel_odds
from affray.sim.balance import Probe, search
from affray.sim.sweep import scenario_with
from tests.cli_run import affray as cli

EXAMPLES = Path(__file__).parents[2] / "examples"
DUEL = EXAMPLES / "hud" / "nerdified_duel.yaml"
BRAWL = EXAMPLES / "warp" / "melee_brawl.yaml"
RANGE = range(2, 15)


@cache
def exact_chance(value: int) -> float:
    """Vesna's exact chance of beating a Sergeant Hald of Endurance ``value`` (both playing 'steady')."""
    scenario = scenario_with(load_scenario_data(DUEL), DUEL, [("hald.stats.endurance", value)])
    return float(duel_odds(scenario.setup, scenario.options).outcomes["witcher"])  # the HuD's exact duel solver


def balance(*args: str) -> dict[str, Any]:
    done = cli("balance", str(DUEL), "--param", "hald.stats.endurance=2..14", *args, "--json")
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize("target", [0.3, 0.5, 0.2])
def test_balance_exact_on_a_duel_is_the_exact_solver_s_root(target: float) -> None:
    """``affray balance nerdified_duel.yaml --param hald.stats.endurance=2..14 --target T --exact``: the value whose
    exact chance (the duel solver's, to the last digit) is closest to T among all thirteen, found by bisection
    (fewer values solved than the range holds), with its neighbours' exact chances."""
    chances = {v: exact_chance(v) for v in RANGE}
    root = min(RANGE, key=lambda v: abs(chances[v] - target))
    found = balance("--target", str(target), "--exact")
    assert found["value"] == root and found["win_rate"] == chances[root]
    assert found["ci95"] == [chances[root], chances[root]] and found["fights"] == 0
    assert [(n["value"], n["win_rate"]) for n in found["neighbours"]] == [
        (root - 1, chances[root - 1]),
        (root + 1, chances[root + 1]),
    ]
    assert found["reached"] and found["monotone"] and found["side"] == "witcher"
    assert len(found["tried"]) < len(RANGE)
    assert all(t["win_rate"] == chances[t["value"]] for t in found["tried"])


def test_balance_exact_text_names_the_value_and_the_model() -> None:
    done = cli("balance", str(DUEL), "--param", "hald.stats.endurance=2..14", "--target", "0.3", "--exact")
    assert done.returncode == 0, done.stderr
    assert (
        "hald.stats.endurance = 7 brings witcher's win chance to 29.72% (exact), the closest to the target 30%"
        in " ".join(done.stdout.split())
    )
    assert "both sides play 'steady'" in done.stdout


def test_balance_says_when_no_value_reaches_the_target() -> None:
    """A target above every chance in the range: one sentence naming the range, the chances at its ends and the
    closest value, exactly and by simulation (where the ends' intervals both lie below the target)."""
    found = balance("--target", "0.9", "--exact")
    assert not found["reached"] and found["value"] == 2
    assert found["summary"] == (
        "No value of hald.stats.endurance in 2..14 brings witcher's win chance to 90%: it is "
        "55.85% (exact) at 2 and 9.60% (exact) at 14; the closest is 2."
    )
    simulated = balance(
        "--target",
        "0.95",
        "--precision",
        "0.05",
        "--workers",
        "1",
        "--policy",
        "witcher=steady",
        "--policy",
        "watch=steady",
    )
    assert not simulated["reached"] and simulated["value"] == 2
    assert simulated["summary"].startswith(
        "No value of hald.stats.endurance in 2..14 brings witcher's win chance to 95%: it is "
    )
    assert "(95% intervals); the closest is 2." in simulated["summary"]
    done = cli("balance", str(DUEL), "--param", "hald.stats.endurance=2..14", "--target", "0.9", "--exact")
    assert "No value of hald.stats.endurance in 2..14" in done.stdout


def test_simulated_balance_is_within_its_stated_precision() -> None:
    """``affray balance ... --target 0.3 --precision 0.03 --policy witcher=steady --policy watch=steady`` (the duel
    model's policies, so the exact chances are known). The stated tolerance: the answer's 95% interval is narrower
    than ±0.03 and holds the answer's exact chance; its exact chance is within 2 × 0.03 of the exact root's
    distance from the target; the fights in all are the sum of every value's."""
    precision = 0.03
    found = balance(
        "--target",
        "0.3",
        "--precision",
        str(precision),
        "--seed",
        "2",
        "--workers",
        "1",
        "--policy",
        "witcher=steady",
        "--policy",
        "watch=steady",
    )
    chances = {v: exact_chance(v) for v in RANGE}
    best = min(abs(c - 0.3) for c in chances.values())
    low, high = found["ci95"]
    assert (high - low) / 2 < precision and low <= chances[found["value"]] <= high
    assert abs(chances[found["value"]] - 0.3) <= best + 2 * precision
    assert found["fights_total"] == sum(t["fights"] for t in found["tried"]) and found["reached"]
    assert found["engine"] == "fast" and found["policies"] == {"vesna": "steady", "hald": "steady"}
    assert found["scenario"]["path"] == str(DUEL) and found["seed"] == 2


def test_bisection_flags_a_chance_that_is_not_monotone() -> None:
    """``search`` over values 0..8 where value 4, the first middle tried, is above both ends: the chance is not
    monotone, so (exact) every value is solved and the closest of all is the answer, with a sentence saying so."""
    chances = [0.1, 0.2, 0.44, 0.3, 0.95, 0.4, 0.5, 0.6, 0.7]
    found = search("x", range(9), "a", 0.45, lambda v, _: Probe(v, chances[v], chances[v], chances[v]), True)
    assert not found.monotone and found.best.value == 2
    assert [p.value for p in found.probes] == list(range(9))
    assert "a's win chance is not monotone in x over this range: every value was solved" in found.sentences()[1]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--param", "hald.stats.endurance=2..14", "--target", "1.5"], "--target is a win chance between 0 and 1"),
        (["--param", "hald.stats.endurance=2.0..4.0", "--target", "0.5"], "balance searches whole numbers"),
        (["--param", "hald.stats.endurance=4..4", "--target", "0.5"], "at least two values"),
        (
            ["--param", "hald.stats.endurance=2..14", "--target", "0.5", "--side", "guild"],
            "no side called that; its sides are witcher, watch",
        ),
        (
            ["--param", "hald.stats.endurance=2..14", "--target", "0.5", "--exact", "--policy", "watch=random"],
            "--policy does not apply",
        ),
        (["--param", "hald.stats.endurance=2..99", "--target", "0.5", "--exact"], "makes the scenario invalid"),
    ],
)
def test_balance_refuses_with_a_sentence(args: list[str], words: str) -> None:
    done = cli("balance", str(DUEL), *args)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr


def test_balance_exact_on_a_brawl_says_it_cannot_be_solved() -> None:
    done = cli("balance", str(BRAWL), "--param", "thug1.stats.hp=10..12", "--target", "0.5", "--exact")
    assert done.returncode == 2
    assert (
        "--exact: this scenario cannot be solved exactly (exact duels need exactly one combatant on each of two sides)"
    ) in done.stderr


def test_sweep_exact_gives_the_duel_solver_s_chances() -> None:
    """``affray sweep nerdified_duel.yaml --param hald.stats.endurance=4..8:2 --exact``: each point's chances are
    the duel solver's, exactly, with no fights played; the text says which model played."""
    done = cli("sweep", str(DUEL), "--param", "hald.stats.endurance=4..8:2", "--exact", "--json")
    assert done.returncode == 0, done.stderr
    points = json.loads(done.stdout)["points"]
    assert [(p["value"], p["sides"]["witcher"]["win_rate"], p["fights"], p["path"]) for p in points] == [
        (v, exact_chance(v), 0, "exact") for v in (4, 6, 8)
    ]
    text = cli("sweep", str(DUEL), "--param", "hald.stats.endurance=4..8:2", "--exact")
    assert "44.98%" in text.stdout and "exact: the duel model: both sides play 'steady'" in text.stdout


def test_the_library_balance_answers_as_the_command_does() -> None:
    """``affray.balance`` (docs/library.md) is the command's search: exactly on the duel (the value 7 at 29.72%, its
    neighbours' exact chances) and by simulation on the same seed (the same value, rate, interval and fights as
    ``affray balance --json``); a bad side or parameter is a ValueError with the command's sentence."""
    import affray

    exact = affray.balance(DUEL, "hald.stats.endurance=2..14", 0.3, exact=True)
    assert (exact.best.value, exact.best.rate) == (7, exact_chance(7)) and exact.side == "witcher"
    assert [(p.value, p.rate) for p in exact.neighbours] == [(6, exact_chance(6)), (8, exact_chance(8))]
    assert exact.sentences()[0].startswith("hald.stats.endurance = 7 brings witcher's win chance to 29.72% (exact)")
    steady = {"witcher": "steady", "watch": "steady"}
    simulated = affray.balance(
        load_scenario_data(DUEL), "hald.stats.endurance=2..14", 0.3, precision=0.05, seed=3, policies=steady
    )
    command = balance(
        "--target", "0.3", "--precision", "0.05", "--seed", "3", "--workers", "1",
        "--policy", "witcher=steady", "--policy", "watch=steady",
    )  # fmt: skip
    best = simulated.best
    assert (best.value, best.rate, [best.low, best.high], best.fights) == (
        command["value"],
        command["win_rate"],
        command["ci95"],
        command["fights"],
    )
    assert simulated.fights == command["fights_total"]
    with pytest.raises(ValueError, match="the scenario has no side called that; its sides are witcher, watch"):
        affray.balance(DUEL, "hald.stats.endurance=2..14", 0.3, side="river", exact=True)
    with pytest.raises(ValueError, match=r"--param expects PATH=LO\.\.HI"):
        affray.balance(DUEL, "hald.stats.endurance", 0.3, exact=True)
