"""WaRP on the simulation fast path (core/journal.py): a quiet step draws the same dice and leaves the same state as a
loud one, the quiet journal stays empty, the typed observation shows what the seat's view shows and hides what it hides,
and the choices answer what the legal listing says. Rules: WR-01, WR-02 (pools), WR-04 (experience dice), WR-05
(initiative), WR-07 (moving), WR-08/WR-10/WR-11 (attack, defense, damage), WR-12 (factors), WR-31 (intimidation),
WR-35 (gestalt rolls)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.core.engine import GM, SPECTATOR, Accepted, Viewer
from affray.core.journal import QUIET, QUIET_TRUSTED, Journal
from affray.core.match import Match
from affray.core.memo import Memo
from affray.core.options import parse_options
from affray.core.rng import FastRNG
from affray.rulesets.warp.choices import WarpChoices
from affray.rulesets.warp.observe import WarpObservation
from affray.rulesets.warp.setup import warp_setup
from affray.rulesets.warp.state import WarpState
from tests.warp.helpers import RULESET, attack, brawler, state, thug, warp_match, who

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "warp").glob("*.yaml"))
KNIGHT_DUEL = Path(__file__).parents[2] / "examples" / "warp" / "knight_duel.yaml"
DICE = [4, 2, 6, 1, 5, 3] * 40


def three_ways(match: Match, actor: str, action: dict[str, Any]) -> tuple[Journal, WarpState, int]:
    """Step ``action`` from the match's state loud, quiet and quiet-trusted; all three must draw the same dice and
    leave the same state, and the quiet journals must stay empty. Returns the loud events, state and dice drawn."""
    results = []
    for journal in (Journal(), QUIET, QUIET_TRUSTED):
        rules_state, rng = copy.deepcopy(match.state), copy.deepcopy(match.rng)
        result = RULESET.step(rules_state, actor, action, rng, journal)
        assert isinstance(result, Accepted), result
        results.append((result.events, rules_state, rng.index - match.rng.index))
    (loud, loud_state, drawn), *quiet = results
    for events, quiet_state, index in quiet:
        assert index == drawn
        assert RULESET.snapshot(quiet_state) == RULESET.snapshot(loud_state)
        assert list(events) == []
    assert len(QUIET) == 0 and len(QUIET_TRUSTED) == 0
    assert isinstance(loud, Journal) and loud
    return loud, loud_state, drawn


def duel() -> Match:
    return warp_match([brawler("a", experience=2)], [thug("b")], DICE, {"intimidation": True})


def test_wr10_a_quiet_melee_attack_draws_the_dice_of_a_loud_one() -> None:
    """WR-08, WR-10, WR-11: a's 3 dice (4+2+6 = 12) against b's 3 (1+5+3 = 9): 3 x factor 1 = 3 damage, on six
    dice drawn, whichever journal the step writes into."""
    events, after, drawn = three_ways(
        duel(), "a", attack("b", weapon="unarmed", mode="melee", trait="street_brawler", maneuver="attack")
    )
    assert drawn == 6
    assert after.fighters["b"].hp == 21 - 3
    assert [e.kind for e in events if e.kind in ("attack", "exchange", "wounded")] == ["attack", "exchange", "wounded"]


def test_wr04_a_quiet_defense_with_an_experience_die_draws_the_dice_of_a_loud_one() -> None:
    """WR-04, WR-08: b attacks a, who has experience and so chooses its defense: spending one die rolls 3 + 1 bonus
    die; b's 3 dice (4+2+6 = 12) against a's best three of (1, 5, 3, 4) = 12: a tie misses (WR-10)."""
    m = duel()
    assert m.act("a", {"type": "pass"}).ok
    assert m.act("b", attack("a")).ok
    assert m.pending() is not None and m.pending().phase == "defend"  # type: ignore[union-attr]
    _, after, drawn = three_ways(m, "a", {"type": "defend", "trait": "street_brawler", "dodge": True, "experience": 1})
    assert drawn == 7
    assert after.fighters["a"].hp == 21 and after.fighters["a"].experience == 1


def test_wr07_wr31_quiet_moves_and_intimidation_draw_the_dice_of_loud_ones() -> None:
    """WR-07: sprinting away draws no dice (20 m: a escapes, WR-X4); WR-31: intimidation is resolve against the
    roll, two pools of 2 default dice here (4+2 = 6 against 6+1 = 7: it fails)."""
    _, moved, drawn = three_ways(duel(), "a", {"type": "move", "pace": "sprint", "away": "b"})
    assert drawn == 0 and moved.fighters["a"].position == -20.0
    _, after, drawn = three_ways(duel(), "a", {"type": "intimidate", "target": "b"})
    assert drawn == 4 and after.fighters["a"].psych_round == -1


def test_wr05_a_quiet_initiative_roll_and_a_quiet_setup_match_loud_ones() -> None:
    """WR-05: the knight duel's initiative window (seed 5): Theo's 2 default dice, his experience die cancelled by
    his Clumsy flaw, and the knight's 2 dice with 2 armour penalty dice (WR-21): 6 dice, 7 against 4, either way.
    And every example's setup (the gestalt raid rolls at setup, WR-35) draws the same dice and builds the same state
    loud or quiet."""
    m = affray.load_scenario(KNIGHT_DUEL).start(5)
    _, after, drawn = three_ways(m, "theo", {"type": "initiative", "experience": 1})
    assert drawn == 2 + 4
    assert after.order == ["theo", "reginald"] and after.fighters["theo"].experience == 1  # of 2: one spent (WR-04)
    assert (after.fighters["theo"].initiative, after.fighters["reginald"].initiative) == (7, 4)
    for path in EXAMPLES:
        example = affray.load_scenario(path)
        options = parse_options(RULESET.options_type, example.options)
        built = []
        for journal in (Journal(), QUIET):
            rng = FastRNG(11)
            rules_state, _ = RULESET.setup(warp_setup(example.setup), options, rng, journal)
            built.append((RULESET.snapshot(rules_state), rng.index))
        assert built[0] == built[1], path.name


def test_wr14_a_quiet_thrown_baseball_steps_alike() -> None:
    """WR-12, WR-14, WR-15, WR-19: Theo throws his baseball at the knight 2 m away (seed 5): 3 dice with Clumsy's
    penalty die (7) against 1 distance die (4; dodging's 2 bonus dice cancel the armour's 2 penalty dice), then 2
    armour dice stop the 3 damage: 6 dice, the knight unhurt, the ball on the ground at his feet."""
    m = affray.load_scenario(KNIGHT_DUEL).start(5)
    assert m.act("theo", {"type": "initiative", "experience": 1}).ok
    throw = {
        "type": "attack",
        "target": "reginald",
        "weapon": "baseball",
        "mode": "ranged",
        "trait": None,
        "maneuver": "attack",
    }
    assert throw in [s.action for s in m.legal("theo")]
    _, after, drawn = three_ways(m, "theo", throw)
    assert drawn == 6
    assert after.fighters["reginald"].hp == after.fighters["reginald"].max_hp
    assert after.ground == [("baseball", 2.0)] and after.fighters["theo"].carried["baseball"] == 0


# -- the observation -------------------------------------------------------------------------------------------
def test_the_observation_shows_what_the_view_shows() -> None:
    """A player's seat sees its PC's numbers (21 HP, 2 experience, Street Brawler 3 dice) and nobody's GM-level
    numbers: the thug's sheet is closed in the view and its hit points are ``None`` in the observation; the GM's
    omniscient seat sees them (WR-B9's 21 HP). Positions, Messed Up and the window's phase agree with the view."""
    m = duel()
    player = RULESET.observe(state(m), m.viewer("a"), "a", m.memo)
    assert isinstance(player, WarpObservation)
    view = player.view()
    a, b = player.fighter("a"), player.fighter("b")
    assert (a.hp, a.max_hp, a.stun, a.experience) == (21, 21, 0, 2)
    assert a.traits == (("street_brawler", 3),) and a.trait_dice("street_brawler") == 3 and a.trait_dice(None) == 2
    assert a.weapons == (("unarmed", 1, 0),) and a.factor("unarmed", "melee") == 1
    own = view.combatant("a").detail.sheet
    assert own is not None and own.hp == 21
    assert view.combatant("b").detail.sheet is None
    assert (b.hp, b.max_hp, b.stun, b.experience, b.traits, b.weapons) == (None, None, None, None, (), ())
    assert b.trait_dice("street_brawler") is None and b.factor("unarmed", "melee") is None
    assert b.sheet_open is False and a.sheet_open is True
    for seen in player.combatants:
        shown = view.combatant(seen.id)
        assert shown.position is not None and seen.position == shown.position.x
        assert (seen.messed_up, seen.status, seen.wielding) == (
            shown.detail.messed_up,
            shown.detail.status,
            shown.detail.wielding,
        )
    assert view.prompt is not None and player.phase == view.prompt.phase == "turn"
    assert player.special_maneuvers == view.detail.special_maneuvers
    gm = RULESET.observe(state(m), Viewer.gm(), GM, m.memo)
    assert gm.fighter("b").hp == 21 and gm.me is None
    spectator = RULESET.observe(state(m), Viewer(SPECTATOR), "a", m.memo)
    assert spectator.fighter("a").hp == 21  # a PC's sheet is open to the whole table
    assert spectator.fighter("b").hp is None


def test_the_observation_follows_the_state_and_hides_a_hurt_gm_characters_hit_points() -> None:
    """WR-11, WR-24: after a's hit the observation reads the thug's new state lazily: it looks the same to a's seat
    (its HP stay hidden), and the GM sees 18."""
    m = duel()
    seen = RULESET.observe(state(m), m.viewer("a"), "a", m.memo)
    assert m.act("a", attack("b", trait="street_brawler")).ok
    assert who(m, "b").hp == 18
    assert seen.fighter("b").hp is None and seen.round == 1
    assert RULESET.observe(state(m), Viewer.gm(), GM, m.memo).fighter("b").hp == 18


# -- the choices -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_choices_answer_attacks_and_defenses_as_the_listing_does(path: Path) -> None:
    """Over random playouts of every example: ``attacks()`` and ``defenses()`` (kept in the memo between turns)
    equal the listing's attacks and defenses built afresh, in order."""
    scenario = affray.load_scenario(path)
    for seed in range(3):
        m = scenario.start(seed)
        rng = FastRNG(seed)
        memo = Memo()
        for version in range(120):
            window = m.pending()
            if window is None:
                break
            memo.advance(version + 1)
            for actor in window.actors:
                legal = RULESET.legal(state(m), actor)
                choices = RULESET.choices(state(m), actor, memo)
                assert isinstance(choices, WarpChoices)
                assert choices.attacks() == [s.action for s in legal if s.action["type"] == "attack"]
                assert choices.defenses() == [s.action for s in legal if s.action["type"] == "defend"]
                assert choices.attacks() == [s.action for s in choices.of("attack")]  # after listing, too
            legal = m.legal(window.actors[0])
            assert m.act(window.actors[0], legal[rng.die(len(legal)) - 1].action).ok
