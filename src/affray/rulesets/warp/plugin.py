"""The warp plug-in record: everything this ruleset contributes, found from one place (:mod:`affray.core.plugin`).

Each part is read from its module by a loader (``lambda: duel.DUEL``); the modules are imported for the type checker
only, and bound to :func:`~affray.core.plugin.deferred` modules at run time, so reading the record imports nothing
else and mypy checks every part against the type the record declares for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.plugin import Plugin, deferred
from affray.rulesets import bundled_examples

if TYPE_CHECKING:
    from affray.rulesets.warp import (
        adjust,
        builder,
        duel,
        hints,
        library,
        narration,
        odds,
        policies,
        ruleset,
        sample,
        sheet,
        steps,
    )
    from affray.rulesets.warp.setup import WarpSetup
    from affray.rulesets.warp.state import WarpState
else:
    adjust, builder, duel, hints, library, narration, odds, policies, ruleset, sample, sheet, steps = deferred(
        __package__,
        "adjust",
        "builder",
        "duel",
        "hints",
        "library",
        "narration",
        "odds",
        "policies",
        "ruleset",
        "sample",
        "sheet",
        "steps",
    )


def _record() -> Plugin[WarpState, WarpSetup]:
    """The record (built in a function so that mypy checks its loaders once their modules' types are known: the
    parts' modules import this package, a circle mypy resolves only for what a function reads)."""
    return Plugin(
        name="warp",
        title="WaRP (Over the Edge): trait dice, damage factors and armour dice",
        # "2": ganging up gives exactly max(0, attackers - C) dice by default (WR-B17), a clumsy dodge takes no Clumsy
        # penalty die (WR-B16), a taser rolls 5d6 under Alternate Damage (WR-B18)
        rules_version="2",
        rules=lambda: ruleset.WarpRuleset(),
        policies=lambda: policies.POLICIES,
        hints=lambda: hints.hints,
        steps=lambda: steps.steps,
        duel=lambda: duel.DUEL,
        checks=lambda: odds.CHECKS,
        sheet=lambda: sheet.RULES,
        builder=lambda: builder.build,
        narrator=lambda: narration.NARRATOR,
        adjuster=lambda: adjust.ADJUSTER,
        sampler=lambda: sample.SAMPLER,
        examples=bundled_examples("warp"),
        library=lambda: library.entries,
    )


PLUGIN = _record()
