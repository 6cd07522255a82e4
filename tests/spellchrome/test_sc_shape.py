"""The one-shape contract for Spellchrome: the typed view (its JSON validates against the schema), action types that
every legal action is an instance of, and the one caching mechanism: views and legal lists built through a match's
memo over random playouts equal ones built from scratch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

import affray
from affray.core.actions import check_action
from affray.core.engine import Viewer
from affray.core.memo import Memo
from affray.core.plugin import get_ruleset
from affray.core.rng import FastRNG
from affray.core.view import View, view_schema
from affray.rulesets.spellchrome.views import SpellchromeCombatantDetail, SpellchromeDetail
from tests.sweep import rounds

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "spellchrome").glob("*.yaml"))
RULESET = get_ruleset("spellchrome")
ADAPTER: TypeAdapter[Any] = TypeAdapter(View[SpellchromeDetail, SpellchromeCombatantDetail])


def _viewers(state: Any) -> list[Viewer]:
    sides: dict[str, set[str]] = {}
    for a, c in state.combatants.items():
        sides.setdefault(c.side, set()).add(a)
    return [Viewer.gm(), Viewer.spectator(), *(Viewer(s, frozenset(ids)) for s, ids in sides.items())]


def _playout(path: Path, seed: int, steps: int = 400) -> None:
    """A random playout; at every step the memo's view and legal list equal fresh ones, the legal actions are
    instances of the declared action types, and the view's JSON validates against its schema."""
    scenario = affray.load_scenario(path)
    rng, choices = FastRNG(seed), FastRNG(seed + 99)
    state, _ = RULESET.setup(scenario.setup, _options(scenario), rng)
    memo, types = Memo(), RULESET.action_types()
    viewers = _viewers(state)
    for version in range(1, steps + 1):
        for viewer in viewers:
            cached = RULESET.view(state, viewer, memo)
            assert cached == RULESET.view(state, viewer)
            assert RULESET.view(state, viewer, memo) is cached  # kept for the version
            ADAPTER.validate_python(cached.to_json())
        window = RULESET.pending(state)
        if window is None:
            assert state.outcome is not None
            return
        actor = window.actors[0]
        legal = RULESET.legal(state, actor, memo)
        assert legal == RULESET.legal(state, actor)
        for spec in legal:
            assert check_action(spec.action, types) == [], spec
        action = legal[choices.die(len(legal)) - 1].action
        assert RULESET.step(state, actor, action, rng).ok
        memo.advance(version)


def _options(scenario: Any) -> Any:
    from affray.core.options import parse_options

    return parse_options(RULESET.options_type, scenario.options)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_views_and_legal_lists_through_the_memo_equal_fresh_ones(path: Path) -> None:
    for seed in range(1, 1 + rounds(2, 1)):  # seeds 1 and 2 (make test-quick: 1)
        _playout(path, seed)


def test_the_view_has_the_envelope_bars_and_statuses() -> None:
    """SC-01/SC-07 bars (HP, EX-HP), SC-04 statuses, the square position, and the detail parts."""
    scenario = affray.load_scenario(EXAMPLES[0])
    match = scenario.start(3)
    view = RULESET.view(match.state, match.viewer("gm"))
    assert view.ruleset == "spellchrome" and view.mode == "grid" and view.round == 1 and view.phase == "turn"
    first = view.combatants[0]
    assert [b.name for b in first.bars] == ["HP", "EX-HP"] and first.position is not None
    assert isinstance(view.detail, SpellchromeDetail)
    assert first.position.kind == "square" and view.detail.map[0].startswith("....")
    assert view.turn == view.order[0] or view.turn in view.order
    schema = view_schema(*RULESET.view_types)
    assert schema["title"] == "View (SpellchromeDetail)"


def test_action_types_declare_free_move_fields() -> None:
    types = {t.type: t for t in RULESET.action_types()}
    assert types["move"].free == ("to", "path") and types["step"].free == ("to",)
    assert check_action({"type": "move", "to": [1, 2], "path": [[1, 1], [1, 2]]}, list(types.values())) == []
    assert check_action({"type": "attack"}, list(types.values())) == ["action.target is missing"]
