"""Logs made under another version of their ruleset's rules (core/log.py, core/plugin.py ``rules_changed``;
docs/table.md, "Tables and logs of other rules"): every log records ``rules_version``; ``affray verify`` of a log of
other rules checks its seed and dice but refuses to replay it, with a sentence naming both versions; ``affray
replay`` (``--unverified`` too) and ``import_log`` refuse it; a log without a version counts as "1"; a log of the
version this affray runs verifies. Rule: X-1; DESIGN.md contract 4.

The versions are set per test (:func:`tests.core.rules_bump.run_rules_version`): WitchHammer's rules run as version
"2", whatever the plug-in record says today."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from affray.core.log import LogFormatError, import_log, read_log, verify
from tests.cli.inproc import run_cli
from tests.core.rules_bump import run_rules_version

SCENARIO = "examples/witchhammer/yard_duel.yaml"


def fought(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A yard duel fought to its end by its policies, its log written by ``affray fight --log``."""
    path = tmp_path / "yard.json"
    code, _, err = run_cli(["fight", SCENARIO, "--seed", "7", "--log", str(path)])
    assert code == 0, err
    data: dict[str, Any] = json.loads(path.read_text())
    return path, data


def rewritten(path: Path, data: dict[str, Any], **changes: Any) -> Path:
    """The log ``data`` with ``changes`` (a change to None drops the field), as a new file beside ``path``."""
    edited = {k: v for k, v in {**data, **changes}.items() if v is not None}
    out = path.with_name(f"edited-{len(list(path.parent.iterdir()))}.json")
    out.write_text(json.dumps(edited))
    return out


def one_line(text: str) -> str:
    return " ".join(text.split())


def test_x1_a_log_records_the_rules_version_it_was_made_under_and_verifies_under_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run_rules_version(monkeypatch, "witchhammer", "2")
    path, data = fought(tmp_path)
    assert data["rules_version"] == "2"
    code, out, err = run_cli(["verify", str(path)])
    assert code == 0, err
    assert one_line(out).startswith("verified: seed matches its commitment;")


def test_x1_verify_refuses_a_log_of_other_rules_after_checking_its_seed_and_dice(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run_rules_version(monkeypatch, "witchhammer", "2")
    path, data = fought(tmp_path)
    dice = verify(data).rolls_checked
    assert dice > 0
    old = rewritten(path, data, rules_version="1")
    code, out, err = run_cli(["verify", str(old)])
    assert code == 1 and out == ""
    assert one_line(err) == (
        f"error: {old}: this log was made under witchhammer rules version 1; this affray runs version 2: its seed "
        f"matches its commitment and its {dice} dice re-derive from it, but its actions are not replayed (an affray "
        f"that runs witchhammer rules version 1 replays it)"
    )
    # A die that does not come from the seed is still found: the sentence then claims nothing checked out.
    records = json.loads(json.dumps(data["records"]))
    roll = next(e["roll"] for r in records for e in r["events"] if e["type"] == "rolled")
    roll["dice"][0]["value"] = roll["dice"][0]["value"] % roll["dice"][0]["sides"] + 1
    report = verify(json.loads(rewritten(path, data, rules_version="1", records=records).read_text()))
    assert len(report.problems) == 2 and "is recorded as" in report.problems[0]
    assert report.problems[1] == (
        "this log was made under witchhammer rules version 1; this affray runs version 2: "
        "its actions are not replayed (an affray that runs witchhammer rules version 1 "
        "replays it)"
    )
    assert report.actions_checked == 0


def test_x1_a_log_without_a_rules_version_counts_as_version_1(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    run_rules_version(monkeypatch, "witchhammer", "1")
    path, data = fought(tmp_path)
    unrecorded = rewritten(path, data, rules_version=None)
    assert "rules_version" not in read_log(unrecorded)
    assert run_cli(["verify", str(unrecorded)])[0] == 0  # version 1 runs: it replays
    run_rules_version(monkeypatch, "witchhammer", "2")
    code, _, err = run_cli(["verify", str(unrecorded)])
    assert code == 1 and "this log was made under witchhammer rules version 1; this affray runs version 2" in err


def test_x1_replay_and_import_refuse_a_log_of_other_rules_unverified_or_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run_rules_version(monkeypatch, "witchhammer", "2")
    path, data = fought(tmp_path)
    old = rewritten(path, data, rules_version="1")
    sentence = (
        f"error: {old}: this log was made under witchhammer rules version 1; this affray runs version 2: it "
        f"is not replayed (an affray that runs witchhammer rules version 1 replays it)"
    )
    for args in (["replay", str(old)], ["replay", "--unverified", str(old)]):
        code, out, err = run_cli(args)
        assert (code, out, one_line(err)) == (2, "", sentence), args
    with pytest.raises(
        LogFormatError,
        match=r"^this log was made under witchhammer rules version 1; this affray "
        r"runs version 2: it is not replayed",
    ):
        import_log(read_log(old))
    assert import_log(read_log(path)).outcome() is not None  # the current one replays


def test_x1_a_rules_version_that_is_not_text_is_refused_by_the_shape_check(tmp_path: Path) -> None:
    path, data = fought(tmp_path)
    with pytest.raises(
        LogFormatError,
        match=r"rules_version: the version of the ruleset's rules the log was made "
        r"under \(text\) \(got 2\)",
    ):
        read_log(rewritten(path, data, rules_version=2))
