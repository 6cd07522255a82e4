"""The witchhammer plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`).

Each part is read from its module by a loader (``lambda: duel.DUEL``); the modules are imported for the type checker
only, and bound to :func:`~affray.core.plugin.deferred` modules at run time, so reading the record imports nothing
else and mypy checks every part against the type the record declares for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.plugin import Countdown, Plugin, deferred
from affray.rulesets import bundled_examples

if TYPE_CHECKING:
    from affray.rulesets.witchhammer import (
        adjust,
        duel,
        hints,
        library,
        narration,
        odds,
        policies,
        ruleset,
        sample,
        steps,
    )
    from affray.rulesets.witchhammer.characters import builder, show
    from affray.rulesets.witchhammer.setup import WitchHammerSetup
    from affray.rulesets.witchhammer.state import WitchHammerState
else:
    adjust, duel, hints, library, narration, odds, policies, ruleset, sample, steps, builder, show = deferred(
        __package__,
        *("adjust", "duel", "hints", "library", "narration", "odds", "policies", "ruleset", "sample", "steps"),
        *("characters.builder", "characters.show"),
    )


def _record() -> Plugin[WitchHammerState, WitchHammerSetup]:
    """The record (built in a function so that mypy checks its loaders once their modules' types are known: the
    parts' modules import this package, a circle mypy resolves only for what a function reads)."""
    return Plugin(
        name="witchhammer",
        title="WitchHammer: vignettes of face-down cards, Poise and Health",
        rules=lambda: ruleset.WitchHammerRuleset(),
        rules_version="2",  # 2: the Psych phase resolves against the reveal and lands together (WH-B24)
        policies=lambda: policies.POLICIES,
        hints=lambda: hints.hints,
        steps=lambda: steps.steps,
        duel=lambda: duel.DUEL,
        checks=lambda: odds.CHECKS,
        sheet=lambda: show.RULES,
        builder=lambda: builder.build,
        narrator=lambda: narration.NARRATOR,
        adjuster=lambda: adjust.ADJUSTER,
        sampler=lambda: sample.SAMPLER,
        countdown=Countdown(
            "Drama Timer", "WH-B20", option="drama_timer", action="timeout", seconds="drama_timer_seconds"
        ),
        examples=bundled_examples("witchhammer"),
        library=lambda: library.entries,
        round_word="vignette",  # WitchHammer counts its rounds as vignettes
    )


PLUGIN = _record()
