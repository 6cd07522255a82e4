"""The shared endings (core/outcomes.py): last side standing and the round-limit draw."""

from __future__ import annotations

from affray.core.engine import Outcome
from affray.core.outcomes import NOBODY, last_side_standing, round_limit_draw


def test_the_fight_goes_on_while_two_sides_are_in() -> None:
    assert last_side_standing(["A", "B", "A"]) is None


def test_the_last_side_standing_wins_and_the_reason_says_how_the_foes_left() -> None:
    assert last_side_standing(["A", "A"]) == Outcome("A", "every foe is down")
    assert last_side_standing(["A"], foes_out="every foe is out of the fight") == Outcome(
        "A", "every foe is out of the fight"
    )
    assert last_side_standing(["B"], escaped=["Kell", "Mira"]) == Outcome("B", "Kell, Mira escaped")
    assert last_side_standing(["B"], gave_up=["Jory"]) == Outcome("B", "every foe is down or gave up (Jory)")


def test_nobody_standing_is_a_draw() -> None:
    assert last_side_standing([]) == Outcome(None, NOBODY)


def test_past_the_round_limit_the_fight_is_a_draw() -> None:
    assert round_limit_draw(30, 30) is None
    assert round_limit_draw(31, 30) == Outcome(None, "round limit of 30 reached")
    assert round_limit_draw(11, 10, unit="vignette") == Outcome(None, "vignette limit of 10 reached")
