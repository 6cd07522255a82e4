"""Policies: who chooses an action when no person does (DESIGN.md, contract 9).

A policy sees what its seat sees — the view, and which combatant it acts for — and the legal
actions, and returns one of those actions. Policies never read the match state. Each ruleset's plug-in record
names its policies (:mod:`affray.core.plugin`); ``random`` serves every ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from affray.core.engine import Action, ActionSpec
from affray.core.rng import RNG


class Policy(Protocol):
    """A policy may set ``needs_view = False`` when it never reads the view: :func:`affray.ai.runner.play`
    then hands it an empty one instead of building the seat's view."""

    name: str

    def choose(self, view: Any, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        """Return the ``action`` of one of ``legal`` (which is never empty) for ``actor``, seeing ``view`` (the typed
        view of the seat that plays ``actor``)."""
        ...


class RandomPolicy:
    """Uniformly random among the legal actions: the baseline that explores every rule."""

    name = "random"
    needs_view = False  # it never reads the view, so the runner need not build one (see runner.play)

    def choose(self, view: Any, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        return legal[rng.die(len(legal)) - 1].action
