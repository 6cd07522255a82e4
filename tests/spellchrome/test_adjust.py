"""GM rulings on a Spellchrome fight (rulesets/spellchrome/adjust.py; docs/spellchrome.md, "GM rulings"): every
change form seen in every seat's view, each refusal with its code and nothing changed, the hit-point states and
the outcome following the rules at once (Defeated, FightDecided, Ended in the ruling's record), a combatant taken out
on its turn (the turn passes as end_turn does, with the match's dice, in the ruling's record, which verifies, replays
and is rewound, not taken back) and around an attack of opportunity, brought back, and fights with rulings played to
their end, verified and replayed."""

from __future__ import annotations

from typing import Any

import pytest

import affray
from affray.ai.base import RandomPolicy
from affray.ai.runner import policy_action
from affray.core.engine import GM, Accepted, Rejected
from affray.core.events import Defeated, Rolled
from affray.core.log import export_log, verify
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.rulesets.spellchrome.adjust import ADJUSTER
from tests.conformance.common import ROOT
from tests.spellchrome.support import fighter, seeded, state_of, who

SEATS = ("a", "b", "c", "d", "spectator", GM)


def duel() -> Match:
    """Ayla (a, red, at (1, 1)) against Bram (b, blue, at (2, 1)); Ayla acts first."""
    return seeded({"red": [fighter("a", (1, 1), name="Ayla")], "blue": [fighter("b", (2, 1), name="Bram")]}, "ab")


def four() -> Match:
    """Ayla and Dara (red) against Bram and Cora (blue) in the corners; the order is Bram, Cora, Dara, Ayla."""
    return seeded(
        {
            "red": [fighter("a", (0, 0), name="Ayla"), fighter("d", (0, 2), name="Dara")],
            "blue": [fighter("b", (5, 0), name="Bram"), fighter("c", (5, 2), name="Cora")],
        },
        "bcda",
    )


def rule(m: Match, *changes: dict[str, Any], reason: str = "the GM says so") -> Any:
    return m.rule(GM, {"type": "ruling", "reason": reason, "changes": list(changes)}, version=m.version)


def accepted(m: Match, *changes: dict[str, Any]) -> None:
    result = rule(m, *changes)
    assert isinstance(result, Accepted), result


def seen(m: Match, seat: str, cid: str) -> dict[str, Any]:
    return next(c for c in m.view_json(seat)["combatants"] if c["id"] == cid)


def everywhere(m: Match, cid: str) -> list[dict[str, Any]]:
    return [seen(m, seat, cid) for seat in SEATS if seat in m.seats.values() or seat == "spectator"]


def test_sc01_sc07_bars_are_set_and_every_seat_sees_them_and_reads_the_ruling() -> None:
    """Rules: SC-01 (HP current / max), SC-07 (EX-HP): the bars as the view names them."""
    m = seeded(
        {
            "red": [fighter("a", (1, 1), name="Ayla", armour="shimmer_vest")],
            "blue": [fighter("b", (2, 1), name="Bram")],
        },
        "ab",
    )
    ex_max = who(m, "a").ex_hp_max
    assert ex_max > 0
    accepted(m, {"combatant": "a", "bar": "HP", "value": 7}, {"combatant": "a", "bar": "EX-HP", "value": 1})
    for c in everywhere(m, "a"):
        assert c["bars"] == [{"name": "HP", "value": 7, "max": 20}, {"name": "EX-HP", "value": 1, "max": ex_max}]
    for seat in ("a", "b", "spectator", GM):
        [entry] = m.events_since(m.version - 1, seat, narrate=True)
        assert [e["text"] for e in entry["events"]] == [
            f"GM ruling (the GM says so): Ayla's HP 7 (was 20); Ayla's EX-HP 1 (was {ex_max})."
        ]


def test_sc03_sc04_sc05_hp_sets_the_hit_point_state() -> None:
    """Rules: SC-03 (0 unconscious), SC-04 (−1..−29 dying, from this round: SC-B3), SC-05 (−30 dead), SC-02 (1 or
    more: normal again, and a stable character healed to 0 or more is no longer stable, SC-06)."""
    m = four()
    accepted(m, {"combatant": "c", "bar": "HP", "value": 0})
    assert [s["name"] for s in seen(m, "spectator", "c")["statuses"]] == ["unconscious"]
    accepted(m, {"combatant": "c", "bar": "HP", "value": -4})
    c = who(m, "c")
    assert (c.status, c.dropped_round) == ("dying", 1)
    accepted(m, {"combatant": "c", "status": "stable", "rounds": None})
    assert seen(m, "b", "c")["statuses"] == [{"name": "stable", "rounds": None}]
    accepted(m, {"combatant": "c", "bar": "HP", "value": 3})
    assert (c.status, c.stable, c.able) == ("normal", False, True)
    accepted(m, {"combatant": "c", "bar": "HP", "value": -30})
    assert seen(m, "spectator", "c")["dead"] and seen(m, "spectator", "c")["statuses"] == [
        {"name": "dead", "rounds": None}
    ]


def test_sc02_sc10_statuses_given_and_ended_in_every_view() -> None:
    """Rules: SC-10 (a knockout: unconscious at 1 HP or more, until the GM ends it), SC-02 (giving up)."""
    m = four()
    accepted(
        m,
        {"combatant": "c", "status": "unconscious", "rounds": None},
        {"combatant": "d", "status": "surrendered", "rounds": None},
    )
    for c in everywhere(m, "c"):
        assert c["statuses"] == [{"name": "unconscious", "rounds": None}] and c["down"]
    assert all(c["statuses"] == [{"name": "surrendered", "rounds": None}] for c in everywhere(m, "d"))
    accepted(m, {"combatant": "c", "remove_status": "unconscious"}, {"combatant": "d", "remove_status": "surrendered"})
    assert all(c["statuses"] == [] and not c["down"] for cid in "cd" for c in everywhere(m, cid))


def test_sc24_position_moves_the_token_and_every_seat_sees_it() -> None:
    """Rule: SC-24 (a move ends on a square nobody able stands on): the GM drags Bram to (4, 2)."""
    m = duel()
    accepted(m, {"combatant": "b", "position": [4, 2]})
    assert all(c["position"]["x"] == 4 and c["position"]["y"] == 2 for c in everywhere(m, "b"))
    [entry] = m.events_since(m.version - 1, "a", narrate=True)
    assert entry["events"][0]["text"] == "GM ruling (the GM says so): Bram is moved to (4, 2)."


def test_refused_rulings_say_why_and_change_nothing() -> None:
    """Rules: SC-05/SC-08 (HP from −30 to max), SC-07 (EX-HP up to the armour's), SC-06 (only the dying are
    stable), SC-04/SC-05 (dying and dead follow from HP), SC-24 (occupied squares), SC-03 (standing needs 1 HP)."""
    m = duel()
    accepted(m, {"combatant": "b", "bar": "HP", "value": 5})
    cases: list[tuple[dict[str, Any], str]] = [
        ({"combatant": "a", "bar": "Grit", "value": 1}, "unknown_bar"),
        ({"combatant": "a", "bar": "HP", "value": 21}, "bad_value"),
        ({"combatant": "a", "bar": "HP", "value": -31}, "bad_value"),
        ({"combatant": "a", "bar": "EX-HP", "value": 1}, "bad_value"),
        ({"combatant": "a", "status": "Bleeding", "rounds": None}, "unknown_status"),
        ({"combatant": "a", "status": "unconscious", "rounds": 2}, "bad_value"),
        ({"combatant": "a", "status": "dying", "rounds": None}, "derived_status"),
        ({"combatant": "a", "status": "stable", "rounds": None}, "bad_status"),
        ({"combatant": "a", "remove_status": "surrendered"}, "not_there"),
        ({"combatant": "a", "position": [9, 9]}, "bad_position"),
        ({"combatant": "a", "position": [1, 2]}, "bad_position"),  # the wall
        ({"combatant": "a", "position": [2, 1, 0]}, "bad_position"),
        ({"combatant": "a", "position": [2, 1]}, "occupied"),
        ({"combatant": "a", "out": False}, "not_out"),
        ({"combatant": "zed", "out": True}, "unknown_combatant"),
    ]
    before, version = m.ruleset.snapshot(m.state), m.version
    for change, code in cases:
        result = rule(m, change)
        assert isinstance(result, Rejected) and result.code == code, (change, result)
        assert result.message.endswith(".")
        assert (m.version, m.ruleset.snapshot(m.state)) == (version, before)
    accepted(m, {"combatant": "b", "out": True})
    outcome = m.outcome()
    assert outcome is not None and outcome.winner == "red"  # SC-R12: the last foe taken out ends the fight
    assert rule(m, {"combatant": "b", "out": False}).code == "match_over"


def test_taken_out_and_brought_back() -> None:
    """Out of the fight: no turn, not a target, off the board; back only on its feet (SC-03) and on a free square
    (SC-24), at its initiative count."""
    m = four()
    accepted(m, {"combatant": "c", "out": True})
    assert all(c["statuses"] == [{"name": "out", "rounds": None}] and c["down"] for c in everywhere(m, "c"))
    assert ADJUSTER.forms(state_of(m))["c"]["out"] is True
    assert rule(m, {"combatant": "c", "out": True}).code == "already_out"
    accepted(m, {"combatant": "c", "bar": "HP", "value": 0})
    assert rule(m, {"combatant": "c", "out": False}).code == "cannot_stand"
    accepted(m, {"combatant": "c", "bar": "HP", "value": 9}, {"combatant": "d", "position": [5, 2]})
    assert rule(m, {"combatant": "c", "out": False}).code == "occupied"
    accepted(m, {"combatant": "c", "position": [4, 2]}, {"combatant": "c", "out": False})
    assert who(m, "c").able and seen(m, "d", "c")["statuses"] == []


def told(m: Match, seat: str = "spectator") -> list[str]:
    """The sentences of the last record, as ``seat`` reads them."""
    [entry] = m.events_since(m.version - 1, seat, narrate=True)
    return [e["text"] for e in entry["events"]]


def test_taken_out_on_its_turn_the_turn_passes_at_once() -> None:
    """SC-15, SC-16: Bram's turn passes to Cora, next in the initiative order, when the GM takes Bram out; the
    ruling's record tells it (he leaves the fight, his turn ends, Cora's begins). He is back for round 2 and acts at
    his count."""
    m = four()
    assert m.pending().actors == ("b",)  # type: ignore[union-attr]
    result = rule(m, {"combatant": "b", "out": True})
    assert isinstance(result, Accepted)
    assert [e.kind for e in result.events] == ["ruled", "defeated", "turn_ended", "turn_started"]
    assert told(m) == [
        "GM ruling (the GM says so): Bram is out of the fight.",
        "Bram leaves the fight.",
        "Bram ends their turn.",
        "Cora's turn.",
    ]
    assert m.pending().actors == ("c",)  # type: ignore[union-attr]
    accepted(m, {"combatant": "b", "out": False})
    for actor in ("c", "d", "a"):
        assert m.act(actor, {"type": "end_turn"}, version=m.version)
    assert (state_of(m).round, m.pending().actors) == (2, ("b",))  # type: ignore[union-attr]


def test_sc02_sc03_sc04_a_ruling_tells_who_it_leaves_out_of_the_fight_and_no_one_else() -> None:
    """SC-02 (giving up), SC-03/SC-04 (0 HP unconscious, below it dying), SC-10 (a knockout): each combatant a ruling
    leaves unable that could act before it is told out of the fight (Defeated, as a blow's), once; one already down
    (dying, or surrendered and now knocked out too) is not told again."""
    m = four()
    defeated = [
        (e.actor, e.how)
        for e in _ruled(
            m, {"combatant": "c", "bar": "HP", "value": -4}, {"combatant": "d", "status": "surrendered", "rounds": None}
        )
        if isinstance(e, Defeated)
    ]
    assert defeated == [("d", "gave up"), ("c", "down")]
    assert not [
        e
        for e in _ruled(
            m, {"combatant": "c", "bar": "HP", "value": -9}, {"combatant": "d", "status": "unconscious", "rounds": None}
        )
        if isinstance(e, Defeated)
    ]
    assert [
        (e.actor, e.how) for e in _ruled(m, {"combatant": "a", "bar": "HP", "value": -30}) if isinstance(e, Defeated)
    ] == [("a", "dead")]


def _ruled(m: Match, *changes: dict[str, Any]) -> list[Any]:
    result = rule(m, *changes)
    assert isinstance(result, Accepted), result
    return list(result.events)


def _last_in_the_round_out() -> tuple[Match, Accepted, int]:
    """Four fighters; Bram, Cora and Dara end their turns; the GM drops Cora to −5 HP and takes Ayla, last in the
    round, out. Returns the match, the ruling's result and the RNG's draws before it."""
    m = four()
    for actor in ("b", "c", "d"):
        assert isinstance(m.act(actor, {"type": "end_turn"}, version=m.version), Accepted)
    before = m.rng.index
    result = rule(m, {"combatant": "c", "bar": "HP", "value": -5}, {"combatant": "a", "out": True})
    assert isinstance(result, Accepted)
    return m, result, before


def test_sc04_sc_b3_the_last_in_the_round_taken_out_ends_the_round_with_the_match_dice() -> None:
    """SC-04, SC-B3 (a dying character loses 1d4 at the end of every round, the round it dropped too), SC-16: Ayla's
    turn passes as end_turn does: the round ends, Cora loses 1d4 with the match's die, and round 2 begins with
    Bram's turn, all in the ruling's record. The next window is the rules' own (Bram's turn, every action)."""
    m, result, before = _last_in_the_round_out()
    assert [(e.kind, getattr(e, "actor", getattr(e, "target", ""))) for e in result.events] == [
        ("ruled", ""),
        ("defeated", "a"),
        ("defeated", "c"),
        ("turn_ended", "a"),
        ("rolled", "c"),
        ("damaged", "c"),
        ("round_started", ""),
        ("turn_started", "b"),
    ]
    rolled = result.events[4]
    assert isinstance(rolled, Rolled) and rolled.purpose == "dying (1d4 lost)" and rolled.roll.notation == "1d4"
    loss = rolled.roll.total
    assert 1 <= loss <= 4 and who(m, "c").hp == -5 - loss
    assert m.rng.index == before + 1  # one die, the 1d4
    assert m.records[-1].events == result.events
    hp = -5 - loss
    assert told(m) == [
        "GM ruling (the GM says so): Cora's HP -5 (was 20); Ayla is out of the fight.",
        "Ayla leaves the fight.",
        "Cora is out of the fight.",
        "Ayla ends their turn.",
        f"Cora loses 1d4 HP while dying: 1d4 [{loss}] = {loss}",
        f"Cora takes {loss} damage: {hp} HP left, dying.",
        "— Round 2 —",
        "Bram's turn.",
    ]
    assert (state_of(m).round, m.pending().phase, m.pending().actors) == (2, "turn", ("b",))  # type: ignore
    assert {"type": "end_turn"} in [s.action for s in m.legal("b")] and len(m.legal("b")) > 1


def test_sc06_sc_b3_the_turn_passing_from_a_ruling_rolls_the_next_ones_dc_22_save() -> None:
    """SC-06, SC-B3 (a dying character rolls the DC 22 Fortitude save at the start of its turns, from the round after
    it dropped): Cora drops to −5 in round 1; in round 2 the GM takes Bram out on his turn, and the turn passes to
    Cora, who rolls her save with the match's die in the ruling's record, and on to Dara, who keeps Bram's side in
    the fight."""
    m = seeded(
        {
            "red": [fighter("a", (0, 0), name="Ayla"), fighter("c", (0, 2), name="Cora")],
            "blue": [fighter("b", (5, 0), name="Bram"), fighter("d", (5, 2), name="Dara")],
        },
        "bcda",
    )
    accepted(m, {"combatant": "c", "bar": "HP", "value": -5})
    for actor in ("b", "d", "a"):  # Cora, dying, has no turn: the round's end takes her 1d4
        assert isinstance(m.act(actor, {"type": "end_turn"}, version=m.version), Accepted)
    assert (state_of(m).round, m.pending().actors) == (2, ("b",))  # type: ignore[union-attr]
    before = m.rng.index
    result = rule(m, {"combatant": "b", "out": True})
    assert isinstance(result, Accepted)
    [save] = [e for e in result.events if isinstance(e, Rolled)]
    assert (save.actor, save.purpose, save.roll.notation) == ("c", "Fortitude save to stabilise", "1d20+2")
    assert m.rng.index == before + 1
    kinds = [e.kind for e in result.events]
    assert kinds[:4] == ["ruled", "defeated", "turn_ended", "rolled"] and kinds[-1] == "turn_started"
    assert who(m, "c").status == ("stable" if save.roll.total >= 22 else "dying")
    assert m.pending().actors == ("d",)  # type: ignore[union-attr]


def test_a_ruling_that_rolled_dice_verifies_replays_and_is_rewound_not_taken_back() -> None:
    """SC-04 (the dying's 1d4, rolled by the ruling's settle): the log verifies and replays to the same state; the
    GM's own take back is refused (the ruling rolled a die: revealed_since), a rewind to before it works and puts
    the round back as it was (Ayla's turn, Cora at 20 HP)."""
    m, _, _ = _last_in_the_round_out()
    report = verify(export_log(m, reveal_seed=True))
    assert report.ok, report.problems
    again = m.replayed()
    assert again.ruleset.snapshot(again.state) == m.ruleset.snapshot(m.state)
    refused = m.take_back(GM, version=m.version)
    assert isinstance(refused, Rejected) and refused.code == "revealed_since"
    assert isinstance(m.rewind(m.version - 1, GM, version=m.version), Accepted)
    assert (state_of(m).round, m.pending().actors, who(m, "c").hp) == (1, ("a",), 20)  # type: ignore[union-attr]
    assert verify(export_log(m, reveal_seed=True)).ok


def test_sc27_a_foe_taken_out_while_deciding_on_an_attack_of_opportunity() -> None:
    """SC-27 (a): Ayla leaves Bram's reach and provokes; the GM takes Bram out while he decides. The last foe out
    ends the fight at once (SC-R12), with its Ended event in the ruling's record. With another foe standing, the
    move walks on in the ruling's record and Ayla's turn goes on."""
    m = duel()
    m.act("a", {"type": "move", "to": [0, 1]}, version=m.version)
    assert m.pending().phase == "attack_of_opportunity"  # type: ignore[union-attr]
    result = rule(m, {"combatant": "b", "out": True})
    assert isinstance(result, Accepted)
    assert [e.kind for e in result.events] == ["ruled", "defeated", "ended"]
    outcome = m.outcome()
    assert outcome is not None and outcome.winner == "red" and m.pending() is None
    assert told(m)[-1] == f"The fight is over. The red (Ayla) wins: {outcome.reason}."
    m = seeded(
        {
            "red": [fighter("a", (1, 1), name="Ayla")],
            "blue": [fighter("b", (2, 1), name="Bram"), fighter("c", (5, 0), name="Cora")],
        },
        "abc",
    )
    m.act("a", {"type": "move", "to": [0, 1]}, version=m.version)
    result = rule(m, {"combatant": "b", "out": True})
    assert isinstance(result, Accepted)
    assert [e.kind for e in result.events] == ["ruled", "defeated", "moved"]
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("turn", ("a",))
    assert who(m, "a").pos == (0, 1) and state_of(m).opportunity is None


def test_sc27_the_provoker_taken_out_stops_its_move_and_its_turn_passes() -> None:
    """SC-27 (a), SC-15: Ayla leaves Bram's reach and provokes; the GM takes Ayla out while Bram decides. Nobody may
    punish her any more, so Bram's window goes, her move stops where she stands and her turn passes to Bram."""
    m = seeded(
        {
            "red": [fighter("a", (1, 1), name="Ayla"), fighter("d", (0, 2), name="Dara")],
            "blue": [fighter("b", (2, 1), name="Bram")],
        },
        "abd",
    )
    m.act("a", {"type": "move", "to": [0, 0]}, version=m.version)
    assert m.pending().phase == "attack_of_opportunity"  # type: ignore[union-attr]
    result = rule(m, {"combatant": "a", "out": True})
    assert isinstance(result, Accepted)
    assert [(e.kind, getattr(e, "actor", "")) for e in result.events] == [
        ("ruled", ""),
        ("defeated", "a"),
        ("turn_ended", "a"),
        ("turn_started", "b"),
    ]
    assert who(m, "a").pos == (1, 1) and state_of(m).opportunity is None and state_of(m).motion is None
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("turn", ("b",))


def test_sc27_a_foe_moved_away_lets_the_provoked_attack_go_on_at_once() -> None:
    """SC-27 (d): Ayla shoots at Bram beside her, and he may punish it; the GM drags him out of reach. He may no
    longer punish, so the shot is rolled at once, with the match's dice, in the ruling's record, and Ayla's turn
    goes on (her move action is left)."""
    m = seeded(
        {
            "red": [fighter("a", (1, 1), name="Ayla", weapons=["hand_crossbow"])],
            "blue": [fighter("b", (2, 1), name="Bram")],
        },
        "ab",
    )
    m.act("a", {"type": "attack", "target": "b", "weapon": "hand_crossbow"}, version=m.version)
    assert m.pending().actors == ("b",)  # type: ignore[union-attr]
    before = m.rng.index
    result = rule(m, {"combatant": "b", "position": [4, 1]})
    assert isinstance(result, Accepted)
    assert [e.kind for e in result.events][:3] == ["ruled", "rolled", "attacked"]
    rolled = result.events[1]
    assert isinstance(rolled, Rolled) and (rolled.actor, rolled.purpose) == ("a", "attack (Hand crossbow)")
    assert m.rng.index == before + sum(len(e.roll.dice) for e in result.events if isinstance(e, Rolled))
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("turn", ("a",))
    assert state_of(m).turn.standard_left is False  # type: ignore[union-attr]
    assert verify(export_log(m, reveal_seed=True)).ok


def test_sc04_sc_r12_a_fight_decided_while_the_dying_bleed_reopens_when_a_foe_stands_again() -> None:
    """SC-04, ruling SC-R12: the GM drops Bram to −5: he is down (Defeated), the fight is decided (FightDecided) and
    he bleeds on (the aftermath); healed to 10 HP by a ruling he stands, so the fight goes on."""
    m = duel()
    result = rule(m, {"combatant": "b", "bar": "HP", "value": -5})
    assert isinstance(result, Accepted)
    assert [e.kind for e in result.events] == ["ruled", "defeated", "fight_decided"]
    assert state_of(m).decided is not None and m.pending().phase == "aftermath"  # type: ignore[union-attr]
    accepted(m, {"combatant": "b", "bar": "HP", "value": 10})
    assert state_of(m).decided is None and m.pending().phase == "turn"  # type: ignore[union-attr]
    assert m.outcome() is None


def test_forms_offer_the_bars_statuses_and_squares() -> None:
    m = duel()
    assert ADJUSTER.forms(state_of(m))["a"] == {
        "bars": [{"name": "HP", "min": -30, "max": 20}, {"name": "EX-HP", "min": 0, "max": 0}],
        "statuses": ["stable", "unconscious", "surrendered", "out"],
        "position": "square",
        "out": False,
    }


def _play_with_rulings(path: str, seed: int, kind: str) -> Match:
    """Play ``path`` with ``kind`` policies, the GM taking out whoever must act at step 4 and bringing it back (on
    its feet, on a free square) at step 12."""
    scenario = affray.load_scenario(ROOT / path)
    m = scenario.start(seed)
    policies = (
        {a: RandomPolicy() for a in m.controllers}
        if kind == "random"
        else scenario.policies(m, {a: "heuristic" for a in m.controllers if a != GM})
    )
    rng, taken = FastRNG(seed), ""
    accepted(m, {"combatant": next(iter(m.names())), "bar": "HP", "value": 5})
    for step in range(2_000):
        window = m.pending()
        if window is None:
            break
        actor = window.actors[0]
        if step == 4 and not taken:
            taken = actor
            accepted(m, {"combatant": actor, "out": True})
            continue
        if step == 12 and taken and m.outcome() is None:
            state = state_of(m)
            free = next(
                (x, y)
                for y in range(state.grid.height)
                for x in range(state.grid.width)
                if state.grid.passable((x, y)) and not state.at((x, y))
            )
            accepted(
                m,
                {"combatant": taken, "bar": "HP", "value": 3},
                {"combatant": taken, "position": list(free)},
                {"combatant": taken, "out": False},
            )
            continue
        result = m.act(actor, policy_action(m, policies[actor], actor, rng), version=m.version)
        assert isinstance(result, Accepted), result
    return m


@pytest.mark.parametrize("kind", ["random", "heuristic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fights_with_rulings_end_verify_and_replay(kind: str, seed: int) -> None:
    """A ruling at the start, a combatant taken out mid-fight and brought back: the fight ends, its log verifies
    and replays to the same state."""
    m = _play_with_rulings("examples/spellchrome/crossroads_2v2.yaml", seed, kind)
    assert m.outcome() is not None
    assert [r.kind for r in m.records].count("gm") == 3
    report = verify(export_log(m))
    assert report.ok, report.problems
    again = m.replayed()
    assert again.ruleset.snapshot(again.state) == m.ruleset.snapshot(m.state)
    assert not m.ruleset.invariants(m.state)
