"""The ``search`` policy (docs/simulation.md, "The search policy"): it plays only legal actions,
the same ones again for the same seed and playout budget, reads nothing a seat may not see (its sampler's knowledge
is the same whatever the other seats' secrets are, and so are its decisions), and ``affray sim --policy
SIDE=search`` runs it. Its strength is measured in ``bench/bench_search.py``, not here: these use a few playouts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.ai.base import get_policy, policy_names
from affray.ai.search import Budget, SearchPolicy
from affray.core.engine import Action, Rejected
from affray.core.events import to_jsonable
from affray.core.match import Match
from affray.core.memo import Memo
from affray.core.plugin import Frozen, plugin, register, unregister
from affray.core.policy import Choices, Observation, Policy
from affray.core.rng import RNG, FastRNG
from affray.sim.fast import play_fast
from tests.cli_run import affray as run_affray

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"
SMALL = Budget(playouts=6, width=3)
#: Small examples of each ruleset, for whole fights with every seat searching.
FIGHTS = [
    "hud/simplified_duel.yaml",
    "hud/nerdified_duel.yaml",
    "spellchrome/ford_duel.yaml",
    "warp/knight_duel.yaml",
    "warp/gestalt_raid.yaml",
    "witchhammer/yard_duel.yaml",
    "witchhammer/mill_gate_duel.yaml",
]


class Checked:
    """A policy that asks ``inner`` and records each choice with whether the choices listed it (or it fills a free
    parameter of an action of the same type)."""

    def __init__(self, inner: Policy) -> None:
        self.inner, self.name = inner, inner.name
        self.picked: list[tuple[Action, bool]] = []

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        action = self.inner.choose(seen, choices, rng)
        listed = choices.allows(action) or any(s.free and s.action["type"] == action["type"] for s in choices.all())
        self.picked.append((action, listed))
        return action


def _play(match: Match, policies: dict[str, Policy], rng: FastRNG, max_steps: int = 5_000) -> None:
    """Play ``match`` to its end, every action checked by the full engine (nothing trusted)."""
    for _ in range(max_steps):
        window = match.pending()
        if window is None:
            return
        actor = window.actors[0]
        action = policies[actor].choose(match.observe(actor), match.choices(actor), rng)
        result = match.act(actor, action)
        assert not isinstance(result, Rejected), f"{actor}'s {action} refused: {result.message}"
    raise AssertionError("the fight did not end")


@pytest.mark.parametrize("example", FIGHTS)
def test_search_plays_only_legal_actions_over_whole_fights(example: str) -> None:
    scenario = affray.load_scenario(EXAMPLES / example)
    name = scenario.ruleset.name
    for seed in (1, 2):
        match = scenario.start(seed)
        searchers = {a: Checked(SearchPolicy(name, SMALL)) for a in match.controllers}
        _play(match, dict(searchers), FastRNG(seed))
        assert match.outcome() is not None
        picked = [ok for s in searchers.values() for _, ok in s.picked]
        assert picked and all(picked)
    assert sum(s.inner.decisions for s in searchers.values() if isinstance(s.inner, SearchPolicy)) > 0


def _fight(example: str, seed: int, budget: Budget) -> list[tuple[str, Action]]:
    scenario = affray.load_scenario(EXAMPLES / example)
    name = scenario.ruleset.name
    first = scenario.model.sides[0].name
    sides = {c.id: side for side, c in scenario.model.combatants()}
    policies = {
        a: SearchPolicy(name, budget) if sides.get(a) == first else get_policy(name, "heuristic")
        for a in scenario.controllers
    }
    _, fight = play_fast(scenario.ruleset, scenario.setup, scenario.options, policies, seed)
    return fight.actions


@pytest.mark.parametrize(
    "example",
    ["hud/nerdified_duel.yaml", "witchhammer/yard_duel.yaml", "warp/knight_duel.yaml", "spellchrome/ford_duel.yaml"],
)
def test_a_playout_budget_and_a_seed_play_the_same_decisions(example: str) -> None:
    budget = Budget(playouts=8, width=4)
    assert _fight(example, 11, budget) == _fight(example, 11, budget)


def test_search_is_offered_for_every_ruleset_with_a_sampler_and_only_those() -> None:
    for name in ("hud", "spellchrome", "warp", "witchhammer"):
        assert plugin(name).sampler is not None
        assert "search" in policy_names(name) and get_policy(name, "search").name == "search"
    from tests.core.toy import PLUGIN as TOY

    register(TOY)
    try:
        assert "search" not in policy_names("toy")
        with pytest.raises(KeyError, match="no sampler"):
            SearchPolicy("toy")
    finally:
        unregister("toy")


def test_a_budget_out_of_range_says_what_it_needs() -> None:
    with pytest.raises(ValueError, match="at least one playout"):
        Budget(playouts=0)
    with pytest.raises(ValueError, match="positive number of seconds"):
        Budget(seconds=0)
    with pytest.raises(ValueError, match="standard errors"):
        Budget(margin=-1)


def test_a_time_budget_stops_the_search_between_playouts() -> None:
    """With ``seconds``, a decision plays until its clock runs out (here a fake clock that moves one second a
    reading), however many playouts it was allowed."""
    ticks = iter(range(1_000_000))
    scenario = affray.load_scenario(EXAMPLES / "hud/nerdified_duel.yaml")
    policy = SearchPolicy("hud", Budget(playouts=10_000, seconds=3.0, width=3), clock=lambda: float(next(ticks)))
    match = scenario.start(4)
    actor = match.pending().actors[0]  # type: ignore[union-attr]
    action = policy.choose(match.observe(actor), match.choices(actor), FastRNG(1))
    assert match.choices(actor).allows(action) and policy.decisions == 1
    assert 0 < policy.playouts <= 3 * 3  # three readings after the first, each round of the three candidates


def test_the_search_names_no_ruleset() -> None:
    """Written once over the engine's interface: what it needs of a ruleset comes from the plug-in record."""
    text = (ROOT / "src/affray/ai/search.py").read_text().lower()
    assert not [n for n in ("witchhammer", "warp", "spellchrome", "hud") if n in text]


# -- the leak property: the search reads what its seat sees, and nothing else ---------------------------------------


def _walk(value: Any) -> Any:
    """Everything a knowledge holds, as JSON-ready data: dataclasses field by field, a :class:`Frozen` state as the
    state it copies, bytes as hex."""
    if isinstance(value, Frozen):
        return _walk(value.state)
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _walk(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): _walk(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_walk(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    return value


def _knowledge_text(name: str, seen: Observation) -> str:
    loader = plugin(name).sampler
    assert loader is not None
    return json.dumps(_walk(loader().known(seen)), sort_keys=True, default=repr)


def _decisions(match: Match, actor: str) -> Iterator[None]:
    """Play ``match`` with heuristic seats, stopping (yielding) whenever ``actor`` must choose and nobody else may (in
    a window where everyone acts at once, the others choose first)."""
    name = match.ruleset.name
    heuristic = {a: get_policy(name, "heuristic") for a in match.controllers}
    rng = FastRNG(3)
    while (window := match.pending()) is not None:
        others = [a for a in window.actors if a != actor]
        if not others:
            yield
        who = others[0] if others else actor
        match.act(who, heuristic[who].choose(match.observe(who), match.choices(who), rng))


def _twin(match: Match, change: Any) -> Any:
    """A copy of ``match``'s state with ``change`` applied: the same view for the searching seat, other secrets."""
    twin = Frozen(match.state).copy()
    change(twin)
    return twin


def _same_for_the_seat(match: Match, twin: Any, actor: str) -> tuple[Observation, Observation]:
    viewer = match.viewer(match.seats[actor])
    view = json.dumps(to_jsonable(match.ruleset.view(match.state, viewer)), sort_keys=True)
    assert view == json.dumps(to_jsonable(match.ruleset.view(twin, viewer, Memo())), sort_keys=True)
    return match.observe(actor), match.ruleset.observe(twin, viewer, actor, Memo())


def _decide(name: str, seen: Observation, choices: Choices) -> Action:
    return SearchPolicy(name, Budget(playouts=24, width=4, margin=0.0)).choose(seen, choices, FastRNG(9))


def test_wh_b18_search_decides_alike_whatever_the_foes_face_down_cards_and_deck() -> None:
    """WH-02, WH-03, WH-04: Tomas plans after Bruna has put her two cards face down. Whatever those cards are, and
    whatever her deck holds (GM-level: Tomas's seat sees neither), the sampler's knowledge is the same text and the
    search plays the same plan; the two true states differ in exactly those secrets."""
    scenario = affray.load_scenario(EXAMPLES / "witchhammer/yard_duel.yaml")
    match = scenario.start(5)
    steps = _decisions(match, "tomas")
    next(steps)
    assert match.pending() is not None and match.pending().phase == "planning"  # type: ignore[union-attr]
    bruna = match.state.fighters["bruna"]
    assert len(bruna.slots) == 2 and bruna.ready
    placed = [s.payload["card"] for s in bruna.slots]

    def other_cards(state: Any) -> None:
        f = state.fighters["bruna"]
        swapped = list(reversed(placed)) if placed[0] != placed[1] else ["hesitate", "hesitate"]
        for s, card in zip(f.slots, swapped, strict=True):
            s.payload = {**s.payload, "card": card}
        f.deck = {**f.deck, "hesitate": f.deck.get("hesitate", 0) + 1}

    twin = _twin(match, other_cards)
    rules = match.ruleset
    assert json.dumps(to_jsonable(rules.secrets(twin))) != json.dumps(to_jsonable(rules.secrets(match.state)))
    assert rules.gm_secrets(twin) != rules.gm_secrets(match.state)
    seen, seen_twin = _same_for_the_seat(match, twin, "tomas")
    assert _knowledge_text("witchhammer", seen) == _knowledge_text("witchhammer", seen_twin)
    choices = match.choices("tomas")
    twin_choices = rules.choices(twin, "tomas", Memo())
    assert _decide("witchhammer", seen, choices) == _decide("witchhammer", seen_twin, twin_choices)


def test_wr_sheets_search_decides_alike_whatever_a_gm_characters_numbers() -> None:
    """WaRP: a GM character's numbers are GM-level (``gm_secrets``): Theo's seat sees the knight's weapon and armour
    and whether he looks Messed Up (WR-24), not his hit points, traits or Experience. Whatever those are, the
    sampler's knowledge and the search's decision are the same."""
    scenario = affray.load_scenario(EXAMPLES / "warp/knight_duel.yaml")
    match = scenario.start(2)
    steps = _decisions(match, "theo")
    next(steps)
    knight = match.state.fighters["reginald"]
    assert not knight.pc

    def other_numbers(state: Any) -> None:
        f = state.fighters["reginald"]
        f.max_hp, f.hp, f.ceiling, f.experience = f.max_hp + 9, f.hp + 9, f.ceiling + 9, f.experience + 4
        for t in f.traits.values():
            t.dice += 1

    twin = _twin(match, other_numbers)
    rules = match.ruleset
    assert rules.gm_secrets(twin) != rules.gm_secrets(match.state)
    seen, seen_twin = _same_for_the_seat(match, twin, "theo")
    assert _knowledge_text("warp", seen) == _knowledge_text("warp", seen_twin)
    choices, twin_choices = match.choices("theo"), rules.choices(twin, "theo", Memo())
    assert [s.action for s in choices.all()] == [s.action for s in twin_choices.all()]
    assert _decide("warp", seen, choices) == _decide("warp", seen_twin, twin_choices)


@pytest.mark.parametrize(
    "example",
    [
        "witchhammer/mill_ambush.yaml",
        "warp/melee_brawl.yaml",
        "warp/gestalt_raid.yaml",
        "hud/nerdified_duel.yaml",
        "spellchrome/crossroads_2v2.yaml",
    ],
)
def test_no_other_seats_secret_is_in_a_seats_knowledge(example: str) -> None:
    """At every decision of a whole fight, the knowledge the sampler makes for the seat due holds no face-down card
    nor GM-level value of another seat, searched as the conformance leak check searches a view (each secret's JSON
    text)."""
    scenario = affray.load_scenario(EXAMPLES / example)
    match = scenario.start(7)
    name = match.ruleset.name
    heuristic = {a: get_policy(name, "heuristic") for a in match.controllers}
    rng, checked = FastRNG(3), 0
    while (window := match.pending()) is not None:
        actor = window.actors[0]
        seen = match.observe(actor)
        viewer = match.viewer(match.seats[actor])
        text = _knowledge_text(name, seen)
        for owner, secret in match.ruleset.secrets(match.state):
            if not viewer.may_open(owner):
                assert json.dumps(to_jsonable(secret), sort_keys=True) not in text
                checked += 1
        for owner, secret in match.ruleset.gm_secrets(match.state):
            if not viewer.may_see(owner):
                assert json.dumps(to_jsonable(secret), sort_keys=True) not in text
                checked += 1
        match.act(actor, heuristic[actor].choose(seen, match.choices(actor), rng))
    assert match.outcome() is not None
    if name in ("witchhammer", "warp"):
        assert checked > 0


# -- from the command line --------------------------------------------------------------------------------------------


def test_affray_sim_with_a_side_on_search_runs() -> None:
    """``--policy SIDE=search`` through the CLI's policy names (``get_policy``), on a ruleset with hidden cards."""
    result = run_affray(
        "sim", str(EXAMPLES / "witchhammer/yard_duel.yaml"), "--policy", "tomas=search", "-n", "4", "--seed", "3"
    )
    assert result.returncode == 0, result.stderr
    assert "4 fights" in result.stdout and "Traceback" not in result.stderr


# -- the pieces of a decision ------------------------------------------------------------------------------------------


def test_the_health_margin_is_the_sides_mean_share_of_hit_points_kept_less_the_foes() -> None:
    """The tie-break added to a playout's result: a down combatant kept nothing; ours 5/10 and down, theirs 8/10."""
    from affray.ai.search import _health_margin
    from affray.core.engine import CombatantReport

    report = {
        "a": CombatantReport("us", False, False, 5, 10, 0, 5),
        "b": CombatantReport("us", True, False, 3, 10, 0, 7),
        "c": CombatantReport("them", False, False, 8, 10, 12, 2),
    }
    assert _health_margin(report, "us") == pytest.approx(0.25 - 0.8)
    assert _health_margin(report, "them") == pytest.approx(0.8 - 0.25)


def test_the_candidates_are_the_policys_choice_then_one_of_each_kind_then_drawn_others() -> None:
    from affray.ai.search import _candidates
    from affray.core.engine import ActionSpec

    listed = [ActionSpec({"type": "move", "to": [x, 0]}, "") for x in range(6)]
    listed += [ActionSpec({"type": "attack", "target": t}, "") for t in ("a", "b")] + [ActionSpec({"type": "end"}, "")]
    default: Action = {"type": "attack", "target": "b"}
    chosen = [c.action for c in _candidates(default, listed, 5, FastRNG(2))]
    assert chosen[:3] == [default, {"type": "move", "to": [0, 0]}, {"type": "end"}]
    assert len(chosen) == 5 and len({json.dumps(a, sort_keys=True) for a in chosen}) == 5
    few = [c.action for c in _candidates(default, listed[:2], 5, FastRNG(2))]
    assert few == [default, listed[0].action, listed[1].action]
