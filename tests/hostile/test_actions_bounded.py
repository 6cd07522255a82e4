"""Every action is validated completely before it is kept (DESIGN.md contract 2; docs/table.md, "Limits"): a field
its declared type does not list is refused ``bad_field`` naming it, an action past ``MAX_ACTION_BYTES`` of JSON is
refused ``action_too_large``, and neither changes the state, the dice or the log; the ruleset's own codes still
answer everything else; every action the rulesets' policies play fits the bound; a stored log replays as it was
taken. In process, on the Match (the table server's path is tests/web/test_hostile_round2.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import affray
from affray.core.actions import MAX_ACTION_BYTES, action_bytes, by_type, refusal
from affray.core.engine import Accepted, Rejected
from affray.core.match import Match
from affray.core.plugin import plugin

EXAMPLES = Path(__file__).parents[2] / "examples"
GOLDEN = Path(__file__).parents[1] / "golden" / "fights.json"
JUNK = "x" * 250_000  # the attack as it was made: a 250 KB field beside a legal action


def started(example: str, seed: int = 3) -> Match:
    return affray.load_scenario(EXAMPLES / example).start(seed)


def due(match: Match) -> tuple[str, dict[str, Any]]:
    """The first due actor and its first legal action."""
    window = match.pending()
    assert window is not None
    actor = window.actors[0]
    return actor, dict(match.legal(actor)[0].action)


def unchanged(match: Match, refused: object, code: str, before: object, draws: int) -> None:
    assert isinstance(refused, Rejected) and refused.code == code, refused
    assert match.ruleset.snapshot(match.state) == before and match.rng.index == draws and not match.records


def test_a_field_the_type_does_not_list_is_refused_by_name_and_changes_nothing() -> None:
    match = started("witchhammer/mill_ambush.yaml")
    before, draws = copy.deepcopy(match.ruleset.snapshot(match.state)), match.rng.index
    actor, action = due(match)
    refused = match.act(actor, {**action, "junk": JUNK})
    unchanged(match, refused, "bad_field", before, draws)
    assert "'junk'" in refused.message and f"'{action['type']}'" in refused.message  # type: ignore[union-attr]
    assert len(refused.message) < 300  # type: ignore[union-attr]  # the junk is not echoed
    assert isinstance(match.act(actor, action), Accepted)  # the same action without it is taken


def test_a_field_inside_a_plans_item_is_refused_too() -> None:
    """WL-B (a HuD declaration's plan items are actions of their own declared types)."""
    match = started("hud/nerdified_duel.yaml")
    before, draws = copy.deepcopy(match.ruleset.snapshot(match.state)), match.rng.index
    actor, _ = due(match)
    plan: dict[str, Any] = {"type": "declare", "plan": [{"type": "defense", "junk": 1}], "additional": False}
    refused = match.act(actor, plan)
    unchanged(match, refused, "bad_field", before, draws)
    assert "action.plan[0].junk" in refused.message  # type: ignore[union-attr]


def test_an_action_past_the_bound_is_refused_before_the_rules_see_it() -> None:
    match = started("witchhammer/mill_ambush.yaml")
    before, draws = copy.deepcopy(match.ruleset.snapshot(match.state)), match.rng.index
    actor, _ = due(match)
    card = "x" * MAX_ACTION_BYTES
    refused = match.act(actor, {"type": "psych", "card": card})
    unchanged(match, refused, "action_too_large", before, draws)
    assert f"{MAX_ACTION_BYTES:,}" in refused.message  # type: ignore[union-attr]
    # Under the bound, the ruleset answers with its own code, as before
    small = match.act(actor, {"type": "psych", "card": "no_such_card"})
    assert isinstance(small, Rejected) and small.code not in ("bad_field", "action_too_large")


def test_the_rulesets_own_codes_still_answer_bad_values_and_unknown_types() -> None:
    match = started("hud/nerdified_duel.yaml")
    actor, _ = due(match)
    fly = match.act(actor, {"type": "fly"})
    assert isinstance(fly, Rejected) and fly.code not in ("bad_field", "bad_action")


def test_every_golden_action_and_the_largest_declared_ones_fit_the_bound() -> None:
    """Each action of the golden fights passes; a HuD plan of 12 complex manoeuvres of 500 four-byte characters (the
    largest action any ruleset declares) and a Free Form post of 4,000 fit under MAX_ACTION_BYTES."""
    fights = json.loads(GOLDEN.read_text())
    for key, fight in fights.items():
        types = by_type(plugin(key.split("/")[1]).ruleset().action_types())
        for _, action in fight["actions"]:
            assert refusal(action, types) is None, (key, action)
    hud = by_type(plugin("hud").ruleset().action_types())
    plan = {"type": "declare", "additional": False, "plan": [{"type": "complex", "text": "😀" * 500}] * 12}
    post = {"type": "post", "text": "😀" * 4000, "hp": {}}
    for action in (plan, post):
        assert refusal(action, hud) is None and action_bytes(action) < MAX_ACTION_BYTES


def test_a_stored_log_with_an_extra_field_still_replays() -> None:
    """A log kept before the check (an action with a field no rule reads) replays and verifies as it was taken."""
    match = started("witchhammer/mill_ambush.yaml", seed=4)
    actor, action = due(match)
    match.act(actor, action)
    entries = [r.to_dict(events=False) for r in match.records]
    entries[0]["action"] = {**dict(action), "note": "kept by an older affray"}
    fresh = match.fresh()
    for entry in entries:
        fresh.apply_record(entry)
    assert fresh.version == 1 and fresh.records[0].action["note"] == "kept by an older affray"


def test_a_gm_ruling_past_the_bound_is_refused() -> None:
    match = started("spellchrome/crossroads_2v2.yaml")
    before, draws = copy.deepcopy(match.ruleset.snapshot(match.state)), match.rng.index
    combatant = next(a for a in match.seats if a != "gm")
    change = {"combatant": combatant, "position": [[0, 0]] * 10_000}  # 60 KB where a square is [x, y]
    ruling: dict[str, Any] = {"type": "ruling", "reason": "r", "changes": [change]}
    refused = match.rule("gm", ruling)
    unchanged(match, refused, "action_too_large", before, draws)
