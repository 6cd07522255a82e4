"""The witchhammer plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`). Each part is named by its module and loaded on first use, so reading the record
imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.plugin import Countdown, Plugin, part
from affray.rulesets import bundled_examples

if TYPE_CHECKING:
    from affray.core.engine import Ruleset
    from affray.rulesets.witchhammer.ruleset import WitchHammerRuleset
    from affray.rulesets.witchhammer.setup import WitchHammerSetup
    from affray.rulesets.witchhammer.state import WitchHammerState

PLUGIN: Plugin[WitchHammerState, WitchHammerSetup] = Plugin(
    name="witchhammer", title="WitchHammer: vignettes of face-down cards, Poise and Health",
    rules=part("affray.rulesets.witchhammer.ruleset", "WitchHammerRuleset", build=True),
    rules_version="2",  # 2: the Psych phase resolves against the reveal and lands together (WH-B24)
    policies=part("affray.rulesets.witchhammer.policies", "POLICIES"),
    hints=part("affray.rulesets.witchhammer.hints", "hints"),
    duel=part("affray.rulesets.witchhammer.duel", "DUEL"),
    checks=part("affray.rulesets.witchhammer.odds", "CHECKS"),
    sheet=part("affray.rulesets.witchhammer.characters.show", "RULES"),
    builder=part("affray.rulesets.witchhammer.characters.builder", "build"),
    narrator=part("affray.rulesets.witchhammer.narration", "NARRATOR"),
    adjuster=part("affray.rulesets.witchhammer.adjust", "ADJUSTER"),
    sampler=part("affray.rulesets.witchhammer.sample", "SAMPLER"),
    countdown=Countdown("Drama Timer", "WH-B20", option="drama_timer", action="timeout", seconds="drama_timer_seconds"),
    examples=bundled_examples("witchhammer"),
    round_word="vignette",  # WitchHammer counts its rounds as vignettes
)

if TYPE_CHECKING:  # the rules class satisfies the contract with its own state and setup (checked by mypy only)
    _RULES: Ruleset[WitchHammerState, WitchHammerSetup] = WitchHammerRuleset()
