"""The hud plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`). Each part is named by its module and loaded on first use, so reading the record
imports nothing else.
"""

from affray.core.plugin import Plugin, part
from affray.rulesets import bundled_examples

PLUGIN = Plugin(
    name="hud", title="Sim HuD: Free Form, Dice Simplified, Combat Nerdified",
    rules=part("affray.rulesets.hud.ruleset", "HudRuleset", build=True),
    policies=part("affray.rulesets.hud.policies", "POLICIES"),
    hints=part("affray.rulesets.hud.hints", "hints"),
    duel=part("affray.rulesets.hud.odds", "DUEL"),
    checks=part("affray.rulesets.hud.odds", "CHECKS"),
    sheet=part("affray.rulesets.hud.sheet", "RULES"),
    builder=part("affray.rulesets.hud.builder", "build"),
    batch=part("affray.rulesets.hud.batch", "BATCH"),
    narrator=part("affray.rulesets.hud.narration", "NARRATOR"),
    adjuster=part("affray.rulesets.hud.adjust", "ADJUSTER"),
    examples=bundled_examples("hud"),
)
