"""GM rulings on WaRP fights (core/adjust.py; rulesets/warp/adjust.py, leave.py): every change form seen in every
seat's view (a GM character's HP by the GM only), every refusal with its code and nothing changed, characters taken
out in the middle of a turn or a window and brought back, the fight going on at once from there (settle: its dice
and events in the ruling's record, the next window the rules' own), and fights that go on to their end, replay and
verify. Rules cited per test."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.ai.base import RandomPolicy, get_policy
from affray.ai.runner import policy_action
from affray.core.engine import GM, SPECTATOR, Accepted, Rejected
from affray.core.events import Rolled
from affray.core.fields import texts
from affray.core.json import Json
from affray.core.log import export_log, verify
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.rulesets.warp.adjust import ADJUSTER
from affray.rulesets.warp.state import WarpState
from tests.warp.helpers import PLUGIN, RULESET

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "warp").glob("*.yaml"))


def example(name: str, seed: int = 3, **options: Any) -> Match:
    scenario = affray.load_scenario(next(p for p in EXAMPLES if p.stem == name))
    return Match(
        PLUGIN,
        scenario.setup,
        {**scenario.options, **options},
        seed=bytes([seed]) * 32,
        seats=scenario.seats,
        controllers=scenario.controllers,
    )


def state(match: Match) -> WarpState:
    assert isinstance(match.state, WarpState)
    return match.state


def rule(match: Match, *changes: dict[str, Any], reason: str = "") -> Accepted:
    result = match.rule(GM, {"type": "ruling", "reason": reason, "changes": list(changes)}, version=match.version)
    assert isinstance(result, Accepted), result
    return result


def told(match: Match, seat: str = SPECTATOR) -> list[str]:
    """The last record's events as the story tells them to ``seat``."""
    return [e["text"] for e in match.events_since(match.version - 1, seat, narrate=True)[-1]["events"]]


def seats(match: Match) -> list[str]:
    return sorted({*match.seats.values(), GM, SPECTATOR})


def seen(match: Match, cid: str, seat: str) -> dict[str, Any]:
    return next(c for c in match.view_json(seat)["combatants"] if c["id"] == cid)


def advance(match: Match, steps: int, policy: str = "random", seed: int = 0) -> None:
    """Let the policies (the GM's seat too) take up to ``steps`` actions (fewer if the fight ends)."""
    policies = {a: RandomPolicy() if policy == "random" else get_policy("warp", policy) for a in match.controllers}
    rng = FastRNG(seed)
    for _ in range(steps):
        window = match.pending()
        if window is None:
            return
        actor = window.actors[0]
        assert isinstance(match.act(actor, policy_action(match, policies[actor], actor, rng)), Accepted)


def finish(match: Match, policy: str = "random", seed: int = 0) -> None:
    """Play to the end, then check the log verifies and replays to the same state."""
    advance(match, 100_000, policy, seed)
    assert match.outcome() is not None
    report = verify(export_log(match))
    assert report.ok, report.problems
    again = match.replayed()
    assert again.ruleset.snapshot(again.state) == match.ruleset.snapshot(match.state)


def test_wr24_wr30_wr31_wr_x2_every_change_form_is_seen_in_every_seats_view() -> None:
    """WR-24: HP at half or less is Messed Up; WR-30: prone, and a hold by a foe within reach; WR-31: a
    psychological advantage for the next round, unaware; WR-X2: metres on the line; out and back. A GM character's
    HP are GM-level: only the GM's seat (and its own) sees the bar."""
    m = example("melee_brawl")
    rule(
        m,
        {"combatant": "dana", "bar": "HP", "value": 10},
        {"combatant": "theo", "status": "prone", "rounds": None},
        {"combatant": "thug1", "position": 2},
        {"combatant": "thug1", "status": "held by Theo Marsh", "rounds": None},
        {"combatant": "thug2", "bar": "HP", "value": 5},
        {"combatant": "dana", "status": "psychological advantage", "rounds": 2},
        {"combatant": "thug3", "status": "unaware", "rounds": None},
    )
    for seat in seats(m):
        dana = seen(m, "dana", seat)
        assert dana["bars"] == [{"name": "HP", "value": 10, "max": 21}]
        assert dana["statuses"] == [
            {"name": "messed up", "rounds": None},
            {"name": "psychological advantage", "rounds": 2},
        ]
        assert seen(m, "theo", seat)["statuses"] == [{"name": "prone", "rounds": None}]
        thug1 = seen(m, "thug1", seat)
        assert thug1["position"]["x"] == 2 and thug1["statuses"] == [{"name": "held by Theo Marsh", "rounds": None}]
        assert seen(m, "thug3", seat)["statuses"] == [{"name": "unaware", "rounds": None}]
        bars = seen(m, "thug2", seat)["bars"]
        assert bars == ([{"name": "HP", "value": 5, "max": 21}] if seat in (GM, "thug2") else [])
    rule(
        m,
        {"combatant": "theo", "remove_status": "prone"},
        {"combatant": "thug1", "remove_status": "held by Theo Marsh"},
        {"combatant": "dana", "remove_status": "psychological advantage"},
        {"combatant": "thug3", "out": True},
    )
    for seat in seats(m):
        assert seen(m, "theo", seat)["statuses"] == [] and seen(m, "thug1", seat)["statuses"] == []
        assert seen(m, "thug3", seat)["statuses"] == [
            {"name": "unaware", "rounds": None},
            {"name": "out of the fight", "rounds": None},
        ]
    rule(m, {"combatant": "thug3", "out": False})
    assert all(seen(m, "thug3", seat)["statuses"] == [{"name": "unaware", "rounds": None}] for seat in seats(m))
    finish(m)


def test_a_gm_characters_hp_ruling_is_read_in_full_by_the_gm_only() -> None:
    """A GM character's HP are GM-level information (docs/warp.md, "What each seat sees"): the others read that
    the GM ruled on it, not what; a PC's HP are open to the table (WR-11)."""
    m = example("melee_brawl")
    rule(
        m,
        {"combatant": "dana", "bar": "HP", "value": 12},
        {"combatant": "thug2", "bar": "HP", "value": 5},
        reason="an old wound",
    )
    texts = {seat: [e["text"] for e in m.events_since(0, seat, narrate=True)[-1]["events"]] for seat in seats(m)}
    public = "GM ruling (an old wound): Dana Reyes's HP 12 (was 21)."
    assert texts[GM] == texts["thug2"] == [public, "GM ruling (an old wound): Dock Thug in a Beanie's HP 5 (was 21)."]
    for seat in ("dana", "theo", "thug1", SPECTATOR):
        assert texts[seat] == [
            public,
            "GM ruling (an old wound): something of Dock Thug in a Beanie's that you cannot see.",
        ]
        assert "5" not in str(m.events_since(0, seat)[-1]["events"][1])


def test_a_refused_change_says_why_and_changes_nothing() -> None:
    """Every refusal has its code and a sentence; state, version and dice stay (WR-26: HP from -max; WR-24: Messed
    Up follows HP; WR-30: a hold needs a foe within reach; WR-32: desperate defense is an optional rule)."""
    m = example("melee_brawl")
    cases: list[tuple[Json, str]] = [
        ({"combatant": "dana", "bar": "Stun", "value": 3}, "unknown_bar"),
        ({"combatant": "dana", "bar": "HP", "value": 22}, "bad_value"),
        ({"combatant": "dana", "bar": "HP", "value": -22}, "bad_value"),
        ({"combatant": "dana", "status": "messed up", "rounds": None}, "not_adjustable"),
        ({"combatant": "dana", "status": "held by thug3", "rounds": None}, "unknown_status"),  # 9 m away
        ({"combatant": "dana", "status": "desperate defense", "rounds": None}, "unknown_status"),
        ({"combatant": "dana", "status": "prone", "rounds": 2}, "bad_value"),
        ({"combatant": "dana", "status": "psychological advantage", "rounds": None}, "bad_value"),
        ({"combatant": "dana", "remove_status": "prone"}, "not_there"),
        ({"combatant": "dana", "position": "north"}, "bad_position"),
        ({"combatant": "dana", "position": 1e9}, "bad_position"),
        ({"combatant": "dana", "position": True}, "bad_position"),
        ({"combatant": "dana", "out": False}, "not_out"),
    ]
    before, version, draws = RULESET.snapshot(m.state), m.version, m.rng.index
    for change, code in cases:
        result = m.rule(GM, {"type": "ruling", "reason": "", "changes": [change]}, version=version)
        assert isinstance(result, Rejected) and result.code == code and result.message, (change, result)
        assert RULESET.snapshot(m.state) == before and m.version == version and m.rng.index == draws
    rule(m, {"combatant": "thug3", "bar": "HP", "value": 0})
    before = RULESET.snapshot(m.state)
    stand_cases: list[tuple[Json, str]] = [
        ({"combatant": "thug3", "out": False}, "cannot_stand"),
        ({"combatant": "thug3", "out": True}, "already_out"),
        ({"combatant": "thug3", "status": "prone", "rounds": None}, "not_in_fight"),
    ]
    for change, code in stand_cases:
        result = m.rule(GM, {"type": "ruling", "reason": "", "changes": [change]}, version=m.version)
        assert isinstance(result, Rejected) and result.code == code, result
        assert RULESET.snapshot(m.state) == before


def test_wr25_wr26_hp_set_low_downs_kills_or_sends_a_pc_to_deaths_door_and_raised_brings_back() -> None:
    """WR-25: at 0 or less down for the count; WR-26, WR-B10: at -max a PC gives a reason to live and a GM character
    is dead. Raised above -max the PC is no longer dying, above 0 it fights again from the next round."""
    m = example("melee_brawl")
    rule(
        m,
        {"combatant": "theo", "bar": "HP", "value": -21},
        {"combatant": "thug1", "bar": "HP", "value": -21},
        {"combatant": "thug2", "bar": "HP", "value": 0},
    )
    s = state(m)
    assert (s.fighters["theo"].status, s.fighters["thug1"].status, s.fighters["thug2"].status) == (
        "dying",
        "dead",
        "down",
    )
    assert [(d.kind, d.actor) for d in s.decisions][-1] == ("plea", "theo")
    assert told(m, "dana")[2:] == [  # the ruling's two lines, then what follows, as a wound tells it (WR-25, WR-26)
        "Theo Marsh is at death's door.",
        "Dock Thug with a Scar is dead.",
        "Dock Thug in a Beanie is down for the count (hurt, in great pain, maybe broken bones; rarely lethal).",
    ]
    rule(m, {"combatant": "theo", "bar": "HP", "value": 4}, {"combatant": "thug2", "bar": "HP", "value": 3})
    theo, thug2 = s.fighters["theo"], s.fighters["thug2"]
    assert (theo.status, theo.messed, thug2.status) == ("fighting", True, "fighting")
    assert not any(d.kind == "plea" for d in s.decisions) and theo.turn_done
    rule(m, {"combatant": "thug1", "bar": "HP", "value": 10})
    assert s.fighters["thug1"].status == "dead"  # the dead stay dead unless brought back (this project's ruling)
    rule(m, {"combatant": "thug1", "out": False})
    assert s.fighters["thug1"].status == "fighting"
    finish(m)


def test_wr_x4_moved_beyond_every_foe_a_character_has_escaped() -> None:
    """WR-X4: beyond escape_m (100 m) from every foe a character has left the fight; WR-X13: moving leaves cover."""
    m = example("melee_brawl")
    rule(m, {"combatant": "thug3", "position": 150})
    assert state(m).fighters["thug3"].status == "escaped"
    assert told(m) == ["GM ruling: Dock Thug Who Hums is moved to 150 m (from 9 m).", "Dock Thug Who Hums has escaped."]
    assert all(seen(m, "thug3", seat)["statuses"] == [{"name": "escaped", "rounds": None}] for seat in seats(m))
    finish(m)


def test_wr08_an_attack_whose_target_is_taken_out_ends_with_its_defense_window() -> None:
    """WR-08: one defense roll per attack; when the target leaves before it defends, the attack ends unresolved and
    the next character's turn comes at once (no dice needed)."""
    m = example("melee_brawl")
    for _ in range(200):
        window = m.pending()
        if window is None or window.phase == "defend":
            break
        advance(m, 1, "heuristic")
    assert window is not None and window.phase == "defend", "the fight ended before anyone defended"
    target = window.actors[0]
    draws = m.rng.index
    rule(m, {"combatant": target, "out": True})
    assert state(m).attack is None and m.rng.index == draws
    assert m.pending() is not None and target not in m.pending().actors  # type: ignore[union-attr]
    finish(m, "heuristic")


def _all_but_the_last_initiative_choice(m: Match) -> str:
    """Answer every PC's initiative choice but the last (WR-05); the last one's actor."""
    window = m.pending()
    assert window is not None and window.phase == "initiative"
    for actor in [d.actor for d in state(m).decisions][:-1]:
        assert isinstance(m.act(actor, {"type": "initiative", "experience": 0}), Accepted)
    return m.pending().actors[0]  # type: ignore[union-attr]


def test_wr05_the_last_initiative_choice_taken_out_rolls_the_initiative_at_once() -> None:
    """WR-05: initiative is rolled once, at the start; with the last PC's choice gone the roll is made at once, in
    the ruling's record and with the match's dice (WR-B8's order after it), and the first in the order has its
    turn: the rules' own window."""
    m = example("melee_brawl")
    last = _all_but_the_last_initiative_choice(m)
    assert last == "theo"
    draws = m.rng.index
    rule(m, {"combatant": last, "out": True})
    assert told(m) == [
        "GM ruling: Theo Marsh is out of the fight.",
        "Theo Marsh is out of the fight.",
        "Dana Reyes rolls initiative with Fast on Their Feet: 4d6 [5 5 6 6] = 22",
        "Dock Thug with a Scar rolls initiative with the default 2 dice: 2d6 [1 1] = 2",
        "Dock Thug in a Beanie rolls initiative with the default 2 dice: 2d6 [5 6] = 11",
        "Dock Thug Who Hums rolls initiative with the default 2 dice: 2d6 [5 4] = 9",
        "Dana Reyes (22) acts first, then Dock Thug in a Beanie (11), then Dock Thug Who Hums (9), then Dock Thug "
        "with a Scar (2).",
    ]
    drawn = [d.draw for e in m.records[-1].events if isinstance(e, Rolled) for d in e.roll.dice]
    assert drawn == list(range(draws, draws + 10)) and m.rng.index == draws + 10
    s = state(m)
    assert (s.phase, s.order) == ("turn", ["dana", "thug2", "thug3", "thug1"]) and not s.leaving
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("turn", ("dana",))
    rule(m, {"combatant": last, "out": False})  # it missed the roll: it acts last, from the next round
    assert s.order[-1] == last and s.fighters[last].turn_done
    finish(m)


def test_a_ruling_whose_settle_rolled_dice_verifies_replays_and_is_rewound_not_taken_back() -> None:
    """WR-05: the initiative the ruling's settle rolled is a roll of the fight: the log verifies (the dice
    re-derived from the seed), a replay reaches the same state, the GM's own take back is refused (revealed_since:
    the dice were seen), and a rewind to before the ruling works; the same ruling again rolls the same dice."""
    m = example("melee_brawl")
    last = _all_but_the_last_initiative_choice(m)
    before, version = RULESET.snapshot(m.state), m.version
    rule(m, {"combatant": last, "out": True})
    ruled = [e.to_dict() for e in m.records[-1].events]
    assert verify(export_log(m, reveal_seed=True)).ok
    again = m.replayed()
    assert again.ruleset.snapshot(again.state) == RULESET.snapshot(m.state)
    refused = m.take_back(GM)
    assert isinstance(refused, Rejected) and refused.code == "revealed_since"
    assert isinstance(m.rewind(version), Accepted) and RULESET.snapshot(m.state) == before
    rule(m, {"combatant": last, "out": True})
    assert [e.to_dict() for e in m.records[-1].events] == ruled
    assert verify(export_log(m, reveal_seed=True)).ok


def test_wr06_a_holder_is_offered_the_next_turn_when_the_current_character_is_taken_out() -> None:
    """WR-06: a held action may interrupt before every later turn. Dana holds and keeps waiting at the Beanie's
    turn; the GM takes the Beanie out: its turn passes as after an action, and Dana is offered the Hummer's turn."""
    m = example("melee_brawl")
    rule(m, {"combatant": _all_but_the_last_initiative_choice(m), "out": True})
    assert isinstance(m.act("dana", {"type": "hold"}), Accepted)
    assert m.pending().actors == ("dana", "thug2")  # type: ignore[union-attr]
    assert isinstance(m.act("dana", {"type": "wait"}), Accepted)
    assert m.pending().actors == ("thug2",)  # type: ignore[union-attr]
    rule(m, {"combatant": "thug2", "out": True})
    assert told(m) == [
        "GM ruling: Dock Thug in a Beanie is out of the fight.",
        "Dock Thug in a Beanie is out of the fight.",
    ]
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("turn", ("dana", "thug3"))
    finish(m)


def test_the_last_foes_taken_out_end_the_fight_at_once() -> None:
    """The fight ends when one side is left fighting (WR-25, ruling WR-X4): the ruling's record tells each foe
    leaving (out, dead at -max for a GM character: WR-26, escaped beyond escape_m) and then the end, at once; no
    window is left, and a change after the end in the same ruling is refused (match_over), the whole ruling with it."""
    m = example("melee_brawl")
    refused = m.rule(
        GM,
        {
            "type": "ruling",
            "reason": "",
            "changes": [
                {"combatant": "thug1", "out": True},
                {"combatant": "thug2", "out": True},
                {"combatant": "thug3", "out": True},
                {"combatant": "dana", "bar": "HP", "value": 3},
            ],
        },
        version=0,
    )
    assert isinstance(refused, Rejected) and refused.code == "match_over" and m.version == 0
    rule(
        m,
        {"combatant": "thug1", "out": True},
        {"combatant": "thug2", "bar": "HP", "value": -21},
        {"combatant": "thug3", "position": 150},
        reason="the roof",
    )
    assert told(m) == [
        "GM ruling (the roof): Dock Thug with a Scar is out of the fight; Dock Thug Who Hums is moved to 150 m (from "
        "9 m).",
        "GM ruling (the roof): something of Dock Thug in a Beanie's that you cannot see.",
        "Dock Thug with a Scar is out of the fight.",
        "Dock Thug in a Beanie is dead.",
        "Dock Thug Who Hums has escaped.",
        "Victory for the couriers (Dana Reyes and Theo Marsh): Dock Thug Who Hums escaped.",
    ]
    outcome = m.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("couriers", "Dock Thug Who Hums escaped")
    assert m.pending() is None and [e.kind for e in m.records[-1].events][-1] == "ended"
    assert verify(export_log(m)).ok


def test_wr35_the_last_gestalt_roll_taken_out_lets_the_totals_decide_at_once() -> None:
    """WR-35: once every roll is in, the totals decide; when the last PC still to roll is taken out, the totals are
    compared at once in the ruling's record, the losers are beaten and the fight ends."""
    m = example("gestalt_raid")
    assert isinstance(m.act("dana", {"type": "gestalt_roll"}), Accepted)
    assert isinstance(m.act("marcus", {"type": "gestalt_roll"}), Accepted)
    rule(m, {"combatant": "theo", "out": True})
    assert told(m) == [
        "GM ruling: Theo Marsh is out of the fight.",
        "Theo Marsh is out of the fight.",
        "The gestalt totals: the party (Dana Reyes, Marcus Obi and Theo Marsh) 22 against the cult (Cult Enforcer, "
        "Acolyte with a Candlestick and Acolyte with a Knife) 44: victory for the cult (Cult Enforcer, Acolyte with "
        "a Candlestick and Acolyte with a Knife).",
        "Dana Reyes is beaten, out of the fight.",
        "Marcus Obi is beaten, out of the fight.",
        "Victory for the cult (Cult Enforcer, Acolyte with a Candlestick and Acolyte with a Knife): the higher "
        "gestalt total.",
    ]
    outcome = m.outcome()
    assert outcome is not None and outcome.winner == "cult" and m.pending() is None


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_rulings_at_any_moment_then_the_fight_plays_to_its_end(path: Path, policy: str) -> None:
    """A ruling before the first move and another part-way (whoever is due to act taken out, in whatever window:
    initiative, a turn, a held action, a defense, a plea, a gestalt roll), then brought back: the fight ends,
    replays the same and verifies (WR-25, WR-26: the outcome as the rules decide it)."""
    for seed in (1, 2, 3):
        m = affray.load_scenario(path).start(seed=seed)
        first = sorted(m.names())[0]
        rule(m, {"combatant": first, "bar": "HP", "value": 15})
        advance(m, random.Random(seed).randint(0, 15), policy, seed)
        window = m.pending()
        if window is not None:
            gone = window.actors[0] if window.actors[0] in m.names() else first
            if not state(m).fighters[gone].out:
                rule(m, {"combatant": gone, "out": True})
            advance(m, 3, policy, seed)
            if m.outcome() is None and state(m).fighters[gone].hp - state(m).fighters[gone].stun > 0:
                rule(m, {"combatant": gone, "out": False})
        finish(m, policy, seed)


def test_forms_offer_what_the_gm_can_change_now() -> None:
    """The GM's page: HP from -max to max (WR-26, WR-B10), the statuses it may give now (a hold only by a foe within
    reach, WR-30; desperate defense with the optional rule, WR-32), metres on the line (WR-X2), out; a rounds
    choice only for the psychological advantage, in WR-31's words (this round's rolls or the next round's)."""
    m = example("melee_brawl", desperate_defense=True)
    forms = ADJUSTER.forms(m.state)
    assert forms["theo"] == {
        "bars": [{"name": "HP", "min": -21, "max": 21}],
        "statuses": ["prone", "desperate defense", "psychological advantage", "unaware"],
        "position": "line",
        "out": False,
        "rounds": {
            "psychological advantage": [
                {"value": 1, "label": "for this round's rolls"},
                {"value": 2, "label": "for the next round's rolls"},
            ]
        },
    }
    rule(m, {"combatant": "thug1", "position": 2})
    assert texts(ADJUSTER.forms(m.state)["theo"], "statuses")[-1] == "held by Dock Thug with a Scar"


def test_wr30_a_hold_is_named_by_its_holder_and_a_ruling_recorded_with_the_id_still_reads() -> None:
    """WR-30: the view, the GM's forms and the story name a hold by its holder's name; a ruling recorded with the
    holder's id (as before holds were named) gives and removes the same hold, and replays from its record."""
    m = example("melee_brawl")
    rule(m, {"combatant": "thug1", "position": 2}, {"combatant": "thug1", "status": "held by theo", "rounds": None})
    assert m.state.fighters["thug1"].held_by == "theo"
    assert seen(m, "thug1", GM)["statuses"] == [{"name": "held by Theo Marsh", "rounds": None}]
    assert m.replayed().state.fighters["thug1"].held_by == "theo"
    rule(m, {"combatant": "thug1", "remove_status": "held by theo"})
    assert m.state.fighters["thug1"].held_by == "" and seen(m, "thug1", GM)["statuses"] == []


def test_a_ruling_reads_in_warps_words() -> None:
    """A ruling's line: HP with what it was (WR-24), a status, metres on the line (WR-X2), a hold by the holder's
    name (WR-30)."""
    m = example("melee_brawl")
    rule(
        m,
        {"combatant": "dana", "bar": "HP", "value": 10},
        {"combatant": "theo", "status": "prone", "rounds": None},
        {"combatant": "thug1", "position": 2},
        {"combatant": "thug1", "status": "held by theo", "rounds": None},
        reason="the forklift",
    )
    assert [e["text"] for e in m.events_since(0, SPECTATOR, narrate=True)[-1]["events"]] == [
        "GM ruling (the forklift): Dana Reyes's HP 10 (was 21); Theo Marsh is prone; Dock Thug with a Scar is moved "
        "to 2 m (from 4 m); Dock Thug with a Scar is held by Theo Marsh."
    ]
