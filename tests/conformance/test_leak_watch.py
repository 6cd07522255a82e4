"""The incremental leak check (:class:`tests.conformance.common.LeakWatch`) can fail: a secret planted in a record
added since the last check, in a view, in an observation, in an old record when the secret is new, or in an old
record that a reveal opened, is found, exactly as the check from scratch (:func:`leaks`) finds it.

The fight is WitchHammer's yard duel (seed 5): Bruna's first action commits her face-down card "sword_swing" in
two slots (WH-11), Tomas's third reveals them; the seats are bruna, tomas, the GM and a spectator."""

from __future__ import annotations

import json
from typing import Any

import pytest

from affray.core.engine import SPECTATOR
from affray.core.events import Committed
from affray.core.json import Json
from affray.core.match import Match
from affray.core.records import Record
from affray.core.rng import FastRNG
from tests.conformance.common import ROOT, LeakWatch, leaks, load, random_step, secrets

#: Bruna's first action, hidden from every seat but hers until Tomas's third action reveals it.
BRUNAS_COMMIT = {"type": "commit", "cards": ["sword_swing"]}


def _duel_after(steps: int) -> tuple[Match, FastRNG, LeakWatch]:
    """The yard duel after ``steps`` actions, watched (checked clean) after each of them."""
    match = load(ROOT / "examples" / "witchhammer" / "yard_duel.yaml").start(5)
    rng, watch = FastRNG(5), LeakWatch(match)
    for _ in range(steps):
        random_step(match, rng)
        assert watch.check() == []
    return match, rng, watch


def _seen_by_all_but_bruna(secret: Any) -> list[str]:
    needle = json.dumps(secret, sort_keys=True)
    return [f"seat {seat} can see bruna's secret {needle}" for seat in ("gm", SPECTATOR, "tomas")]


def _plant_record(match: Match, action: dict[str, Any]) -> None:
    """A record in the open (a Tomas action no one's redaction hides) carrying ``action``."""
    match.records.append(Record(len(match.records), "tomas", "tomas", action, []))


def test_a_secret_in_a_record_added_since_the_last_check_is_found() -> None:
    match, _, watch = _duel_after(1)
    card = secrets(match)[0]
    assert card[0] == "bruna"
    _plant_record(match, {"type": "note", "text": card[1]})
    assert watch.check() == _seen_by_all_but_bruna(card[1]) == leaks(match)
    assert watch.check() == _seen_by_all_but_bruna(card[1])  # a leak found is found again at the next check


def test_a_secret_in_one_seats_view_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    match, _, watch = _duel_after(1)
    card = secrets(match)[0][1]
    view_json = match.view_json

    def planted(seat: str) -> dict[str, Any]:
        return {**view_json(seat), "planted": card} if seat == SPECTATOR else view_json(seat)

    monkeypatch.setattr(match, "view_json", planted)
    needle = json.dumps(card, sort_keys=True)
    assert watch.check() == [f"seat {SPECTATOR} can see bruna's secret {needle}"] == leaks(match)


def test_a_secret_in_a_policys_observation_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    match, _, watch = _duel_after(1)
    card = secrets(match)[0][1]
    observe = match.observe
    monkeypatch.setattr(
        match,
        "observe",
        lambda actor: {"seen": observe(actor), "planted": card} if actor == "tomas" else observe(actor),
    )
    needle = json.dumps(card, sort_keys=True)
    assert watch.check() == [f"seat tomas can see bruna's secret {needle}"] == leaks(match)


def test_a_new_secret_already_in_an_old_record_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    match, rng, watch = _duel_after(1)
    hunch = {"bruna_hunch": "a value in the log before it is anyone's secret"}
    _plant_record(match, {"type": "note", "text": hunch})
    assert watch.check() == []
    random_step(match, rng)
    assert watch.check() == []
    base = match.ruleset.secrets
    monkeypatch.setattr(match.ruleset, "secrets", lambda state: [*base(state), ("bruna", hunch)])
    assert watch.check() == _seen_by_all_but_bruna(hunch) == leaks(match)


def test_a_secret_in_an_old_record_a_reveal_opened_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bruna's commit (record 0) is sealed for the other seats until Tomas's third action reveals it; then its
    redaction opens. Made to count as still secret, it is found in that old record, as the check from scratch
    finds it, and in no record the reveal added."""
    match, rng, watch = _duel_after(2)
    base = match.ruleset.secrets
    monkeypatch.setattr(match.ruleset, "secrets", lambda state: [*base(state), ("bruna", BRUNAS_COMMIT)])
    assert watch.check() == []
    before = len(match.records)
    random_step(match, rng)
    assert match.records[0].action == BRUNAS_COMMIT and "v1.bruna.slot1" in match.revealed
    needle = json.dumps(BRUNAS_COMMIT, sort_keys=True)
    assert needle not in json.dumps(match.events_since(before, SPECTATOR), sort_keys=True)
    assert watch.check() == _seen_by_all_but_bruna(BRUNAS_COMMIT) == leaks(match)


def test_the_watch_and_the_check_from_scratch_agree_over_a_whole_fight(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every face-down card the duel ever had and every sealed commit's action, kept secret to the end: after each
    step the watch reports exactly what the check from scratch reports, through reveals, new cards and a growing
    log; the revealed commits show, so the two agree on leaks, not only on clean checks."""
    match = load(ROOT / "examples" / "witchhammer" / "yard_duel.yaml").start(5)
    rng, watch = FastRNG(5), LeakWatch(match)
    ever: list[tuple[str, Any]] = []
    base = match.ruleset.secrets

    def remembered(state: Any) -> list[tuple[str, Any]]:
        commits = [(r.actor, r.action) for r in match.records if any(isinstance(e, Committed) for e in r.events)]
        ever.extend(s for s in [*base(state), *commits] if s not in ever)
        return list(ever)

    monkeypatch.setattr(match.ruleset, "secrets", remembered)
    found = []
    for _ in range(60):
        report = watch.check()
        assert report == leaks(match)
        found += report
        if match.pending() is None:
            break
        random_step(match, rng)
    assert _seen_by_all_but_bruna(BRUNAS_COMMIT)[0] in found


#: A WaRP GM ruling: a GM character's HP (GM-level, the adjuster's ``hidden``) and a PC's HP (public).
HIDDEN_RULING: dict[str, Json] = {
    "type": "ruling",
    "reason": "he was hurt before",
    "changes": [{"combatant": "thug1", "bar": "HP", "value": 3}, {"combatant": "dana", "bar": "HP", "value": 5}],
}


def test_a_hidden_ruling_is_left_out_of_every_other_seats_record_action_and_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DESIGN.md contract 6, docs/table.md "GM rulings": a record is redacted for a seat as a whole. The GM sets a
    WaRP extra's HP (GM-level) and a PC's: a seat that may not see the extra's numbers reads the ruling's action
    without that change, as it reads its event, and names only the combatant (``unseen``); the GM's seat and the
    extra's read it whole. Shown as it was taken (the record's action sent to every seat, as before), the leak
    check finds the change in the action."""
    from affray.core import seatlog

    match = load(ROOT / "examples" / "warp" / "melee_brawl.yaml").start(3)
    assert match.rule("gm", HIDDEN_RULING).ok
    assert leaks(match) == []
    for seat in ("dana", SPECTATOR, "theo", "thug2"):
        record = match.redacted_log(seat)[0]
        assert record["action"] == {
            "type": "ruling",
            "reason": "he was hurt before",
            "unseen": ["thug1"],
            "changes": [{"combatant": "dana", "bar": "HP", "value": 5}],
        }, seat
        assert [e["changes"] for e in record["events"]] == [
            [{"combatant": "dana", "bar": "HP", "value": 5, "was": 21}],
            [],
        ]
    for seat in ("gm", "thug1"):
        assert match.redacted_log(seat)[0]["action"] == HIDDEN_RULING
    monkeypatch.setattr(seatlog, "shown_action", lambda entry, viewer, hidden: entry.action)
    needle = json.dumps({"bar": "HP", "combatant": "thug1", "value": 3}, sort_keys=True)
    assert leaks(match) == [
        f"seat {seat} can see thug1's secret {needle}" for seat in ("dana", SPECTATOR, "theo", "thug2", "thug3")
    ]
