"""The warp plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`). Each part is named by its module and loaded on first use, so reading the record
imports nothing else.
"""

from affray.core.plugin import Plugin, part
from affray.rulesets import bundled_examples

PLUGIN = Plugin(
    name="warp", title="WaRP (Over the Edge): trait dice, damage factors and armour dice",
    rules=part("affray.rulesets.warp.ruleset", "WarpRuleset", build=True),
    policies=part("affray.rulesets.warp.policies", "POLICIES"),
    hints=part("affray.rulesets.warp.hints", "hints"),
    duel=part("affray.rulesets.warp.duel", "DUEL"),
    checks=part("affray.rulesets.warp.odds", "CHECKS"),
    sheet=part("affray.rulesets.warp.sheet", "RULES"),
    builder=part("affray.rulesets.warp.builder", "build"),
    narrator=part("affray.rulesets.warp.narration", "NARRATOR"),
    adjuster=part("affray.rulesets.warp.adjust", "ADJUSTER"),
    examples=bundled_examples("warp"),
)
