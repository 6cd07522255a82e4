"""What every ruleset's narration must hold (core/narration.py, core/seatlog.py): each event's and record's ``text``
at every seat reads as a sentence, with names and never ids, and without the marks of a field dump."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import affray
from affray.ai.base import Policy, RandomPolicy
from affray.core.engine import GM, SPECTATOR
from affray.core.match import Match
from affray.core.rng import FastRNG

MARKS = ("{", "[", "_", "None")
_WORD = re.compile(r"[A-Za-z0-9_'-]+")


def played(path: Path, seed: int, kind: str) -> Match:
    """``path`` played to its end by ``kind`` policies: ``random``, ``heuristic`` (the GM's random) or ``scenario``
    (each combatant's controller)."""
    scenario = affray.load_scenario(path)
    match = scenario.start(seed)
    policies: dict[str, Policy]
    if kind == "random":
        policies = {a: RandomPolicy() for a in match.controllers}
    elif kind == "scenario":
        policies = dict(scenario.policies(match))
    else:
        policies = {
            **scenario.policies(match, {a: "heuristic" for a in match.controllers if a != GM}),
            GM: RandomPolicy(),
        }
    affray.play(match, policies, FastRNG(seed))
    assert match.outcome() is not None
    return match


def seats(match: Match) -> list[str]:
    """Every player seat, the GM's and a spectator's."""
    return sorted({*match.seats.values(), GM, SPECTATOR})


def told(match: Match, seat: str) -> list[str]:
    """Every sentence ``seat`` reads: each record's non-empty ``text``, and each event's (a roll's without its dice,
    which must end its ``text``); and, as the narrator tells them, the setup's events (a roll's lead)."""
    story = match.story()
    out = [match.narrator.lead(e, story) for e in match.setup_events]
    for record in match.events_since(0, seat, narrate=True):
        if record["text"]:
            out.append(record["text"])
        for event in record["events"]:
            text = event["text"]
            if event["type"] == "rolled":
                assert text.startswith(event["lead"] + ": "), (text, event["lead"])
                text = event["lead"]
            out.append(text)
    return out


def problems(texts: Iterable[str], ids: set[str]) -> list[str]:
    """The sentences that show an id (whole words, case-sensitive) or a mark of a field dump (:data:`MARKS`)."""
    bad = []
    for text in texts:
        shown = ids & set(_WORD.findall(text))
        marks = [m for m in MARKS if m in text]
        if shown or marks or not text.strip():
            bad.append(f"{text!r}: {sorted(shown) + marks}")
    return bad
