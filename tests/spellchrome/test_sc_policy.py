"""The heuristic policy: it moves, avoids provoking when it can (SC-28), takes its attacks of
opportunity, and finishes dying foes only under ruling SC-R7's option."""

from __future__ import annotations

from affray.ai.base import get_policy
from affray.core.engine import Action
from affray.core.fields import square
from affray.core.match import Match
from affray.core.rng import FastRNG

from .support import act, build, fighter, who

OPEN = "\n".join(["." * 10] * 6)


def _choose(match: Match, actor: str) -> Action:
    policy = get_policy("spellchrome", "heuristic")
    return policy.choose(match.observe(actor), match.choices(actor), FastRNG(0))


def test_it_closes_in_and_attacks() -> None:
    match = build(OPEN, {"l": [fighter("a", (0, 0))], "r": [fighter("b", (5, 3))]}, dice=[20, 1])
    move = _choose(match, "a")
    x, y = square(move, "to")
    assert move["type"] == "move" and max(abs(x - 5), abs(y - 3)) == 1
    act(match, "a", move)
    assert _choose(match, "a") == {"type": "attack", "target": "b", "weapon": "longsword"}


def test_a_shooter_in_melee_steps_away_before_shooting() -> None:
    """SC-27 (d): it steps back (never provokes) rather than shoot point-blank."""
    match = build(
        OPEN, {"l": [fighter("a", (4, 2), weapons=["hand_crossbow"])], "r": [fighter("b", (5, 2))]}, dice=[20, 1]
    )
    step = _choose(match, "a")
    assert step["type"] == "step"
    act(match, "a", step)
    assert _choose(match, "a") == {"type": "attack", "target": "b", "weapon": "hand_crossbow"}


def test_it_prefers_a_path_that_provokes_nobody() -> None:
    """SC-28: a fighter next to one foe does not walk away from it to reach another; it fights where it is."""
    match = build(
        OPEN, {"l": [fighter("a", (4, 2))], "r": [fighter("b", (5, 2)), fighter("c", (0, 5), hp=2)]}, dice=[20, 10, 1]
    )
    assert _choose(match, "a")["type"] == "attack"
    match = build(
        OPEN, {"l": [fighter("a", (4, 2), base_attack=0)], "r": [fighter("b", (5, 2), weapons=[])]}, dice=[20, 1]
    )
    choice = _choose(match, "a")
    assert choice["type"] == "attack"


def test_it_takes_every_attack_of_opportunity() -> None:
    match = build(OPEN, {"l": [fighter("a", (4, 2))], "r": [fighter("b", (5, 2))]}, dice=[20, 1])
    act(match, "a", {"type": "move", "to": [0, 2]})
    assert _choose(match, "b") == {"type": "attack_of_opportunity"}


def test_sc_r7_monsters_finish_the_dying_only_when_the_option_says_so() -> None:
    """Ruling SC-R7: by default a monster leaves a dying foe alone; with the option it attacks it."""
    sides = {
        "l": [fighter("a", (4, 2), hp=-3), fighter("far", (9, 5), weapons=["hand_crossbow"])],
        "r": [fighter("m", (5, 2), kind="monster", weapons=["claws"])],
    }
    match = build(OPEN, sides, dice=[1, 2, 20])
    assert who(match, "a").status == "dying"
    assert _choose(match, "m").get("target") != "a"
    match = build(OPEN, sides, {"monsters_finish_the_dying": True}, dice=[1, 2, 20])
    assert _choose(match, "m") == {"type": "attack", "target": "a", "weapon": "claws"}


def test_sc04_sc06_after_the_fight_the_heuristic_binds_a_dying_ally() -> None:
    """SC-04/SC-06: the fight is decided (b is dying) but a2 bleeds beside a: the heuristic gives first aid,
    as it would in the fight; with nobody to help it ends its turn (no blows are listed)."""
    match = build(
        OPEN,
        {"left": [fighter("a", (0, 0)), fighter("a2", (1, 0), hp=-5)], "right": [fighter("b", (7, 3), hp=-5)]},
        dice=[20, 15, 10],
    )
    assert _choose(match, "a") == {"type": "first_aid", "target": "a2"}
    act(match, "a", {"type": "first_aid", "target": "a2"}, 15)
    assert _choose(match, "a") == {"type": "end_turn"}


def test_the_listing_keeps_blows_first_and_support_last() -> None:
    """The turn listing is its parts in order (legal.TurnListing, which the choices answer from): blows and spells,
    then the movement, then support; every turn listing of a heuristic playout keeps that order."""
    import affray
    from affray.ai.runner import policy_action
    from affray.rulesets.spellchrome.choices import BLOW_KINDS, SUPPORT_KINDS

    from .test_sc_playouts import EXAMPLES

    scenario = affray.load_scenario(EXAMPLES[0])
    match = scenario.start(4)
    policies, rng = scenario.policies(match), FastRNG(4)
    seen = 0
    while (window := match.pending()) is not None:
        actor = window.actors[0]
        head = BLOW_KINDS | {"cast"}
        rank = [
            0 if s.action["type"] in head else 2 if s.action["type"] in SUPPORT_KINDS else 1 for s in match.legal(actor)
        ]
        assert rank == sorted(rank)
        seen += 1
        assert match.act(actor, policy_action(match, policies[actor], actor, rng)).ok
    assert seen > 20
