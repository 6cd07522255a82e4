"""WaRP on the one-shape contract (docs/architecture.md): typed views with the core envelope and their JSON Schema,
action types that every legal action is an instance of, and the match's Memo giving the same views and legal lists as a
fresh build. Rules: WR-24 (Messed Up as a status), WR-25/WR-26 (down, dead), WR-35 (the hidden gestalt total),
WR-X2 (positions on a line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

import affray
from affray.core.actions import actions_schema, check_action
from affray.core.engine import GM, SPECTATOR
from affray.core.fields import text
from affray.core.match import Match
from affray.core.memo import Memo
from affray.core.rng import FastRNG
from affray.core.view import Bar, Position, Status, View, view_schema
from affray.rulesets.warp.actions import ACTION_TYPES
from affray.rulesets.warp.ruleset import WarpRuleset
from affray.rulesets.warp.view_types import WarpCombatantDetail, WarpDetail
from tests.warp.helpers import attack, brawler, ok, thug, warp_match

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "warp").glob("*.yaml"))
ADAPTER: TypeAdapter[Any] = TypeAdapter(View[WarpDetail, WarpCombatantDetail])
RULES = WarpRuleset()
TYPES = {t.type: t for t in ACTION_TYPES}


def seats(match: Match) -> list[str]:
    return [*match.seat_names(), SPECTATOR, GM]


def random_steps(match: Match, seed: int, steps: int) -> Any:
    """Random legal actions, one step at a time (yields before each step)."""
    rng = FastRNG(seed)
    for _ in range(steps):
        window = match.pending()
        if window is None:
            return
        yield window
        actor = window.actors[0]
        legal = match.ruleset.legal(match.state, actor)
        assert match.act(actor, legal[rng.die(len(legal)) - 1].action).ok


def test_the_ruleset_declares_its_view_types_and_their_schema() -> None:
    """``view_types`` names the two detail classes; the schema is JSON and names the WaRP parts."""
    assert WarpRuleset.view_types == (WarpDetail, WarpCombatantDetail)
    schema = json.loads(json.dumps(view_schema(*WarpRuleset.view_types)))
    text = json.dumps(schema)
    assert "WarpDetail" in text and "WarpSheet" in text and "combatants" in schema["properties"]
    assert json.loads(json.dumps(actions_schema("warp", ACTION_TYPES)))["oneOf"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_views_validate_against_the_schema_types_and_round_trip(path: Path) -> None:
    """Every seat's view over a random playout is JSON that validates back into the same typed view."""
    match = affray.load_scenario(path).start(3)
    for _ in random_steps(match, 3, 150):
        for seat in seats(match):
            view = match.ruleset.view(match.state, match.viewer(seat))
            data = json.loads(json.dumps(view.to_json()))
            assert ADAPTER.validate_python(data) == view


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize(
    "options", [{}, {"gm_decisions": "table", "desperate_defense": True, "serious_wounds": True}], ids=["auto", "table"]
)
def test_every_legal_action_is_an_instance_of_a_declared_type(path: Path, options: dict[str, Any]) -> None:
    """check_action passes for every listed action, and each spec's free fields are free fields of its type that
    the action carries."""
    scenario = affray.load_scenario(path)
    match = Match(
        scenario.plugin,
        scenario.setup,
        {**scenario.options, **options},
        rng=FastRNG(2),
        seats=scenario.seats,
        controllers=scenario.controllers,
    )
    seen = set()
    for window in random_steps(match, 2, 300):
        for actor in window.actors:
            for spec in match.ruleset.legal(match.state, actor):
                assert check_action(spec.action, ACTION_TYPES) == [], spec
                declared = {f.name for f in TYPES[text(spec.action, "type")].fields if f.free}
                assert set(spec.free) <= declared & set(spec.action), spec
                seen.add(spec.action["type"])
    assert "attack" in seen or scenario.model.mode == "gestalt"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_memo_views_and_legal_lists_equal_fresh_ones(path: Path) -> None:
    """The one cache mechanism: through the match's Memo (advanced with the version), every view and legal list equals
    one built from scratch, also when asked twice in one version."""
    match = affray.load_scenario(path).start(7)
    memo = Memo()
    for window in random_steps(match, 7, 200):
        memo.advance(len(match.log))
        for seat in seats(match):
            viewer = match.viewer(seat)
            cached = RULES.view(match.state, viewer, memo)
            assert cached == RULES.view(match.state, viewer) == RULES.view(match.state, viewer, memo)
        for actor in window.actors:
            assert RULES.legal(match.state, actor, memo) == RULES.legal(match.state, actor)


def test_the_envelope_and_the_combatant_part() -> None:
    """The envelope (round, phase, order, turn, prompt), a line position, the HP bar for an open sheet only
    (WR-B9's 21 HP), and Messed Up as a status after a 12-point blow (WR-24)."""
    m = warp_match([brawler("a", position=0)], [thug("b", position=1.5)], [6, 6, 6, 1, 1, 1])
    ok(m.act("a", attack("b")))
    player = RULES.view(m.state, m.viewer(m.seats["a"]))
    assert (player.ruleset, player.mode, player.round, player.phase, player.turn) == ("warp", "combat", 1, "turn", "b")
    assert player.order == ("a", "b") and player.prompt is not None and player.prompt.actors == ("b",)
    a, b = player.combatant("a"), player.combatant("b")
    assert a.position == Position("line", 0) and b.position == Position("line", 1.5)
    assert a.bars == (Bar("HP", 21, 21),) and a.controlled and a.detail.sheet is not None
    assert b.bars == () and b.detail.sheet is None and not b.controlled  # a GM character's sheet
    assert Status("messed up") in b.statuses and b.detail.messed_up and not b.down
    gm = RULES.view(m.state, m.viewer(GM)).combatant("b")
    assert gm.bars == (Bar("HP", 6, 21),) and gm.detail.sheet is not None and gm.detail.sheet.hp == 6


def test_down_and_dead_in_the_combatant_part() -> None:
    """WR-25, WR-26: a GM character at -21 of 21 HP is dead (and down)."""
    m = warp_match(
        [brawler("a", dice=6, position=0)], [thug("b", position=1, hp=1)], [6, 6, 6, 6, 6, 6, 1, 1, 1, 1]
    )  # b, Messed Up at 1 HP, takes a penalty die
    ok(m.act("a", attack("b")))
    b = RULES.view(m.state, m.viewer(GM)).combatant("b")
    assert b.down and b.dead and b.bars == (Bar("HP", -32, 21),)
