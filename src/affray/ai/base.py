"""Policies: who chooses an action when no person does (DESIGN.md, contract 9).

A policy sees what its seat sees — the view, plus the acting combatant under ``"acting"`` — and the
legal actions, and returns one of those actions. Policies never read the match state. Registry names:
``random`` (any ruleset) and ``heuristic`` (one per ruleset).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from affray.core.engine import Action, ActionSpec
from affray.core.rng import RNG


class Policy(Protocol):
    """A policy may set ``needs_view = False`` when it never reads the view: :func:`affray.ai.runner.play`
    then hands it an empty one instead of building the seat's view."""

    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[ActionSpec], rng: RNG) -> Action:
        """Return the ``action`` of one of ``legal`` (which is never empty)."""
        ...


class RandomPolicy:
    """Uniformly random among the legal actions: the baseline that explores every rule."""

    name = "random"
    needs_view = False  # it never reads the view, so the runner need not build one (see runner.play)

    def choose(self, view: dict[str, Any], legal: Sequence[ActionSpec], rng: RNG) -> Action:
        return legal[rng.die(len(legal)) - 1].action


_POLICIES: dict[tuple[str, str], Callable[[], Policy]] = {}


def register_policy(ruleset: str, name: str, factory: Callable[[], Policy]) -> None:
    """Register a policy for ``ruleset`` (``"*"`` for every ruleset)."""
    _POLICIES[(ruleset, name)] = factory


def policy_names(ruleset: str) -> list[str]:
    _ensure_builtins()
    return sorted({n for (r, n) in _POLICIES if r in (ruleset, "*")})


def get_policy(ruleset: str, name: str) -> Policy:
    """The policy ``name`` for ``ruleset``; ``KeyError`` with the known names otherwise."""
    _ensure_builtins()
    factory = _POLICIES.get((ruleset, name)) or _POLICIES.get(("*", name))
    if factory is None:
        raise KeyError(f"no policy '{name}' for {ruleset}; known: {', '.join(policy_names(ruleset))}, or 'human'")
    return factory()


def _ensure_builtins() -> None:
    import affray.ai.policies  # noqa: F401  (registers the built-in policies)


register_policy("*", "random", RandomPolicy)
