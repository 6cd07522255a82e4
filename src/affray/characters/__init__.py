"""Characters: sheets for every ruleset, WitchHammer's creation and advancement, and sheets in scenarios.

- :mod:`affray.characters.sheet`: the shared file format (``format: affray-sheet/1``), reading, checking, writing.
- :mod:`affray.characters.witchhammer`, :mod:`~affray.characters.advancement`, :mod:`~affray.characters.hats`:
  WitchHammer's points, costs, schools, techniques, rewards, money, hats and the party leader (WH-31..WH-38).
- :mod:`affray.characters.warp`, :mod:`~affray.characters.spellchrome`, :mod:`~affray.characters.hud`: the other
  rulesets' sheets and their checks.

Importing this package registers each ruleset's sheet reader with :mod:`affray.core.sheets`, so a scenario
combatant can say ``sheet: ../characters/hilde.yaml``. See ``docs/characters.md``.
"""

from affray.characters import hud, spellchrome, warp
from affray.characters.sheet import (
    FORMAT,
    Refused,
    Summary,
    check,
    dump,
    fight_loader,
    library,
    load,
    markdown,
    read_sheet,
    register,
    rules_for,
    write_sheet,
)
from affray.characters.wh_show import WitchHammerRules
from affray.core.sheets import register_sheet_loader

for _rules in (WitchHammerRules(), warp.WarpRules(), spellchrome.SpellchromeRules(), hud.HudRules()):
    register(_rules)
    register_sheet_loader(_rules.ruleset, fight_loader(_rules.ruleset))

__all__ = ["FORMAT", "Refused", "Summary", "check", "dump", "library", "load", "markdown", "read_sheet",
           "rules_for", "write_sheet"]
