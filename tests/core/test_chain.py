"""The hash chain over a table's log (core/chain.py): golden values computed from the spec's definition; format 4
chains what every seat may read (docs/table.md, "The security model")."""

from __future__ import annotations

import hashlib
import json
import secrets
from pathlib import Path

import pytest

from affray.api import load_scenario
from affray.core.chain import (
    canonical,
    chain_of,
    chain_problems,
    link,
    public_action,
    public_form,
    record_digest,
    record_salt,
)
from affray.core.engine import GM, SPECTATOR
from affray.core.json import JsonObject
from affray.core.match import Match
from affray.core.rng import seed_from_int
from tests.core.toy import ToyRuleset

ROOT = Path(__file__).parents[2]

RECORD = {"seq": 0, "kind": "action", "seat": "ilse", "actor": "ilse", "action": {"type": "ready"}, "events": [1]}
CANONICAL = b'{"action":{"type":"ready"},"actor":"ilse","kind":"action","seat":"ilse","seq":0}'


def test_a_link_is_sha256_of_the_previous_value_and_the_canonical_record_without_events() -> None:
    assert link("ab" * 32, RECORD) == hashlib.sha256(("ab" * 32).encode() + CANONICAL).hexdigest()


def test_the_chain_starts_at_the_commitment_and_a_kept_head_must_be_on_it() -> None:
    second = {**RECORD, "seq": 1}
    values = chain_of("c0", [RECORD, second])
    assert values == [link("c0", RECORD), link(values[0], second)]
    data = {"commitment": "c0", "chain": values[-1]}
    records = [{**RECORD, "chain": values[0]}, {**second, "chain": values[1]}]
    assert chain_problems(data, records, head=values[0]) == []
    assert chain_problems(data, records, head="c0") == []
    rewritten = [records[0], {**second, "action": {"type": "timeout"}}]
    assert chain_problems({"commitment": "c0"}, rewritten, head=values[1]) == [
        f"the log does not extend the history with head {values[1]}: it was rewritten or is another table's"
    ]
    assert len(chain_problems(data, [records[0], {**records[1], "actor": "tomas"}])) == 2


def _bid_match(key: bytes | None) -> tuple[Match, list[str]]:
    """The toy sealed-bid match on the public seed 7 after a's bid of 2 (face down) and b's of 3 (both revealed),
    its records chained (format 4 under the chain key ``key``, formats 1-3 without one): the chain values."""
    match = Match(ToyRuleset(), {}, {}, seed=seed_from_int(7))
    assert match.act("a", {"type": "bid", "value": 2}).ok and match.act("b", {"type": "bid", "value": 3}).ok
    return match, chain_of(match.commitment, [r.to_dict() for r in match.records], key)


def test_x5_a_face_down_bid_is_found_from_a_format_3_head_and_not_from_a_format_4_one() -> None:
    """X-5, DESIGN.md contract 6. A seat reads the head before a's face-down bid (the commitment) and after it.
    Formats 1-3 chained the record as sent: hashing each possible bid finds a's. Format 4 chains what every seat may
    read, the bid as its seal, with a digest salted from a key revealed only at the end: no candidate gives the
    head."""
    chain = secrets.token_bytes(32)
    for key, found in ((None, [2]), (chain, [])):
        match, values = _bid_match(key)
        record = match.records[0].to_dict(events=False)
        assert [
            v
            for v in (1, 2, 3)
            if link(match.commitment, {**record, "action": {"type": "bid", "value": v}}) == values[0]
        ] == found
    assert public_form(match.records[0].to_dict(), chain)["action"] == {
        "type": "commit",
        "seals": [{"seal": "bid-a", "digest": match.state.bids["a"].digest}],
    }


def test_the_public_form_is_the_record_as_the_spectator_reads_it_when_it_is_made() -> None:
    """What format 4 chains of a face-down commit and of a GM ruling with a hidden change (DESIGN.md contract 6) is
    the action the spectator's log shows right after the record is made; a public record is chained as it is."""
    match = Match(ToyRuleset(), {}, {}, seed=seed_from_int(7))
    assert match.act("a", {"type": "bid", "value": 2}).ok
    assert public_action(match.records[0].to_dict()) == match.redacted_log(SPECTATOR)[0]["action"]
    warp = load_scenario(ROOT / "examples" / "warp" / "melee_brawl.yaml").start(3)
    ruling: JsonObject = {
        "type": "ruling",
        "reason": "",
        "changes": [{"combatant": "thug1", "bar": "HP", "value": 3}, {"combatant": "dana", "bar": "HP", "value": 5}],
    }
    assert warp.rule(GM, ruling).ok
    assert (
        public_action(warp.records[0].to_dict())
        == warp.redacted_log(SPECTATOR)[0]["action"]
        == {
            "type": "ruling",
            "reason": "",
            "changes": [{"combatant": "dana", "bar": "HP", "value": 5}],
            "unseen": ["thug1"],
        }
    )
    assert public_action({**RECORD, "events": []}) == RECORD["action"]


def test_a_format_4_chain_pins_the_whole_record_and_checks_with_the_key_revealed_at_the_end() -> None:
    """The digest pins what the public form hides: a log whose face-down bid was changed afterwards gives another
    chain (the same public form), and a kept head is found only under the right key."""
    key = secrets.token_bytes(32)
    match, values = _bid_match(key)
    records = [{**r.to_dict(), "chain": v} for r, v in zip(match.records, values, strict=True)]
    data = {"commitment": match.commitment, "chain": values[-1]}
    assert chain_problems(data, records, head=values[0], key=key) == []
    changed: list[JsonObject] = [{**records[0], "action": {"type": "bid", "value": 1}}, records[1]]
    assert public_form(changed[0], key)["action"] == public_form(records[0], key)["action"]
    assert chain_problems(data, changed, key=key)[0].startswith("record #0 has chain ")
    assert chain_problems(data, records, head=values[0], key=secrets.token_bytes(32))[-1] == (
        f"the log does not extend the history with head {values[0]}: it was rewritten or is another table's"
    )
    assert record_digest(records[0], key) == hashlib.sha256(record_salt(key, 0) + canonical(records[0])).hexdigest()


def test_a_format_3_log_with_its_chain_still_verifies_through_a_kept_head() -> None:
    """An older table's log (format 3: seals salted from the seed, records chained as sent) is still read and its
    chain checked as it was made; a format-4 log that does not reveal its chain key says so."""
    from affray.core.log import LogFormatError, export_log, verify
    from tests.conformance.common import toy_registered

    toy_registered()
    match, values = _bid_match(None)
    data = json.loads(json.dumps(export_log(match)))
    assert data["version"] == 3 and "chain_key" not in data
    for record, value in zip(data["records"], values, strict=True):
        record["chain"] = value
    data["chain"] = values[-1]
    assert verify(data, head=values[0]).ok
    assert not verify(data, head=values[0][::-1]).ok
    secret = Match(ToyRuleset(), {}, {}, seed=seed_from_int(7), seal_key=secrets.token_bytes(32))
    assert secret.act("a", {"type": "bid", "value": 2}).ok and secret.act("b", {"type": "bid", "value": 3}).ok
    newer = json.loads(json.dumps(export_log(secret)))
    assert newer["version"] == 4 and newer["seal_key"] == secret.seal_key.hex()  # type: ignore[union-attr]
    with pytest.raises(LogFormatError, match="the log does not reveal its chain_key yet, so its hash chain cannot"):
        verify({**newer, "chain": values[-1]})
