"""The match: log of record, replay, undo, rejections, redaction and verification (DESIGN.md 2, 4, 5, 6)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.core.engine import Rejected, Viewer
from affray.core.json import JsonObject
from affray.core.log import LogFormatError, export_log, import_log, read_log, verify
from affray.core.match import Match
from affray.core.rng import seed_from_int
from affray.core.sealed import SealBroken
from tests.core.rules_bump import run_rules_version
from tests.core.toy import ToyRuleset

EXAMPLE = Path(__file__).parents[2] / "examples" / "hud" / "nerdified_duel.yaml"


def played(seed: int = 5) -> Match:
    scenario = affray.load_scenario(EXAMPLE)
    match = scenario.start(seed)
    affray.play(match, scenario.policies(match))
    return match


def event_dicts(match: Match) -> list[JsonObject]:
    return [e.to_dict() for e in match.events()]


def test_replay_reproduces_state_and_every_event() -> None:
    match = played()
    again = match.replayed()
    assert event_dicts(again) == event_dicts(match)
    assert match.ruleset.snapshot(again.state) == match.ruleset.snapshot(match.state)
    assert again.outcome() == match.outcome()


def test_log_round_trips_through_json(tmp_path: Path) -> None:
    match = played(9)
    path = tmp_path / "log.json"
    affray.write_log(match, path)
    data = read_log(path)
    assert data["format"] == "affray-match" and data["version"] == 3
    restored = import_log(data)
    assert event_dicts(restored) == event_dicts(match)
    assert export_log(restored) == export_log(match)


def test_verify_accepts_an_honest_log() -> None:
    report = verify(export_log(played()))
    assert report.ok and report.rolls_checked > 10 and report.actions_checked > 5


def test_verify_catches_a_changed_roll() -> None:
    data: dict[str, Any] = export_log(played())
    entry = next(e for e in data["records"] if any(ev["type"] == "rolled" for ev in e["events"]))
    event = next(ev for ev in entry["events"] if ev["type"] == "rolled")
    die = event["roll"]["dice"][0]
    die["value"] = die["value"] % die["sides"] + 1
    report = verify(data)
    assert not report.ok
    assert f"draw {die['draw']} on a d{die['sides']} is recorded as {die['value']}" in report.problems[0]


def test_verify_catches_a_changed_action() -> None:
    data: dict[str, Any] = export_log(played())
    index = next(i for i, e in enumerate(data["records"]) if e["action"]["type"] == "declare")
    data["records"][index]["action"] = {
        "type": "declare",
        "plan": [{"type": "defense"}, {"type": "defense"}],
        "additional": False,
    }
    report = verify(data)
    assert not report.ok and f"action #{index}" in report.problems[0]


def test_verify_catches_a_swapped_seed() -> None:
    data: dict[str, Any] = export_log(played())
    data["seed"] = seed_from_int(999).hex()
    report = verify(data)
    assert report.problems == ["the seed does not match the commitment published at the start of the match"]


def test_an_unrevealed_seed_cannot_be_verified() -> None:
    scenario = affray.load_scenario(EXAMPLE)
    data: dict[str, Any] = export_log(scenario.start(1))
    assert data["seed"] is None
    with pytest.raises(LogFormatError, match="does not reveal its seed"):
        verify(data)


def test_read_log_refuses_other_files(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "other"}))
    with pytest.raises(LogFormatError, match="not an affray match log"):
        read_log(path)
    path.write_text("{")
    with pytest.raises(LogFormatError, match="not JSON"):
        read_log(path)


def test_rejected_action_changes_nothing() -> None:
    """Contract 2: validate completely, then apply; a rejection leaves state, RNG and log as they were."""
    scenario = affray.load_scenario(EXAMPLE)
    match = scenario.start(3)
    before, draws = copy.deepcopy(match.ruleset.snapshot(match.state)), match.rng.index
    window = match.pending()
    assert window is not None
    other = next(a for a in match.seats if a not in window.actors and a != "gm")
    assert match.act(other, {"type": "declare", "plan": [], "additional": False}).code == "not_your_turn"  # type: ignore[union-attr]
    bad = match.act(window.actors[0], {"type": "declare", "plan": [{"type": "defense"}], "additional": False})
    assert isinstance(bad, Rejected) and bad.code == "wrong_action_count"
    assert match.submit("vesna", "hald", {"type": "declare"}).code == "not_your_seat"  # type: ignore[union-attr]
    assert match.act(window.actors[0], {"kind": "x"}).code == "bad_action"  # type: ignore[union-attr]
    assert match.ruleset.snapshot(match.state) == before and match.rng.index == draws and not match.log


def _played(steps: int, seed: int = 11) -> Match:
    match = affray.load_scenario(EXAMPLE).start(seed)
    for _ in range(steps):
        window = match.pending()
        assert window is not None
        actor = window.actors[0]
        match.act(actor, match.legal(actor)[0].action)
    return match


def test_a_gm_rewind_is_a_record_and_the_same_action_rolls_the_same_dice() -> None:
    """Contract 4, undo as a record: the GM takes the match back; the log of record keeps what happened and the undo
    record; since each die is tied to its draw index, the same action replayed rolls the same dice."""
    match = _played(6)
    last = match.log[-1]
    events_before = [e.to_dict() for e in last.events]
    assert match.version == 6
    assert match.rewind(last.seq).ok
    assert match.version == 7 and len(match.records) == 7 and len(match.log) == 5
    assert match.records[-1].to_dict() == {
        "seq": 6,
        "kind": "undo",
        "seat": "gm",
        "actor": "",
        "action": {"type": "undo", "to": 5},
        "events": [],
    }
    assert match.act(last.actor, last.action).ok
    assert [e.to_dict() for e in match.log[-1].events] == events_before
    assert match.replayed().ruleset.snapshot(match.replayed().state) == match.ruleset.snapshot(match.state)


def test_a_player_takes_back_only_its_own_last_action_that_revealed_nothing() -> None:
    """Contract 4, take-back: taking back may never show the coming dice: an action that rolled is refused; so is
    someone else's; the GM may rewind any of them. The toy's face-down bid revealed nothing: it can be taken back."""
    match = _played(1)
    while not any(e.kind == "rolled" for e in match.log[-1].events):
        window = match.pending()
        assert window is not None
        match.act(window.actors[0], match.legal(window.actors[0])[0].action)
    last, version = match.log[-1], match.version
    refused = match.take_back(last.seat)
    assert isinstance(refused, Rejected) and refused.code == "revealed_since" and match.version == version
    other = next(s for s in match.seat_names() if s not in (last.seat, "gm"))
    assert match.take_back(other).code == "not_your_action"  # type: ignore[union-attr]
    assert match.rewind(2, "vesna").code == "gm_only"  # type: ignore[union-attr]
    toy = Match(ToyRuleset(), {}, {}, seed=seed_from_int(4))
    assert toy.act("a", {"type": "bid", "value": 3}).ok
    assert toy.take_back("a").ok and toy.version == 2 and toy.log == []
    assert toy.act("a", {"type": "bid", "value": 1}).ok and toy.version == 3


def test_a_stale_version_is_refused_and_changes_nothing() -> None:
    """Versioned matches: an action names the version it was chosen at; a stale one is refused."""
    match = _played(3)
    window = match.pending()
    assert window is not None
    actor = window.actors[0]
    action = match.legal(actor)[0].action
    before, draws = match.ruleset.snapshot(match.state), match.rng.index
    stale = match.act(actor, action, version=2)
    assert isinstance(stale, Rejected) and stale.code == "stale_version"
    assert match.ruleset.snapshot(match.state) == before and match.rng.index == draws and match.version == 3
    assert match.act(actor, action, version=3).ok and match.version == 4


def test_events_since_give_a_seat_its_redacted_new_entries() -> None:
    """Versioned matches: a seat's new log entries from a version on, without re-walking the log."""
    toy = Match(ToyRuleset(), {}, {}, seed=seed_from_int(5))
    toy.act("a", {"type": "bid", "value": 2})
    assert toy.events_since(0, "b") == toy.redacted_log("b")
    assert toy.events_since(0, "b")[0]["action"]["type"] == "commit"
    toy.act("b", {"type": "bid", "value": 1})
    new = toy.events_since(1, "b")
    assert [e["seq"] for e in new] == [1] and new[0]["action"] == {"type": "bid", "value": 1}


def test_a_version_1_log_still_verifies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Exported logs are versioned; this affray reads version 1 logs (actions only) as well. Such a log records no
    rules version, so it was made under version 1 of its rules: run those (a log of other rules is refused whole,
    tests/core/test_rules_version_logs.py)."""
    run_rules_version(monkeypatch, "hud", "1")
    match = played(9)
    data = json.loads(json.dumps(export_log(match)))
    old = {k: v for k, v in data.items() if k not in ("records", "affray_version", "rules_version")}
    old["version"] = 1
    old["actions"] = [{k: v for k, v in r.items() if k != "kind"} for r in data["records"]]
    report = verify(old)
    assert report.ok and report.actions_checked == len(match.log)
    assert [e.to_dict() for e in import_log(old).events()] == [e.to_dict() for e in match.events()]


def test_sealed_commits_are_hidden_until_revealed_and_checked() -> None:
    """Contract 6: others see that a seat committed and a hash, never what, until the reveal."""
    rules = ToyRuleset()
    match = Match(rules, {}, {}, seed=seed_from_int(1))
    assert match.act("a", {"type": "bid", "value": 3}).ok
    view_b = rules.view(match.state, match.viewer("b")).detail
    assert view_b.bids["a"]["committed"] and "value" not in view_b.bids["a"]
    assert rules.view(match.state, match.viewer("a")).detail.bids["a"] == {"value": 3}
    # the GM does not open a player's face-down bid
    assert "value" not in rules.view(match.state, match.viewer("gm")).detail.bids["a"]
    log_b = match.redacted_log("b")
    assert log_b[0]["action"]["type"] == "commit" and "value" not in json.dumps(log_b)
    assert match.redacted_log("a")[0]["action"] == {"type": "bid", "value": 3}
    assert match.act("b", {"type": "bid", "value": 1}).ok
    assert match.redacted_log("spectator")[0]["action"] == {"type": "bid", "value": 3}


def test_a_tampered_commit_breaks_the_reveal() -> None:
    match = Match(ToyRuleset(), {}, {}, seed=seed_from_int(2))
    match.act("a", {"type": "bid", "value": 1})
    match.state.bids["a"].payload = {"value": 3}
    with pytest.raises(SealBroken):
        match.act("b", {"type": "bid", "value": 2})


def test_viewers_for_seats() -> None:
    match = Match(ToyRuleset(), {}, {}, seed=seed_from_int(3))
    assert match.viewer("gm").omniscient and match.viewer("a").controls == frozenset({"a"})
    assert match.viewer("spectator") == Viewer.spectator()


def test_a_format_2_log_with_sealed_commits_still_verifies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Log format 3 salts seals from their own stream; a format 2 log (WitchHammer, recorded before the
    change, its salts drawn from the dice stream) still verifies, and replays to the very events it holds. It was
    recorded under WitchHammer's rules version 1, which this test runs (the format is what is tested here)."""
    run_rules_version(monkeypatch, "witchhammer", "1")
    data = json.loads((Path(__file__).parents[1] / "data" / "witchhammer_format2.json").read_text())
    assert data["version"] == 2 and any(e["type"] == "committed" for r in data["records"] for e in r["events"])
    report = verify(data)
    assert report.ok and report.actions_checked == len(data["records"]) == 6
    replayed = import_log(data)
    assert replayed.salts == "dice"
    logged = [e for r in data["records"] for e in r["events"]]
    assert [e.to_dict() for r in replayed.records for e in r.events] == logged
    assert export_log(replayed)["version"] == 2  # re-exported in the format its salts need


def test_seal_salts_come_from_their_own_stream() -> None:
    """Log format 3: a seal draws no die, so a match that seals draws the dice of one that does not."""
    from affray.core.rng import FastRNG, VerifiableRNG
    from affray.core.sealed import Sealed

    loud, quiet = VerifiableRNG(seed_from_int(3)), VerifiableRNG(seed_from_int(3))
    first = Sealed.commit("a", "s1", {"card": "jab"}, loud)
    Sealed.commit("a", "s2", {"card": "jab"}, loud)
    assert loud.index == 0 and loud.salt_index == 2 and first.salt != Sealed.commit("a", "s1", {}, loud).salt
    assert [loud.die(20) for _ in range(5)] == [quiet.die(20) for _ in range(5)]
    silent = Sealed.commit("a", "s1", {"card": "jab"}, quiet, loud=False)
    assert (silent.salt, silent.digest, silent.reveal()) == (b"", "", {"card": "jab"}) and quiet.salt_index == 0
    fast_a, fast_b = FastRNG(9), FastRNG(9)
    fast_a.salt()
    assert [fast_a.die(6) for _ in range(8)] == [fast_b.die(6) for _ in range(8)]
