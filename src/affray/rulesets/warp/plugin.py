"""The warp plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`). Each part is named by its module and loaded on first use, so reading the record
imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.plugin import Plugin, part
from affray.rulesets import bundled_examples

if TYPE_CHECKING:
    from affray.core.engine import Ruleset
    from affray.rulesets.warp.ruleset import WarpRuleset
    from affray.rulesets.warp.setup import WarpSetup
    from affray.rulesets.warp.state import WarpState

PLUGIN: Plugin[WarpState, WarpSetup] = Plugin(
    name="warp", title="WaRP (Over the Edge): trait dice, damage factors and armour dice",
    # "2": ganging up gives exactly max(0, attackers - C) dice by default (WR-B17), a clumsy dodge takes no Clumsy
    # penalty die (WR-B16), a taser rolls 5d6 under Alternate Damage (WR-B18)
    rules_version="2",
    rules=part("affray.rulesets.warp.ruleset", "WarpRuleset", build=True),
    policies=part("affray.rulesets.warp.policies", "POLICIES"),
    hints=part("affray.rulesets.warp.hints", "hints"),
    duel=part("affray.rulesets.warp.duel", "DUEL"),
    checks=part("affray.rulesets.warp.odds", "CHECKS"),
    sheet=part("affray.rulesets.warp.sheet", "RULES"),
    builder=part("affray.rulesets.warp.builder", "build"),
    narrator=part("affray.rulesets.warp.narration", "NARRATOR"),
    adjuster=part("affray.rulesets.warp.adjust", "ADJUSTER"),
    sampler=part("affray.rulesets.warp.sample", "SAMPLER"),
    examples=bundled_examples("warp"),
)

if TYPE_CHECKING:  # the rules class satisfies the contract with its own state and setup (checked by mypy only)
    _RULES: Ruleset[WarpState, WarpSetup] = WarpRuleset()
