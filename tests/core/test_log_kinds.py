"""The log's shape check (core/logcheck.py) and the kinds of record: it admits every kind a table's store keeps
(store/rows.py ``RECORD_KINDS``: an action, an undo, a GM ruling) and the kinds the match logs (core/records.py), and
refuses any other kind with a sentence naming the field, the kinds it reads and what it found. Rule: X-1; DESIGN.md
contract 4."""

from __future__ import annotations

import pytest

from affray.core.json import Json, JsonObject
from affray.core.logcheck import FORMAT, KINDS, LogFormatError, check_log
from affray.core.records import ACTION, RULING, UNDO
from affray.store.rows import RECORD_KINDS

ACTIONS: dict[str, JsonObject] = {
    ACTION: {"type": "ready"},
    UNDO: {"type": "undo", "to": 0},
    RULING: {"type": "ruling", "reason": "", "changes": []},
}


def log_of(kind: Json) -> JsonObject:
    """A log of the current format whose one record is of ``kind`` (its fields otherwise well formed)."""
    action: JsonObject = ACTIONS.get(kind, {"type": "ready"}) if isinstance(kind, str) else {"type": "ready"}
    return {
        "format": FORMAT,
        "version": 3,
        "ruleset": "toy",
        "setup": {"name": "duel"},
        "options": {},
        "commitment": "ab" * 32,
        "seed": None,
        "records": [{"seq": 0, "kind": kind, "seat": "gm", "actor": "", "action": action, "events": []}],
    }


def test_x1_the_log_reads_every_kind_of_record_the_store_and_the_match_keep() -> None:
    assert set(RECORD_KINDS) == set(KINDS) == {ACTION, UNDO, RULING}
    for kind in RECORD_KINDS:
        data = log_of(kind)
        assert check_log(data, "fight.json") is data


@pytest.mark.parametrize("kind", ["ruling", "GM", "", 3, ["gm"]])
def test_x1_a_kind_the_log_does_not_hold_is_refused_with_a_sentence(kind: Json) -> None:
    with pytest.raises(LogFormatError) as refused:
        check_log(log_of(kind), "fight.json")
    assert str(refused.value) == (
        f"fight.json: records[0].kind: the kind of record, 'action', 'undo' or 'gm' (a GM ruling) (got {kind!r})"
    )
