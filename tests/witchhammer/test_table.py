"""The table: rejected input changes nothing, face-down cards stay hidden until the reveal, the reveal checks
each commitment, and the Drama Timer is an action. Rules: WH-02, WH-03, WH-04, WH-05, WH-B18, WH-B20;
DESIGN.md contracts 2 and 6."""

from __future__ import annotations

import json

import pytest

from affray.core.engine import GM, SPECTATOR, Action
from affray.core.fields import texts
from affray.core.match import Match
from affray.core.sealed import SealBroken
from affray.rulesets.witchhammer.state import WitchHammerState
from affray.rulesets.witchhammer.view_types import DramaTimer
from affray.rulesets.witchhammer.views import WitchHammerView
from tests.witchhammer.helpers import RULESET, fighter, new_match, of, ok, refused


def duel(options: dict[str, object] | None = None) -> Match:
    """a (its own seat) holds fewer cards than b (the GM's), so b's cards are names a has never seen."""
    a_deck = ["jab", "wait", "idle", "calm", "lunge"]
    return new_match(
        [fighter("a", (1, 1), deck=a_deck)], [fighter("b", (2, 1), use="dummy", seat=GM)], [15, 15, 15], options
    )


def state_of(m: Match) -> WitchHammerState:
    assert isinstance(m.state, WitchHammerState)
    return m.state


def unchanged(m: Match, actor: str, action: Action, code: str) -> None:
    """Submit ``action``: it must be refused with ``code`` and leave state, RNG and log exactly as they were."""
    before = json.dumps(RULESET.snapshot(m.state), sort_keys=True)
    draws, logged = m.rng.index, len(m.log)
    refused(m.act(actor, action), code)
    assert json.dumps(RULESET.snapshot(m.state), sort_keys=True) == before
    assert (m.rng.index, len(m.log)) == (draws, logged)


def test_wh02_a_second_psych_card_is_refused() -> None:
    """WH-02: at most one Psych card a vignette."""
    m = duel()
    ok(m.act("b", {"type": "psych", "card": "calm"}))
    unchanged(m, "b", {"type": "psych", "card": "calm_once"}, "psych_already_played")
    unchanged(m, "b", {"type": "commit", "cards": ["calm_once"]}, "psych_already_played")


def test_wh03_bad_cards_are_refused_with_a_code_and_change_nothing() -> None:
    """WH-03: a card not in hand, a Psych card in an action slot, and a third card are refused; placing before
    the Planning phase opens is refused as planning closed."""
    m = duel()
    unchanged(m, "a", {"type": "place", "card": "jab"}, "planning_closed")
    unchanged(m, "a", {"type": "psych", "card": "sword_swing"}, "card_not_in_hand")
    unchanged(m, "a", {"type": "psych", "card": "jab"}, "wrong_card_kind")
    for actor in ("a", "b"):
        ok(m.act(actor, {"type": "ready"}))
    unchanged(m, "a", {"type": "place", "card": "no_such_card"}, "card_not_in_hand")
    unchanged(m, "a", {"type": "place", "card": "calm"}, "wrong_card_kind")
    unchanged(m, "a", {"type": "psych", "card": "calm"}, "psych_closed")
    unchanged(m, "a", {"type": "commit", "cards": ["jab", "lunge", "wait"]}, "slots_full")
    ok(m.act("a", {"type": "place", "card": "jab"}))
    unchanged(m, "a", {"type": "place", "card": "jab"}, "card_not_in_hand")  # one instance, one slot (WH-B18)
    ok(m.act("a", {"type": "place", "card": "lunge"}))
    unchanged(m, "a", {"type": "place", "card": "wait"}, "slots_full")
    unchanged(m, "a", {"type": "commit", "cards": ["wait"]}, "slots_full")
    unchanged(m, "a", {"type": "dance"}, "bad_action")


def test_wh04_a_card_after_the_reveal_and_an_action_out_of_turn_are_refused() -> None:
    """WH-04: once the cards are revealed the Planning phase is closed; an actor who already locked in, or who
    is not in the window, is out of turn."""
    m = duel()
    ok(m.act("a", {"type": "ready"}))
    unchanged(m, "a", {"type": "psych", "card": "calm"}, "not_your_turn")
    ok(m.act("b", {"type": "ready"}))
    ok(m.act("a", {"type": "commit", "cards": ["wait", "idle"]}))
    unchanged(m, "a", {"type": "place", "card": "jab"}, "not_your_turn")
    ok(m.act("b", {"type": "commit", "cards": ["wait", "idle"]}))
    assert m.pending().phase == "psych"  # type: ignore[union-attr]
    unchanged(m, "a", {"type": "place", "card": "jab"}, "planning_closed")
    unchanged(m, GM, {"type": "timeout"}, "not_your_turn")  # the Drama Timer is off: the GM has no say here


def seen(m: Match, seat: str) -> WitchHammerView:
    """``seat``'s typed view (built from scratch)."""
    return RULESET.view(state_of(m), m.viewer(seat))


def _texts(m: Match) -> dict[str, str]:
    return {
        seat: json.dumps(seen(m, seat).to_json(), sort_keys=True) + json.dumps(m.redacted_log(seat), sort_keys=True)
        for seat in ("a", SPECTATOR, GM)
    }


def test_wh03_wh05_face_down_cards_are_hidden_until_the_reveal() -> None:
    """WH-03/WH-05: while cards lie face down no player or spectator view or redacted log names them; the GM's
    names only those of the combatants the GM plays (b here); after the reveal everyone sees them. The hand of
    another seat is hidden too (it would give them away)."""
    m = duel()
    ok(m.act("b", {"type": "psych", "card": "calm_once"}))
    ok(m.act("b", {"type": "ready"}))
    texts = _texts(m)
    assert "calm_once" not in texts["a"] and "calm_once" not in texts[SPECTATOR] and "calm_once" in texts[GM]
    ok(m.act("a", {"type": "ready"}))
    assert "calm_once" in _texts(m)["a"]  # revealed together at the end of the Psych phase
    ok(m.act("b", {"type": "commit", "cards": ["step_back", "guard"]}))
    view_a = seen(m, "a")
    b_slot = view_a.combatant("b").detail.slots[0]
    assert b_slot.card is None and b_slot.seal == "v1.b.slot1" and len(b_slot.digest) == 64
    assert view_a.combatant("b").detail.hand is None and view_a.combatant("a").detail.hand is not None
    texts = _texts(m)
    for secret in ("step_back", "guard"):
        assert secret not in texts["a"] and secret not in texts[SPECTATOR] and secret in texts[GM]
    assert [e["action"]["type"] for e in m.redacted_log("a")][-1] == "commit"
    assert "seals" in m.redacted_log("a")[-1]["action"]
    events = ok(m.act("a", {"type": "commit", "cards": ["jab", "wait"]}))
    assert [e.card for e in of(events, "card") if e.actor == "b"] == ["step_back", "guard"]
    assert "step_back" in _texts(m)["a"] and "guard" in _texts(m)["a"]
    assert RULESET.secrets(m.state) == []


def test_the_gm_never_sees_a_players_face_down_cards_or_hand() -> None:
    """Contract 6 (the GM's view is not all-seeing): a GM who plays the monster must not read the player's face-down
    cards before the reveal. a places Lunge and Jab face down: the GM's view shows that a committed (seal and digest)
    but not what, and
    not a's hand (it shrank by those two cards); it does show a's deck (GM-level sheet information). a's seat
    sees its own cards and hand. Every secret the ``secrets`` hook lists is out of the GM's view."""
    m = duel()
    for actor in ("a", "b"):
        ok(m.act(actor, {"type": "ready"}))
    ok(m.act("a", {"type": "commit", "cards": ["lunge", "jab"]}))
    gm, own = seen(m, GM).combatant("a").detail, seen(m, "a").combatant("a").detail
    assert [s.card for s in gm.slots] == [None, None] and gm.hand is None
    assert gm.deck == {"jab": 1, "wait": 1, "idle": 1, "calm": 1, "lunge": 1}
    assert [s.card for s in own.slots] == ["lunge", "jab"] and own.hand == {"wait": 1, "idle": 1, "calm": 1}
    assert [(s.seal, s.digest) for s in gm.slots] == [(s.seal, s.digest) for s in own.slots]
    gm_text = json.dumps(seen(m, GM).to_json(), sort_keys=True)
    secrets = RULESET.secrets(m.state)
    assert [owner for owner, _ in secrets] == ["a", "a"]
    for _, secret in secrets:
        assert json.dumps(secret, sort_keys=True) not in gm_text
        assert json.dumps(secret, sort_keys=True) in json.dumps(seen(m, "a").to_json(), sort_keys=True)


def test_wh04_the_reveal_checks_each_card_against_its_commitment() -> None:
    """WH-04: a face-down card changed after its commit is caught at the reveal (the seal's hash)."""
    m = duel()
    for actor in ("a", "b"):
        ok(m.act(actor, {"type": "ready"}))
    ok(m.act("b", {"type": "commit", "cards": ["wait", "idle"]}))
    state = m.state
    assert isinstance(state, WitchHammerState)
    state.fighters["b"].slots[0].payload["card"] = "guard"
    with pytest.raises(SealBroken):
        m.act("a", {"type": "commit", "cards": ["jab", "wait"]})


def test_wh_b20_drama_timer_is_a_gm_action_carried_in_the_state() -> None:
    """WH-B20: with the Drama Timer on, the GM is in the Planning window; its timeout locks everyone in as they
    are (empty slots get Hesitate), and the limit is in every view for the table's clock."""
    m = new_match(
        [fighter("a", (1, 1)), fighter("c", (1, 3))],
        [fighter("b", (2, 1), use="dummy", seat=GM)],
        [],
        {"drama_timer": True, "drama_timer_seconds": 45},
    )
    assert isinstance(m.state, WitchHammerState)
    m.state.fighters["c"].poise = 9  # no initiative ties to roll off
    for actor in ("a", "c", "b"):
        ok(m.act(actor, {"type": "ready"}))
    window = m.pending()
    assert window is not None and window.phase == "planning" and window.actors == ("a", "c", "b", GM)
    assert seen(m, "a").detail.drama_timer == DramaTimer(45, True)
    assert [s.action for s in m.legal(GM)] == [{"type": "timeout"}]
    ok(m.act("a", {"type": "place", "card": "wait"}))
    ok(m.act("c", {"type": "commit", "cards": ["wait", "idle"]}))
    events = ok(m.act(GM, {"type": "timeout"}))
    (timed_out,) = of(events, "timed_out")
    assert timed_out.actors == ["a", "b"]
    assert [(e.actor, e.card) for e in of(events, "card") if e.actor != "c"] == [
        ("a", "wait"),
        ("b", "hesitate"),
        ("a", "hesitate"),
        ("b", "hesitate"),
    ]
    assert seen(duel(), "a").detail.drama_timer is None  # off by default


def test_policies_plan_from_the_view_only() -> None:
    """The heuristic commits two legal cards from its own hand; the random policy picks a legal action."""
    from affray.ai.base import RandomPolicy
    from affray.core.rng import FastRNG
    from affray.rulesets.witchhammer.policies import WitchHammerHeuristic

    m = duel()
    for actor in ("a", "b"):
        ok(m.act(actor, {"type": "ready"}))
    legal = RULESET.legal(state_of(m), "a")
    for policy in (WitchHammerHeuristic(), RandomPolicy()):
        action = policy.choose(m.observe("a"), m.choices("a"), FastRNG(1))
        assert action in [s.action for s in legal]
    plan = WitchHammerHeuristic().choose(m.observe("a"), m.choices("a"), FastRNG(1))
    assert plan["type"] == "commit" and len(texts(plan, "cards")) == 2
