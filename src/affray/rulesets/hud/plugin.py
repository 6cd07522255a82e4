"""The hud plug-in record: everything this ruleset contributes, found from one place (:mod:`affray.core.plugin`).

Each part is read from its module by a loader (``lambda: odds.DUEL``); the modules are imported for the type checker
only, and bound to :func:`~affray.core.plugin.deferred` modules at run time, so reading the record imports nothing
else and mypy checks every part against the type the record declares for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.plugin import Plugin, deferred
from affray.rulesets import bundled_examples

if TYPE_CHECKING:
    from affray.rulesets.hud import (
        adjust,
        batch,
        builder,
        buttons,
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
    from affray.rulesets.hud.setup import HudSetup
    from affray.rulesets.hud.state import HudState
else:
    adjust, batch, builder, buttons, hints, library, narration, odds, policies, ruleset, sample, sheet, steps = (
        deferred(
            __package__,
            "adjust",
            "batch",
            "builder",
            "buttons",
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
    )


def _record() -> Plugin[HudState, HudSetup]:
    """The record (built in a function so that mypy checks its loaders once their modules' types are known: the
    parts' modules import this package, a circle mypy resolves only for what a function reads)."""
    return Plugin(
        name="hud",
        title="Sim HuD: Free Form, Dice Simplified, Combat Nerdified",
        rules_version="3",
        rules=lambda: ruleset.HudRuleset(),
        policies=lambda: policies.POLICIES,
        hints=lambda: hints.hints,
        steps=lambda: steps.steps,
        buttons=lambda: buttons.buttons,
        duel=lambda: odds.DUEL,
        checks=lambda: odds.CHECKS,
        sheet=lambda: sheet.RULES,
        builder=lambda: builder.build,
        batch=lambda: batch.BATCH,
        narrator=lambda: narration.NARRATOR,
        adjuster=lambda: adjust.ADJUSTER,
        sampler=lambda: sample.SAMPLER,
        examples=bundled_examples("hud"),
        library=lambda: library.entries,
    )


PLUGIN = _record()
