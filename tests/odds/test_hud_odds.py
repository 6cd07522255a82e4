"""Exact HuD odds against the rules' numbers, the live mechanics, and the full engine.
Rules: WL-06, WL-11, WL-12, WL-13 (and the duel model of WL-08..WL-14)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path

import pytest

import affray
from affray.ai.base import get_policy
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.odds.markov import NotSolvable
from affray.rulesets.hud.mechanics import exchange, hp_loss
from affray.rulesets.hud.odds import duel_odds, exchange_odds, simplified_hit_chance

EXAMPLES = Path(__file__).parents[2] / "examples" / "hud"


def test_wl11_wl12_exchange_golden_values() -> None:
    """WL-11: P(d13 > d13) = 78/169 (ties to the defender); WL-12: riposte 28/169; WL-13: no hit, no loss."""
    odds = exchange_odds()
    assert (odds.p_hit, odds.p_riposte) == (Fraction(78, 169), Fraction(28, 169))
    assert odds.hp_loss[0] == 1 - Fraction(78, 169) + Fraction(78, 169) * Fraction(91, 169)
    assert sum(odds.hp_loss.values()) == 1
    assert exchange_odds(attack_mod=1).p_hit == Fraction(7, 13)


@pytest.mark.parametrize(("am", "dm", "gm", "im"), [(0, 0, 0, 0), (2, -1, 1, 3), (-1, 2, 3, 0)])
def test_wl13_exchange_odds_agree_with_the_live_mechanics_by_enumeration(am: int, dm: int, gm: int, im: int) -> None:
    """Every odds value equals brute-force enumeration of the four d13 through exchange() and hp_loss()."""
    total: dict[int, int] = {}
    hits = ripostes = 0
    for a, d, g, i in itertools.product(range(1, 14), repeat=4):
        result = exchange(a + am, d + dm)
        hits += result.hit
        ripostes += result.riposte
        loss = hp_loss(g + gm, i + im) if result.hit else 0
        total[loss] = total.get(loss, 0) + 1
    odds = exchange_odds(am, dm, gm, im)
    n = 13**4
    assert odds.p_hit == Fraction(hits, n) and odds.p_riposte == Fraction(ripostes, n)
    assert odds.hp_loss == {k: Fraction(v, n) for k, v in total.items()}


def test_wl06_simplified_hit_chance() -> None:
    """WL-06: a tie goes to the defender: 78/169 at equal modifiers, 91/169 at +1."""
    assert simplified_hit_chance(0, 0) == Fraction(78, 169)
    assert simplified_hit_chance(1, 0) == Fraction(91, 169)


def _monte_carlo(path: Path, policy: str, n: int) -> tuple[float, float]:
    scenario = affray.load_scenario(path)
    side = scenario.model.sides[0].name
    chosen = get_policy("hud", policy)
    wins = rounds = 0
    for i in range(n):
        match = Match(scenario.plugin, scenario.setup, scenario.options, rng=FastRNG(10_000 + i))
        outcome = affray.play(match, {a: chosen for a in match.controllers}, FastRNG(i))
        wins += outcome is not None and outcome.winner == side
        rounds += match.rounds()
    return wins / n, rounds / n


@pytest.mark.parametrize("name", ["nerdified_duel.yaml", "simplified_duel.yaml"])
def test_duel_solver_agrees_with_the_full_engine(name: str) -> None:
    """The exact duel against 1,500 engine fights with the same fixed policy: the win rate within 4 standard
    errors (a false alarm about once in 16,000 runs; the seeds are fixed, so the test is deterministic)."""
    scenario = affray.load_scenario(EXAMPLES / name)
    exact = duel_odds(scenario.setup, scenario.options)
    side = scenario.model.sides[0].name
    p = exact.outcomes[side]
    n = 1500
    win_rate, mean_rounds = _monte_carlo(EXAMPLES / name, "steady", n)
    assert abs(win_rate - p) <= 4 * math.sqrt(p * (1 - p) / n)
    variance = sum(k * k * q for k, q in exact.rounds) - exact.expected_rounds**2
    assert abs(mean_rounds - exact.expected_rounds) <= 4 * math.sqrt(variance / n)
    assert abs(sum(exact.outcomes.values()) - 1) < 1e-12


def test_exact_and_float_duel_agree_to_12_digits() -> None:
    scenario = affray.load_scenario(EXAMPLES / "nerdified_duel.yaml")
    exact = duel_odds(scenario.setup, scenario.options, exact=True)
    fast = duel_odds(scenario.setup, scenario.options)
    assert isinstance(exact.outcomes["witcher"], Fraction)
    assert sum(exact.outcomes.values()) == 1
    for k in exact.outcomes:
        assert abs(float(exact.outcomes[k]) - fast.outcomes[k]) < 1e-12


def test_unsolvable_scenarios_are_refused_with_the_reason() -> None:
    for name, reason in [
        ("simplified_ambush.yaml", "one combatant on each"),
        ("nerdified_night_widow.yaml", "one combatant on each"),
        ("free_form_tavern.yaml", "Free Form has no dice"),
    ]:
        scenario = affray.load_scenario(EXAMPLES / name)
        with pytest.raises(NotSolvable, match=reason):
            duel_odds(scenario.setup, scenario.options)


def test_plain_dice_sums_match_convolution_and_100d100_is_quick_enough_to_allow() -> None:
    """Size limits: the sliding-window sum of NdS equals face-by-face convolution (3d6: 27/216 for 10 and
    11); 100d100 is within the limits, 200d100 is refused with the limit named."""
    from fractions import Fraction

    from affray.odds.notation import _plain, notation_dist

    three = _plain(3, 6)
    assert three[10] == three[11] == Fraction(27, 216) and three[3] == Fraction(1, 216) and sum(three.values()) == 1
    assert len(notation_dist("100d100")) == 9901
    with pytest.raises(ValueError, match="at most 10,000 for dice x sides"):
        notation_dist("200d100")
