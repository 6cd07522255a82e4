"""The HuD side of the one-shape contract: typed views with the one envelope, declared action types, one caching
mechanism, hints that read only the typed view, and policies on their observation (core/policy.py). Rules cited where a
number is asserted."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

import affray
from affray.core.actions import check_action
from affray.core.engine import ActionSpec, Viewer
from affray.core.memo import Memo
from affray.core.rng import FastRNG
from affray.core.view import Bar, Position, View, view_schema
from affray.rulesets.hud.actions import ACTION_TYPES
from affray.rulesets.hud.hints import hints
from affray.rulesets.hud.policies import HudHeuristic
from affray.rulesets.hud.views import HudCombatantDetail, HudDetail, HudView, view
from tests.hud.helpers import RULESET, combatant, hud_match

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted((ROOT / "examples" / "hud").glob("*.yaml"))
ADAPTER: TypeAdapter[Any] = TypeAdapter(View[HudDetail, HudCombatantDetail])
GM = Viewer.gm()


def typed(match: Any, viewer: Viewer = GM, memo: Memo | None = None) -> HudView:
    return view(match.state, viewer, RULESET.pending(match.state), memo)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_views_validate_against_the_schema_and_memo_views_equal_fresh_ones(path: Path) -> None:
    """Typed views and the one memo: every view of a random playout is an instance of the HuD view schema (its JSON
    validates and reads back equal), and a view built through the match's memo equals one built from scratch."""
    schema = view_schema(HudDetail, HudCombatantDetail)
    assert schema["title"] == "View (HudDetail)"
    for seed in (1, 2):
        match = affray.load_scenario(path).start(seed)
        memo, rng = Memo(), random.Random(seed)
        for version in range(1, 300):
            window = match.pending()
            if window is None:
                break
            actor = window.actors[0]
            seat = Viewer(actor, frozenset({actor}))
            cached, fresh = typed(match, seat, memo), typed(match, seat)
            assert cached == fresh and typed(match, GM, memo) == typed(match, GM)
            assert ADAPTER.validate_python(fresh.to_json()) == fresh
            legal = match.legal(actor)
            for spec in legal:  # every listed action is an instance of a declared type
                assert check_action(spec.action, ACTION_TYPES) == [], spec.action
            match.act(actor, rng.choice(legal).action)
            memo.advance(version)


def test_the_envelope_and_the_combatant_part() -> None:
    """The one envelope (core/view.py): the envelope (ruleset, mode, round, phase, order, prompt), one HP bar with its
    maximum (WL-08: HP = Endurance, Vesna 8, Hald 8), a ``place`` position and the band (WL-B13)."""
    m = hud_match("nerdified", combatant("vesna", "vesna"), combatant("hald", "sergeant", band="near"), [2, 8])
    v = typed(m, Viewer("p1", frozenset({"vesna"})))
    assert (v.ruleset, v.mode, v.round, v.phase, v.order, v.seat, v.you) == (
        "hud",
        "nerdified",
        1,
        "declare",
        ("hald", "vesna"),
        "p1",
        ("vesna",),
    )
    assert v.prompt is not None and (v.prompt.phase, v.prompt.actors, v.turn) == ("declare", ("vesna",), "vesna")
    vesna, hald = v.combatant("vesna"), v.combatant("hald")
    assert (vesna.bars, hald.bars) == ((Bar("HP", 8, 8),), (Bar("HP", 8, 8),))
    assert vesna.controlled and not hald.controlled
    assert vesna.position == Position("place", 0) and (hald.detail.band, vesna.detail.band) == ("near", "engaged")
    assert [w.id for w in vesna.detail.in_hand()] == ["steel_sword"]


def test_the_heuristic_reads_its_observation_and_never_charges_an_engaged_foe() -> None:
    """WL-B13: attack an engaged foe, close in on a near one (the free move), charge a far one (WL-18)."""

    def plan(band: str | None) -> Any:
        extra = {"band": band} if band else {}
        m = hud_match("nerdified", combatant("vesna", "vesna", **extra), combatant("hald", "sergeant"), [2, 8])
        seat = Viewer("p", frozenset({"vesna"}))
        return HudHeuristic().choose(RULESET.observe(m.state, seat, "vesna"), m.choices("vesna"), FastRNG(1))["plan"]

    assert plan(None) == [{"type": "attack", "target": "hald"}, {"type": "defense"}]
    assert plan("near") == [
        {"type": "close", "target": "hald"},
        {"type": "attack", "target": "hald"},
        {"type": "defense"},
    ]
    assert plan("far") == [{"type": "charge", "target": "hald"}]


def test_hints_use_the_rulesets_own_modifiers_including_charge_bonus_to() -> None:
    """The hint calls the ruleset's own modifiers: the hint's average loss follows option charge_bonus_to (WL-B4): +2
    on the charger's Damage under 'damage', none under 'injury'. Plain fighters (all modifiers 0): a charge hits at -4
    Attack (WL-18) 36/169 = 21% of the time; a hit then costs E[max(0, d13 + 2 - d13)] = 558/169 HP (0.70 on average
    over the charge), or 28/13 without the bonus (0.46)."""

    def charge_hint(where: str) -> str:
        a = combatant("a", name="A", endurance=10, band="far")
        b = combatant("b", name="B", endurance=10)
        m = hud_match("nerdified", a, b, [2, 8], options={"charge_bonus_to": where})
        spec = ActionSpec(
            {"type": "declare", "plan": [{"type": "charge", "target": "b"}], "additional": False}, "charge"
        )
        return hints(typed(m, Viewer("p", frozenset({"a"}))), "a", [spec])[0]

    assert charge_hint("damage") == "vs B: hit 21% · avg loss 0.7"
    assert charge_hint("injury") == "vs B: hit 21% · avg loss 0.5"
