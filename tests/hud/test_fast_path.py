"""The HuD on the simulation fast path (core/journal.py): quiet and trusted steps draw the same dice and leave the same
state as loud ones, the quiet journal keeps nothing, the observation shows what the seat's view shows (and no
more), and the choices answer the kinds without listing the usual plans. Rules cited where a number is asserted."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.core.engine import Accepted, Action, Viewer
from affray.core.journal import QUIET, QUIET_TRUSTED, Journal
from affray.core.match import Match
from affray.core.options import parse_options
from affray.core.policy import exposed
from affray.core.rng import FastRNG, ScriptedRNG
from affray.rulesets.hud.actions import ACTION_TYPES
from affray.rulesets.hud.observe import HudChoices, HudObservation
from affray.rulesets.hud.setup import hud_setup
from affray.rulesets.hud.views import view
from tests.hud.helpers import DEFENSE, PLUGIN, RULESET, attack, combatant, declare, hud_match, ok

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted((ROOT / "examples" / "hud").glob("*.yaml"))
SEEDS = (1, 2, 3)


@cache
def _random_fight(path: Path, seed: int) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A fight of random legal actions (the random policy explores every rule) as its actions (read-only)."""
    scenario = affray.load_scenario(path)
    match = Match(PLUGIN, scenario.setup, scenario.options, rng=FastRNG(seed))
    rng, actions = random.Random(seed), []
    for _ in range(400):
        window = match.pending()
        if window is None:
            break
        actor = window.actors[0]
        action = rng.choice(match.legal(actor)).action
        assert match.act(actor, action).ok
        actions.append((actor, action))
    return tuple(actions)


def _replay(
    path: Path, seed: int, actions: tuple[tuple[str, dict[str, Any]], ...], journal: Journal | None
) -> list[tuple[int, Any]]:
    """Each step's draw count and state snapshot when ``actions`` are stepped with ``journal`` (a fresh loud one
    per step when ``None``)."""
    scenario = affray.load_scenario(path)
    rng = FastRNG(seed)
    options = parse_options(RULESET.options_type, scenario.options)
    state, _ = RULESET.setup(hud_setup(scenario.setup), options, rng, journal)
    out = [(rng.index, RULESET.snapshot(state))]
    for actor, action in actions:
        assert isinstance(RULESET.step(state, actor, action, rng, journal), Accepted)
        out.append((rng.index, RULESET.snapshot(state)))
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_quiet_and_trusted_steps_draw_the_same_dice_and_leave_the_same_state(path: Path) -> None:
    """The step context: every step of random fights draws the same dice (``rng.index``) and leaves the same state
    loud, quiet and quiet-trusted; the quiet journals keep nothing."""
    for seed in SEEDS:
        actions = _random_fight(path, seed)
        loud = _replay(path, seed, actions, None)
        assert _replay(path, seed, actions, QUIET) == loud
        assert _replay(path, seed, actions, QUIET_TRUSTED) == loud
        assert len(QUIET) == 0 and len(QUIET_TRUSTED) == 0


def test_those_fights_take_every_hud_action_type() -> None:
    """The fights compared above take every action type the HuD declares (declarations, the eleven reactions of
    WL-11..WL-22, emergency actions of WL-17, Dice Simplified's and Free Form's turns)."""
    taken = {action["type"] for path in EXAMPLES for seed in SEEDS for _, action in _random_fight(path, seed)}
    assert taken == {t.type for t in ACTION_TYPES}
    assert len(taken) == 19


def test_wl11_wl13_a_quiet_exchange_on_scripted_dice_lands_the_same_blow() -> None:
    """WL-11/WL-13 on scripted dice, quiet and trusted: b hits a 10 vs 4, Damage 9 vs Injury 5 costs a 4 HP
    (10 -> 6), as loud; six dice drawn either way (two Chance, Attack, Defense, Damage, Injury), and the quiet
    journal is empty."""
    steps: list[tuple[str, dict[str, Any]]] = [
        ("a", {"type": "declare", "plan": [attack("b"), DEFENSE], "additional": False}),
        ("b", {"type": "declare", "plan": [attack("a"), DEFENSE], "additional": False}),
        ("a", {"type": "defend"}),
        ("b", {"type": "damage"}),
    ]

    def fight(journal: Journal | None) -> tuple[int, int, int]:
        m = hud_match(
            "nerdified",
            combatant("a", name="A", endurance=10),
            combatant("b", name="B", endurance=10),
            [3, 9, 10, 4, 9, 5, 5],
        )
        state, rng = m.state, m.rng
        for actor, action in steps:
            assert isinstance(RULESET.step(state, actor, action, rng, journal), Accepted)
        assert isinstance(rng, ScriptedRNG)
        return state.fighters["a"].hp, state.fighters["a"].defenses, rng.index

    assert fight(None) == fight(QUIET) == fight(QUIET_TRUSTED) == (6, 0, 6)
    assert len(QUIET_TRUSTED) == 0


def test_a_refused_action_is_still_refused_on_a_validating_quiet_journal() -> None:
    """WL-10: a plan costing 3 actions of 2 is refused through QUIET (the sampled validating share) and changes
    nothing."""
    m = hud_match("nerdified", combatant("a", name="A", endurance=10), combatant("b", name="B", endurance=10), [3, 9])
    before = RULESET.snapshot(m.state)
    action: Action = {"type": "declare", "plan": [attack("b"), attack("b"), DEFENSE], "additional": False}
    result = RULESET.step(m.state, "a", action, m.rng, QUIET)
    assert not result.ok and result.code == "wrong_action_count"  # type: ignore[union-attr]
    assert RULESET.snapshot(m.state) == before


def _seen(match: Any, actor: str) -> HudObservation:
    seen = RULESET.observe(match.state, Viewer(actor, frozenset({actor})), actor, match.memo)
    assert isinstance(seen, HudObservation)
    return seen


def test_the_observation_shows_what_the_view_shows() -> None:
    """Observations (core/policy.py), WL-08/WL-B13: Vesna's observation in round 1 (HP = Endurance 8 each, Hald near):
    the prompt, the HP, the bands, the sword in hand; after the declarations, the plans and the open exchange."""
    m = hud_match("nerdified", combatant("vesna", "vesna"), combatant("hald", "sergeant"), [2, 8, 7, 7])
    seen = _seen(m, "vesna")
    assert (seen.actor, seen.mode, seen.round, seen.prompt, seen.order) == (
        "vesna",
        "nerdified",
        1,
        "declare",
        ("hald", "vesna"),
    )
    me, (hald,) = seen.me, seen.foes
    assert (me.hp, me.max_hp, me.place, me.band, me.actions, me.plan) == (8, 8, 0, "engaged", 2, None)
    assert [w.id for w in me.in_hand()] == ["steel_sword"] and me.holds("melee") and not me.holds("ranged")
    assert (hald.id, hald.hp, hald.band) == ("hald", 8, "engaged")
    ok(declare(m, "vesna", attack("hald"), DEFENSE))
    ok(declare(m, "hald", attack("vesna"), DEFENSE))
    seen = _seen(m, "vesna")
    assert seen.prompt == "defend" and seen.me.defenses == 1
    assert seen.exchange is not None and (seen.exchange.attacker, seen.exchange.defender) == ("hald", "vesna")
    assert [(i.type, i.target) for i in seen.combatant("hald").plan or ()] == [("attack", "vesna"), ("defense", None)]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_combatant_seen_equals_the_views_over_a_playout(path: Path) -> None:
    """Observations (core/policy.py): at every decision of a random fight, each combatant's observed facts equal the
    seat's view (HP bar, place, band and every detail field), and the observation shows no damage tallies or tags the
    view does not."""
    match = affray.load_scenario(path).start(5)
    rng = random.Random(5)
    for _ in range(120):
        window = match.pending()
        if window is None:
            break
        actor = window.actors[0]
        seen, seat = _seen(match, actor), Viewer(actor, frozenset({actor}))
        typed = view(match.state, seat, window)
        assert seen.prompt == (typed.prompt.phase if typed.prompt else "")
        for c in typed.combatants:
            mine = seen.combatant(c.id)
            d = c.detail
            assert (mine.hp, mine.max_hp, mine.side, mine.name) == (c.bars[0].value, c.bars[0].max, c.side, c.name)
            assert (
                mine.place,
                mine.band,
                mine.out,
                mine.defenses,
                mine.penalty,
                mine.penalty_next,
                mine.closed,
                mine.charged,
                mine.initiative,
                mine.actions,
                mine.injury_mod,
                mine.armour_penalty,
            ) == (
                d.place,
                d.band,
                d.out,
                d.defenses,
                d.penalty,
                d.penalty_next,
                d.closed,
                d.charged,
                d.initiative,
                d.actions,
                d.injury_mod,
                d.armour_penalty,
            )
            assert mine.weapons == d.weapons and mine.plan == d.plan and mine.in_hand() == d.in_hand()
        shown = str(exposed(seen))
        assert "dealt" not in shown and "taken" not in shown and "trained_witcher" not in shown
        match.act(actor, rng.choice(match.legal(actor)).action)


def test_the_choices_answer_the_declaration_kinds_without_listing_the_plans() -> None:
    """Choices (core/policy.py): a declaration window's kinds come from the state; the usual plans (WL-10) are never
    built."""
    m = hud_match("nerdified", combatant("vesna", "vesna"), combatant("hald", "sergeant"), [2, 8])

    def no_listing() -> list[Any]:
        raise AssertionError("the listing was built")

    assert HudChoices(m.state, "vesna", no_listing).kinds() == frozenset({"declare"})
    assert HudChoices(m.state, "hald", no_listing).kinds() == frozenset()
