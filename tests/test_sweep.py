"""The quick run's sample of a sweep (tests/sweep.py): every ruleset still swept, a third of its examples, the
same cases every time; ``make test`` takes every case."""

from __future__ import annotations

import pytest

from tests import sweep
from tests.conformance.common import example_scenarios
from tests.sweep import EVERY, rounds, ruleset_of, sample


def test_the_quick_sample_keeps_each_rulesets_first_example_and_every_third_after_it() -> None:
    examples = [*example_scenarios(), "toy"]
    quick = sample(examples, quick=True)
    assert sample(examples, quick=False) == examples
    assert (
        {ruleset_of(c) for c in quick}
        == {ruleset_of(c) for c in examples}
        == {"hud", "spellchrome", "warp", "witchhammer", "toy"}
    )
    for ruleset in ("hud", "spellchrome", "warp", "witchhammer"):
        mine = [c for c in examples if ruleset_of(c) == ruleset]
        assert [c for c in quick if ruleset_of(c) == ruleset] == mine[::EVERY]
    assert sample(examples, quick=True) == quick  # fixed, not random


def test_groups_come_from_the_examples_folder_or_the_case_itself() -> None:
    assert sample(["a/1", "a/2", "a/3", "a/4", "b/1"], quick=True) == ["a/1", "a/4", "b/1"]
    assert ruleset_of("witchhammer/mill_ambush") == "witchhammer"


def test_rounds_are_the_full_count_unless_the_run_is_quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep, "QUICK", False)
    assert rounds(50, 10) == 50
    monkeypatch.setattr(sweep, "QUICK", True)
    assert rounds(50, 10) == 10
