"""The hash chain's public form over every example and the toy (docs/table.md, "The security model"; DESIGN.md
contract 6): what log format 4 chains of each record is the action the least-privileged seat (the spectator) reads
of it when it is made, nothing revealed yet, the same whether built from the match's records or from a log's JSON;
and the chain a table builds record by record is the one ``affray verify`` rebuilds from the log."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

from affray.core.chain import chain_of, chain_value, public_action
from affray.core.engine import Viewer
from affray.core.rng import FastRNG
from affray.core.seatlog import sealed_to, shown_action
from tests.conformance.common import cases, load, random_step, scenario_id

STEPS = 300


@pytest.mark.parametrize("case", cases(), ids=scenario_id)
def test_the_public_form_is_the_spectators_record_when_it_is_made(case: Path | str) -> None:
    match, rng = load(case).start(11), FastRNG(11)
    for _ in range(STEPS):  # the first steps of a random playout (every kind of record a fight makes early on)
        if not random_step(match, rng):
            break
    spectator = Viewer.spectator()
    logged = json.loads(json.dumps([record.to_dict() for record in match.records]))
    for record, entry in zip(match.records, logged, strict=True):
        read = shown_action(record, spectator, sealed_to(record, spectator, frozenset()))
        assert public_action(entry) == read, record.seq
    key = secrets.token_bytes(32)
    head, values = match.commitment, []
    for record in match.records:
        head = chain_value(head, record, key)
        values.append(head)
    assert values == chain_of(match.commitment, logged, key)
