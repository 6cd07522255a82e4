"""The built-in rulesets: one folder each, made known here by one line (their records load on first use).

Each folder exports its :class:`~affray.core.plugin.Plugin` record as ``plugin.PLUGIN``. A ruleset's rules import
``affray.core`` only, never another ruleset; its policies, odds, hints, sheets and builder may also use the generic
tools above the rules (``affray.odds``, ``affray.characters``), which never import a ruleset (see
``docs/architecture.md``).
"""

from collections.abc import Callable
from pathlib import Path

from affray.core.plugin import register_source

#: The project's example scenarios, one folder per built-in ruleset (an editable install or a checkout).
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def bundled_examples(name: str) -> Callable[[], Path]:
    """A record's ``examples`` loader for a built-in ruleset: its folder ``examples/<name>/`` of the project."""
    return lambda: EXAMPLES / name


register_source("hud", "affray.rulesets.hud.plugin")
register_source("warp", "affray.rulesets.warp.plugin")
register_source("spellchrome", "affray.rulesets.spellchrome.plugin")
register_source("witchhammer", "affray.rulesets.witchhammer.plugin")
