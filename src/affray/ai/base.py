"""Finding a policy by name: the ruleset's own (from its plug-in record), ``random`` for any ruleset, and ``search``
(:mod:`affray.ai.search`) for every ruleset whose record has a sampler.

The protocol and the random baseline live in :mod:`affray.core.policy`; each ruleset's policies live in its
folder and are listed by its :class:`~affray.core.plugin.Plugin` record.
"""

from __future__ import annotations

from collections.abc import Callable

from affray.ai.search import search_factory
from affray.core.plugin import plugin
from affray.core.policy import Policy, RandomPolicy

__all__ = ["Policy", "RandomPolicy", "get_policy", "policy_names"]

_COMMON: dict[str, Callable[[], Policy]] = {"random": RandomPolicy}


def _factories(ruleset: str) -> dict[str, Callable[[], Policy]]:
    record = plugin(ruleset)
    found = {**_COMMON, **record.policies()}
    if record.sampler is not None:
        found.setdefault("search", search_factory(ruleset))
    return found


def policy_names(ruleset: str) -> list[str]:
    return sorted(_factories(ruleset))


def get_policy(ruleset: str, name: str) -> Policy:
    """The policy ``name`` for ``ruleset``; ``KeyError`` with the known names otherwise."""
    factory = _factories(ruleset).get(name)
    if factory is None:
        raise KeyError(f"no policy '{name}' for {ruleset}; known: {', '.join(policy_names(ruleset))}, or 'human'")
    return factory()
