"""Finding a policy by name: the ruleset's own (from its plug-in record), ``random`` for any ruleset, and ``search``
(:mod:`affray.ai.search`) for every ruleset whose record has a sampler.

The ruleset is its record (a match carries it: :attr:`affray.core.match.Match.plugin`), or its name where a policy
is named from outside: a scenario's controllers, ``--policy``, a simulation chunk's spec, a library caller
(``get_policy("warp", "heuristic")``). Only then is the record looked up by name.

The protocol and the random baseline live in :mod:`affray.core.policy`; each ruleset's policies live in its
folder and are listed by its :class:`~affray.core.plugin.Plugin` record.
"""

from __future__ import annotations

from collections.abc import Callable

from affray.ai.search import search_factory
from affray.core.plugin import AnyPlugin, Plugin, plugin
from affray.core.policy import Policy, RandomPolicy

__all__ = ["Policy", "RandomPolicy", "get_policy", "policy_names"]

_COMMON: dict[str, Callable[[], Policy]] = {"random": RandomPolicy}


def _record_of(ruleset: AnyPlugin | str) -> AnyPlugin:
    """``ruleset`` itself, or the record of the ruleset it names (``KeyError`` with the known names)."""
    return ruleset if isinstance(ruleset, Plugin) else plugin(ruleset)


def _factories(record: AnyPlugin) -> dict[str, Callable[[], Policy]]:
    found = {**_COMMON, **record.policies()}
    if record.sampler is not None:
        found.setdefault("search", search_factory(record))
    return found


def policy_names(ruleset: AnyPlugin | str) -> list[str]:
    """The policies of ``ruleset`` (its record, or its name), ``random`` among them."""
    return sorted(_factories(_record_of(ruleset)))


def get_policy(ruleset: AnyPlugin | str, name: str) -> Policy:
    """The policy ``name`` for ``ruleset`` (its record, or its name); ``KeyError`` with the known names otherwise."""
    record = _record_of(ruleset)
    factories = _factories(record)
    factory = factories.get(name)
    if factory is None:
        raise KeyError(f"no policy '{name}' for {record.name}; known: {', '.join(sorted(factories))}, or 'human'")
    return factory()
