"""The simulation fast path for Spellchrome (core/journal.py): quiet steps draw the same dice and leave the same state
as loud ones, the typed observation shows what the view shows, and the turn choices answer part by part."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import affray
from affray.core.engine import Accepted, Action, Viewer
from affray.core.fields import square
from affray.core.journal import QUIET, QUIET_TRUSTED, Journal
from affray.core.match import Match
from affray.core.memo import Memo
from affray.core.policy import Choices, exposed
from affray.core.rng import FastRNG
from affray.rulesets.spellchrome.choices import TurnChoices, move_ends
from affray.rulesets.spellchrome.legal import LISTINGS_OWN, LISTINGS_SHARED, MOVES_KEY
from affray.rulesets.spellchrome.observe import SpellchromeObservation
from affray.rulesets.spellchrome.state import SpellchromeState
from tests.conformance.common import shared_mutable_parts

from .support import act, build, fighter, state_of, who

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "spellchrome").glob("*.yaml"))
OPEN = "\n".join(["." * 10] * 5)
MAIN_KINDS = {
    "attack",
    "cast",
    "move",
    "run",
    "step",
    "withdraw",
    "first_aid",
    "end_turn",
    "attack_of_opportunity",
    "decline",
}


def _both_ways(match: Match, actor: str, action: dict[str, Any], seed: int) -> str:
    """Step a copy of the state loud (validated) and two copies quiet (validated, trusted) with the same dice;
    return the action's type after checking the dice drawn, the states left and the quiet journals."""
    ruleset, state = match.ruleset, match.state
    runs = []
    for journal in (Journal(), QUIET, QUIET_TRUSTED):
        copied, rng = copy.deepcopy(state), FastRNG(seed)
        result = ruleset.step(copied, actor, action, rng, journal)
        assert isinstance(result, Accepted), (action, result)
        runs.append((rng.index, ruleset.snapshot(copied), len(journal)))
    (loud_index, loud_state, loud_events), *quiet = runs
    assert loud_events > 0
    for index, snapshot, events in quiet:
        assert (index, events) == (loud_index, 0), action
        assert snapshot == loud_state, action
    return str(action["type"])


def test_quiet_and_loud_steps_draw_the_same_dice_and_leave_the_same_state() -> None:
    """The step context (SC-15..SC-27 in play): over playouts of every example (the scenario's policies, one action
    in four at random), each action stepped loud and validated, quiet and validated, and quiet and trusted draws the
    same dice (``rng.index``) and leaves equal states (``snapshot``); the quiet journals end empty. The playouts take
    every main kind of action."""
    seen: Counter[str] = Counter()
    for n, path in enumerate(EXAMPLES):
        scenario = affray.load_scenario(path)
        for seed in (1, 2):
            match, pick = scenario.start(seed), FastRNG(100 * n + seed)
            policies = scenario.policies(match)
            for step in range(300):
                window = match.pending()
                if window is None:
                    break
                actor = window.actors[0]
                legal = match.legal(actor)
                if pick.die(4) == 1:
                    action = legal[pick.die(len(legal)) - 1].action
                else:
                    action = policies[actor].choose(match.observe(actor), match.choices(actor), pick)
                seen[_both_ways(match, actor, action, 1000 * seed + step)] += 1
                assert match.act(actor, action).ok
    assert set(seen) >= MAIN_KINDS, seen


def test_sc_b1_a_quiet_attack_rolls_exactly_what_a_loud_one_rolls() -> None:
    """SC-B1 with scripted dice: a d20 of 15 (+2 BAB +0 Str vs Defense 10) hits and 1d8 rolls 6: the same HP, the same
    dice drawn, whether the journal is loud or quiet."""
    for journal in (Journal(), QUIET_TRUSTED):
        match = build(OPEN, {"left": [fighter("a", (4, 2))], "right": [fighter("b", (5, 2))]}, dice=[20, 1])
        match.rng.feed(15, 6)  # type: ignore[attr-defined]
        result = match.ruleset.step(
            match.state, "a", {"type": "attack", "target": "b", "weapon": "longsword"}, match.rng, journal
        )
        assert isinstance(result, Accepted)
        assert who(match, "b").hp == 14 and match.rng.index == 4
        assert [e.kind for e in result.events] == (["rolled", "attacked", "rolled", "damaged"] if journal.loud else [])


def test_sc15_a_quiet_full_attack_rolls_each_iterative_attack_as_a_loud_one() -> None:
    """SC-15, SC-B1: a full attack at BAB +8 strikes twice (+8, +3); quiet or loud, the same dice and state (the
    examples' fighters have no second attack, so this one is built)."""
    match = build(OPEN, {"left": [fighter("a", (4, 2), base_attack=8)], "right": [fighter("b", (5, 2))]}, dice=[20, 1])
    assert _both_ways(match, "a", {"type": "full_attack", "target": "b"}, 9) == "full_attack"
    state = copy.deepcopy(match.state)
    rng = FastRNG(9)
    assert isinstance(
        match.ruleset.step(state, "a", {"type": "full_attack", "target": "b"}, rng, QUIET_TRUSTED), Accepted
    )
    assert rng.index >= 2  # two attack rolls at least (and damage for each hit)


def _pair() -> Match:
    return build(OPEN, {"left": [fighter("a", (4, 2))], "right": [fighter("b", (5, 2), max_hp=24)]}, dice=[20, 1])


def test_the_observation_shows_what_the_view_shows() -> None:
    """Observations (core/policy.py): a's seat observes a's and b's HP (SC-01), squares, status and the phase exactly
    as its view shows them; after a hit of 5 (d20 15, 1d8 5) b has 19 of 24 HP in both."""
    match = _pair()
    act(match, "a", {"type": "attack", "target": "b", "weapon": "longsword"}, 15, 5)
    seen = match.observe("b")
    assert isinstance(seen, SpellchromeObservation)
    view = seen.view()
    b, a = seen.me, seen.by_id["a"]
    assert (seen.actor, seen.phase, seen.round) == ("b", "turn", 1) == ("b", view.phase, view.round)
    assert (b.hp, b.max_hp, b.at, b.status, b.able) == (19, 24, (5, 2), "normal", True)
    assert (view.combatant("b").bars[0].value, view.combatant("b").bars[0].max) == (19, 24)
    assert (a.hp, a.at, a.weapon_kind, a.melee_armed, a.aoo_left) == (20, (4, 2), "melee", True, 1)
    assert [f.id for f in seen.fighters] == [c.id for c in view.combatants] == ["a", "b"]
    assert [f.controlled for f in seen.fighters] == [c.controlled for c in view.combatants] == [False, True]


def test_the_observation_differs_between_seats_only_in_who_they_play() -> None:
    """Observations (core/policy.py): nothing is hidden on the battle map (views.py), so two seats observe the same
    facts; only ``controlled`` (and the view's ``you``) tells them apart."""
    match = _pair()
    state, memo = state_of(match), Memo()

    def facts(seat: str) -> Any:
        seen = match.ruleset.observe(state, Viewer(seat, frozenset({seat})), "a", memo)
        out: Any = exposed(seen)
        for f in [*out["fighters"], *out["foes"]]:
            f.pop("controlled")
        out.pop("view"), out.pop("by_id"), out.pop("me")
        return out

    assert facts("a") == facts("b")
    mine: Any = exposed(match.ruleset.observe(state, Viewer("a", frozenset({"a"})), "a", memo))
    assert [f["controlled"] for f in mine["fighters"]] == [True, False]
    assert [(f["id"], f["controlled"]) for f in mine["foes"]] == [("b", False)]  # the actor's foes: b, not played
    assert mine["me"]["hp"] == 20 and mine["by_id"]["b"]["hp"] == 24


def test_turn_choices_answer_by_part_without_listing_the_moves() -> None:
    """Choices built in parts: asking for attacks builds no movement listing; asking for a move does (once, in
    the memo); the answers equal the listing's, and each listed move's end square carries its SC-28 warning."""
    match = _pair()
    state, memo = state_of(match), Memo()
    choices = match.ruleset.choices(state, "a", memo)
    assert isinstance(choices, TurnChoices)
    listings: dict[Any, Any] = memo.cache(MOVES_KEY, LISTINGS_SHARED, LISTINGS_OWN)
    attacks = choices.of("attack")
    assert [s.action for s in attacks] == [
        {"type": "attack", "target": "b", "weapon": "longsword"},
        {"type": "attack", "target": "b", "weapon": "unarmed"},
    ]
    assert len(listings) == 0
    legal = match.ruleset.legal(state, "a", memo)
    assert choices.of("move") == [s for s in legal if s.action["type"] == "move"] and len(listings) == 1
    ends = choices.ends("move")
    assert [(x, y) for x, y, _ in ends] == [square(s.action, "to") for s in choices.of("move")]
    assert all(p for *_, p in ends)  # every move leaves b's threatened square at full speed (SC-27 (a))
    assert not any(p for *_, p in choices.ends("withdraw"))  # withdrawing never provokes (SC-19)
    plain = Choices("a", lambda: legal)
    assert move_ends(plain, "move") == choices.ends("move")


def test_the_trusted_step_moves_along_the_engines_path() -> None:
    """SC-24/SC-28: a listed move stepped without validation walks the path the validated step walks (around the
    foe's reach when the budget allows), so both end on the same square with the same state."""
    match = build(OPEN, {"left": [fighter("a", (0, 0), speed_ft=60)], "right": [fighter("b", (4, 1))]}, dice=[20, 1])
    action: Action = {"type": "move", "to": [8, 0]}
    assert _both_ways(match, "a", action, 5) == "move"
    state = copy.deepcopy(match.state)
    assert isinstance(state, SpellchromeState)
    assert isinstance(match.ruleset.step(state, "a", action, FastRNG(5), QUIET_TRUSTED), Accepted)
    assert state.combatants["a"].pos == (8, 0) and state.opportunity is None


def test_matches_sharing_a_setup_store_start_from_their_own_copies_of_its_combatants() -> None:
    """build_state with a shared memo: the combatants are built once and each match gets its own copies (setup.fresh),
    equal field by field to those built from the setup, with their own tables and spells (a fight changes them)."""
    from affray.core.options import parse_options
    from affray.rulesets.spellchrome.options import SpellchromeOptions
    from affray.rulesets.spellchrome.setup import build_combatant, build_state, spellchrome_setup

    for example in EXAMPLES:
        scenario = affray.load_scenario(example)
        setup = spellchrome_setup(scenario.setup)
        options = parse_options(SpellchromeOptions, scenario.options)
        shared: dict[Any, Any] = {}
        first, second = build_state(setup, options, Memo(shared)), build_state(setup, options, Memo(shared))
        alone = {c["id"]: build_combatant(c, options) for c in setup["combatants"]}
        assert first.combatants == second.combatants == alone, example.name
        for a, c in first.combatants.items():
            other = second.combatants[a]
            assert c is not other and c.spells is not other.spells and c.arms is not other.arms, example.name
            assert all(s is not other.spells[k] for k, s in c.spells.items()), example.name
            assert c.abilities is not other.abilities and c.mods is not other.mods and c.skills is not other.skills
            assert shared_mutable_parts(c, other) == [], example.name  # every part a fight may change, new ones too
