"""The witchhammer plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`). Each part is named by its module and loaded on first use, so reading the record
imports nothing else.
"""

from affray.core.plugin import Countdown, Plugin, part
from affray.rulesets import bundled_examples

PLUGIN = Plugin(
    name="witchhammer", title="WitchHammer: vignettes of face-down cards, Poise and Health",
    rules=part("affray.rulesets.witchhammer.ruleset", "WitchHammerRuleset", build=True),
    policies=part("affray.rulesets.witchhammer.policies", "POLICIES"),
    hints=part("affray.rulesets.witchhammer.hints", "hints"),
    duel=part("affray.rulesets.witchhammer.duel", "DUEL"),
    checks=part("affray.rulesets.witchhammer.odds", "CHECKS"),
    sheet=part("affray.rulesets.witchhammer.characters.show", "RULES"),
    builder=part("affray.rulesets.witchhammer.characters.builder", "build"),
    narrator=part("affray.rulesets.witchhammer.narration", "NARRATOR"),
    adjuster=part("affray.rulesets.witchhammer.adjust", "ADJUSTER"),
    countdown=Countdown("Drama Timer", "WH-B20", option="drama_timer", action="timeout", seconds="drama_timer_seconds"),
    examples=bundled_examples("witchhammer"),
)
