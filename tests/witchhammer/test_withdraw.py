"""Taking back a card still face down in Planning (option ``planning_withdraw``, a ruling on WH-03): a record that
withdraws that placement, the other seats' later placements kept; the withdrawn card never reaches another seat
before the end, and a card placed again gets a seal of its own. Rules: WH-03, WH-04; DESIGN.md contract 6."""

from __future__ import annotations

import json
from pathlib import Path

import affray as affray_api
from affray.core.chain import chain_of
from affray.core.engine import GM, SPECTATOR
from affray.core.log import export_log
from affray.core.match import Match
from affray.rulesets.witchhammer import planning
from affray.rulesets.witchhammer.narration import NARRATOR, slot_of
from affray.rulesets.witchhammer.state import WitchHammerState
from tests.cli_run import affray
from tests.witchhammer.helpers import RULESET, of, ok
from tests.witchhammer.test_table import duel, seen, unchanged

ROOT = Path(__file__).resolve().parents[2]


def state_of(m: Match) -> WitchHammerState:
    assert isinstance(m.state, WitchHammerState)
    return m.state


def planning_open(options: dict[str, object] | None = None) -> Match:
    """The duel of test_table with the Psych phase passed: a (its own seat) and b (the GM's) both plan."""
    m = duel(options)
    for actor in ("a", "b"):
        ok(m.act(actor, {"type": "ready"}))
    assert state_of(m).phase == "planning"
    return m


def a_takes_back_lunge(m: Match) -> None:
    """a places Jab then Lunge, b places Guard after, and a takes back Lunge (slot 2)."""
    ok(m.act("a", {"type": "place", "card": "jab"}))
    ok(m.act("a", {"type": "place", "card": "lunge"}))
    ok(m.act("b", {"type": "place", "card": "guard"}))
    events = ok(m.act("a", {"type": "withdraw", "slot": 2}))
    assert [e.to_dict() for e in events] == [{"type": "withdrawn", "actor": "a", "seal": "v1.a.slot2"}]


def test_wh03_withdraw_after_another_seat_placed_keeps_that_placement() -> None:
    """WH-03 (planning_withdraw): a's take back of its slot 2 is a record of its own after b's placement: b's
    Guard stays face down in b's slot 1, a keeps Jab in slot 1, and Lunge is back in a's hand."""
    m = planning_open()
    a_takes_back_lunge(m)
    s = state_of(m)
    assert [x.payload["card"] for x in s.fighters["b"].slots] == ["guard"]
    assert [x.seal for x in s.fighters["b"].slots] == ["v1.b.slot1"]
    assert [x.payload["card"] for x in s.fighters["a"].slots] == ["jab"]
    assert s.fighters["a"].hand == {"jab": 0, "wait": 1, "idle": 1, "calm": 1, "lunge": 1}
    assert [r.action["type"] for r in m.records[-4:]] == ["place", "place", "place", "withdraw"]
    assert seen(m, "a").combatant("a").detail.hand == {"wait": 1, "idle": 1, "calm": 1, "lunge": 1}


def test_wh03_wh04_a_card_placed_again_gets_its_own_seal_and_the_withdrawn_one_is_never_opened() -> None:
    """WH-03/WH-04: a places Wait in slot 2 again: its seal is v1.a.slot2.r1; at the reveal Jab and Wait are
    turned over (a's cards), the withdrawn seal v1.a.slot2 never is, and Lunge never is a's card in force."""
    m = planning_open()
    a_takes_back_lunge(m)
    events = ok(m.act("a", {"type": "place", "card": "wait"}))
    assert [e.seal for e in of(events, "committed")] == ["v1.a.slot2.r1"]
    assert [x.seal for x in state_of(m).fighters["a"].slots] == ["v1.a.slot1", "v1.a.slot2.r1"]
    ok(m.act("a", {"type": "ready"}))
    events = ok(m.act("b", {"type": "commit", "cards": ["wait"]}))
    assert [e.seal for e in of(events, "revealed") if e.actor == "a"] == ["v1.a.slot1", "v1.a.slot2.r1"]
    assert [e.card for e in of(events, "card") if e.actor == "a"] == ["jab", "wait"]
    assert "v1.a.slot2" not in m.revealed and "v1.a.slot2.r1" in m.revealed
    assert slot_of("v1.a.slot2.r1") == "slot 2" and slot_of("v1.a.slot2") == "slot 2"


def test_wh03_the_withdrawn_card_reaches_no_other_seat() -> None:
    """Contract 6: b takes back Step Back (a card a's deck does not hold) and places Idle instead; before the end
    neither a's seat nor a spectator reads 'step_back' or 'Step Back' in its view, log, told log, log export's
    records or the hash chain's public form, during Planning nor after the reveal (the withdrawn seal is never
    opened). The GM's seat plays b and reads it."""
    m = planning_open()
    ok(m.act("b", {"type": "place", "card": "guard"}))
    ok(m.act("b", {"type": "place", "card": "step_back"}))
    ok(m.act("a", {"type": "place", "card": "jab"}))
    ok(m.act("b", {"type": "withdraw", "slot": 2}))
    ok(m.act("b", {"type": "place", "card": "idle"}))

    def told(seat: str) -> str:
        return json.dumps(
            [
                seen(m, seat).to_json(),
                m.redacted_log(seat),
                m.events_since(0, seat, narrate=True),
                export_log(m, seat=seat)["records"],  # its setup lists decks, GM-level and public as before
                chain_of("", m.redacted_log(SPECTATOR)),
            ],
            sort_keys=True,
        )

    for stage in ("planning", "revealed"):
        for seat in ("a", SPECTATOR):
            text = told(seat)
            assert "step_back" not in text and "Step Back" not in text, (stage, seat)
        assert "step_back" in told(GM)
        if stage == "planning":
            ok(m.act("b", {"type": "ready"}))
            ok(m.act("a", {"type": "commit", "cards": ["wait"]}))  # the reveal: Violence, then vignette 2
    assert state_of(m).vignette == 2 and m.outcome() is None
    sentences = [e["text"] for r in m.events_since(0, "a", narrate=True) for e in r["events"]]
    assert "Dummy takes back the card face down in slot 2." in sentences


def test_wh03_refused_when_not_the_last_slot_or_nothing_is_down_and_nothing_changes() -> None:
    """WH-03: only the last card placed can be taken back (slot 1 while slot 2 is filled: not_last_slot), not
    with nothing down (nothing_to_withdraw), not a slot not yet filled; with the option off (withdraw_off); in
    the Psych phase, once the cards were revealed (planning_closed); and by a combatant already ready (out of
    the window: not_your_turn). State, dice and log stay as they were."""
    m = planning_open()
    unchanged(m, "a", {"type": "withdraw", "slot": 1}, "nothing_to_withdraw")
    ok(m.act("a", {"type": "place", "card": "jab"}))
    ok(m.act("a", {"type": "place", "card": "lunge"}))
    unchanged(m, "a", {"type": "withdraw", "slot": 1}, "not_last_slot")
    unchanged(m, "a", {"type": "withdraw", "slot": 3}, "not_last_slot")
    ok(m.act("a", {"type": "withdraw", "slot": 2}))
    unchanged(m, "a", {"type": "withdraw", "slot": 2}, "not_last_slot")
    ok(m.act("a", {"type": "ready"}))
    unchanged(m, "a", {"type": "withdraw", "slot": 2}, "not_your_turn")
    ok(m.act("b", {"type": "ready"}))  # the reveal; vignette 2 opens with the Psych phase (b holds Psych cards)
    assert state_of(m).phase == "psych"
    unchanged(m, "a", {"type": "withdraw", "slot": 2}, "planning_closed")
    off = planning_open({"planning_withdraw": False})
    ok(off.act("a", {"type": "place", "card": "jab"}))
    unchanged(off, "a", {"type": "withdraw", "slot": 1}, "withdraw_off")


def test_wh03_withdraw_is_never_on_offer_to_a_policy() -> None:
    """WH-03: no legal list holds a withdraw (so the heuristic, steady, random and search policies, which choose
    from it, never take one); the legal list with a card down is the same as before the option existed."""
    m = planning_open()
    ok(m.act("a", {"type": "place", "card": "jab"}))
    for actor in ("a", "b"):
        assert all(spec.action["type"] != "withdraw" for spec in m.legal(actor))
    assert all(spec.action["type"] != "withdraw" for spec in planning.legal(state_of(m), "a", m.memo))
    assert NARRATOR is not None and RULESET.name == "witchhammer"


def test_wh03_verify_replays_a_log_with_a_withdrawal(tmp_path: Path) -> None:
    """`affray verify` replays a finished fight (the yard duel, seed 7) whose log holds a withdrawal and a card
    placed again: Bruna places Sword Swing and HayMaker, Tomas places Sword Swing, Bruna takes back HayMaker and
    places it again (seal v1.bruna.slot2.r1); the rest is played from the first legal action."""
    m = affray_api.load_scenario(ROOT / "examples" / "witchhammer" / "yard_duel.yaml").start(7)
    ok(m.act("bruna", {"type": "place", "card": "sword_swing"}))
    ok(m.act("bruna", {"type": "place", "card": "haymaker"}))
    ok(m.act("tomas", {"type": "place", "card": "sword_swing"}))
    ok(m.act("bruna", {"type": "withdraw", "slot": 2}))
    assert [e.seal for e in of(ok(m.act("bruna", {"type": "place", "card": "haymaker"})), "committed")] == [
        "v1.bruna.slot2.r1"
    ]
    for _ in range(2000):
        window = m.pending()
        if window is None:
            break
        ok(m.act(window.actors[0], m.legal(window.actors[0])[0].action))
    assert m.outcome() is not None
    assert {"type": "withdraw", "slot": 2} in [r.action for r in m.records]
    log = tmp_path / "withdraw.json"
    log.write_text(json.dumps(export_log(m)))
    verified = affray("verify", str(log))
    assert verified.returncode == 0 and "verified" in verified.stdout, verified.stdout + verified.stderr
