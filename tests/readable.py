"""What every told log must read like (core/narration.py, core/seatlog.py): sentences with names, never ids, no
JSON or Python values, no snake_case words. Shared by the rulesets' narration tests."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from affray.core.engine import GM, SPECTATOR
from affray.core.match import Match

WORD = re.compile(r"[A-Za-z0-9_]+")
#: What a told sentence never holds: JSON or Python values, snake_case words, a missing value (the word None).
FORBIDDEN = ("{", "[", "_")


def seats_of(match: Match) -> list[str]:
    """Every player seat, the GM's and a spectator's."""
    return sorted({*match.seats.values(), GM, SPECTATOR})


def told(match: Match, seat: str) -> list[tuple[str, dict[str, Any]]]:
    """Every sentence ``seat`` reads, with the item it tells: a roll's ``lead`` stands for its ``text`` (whose
    dice, ``1d13 [9] = 9``, a page draws as chips), after checking that the text is the lead and its dice."""
    out: list[tuple[str, dict[str, Any]]] = []
    for record in match.events_since(0, seat, narrate=True):
        if record["text"]:
            out.append((record["text"], record))
        for event in record["events"]:
            text = event["text"]
            if "lead" in event:
                assert text.startswith(event["lead"] + ": "), (text, event["lead"])
                text = event["lead"]
            out.append((text, event))
    return out


def unreadable(match: Match, ids: Iterable[str]) -> list[str]:
    """Every told sentence, at every seat, that shows an id of ``ids`` (whole words, case-sensitive) or a forbidden
    mark; an id that is a word of some name (a maneuver "disarm" named "disarm") is a word like any other."""
    story = match.story()
    named = {w for name in [*story.values(), *(story.term(i) for i in ids)] for w in WORD.findall(name)}
    banned = set(ids) - named
    problems = []
    for seat in seats_of(match):
        for text, item in told(match, seat):
            words = set(WORD.findall(text))
            marks = [m for m in FORBIDDEN if m in text] + sorted(banned & words) + ["None"] * ("None" in words)
            if marks or not text.strip():
                problems.append(f"{seat}: {text!r} ({', '.join(marks) or 'empty'}) from {item.get('type')}")
    return problems
