"""The hash chain over a table's log (core/chain.py): golden values computed from the spec's definition."""

from __future__ import annotations

import hashlib

from affray.core.chain import chain_of, chain_problems, link

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
        f"the log does not extend the history with head {values[1]}: it was rewritten or is another table's"]
    assert len(chain_problems(data, [records[0], {**records[1], "actor": "tomas"}])) == 2
