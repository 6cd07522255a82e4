"""A known position for the step-tree tests of each ruleset (tests/<ruleset>/test_steps.py)."""

from __future__ import annotations

from pathlib import Path

import affray
from affray.core.match import Match
from affray.core.steps import Step, steps_for
from affray.odds.hints import hints

EXAMPLES = Path(__file__).parents[2] / "examples"


def tree_at(example: str, seed: int, kind: str) -> tuple[Match, str, Step]:
    """The first position of ``example`` (started with ``seed``, every actor taking its first legal action) where the
    first actor due may take an action of type ``kind``: the match, that actor and its step tree, built from its
    seat's view as the table server builds it."""
    match = affray.load_scenario(EXAMPLES / f"{example}.yaml").start(seed)
    while True:
        window = match.pending()
        assert window is not None, f"{example} ended before a {kind}"
        actor = window.actors[0]
        legal = match.legal(actor)
        if any(spec.action.get("type") == kind for spec in legal):
            view = match.view(match.seats[actor])
            return match, actor, steps_for(match.plugin, view, actor, legal, hints(match.plugin, view, actor, legal))
        match.act(actor, legal[0].action)


def labels(step: Step) -> list[tuple[str, str]]:
    """Each choice of ``step`` as (short, long)."""
    return [(c.short, c.long) for c in step.choices]
