"""``affray character new RULESET``: no answer a prompt accepts may crash the builder. Seeded sequences of odd
answers (blank, 0, negative, huge numbers, over-long names, every content id) are fed to each ruleset's builder;
each run either finishes a sheet or stops at the end of the answers (``InputEnded``), never another error.
Rules: WH-31..WH-37 (the WitchHammer builder, with its hat and ledger: WH-C9, WH-C10), WL-03, WR-03, SC-14."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from affray.characters.prompts import InputEnded, Prompts
from affray.characters.sheet import library
from affray.core.plugin import plugin
from affray.core.rng import VerifiableRNG, seed_from_int

ODD = [
    "",
    "0",
    "-1",
    "1",
    "5",
    "y",
    "n",
    "?",
    "done",
    "trade",
    "keep",
    "1000000",
    "99999999",
    "x" * 300,
    "é" * 130,
    "heal=3",
    "a=b",
    "1,2",
    ",",
]


def answers_for(ruleset: str, seed: int) -> list[str]:
    lib = library(ruleset, [])
    ids = [k for section in lib.sections.values() for k in section]
    r = random.Random(seed)
    return ["Someone"] + [r.choice(ODD) if r.random() < 0.7 else r.choice(ids) for _ in range(200)]


def reader(answers: list[str]) -> Callable[[str], str]:
    """Read the answers in turn, then end the input as a closed stdin does."""
    queue = iter(answers)

    def read(label: str) -> str:
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None

    return read


@pytest.mark.parametrize("ruleset", ["witchhammer", "hud", "warp", "spellchrome"])
def test_character_new_no_answer_crashes_the_builder(ruleset: str) -> None:
    """The user's step: ``affray character new RULESET`` answered oddly; 150 seeded runs, none ends in an error
    other than running out of answers, and some finish a sheet."""
    lib, finished = library(ruleset, []), 0
    for seed in range(150):
        prompts = Prompts(
            reader(answers_for(ruleset, seed)), lambda text, style: None, lambda title, columns, rows: None
        )
        try:
            plugin(ruleset).builder()(prompts, lib, VerifiableRNG(seed_from_int(seed)))  # type: ignore[misc]
            finished += 1
        except InputEnded:
            pass
    assert finished > 0
