"""GM rulings in the core (core/adjust.py, Match.rule): a ``gm`` record in the log of record, checked by the
ruleset's adjuster, replayed, verified, redacted where its values are GM-level, taken back like any record. The toy
ruleset's adjuster rules on its one bar, Luck."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from affray.core.adjust import parse
from affray.core.engine import GM, Accepted, Action, Rejected
from affray.core.json import Json
from affray.core.log import export_log, verify
from affray.core.match import Match
from affray.core.plugin import register, unregister
from affray.core.rng import seed_from_int
from tests.core.toy import PLUGIN


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(PLUGIN)
    yield
    unregister("toy")


def match() -> Match:
    return Match(PLUGIN, {}, seed=seed_from_int(4))


def ruling(*changes: Json, reason: str = "fate") -> Action:
    return {"type": "ruling", "reason": reason, "changes": list(changes)}


def luck(m: Match) -> dict[str, int]:
    return {c["id"]: c["bars"][0]["value"] for c in m.view_json(GM)["combatants"]}


def test_a_ruling_changes_the_bar_joins_the_log_and_reads_as_a_sentence_at_every_seat() -> None:
    m = match()
    result = m.rule(GM, ruling({"combatant": "b", "bar": "Luck", "value": 5}), version=0)
    assert isinstance(result, Accepted)
    assert luck(m) == {"a": 3, "b": 5}
    record = m.records[-1]
    assert (record.seq, record.kind, record.seat) == (0, "gm", GM)
    assert record.action == {
        "type": "ruling",
        "reason": "fate",
        "changes": [{"combatant": "b", "bar": "Luck", "value": 5}],
    }
    for seat in ("a", "b", "spectator", GM):
        [entry] = m.events_since(0, seat, narrate=True)
        assert [e["text"] for e in entry["events"]] == ["GM ruling (fate): Bob's Luck 5 (was 3)."]


def test_a_refused_ruling_changes_nothing_and_says_why() -> None:
    m = match()
    before = m.ruleset.snapshot(m.state)
    cases = [
        (ruling({"combatant": "zed", "bar": "Luck", "value": 1}), "unknown_combatant"),
        (ruling({"combatant": "a", "bar": "Grit", "value": 1}), "unknown_bar"),
        (ruling({"combatant": "a", "bar": "Luck", "value": 9}), "bad_value"),
        (ruling({"combatant": "a", "status": "Blessed", "rounds": None}), "not_adjustable"),
        (ruling({"combatant": "a", "bar": "Luck", "value": "4"}), "bad_change"),
        (
            ruling({"combatant": "a", "bar": "Luck", "value": 4}, {"combatant": "a", "bar": "Luck", "value": 5}),
            "bad_change",
        ),
        (ruling(), "bad_change"),
        # the first change is good, the second refused: the first is put back too
        (
            ruling({"combatant": "a", "bar": "Luck", "value": 6}, {"combatant": "b", "bar": "Luck", "value": 7}),
            "bad_value",
        ),
    ]
    for action, code in cases:
        result = m.rule(GM, action, version=0)
        assert isinstance(result, Rejected) and result.code == code, (action, result)
        assert result.message
        assert m.version == 0 and m.ruleset.snapshot(m.state) == before
    refused = m.rule("a", ruling({"combatant": "a", "bar": "Luck", "value": 6}), version=0)
    assert isinstance(refused, Rejected) and refused.code == "gm_only"
    stale = m.rule(GM, ruling({"combatant": "a", "bar": "Luck", "value": 6}), version=3)
    assert isinstance(stale, Rejected) and stale.code == "stale_version"


def test_rulings_replay_and_verify_and_change_the_outcome_as_the_rules_say() -> None:
    m = match()
    assert isinstance(m.rule(GM, ruling({"combatant": "a", "bar": "Luck", "value": 0}), version=0), Accepted)
    assert isinstance(m.act("a", {"type": "bid", "value": 1}, version=1), Accepted)
    assert isinstance(m.act("b", {"type": "bid", "value": 3}, version=2), Accepted)
    outcome = m.outcome()
    assert outcome is not None and outcome.winner == "B"  # 1 + d6 - 3 can never beat 3 + 3
    data: dict[str, Any] = export_log(m)
    assert [r["kind"] for r in data["records"]] == ["gm", "action", "action"]
    report = verify(data)
    assert report.ok, report.problems
    again = m.replayed()
    assert again.ruleset.snapshot(again.state) == m.ruleset.snapshot(m.state)
    forged: dict[str, Any] = export_log(m)
    forged["records"][0]["events"][0]["changes"][0]["was"] = 6
    assert not verify(forged).ok


def test_a_ruling_is_taken_back_like_any_record() -> None:
    m = match()
    m.rule(GM, ruling({"combatant": "b", "bar": "Luck", "value": 1}), version=0)
    assert isinstance(m.take_back("a", version=1), Rejected)  # a player cannot take back the GM's ruling
    assert isinstance(m.take_back(GM, version=1), Accepted)
    assert luck(m) == {"a": 3, "b": 3}
    assert [r.kind for r in m.records] == ["gm", "undo"]
    m.rule(GM, ruling({"combatant": "b", "bar": "Luck", "value": 2}), version=2)
    m.act("a", {"type": "bid", "value": 2}, version=3)
    assert isinstance(m.rewind(2, GM, version=4), Accepted)
    assert luck(m) == {"a": 3, "b": 3}
    report = verify(export_log(m, reveal_seed=True))
    assert report.ok, report.problems


def test_a_gm_level_change_reaches_only_the_gm_and_the_combatants_own_seat() -> None:
    """The toy calls Bob's Luck 6 GM-level (its adjuster's ``hidden``): the other seats read that the GM ruled on
    Bob, not what."""
    m = match()
    m.rule(
        GM,
        ruling(
            {"combatant": "a", "bar": "Luck", "value": 4}, {"combatant": "b", "bar": "Luck", "value": 6}, reason="omens"
        ),
        version=0,
    )
    texts = {
        seat: [e["text"] for e in m.events_since(0, seat, narrate=True)[0]["events"]]
        for seat in ("a", "b", "spectator", GM)
    }
    public = "GM ruling (omens): Alice's Luck 4 (was 3)."
    assert texts[GM] == texts["b"] == [public, "GM ruling (omens): Bob's Luck 6 (was 3)."]
    assert texts["a"] == texts["spectator"] == [public, "GM ruling (omens): something of Bob's that you cannot see."]
    assert "6" not in str(m.events_since(0, "a")[0]["events"][1])


def test_the_shape_of_a_change_is_checked_the_same_for_every_ruleset() -> None:
    assert not isinstance(parse(ruling({"combatant": "a", "position": [1, 2]})), Rejected)
    bad: list[Json] = [
        {"combatant": "a"},
        {"combatant": "a", "bar": "HP"},
        {"combatant": "a", "out": "yes"},
        {"combatant": "a", "status": "Prone", "rounds": 0},
        {"combatant": "a", "bar": "HP", "value": 1, "x": 1},
        {"combatant": "", "out": True},
        "HP",
    ]
    for change in bad:
        assert isinstance(parse(ruling(change)), Rejected), change
    reason, changes = parse(
        ruling(
            {"combatant": "a", "status": "Prone", "rounds": None},  # type: ignore[misc]
            {"combatant": "a", "remove_status": "Stunned"},
            {"combatant": "b", "out": True},
            reason="  a trip  ",
        )
    )
    assert reason == "a trip"
    assert [c.to_dict() for c in changes] == [
        {"combatant": "a", "status": "Prone", "rounds": None},
        {"combatant": "a", "remove_status": "Stunned"},
        {"combatant": "b", "out": True},
    ]
