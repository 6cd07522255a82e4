"""The simulation fast path for WitchHammer (core/journal.py, core/policy.py): quiet and trusted steps, the
observation, the choices.

A quiet journal builds no events, rolls or seal digests and a trusted one skips the card check, but the dice drawn
and the state left are the same (the seals' salt and digest are what a quiet step does not compute, so they are left
out of the comparison). The observation shows what the seat's view shows, and hides what it hides.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

import affray
from affray.ai.base import get_policy
from affray.core.engine import Action
from affray.core.grid import Grid, Pos, distance, euclid2, step_toward
from affray.core.journal import QUIET, QUIET_TRUSTED, Journal
from affray.core.memo import Memo
from affray.core.options import parse_options
from affray.core.policy import exposed
from affray.core.rng import FastRNG
from affray.rulesets.witchhammer.observe import WitchHammerObservation
from affray.sim.fast import play_fast
from affray.sim.session import spec_for
from tests.conformance.common import shared_mutable_parts
from tests.witchhammer.helpers import RULESET

ROOT = Path(__file__).parents[2] / "examples" / "witchhammer"


def _scenario(name: str) -> Any:
    return affray.load_scenario(ROOT / name)


def _unsealed(snapshot: Any) -> Any:
    """A snapshot without the seals' salts and digests (a quiet step keeps its seals unsalted and undigested)."""
    if isinstance(snapshot, dict):
        return {k: _unsealed(v) for k, v in snapshot.items() if k not in ("salt", "digest")}
    if isinstance(snapshot, list):
        return [_unsealed(v) for v in snapshot]
    return snapshot


def _record(name: str, seed: int) -> tuple[Any, Any, list[tuple[str, dict[str, Any]]]]:
    """A heuristic fight's actions on the fast path (the scenario, its parsed options, the actions)."""
    scenario = _scenario(name)
    spec, _ = spec_for(scenario, {}, 0, None)
    policies = {a: get_policy("witchhammer", p) for a, p in spec.policies.items()}
    options = parse_options(RULESET.options_type, scenario.options)
    _, fight = play_fast(RULESET, scenario.setup, options, policies, seed)
    return scenario, options, fight.actions


@pytest.mark.parametrize("name", ["bench_arena.yaml", "witch_hut.yaml", "mill_ambush.yaml"])
def test_quiet_and_trusted_steps_draw_the_same_dice_and_leave_the_same_state(name: str) -> None:
    """WH-02, WH-03, WH-04 (Psych cards, Action cards, the Violence a last commit runs), WH-B18 (ready, default
    cards), WH-B8 (the GM's ruling where a scenario has one): step by step, a loud validating journal, a quiet one
    and a quiet trusting one draw the same dice and leave equal states; the quiet journals stay empty."""
    scenario, options, actions = _record(name, 11)
    kinds = {a["type"] for _, a in actions}
    assert {"commit"} <= kinds
    runs = []
    for journal in (None, QUIET, QUIET_TRUSTED):
        rng = FastRNG(11)
        state, _ = RULESET.setup(scenario.setup, options, rng, journal)
        runs.append((state, rng, journal))
    for actor, action in actions:
        seen = []
        for state, rng, journal in runs:
            result = RULESET.step(state, actor, action, rng, journal)
            assert result.ok, (actor, action)
            seen.append((rng.index, _unsealed(RULESET.snapshot(state))))
        assert seen[0] == seen[1] == seen[2], (actor, action)
    assert RULESET.outcome(runs[0][0]) == RULESET.outcome(runs[2][0]) is not None
    assert len(QUIET) == len(QUIET_TRUSTED) == 0


def test_a_loud_step_records_what_a_quiet_step_skips() -> None:
    """WH-03, WH-16: the last commit of a vignette runs Violence; loud, it records the commits' digests, the d20s
    and the attacks; quiet, nothing, with the same draws (the vignette's every d20)."""
    scenario, options, actions = _record("bench_arena.yaml", 3)
    loud_rng, quiet_rng = FastRNG(3), FastRNG(3)
    loud, _ = RULESET.setup(scenario.setup, options, loud_rng, Journal())
    quiet, _ = RULESET.setup(scenario.setup, options, quiet_rng, QUIET_TRUSTED)
    events = Journal()  # every event of the first steps: Psych choices, plans, the first Violence
    sealed = 0
    for actor, action in actions[:8]:
        RULESET.step(loud, actor, action, loud_rng, events)
        RULESET.step(quiet, actor, action, quiet_rng, QUIET_TRUSTED)
        for a, f in loud.fighters.items():
            mute = quiet.fighters[a].slots
            assert [len(s.digest) for s in f.slots] == [64] * len(f.slots) and not any(s.digest for s in mute)
            assert [s.payload for s in f.slots] == [s.payload for s in mute]
            sealed += len(f.slots)
    kinds = [e.kind for e in events]
    rolled = [e for e in events if e.kind == "rolled"]
    assert "committed" in kinds and "attack" in kinds and len(rolled) == loud_rng.index == quiet_rng.index > 0
    assert sealed > 0 and loud.round == quiet.round >= 2


def _reference_step(grid: Grid, start: Pos, target: Pos, taken: set[Pos], away: bool) -> Pos | None:
    """WH-B13 written plainly (as core's step_toward was before its inner loop was tuned): the free neighbour by
    (Chebyshev, squared Euclidean) distance, nearest (or farthest by Chebyshev) first, if it beats standing still."""
    best: tuple[tuple[int, int], Pos] | None = None
    for q in grid.neighbours(start):
        if q in taken or q == target:
            continue
        key = (-distance(q, target), euclid2(q, target)) if away else (distance(q, target), euclid2(q, target))
        if best is None or key < best[0]:
            best = (key, q)
    if best is None:
        return None
    if away:
        return best[1] if -best[0][0] > distance(start, target) else None
    return best[1] if best[0] < (distance(start, target), euclid2(start, target)) else None


def test_wh_b13_the_tuned_step_toward_is_the_plain_rule() -> None:
    """WH-B13: core's tuned ``step_toward`` (the inner loop of every move) agrees with the rule written plainly on
    random boards, walls and blockers, toward and away."""
    rng = FastRNG(16)
    for _ in range(3000):
        w, h = rng.die(8) + 1, rng.die(8) + 1
        rows = tuple("".join("#" if rng.die(5) == 1 else "." for _ in range(w)) for _ in range(h))
        grid = Grid(w, h, rows)
        squares = [(x, y) for x in range(w) for y in range(h)]
        start, target = squares[rng.die(len(squares)) - 1], squares[rng.die(len(squares)) - 1]
        blocked = {squares[rng.die(len(squares)) - 1] for _ in range(rng.die(4) - 1)}
        for away in (False, True):
            assert step_toward(grid, start, target, blocked, away) == _reference_step(
                grid, start, target, blocked, away
            )
    open_grid = Grid.open(12, 12)
    assert step_toward(open_grid, (2, 10), (6, 1), set(), False) == (3, 9)
    assert step_toward(open_grid, (2, 10), (6, 1), {(3, 9)}, False) == (2, 9)
    assert step_toward(open_grid, (0, 0), (1, 1), set(), True) is None  # in the corner: no step grows the gap


def _start(seed: int = 7) -> Any:
    match = _scenario("bench_arena.yaml").start(seed)
    assert match.pending().phase == "psych"
    return match


def test_the_observation_shows_what_the_view_shows() -> None:
    """WH-02, WH-19, WH-20: Bruna's observation at the start of the bench fight: her square, Poise, Health,
    sheet, Malus and hand, as her seat's view shows them; the Barrow Knight as her one enemy."""
    match = _start()
    seen = match.observe("bruna")
    assert isinstance(seen, WitchHammerObservation)
    view = seen.view()
    me = seen.me
    assert me is not None
    assert (seen.actor, seen.phase, seen.vignette) == ("bruna", "psych", 1)
    assert (me.at, me.poise, me.max_poise, me.health, me.attack, me.defense) == ((2, 10), 30, 30, 13, 3, 2)
    assert (dict(me.defenses), me.solid_damage, me.malus, me.placed, me.psych_placed) == ({"con": 1}, 0, 0, 0, False)
    mine = view.combatant("bruna")
    assert dict(me.hand or {}) == mine.detail.hand and dict(me.deck or {}) == mine.detail.deck
    assert me.hand is not None and me.hand["red_mist"] == 1 and len(me.hand) == 8
    assert [e.id for e in seen.enemies] == ["knight"] and seen.enemies[0].at == (6, 1)
    assert [c.id for c in seen.combatants] == [c.id for c in view.combatants]
    assert dict(seen.cards) == view.detail.cards and dict(seen.statuses) == view.detail.statuses
    for c, shown in zip(seen.combatants, view.combatants, strict=True):
        assert (c.side, c.down, c.poise, c.health) == (shown.side, shown.down, shown.bars[0].value, shown.bars[1].value)
        assert (dict(c.hand) if c.hand is not None else None) == shown.detail.hand


def test_the_observation_hides_what_the_view_hides() -> None:
    """WH-02, WH-03: another seat sees that Bruna played a Psych card face down, never which, nor her hand; the
    GM's seat (it plays the knight) sees her deck but not her hand or face-down card."""
    match = _start()
    assert match.act("bruna", {"type": "commit", "cards": ["red_mist"]}).ok
    for other in ("tomas", "knight"):
        seen = match.observe(other)
        bruna = next(c for c in seen.combatants if c.id == "bruna")
        assert bruna.psych_placed and bruna.hand is None
        text = json.dumps(exposed(seen), sort_keys=True, default=repr)
        assert "red_mist" not in json.dumps(cast(Any, exposed(seen))["view"]["combatants"][0]["detail"]["psych"])
        assert '"hand": {"bull_rush"' not in text
        assert (bruna.deck is not None) == (other == "knight")  # GM-level viewers see every deck
    assert match.observe("tomas").me is not None and match.observe("gm").me is None


def test_choices_answer_from_the_state_as_the_listing_does() -> None:
    """WH-02, WH-03, WH-B18: ``allows`` and ``kinds`` without the listing, for listed actions and for look-alikes
    the listing never offers (a tuple of cards, an extra key, a card twice with one copy, three cards)."""
    match = _start()
    memo = Memo()
    state = match.state
    choices = RULESET.choices(state, "bruna", memo)
    listing = RULESET.legal(state, "bruna", memo)
    assert choices.kinds() == {"ready", "psych", "commit"}
    for spec in listing:
        assert RULESET.choices(state, "bruna", memo).allows(spec.action)
    odd: tuple[dict[str, object], ...] = (
        {"type": "commit", "cards": ("red_mist",)},
        {"type": "ready", "x": 1},
        {"type": "place", "card": "red_mist"},
        {"type": "psych", "card": "sword_swing"},
        {"type": "commit", "cards": ["red_mist", "red_mist"]},
        {"type": "commit", "cards": []},
    )
    for action in odd:  # a Python caller may pass what JSON cannot hold (a tuple): refused all the same
        assert not RULESET.choices(state, "bruna", memo).allows(cast(Action, action))
        assert not any(spec.action == action for spec in listing)
    for actor in ("bruna", "tomas", "ilse", "knight"):
        assert match.act(actor, {"type": "ready"}).ok
    assert match.pending().phase == "planning"
    choices = RULESET.choices(state, "bruna", memo)
    assert choices.kinds() == {"ready", "place", "commit"}
    assert choices.allows({"type": "commit", "cards": ["sword_swing", "dodge_away"]})
    assert not choices.allows({"type": "commit", "cards": ["sword_swing", "sword_swing"]})
    assert not choices.allows({"type": "commit", "cards": ["sword_swing", "dodge_away", "haymaker"]})


def test_matches_sharing_a_setup_store_start_from_their_own_copies_of_its_fighters() -> None:
    """build_state with a shared memo: the starting fighters are built once and each match gets its own copies
    (setup.fresh), equal field by field to those built for a match alone, with their own tables, deck and hand; the
    map is the same object for all of them (the caches keyed by map find it by identity)."""
    from affray.core.memo import Memo
    from affray.core.options import parse_options
    from affray.rulesets.witchhammer.options import WitchHammerOptions
    from affray.rulesets.witchhammer.setup import build_state, witchhammer_setup

    for example in sorted(ROOT.glob("*.yaml")):
        scenario = affray.load_scenario(example)
        setup = witchhammer_setup(scenario.setup)
        options = parse_options(WitchHammerOptions, scenario.options)
        shared: dict[Any, Any] = {}
        first, second = build_state(setup, options, Memo(shared)), build_state(setup, options, Memo(shared))
        assert first.fighters == second.fighters == build_state(setup, options).fighters, example.name
        assert first.grid is second.grid, example.name
        for a, f in first.fighters.items():
            other = second.fighters[a]
            assert f is not other and f.deck is not other.deck and f.hand is not other.hand, example.name
            assert f.defenses is not other.defenses and f.statuses is not other.statuses, example.name
            assert shared_mutable_parts(f, other) == [], example.name  # every part a fight may change, new ones too


def test_a_status_added_sums_its_modifiers_as_a_full_refresh_does() -> None:
    """Fighter.add_mods (start_status's shortcut) leaves the sums and flags refresh_mods computes, status by status."""
    from affray.rulesets.witchhammer.state import Status as InForce

    scenario = affray.load_scenario(ROOT / "witch_hut.yaml")
    state = scenario.start(1).state
    f = next(iter(state.fighters.values()))
    fields = (
        "mod_attack",
        "mod_defense",
        "mod_init",
        "mod_malus",
        "mod_move",
        "mod_defenses",
        "stunned",
        "no_recovery",
        "ticking",
    )
    for sd in state.statuses.values():
        f.statuses.append(InForce(sd, 2, "test"))
        f.add_mods(sd)
        added = [getattr(f, k) for k in fields]
        f.refresh_mods()
        assert added == [getattr(f, k) for k in fields], sd.id
