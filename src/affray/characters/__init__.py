"""Characters: sheets for every ruleset, WitchHammer's creation and advancement, and sheets in scenarios.

- :mod:`affray.characters.sheet`: the shared file format (``format: affray-sheet/1``), reading, checking, writing.
- :mod:`affray.characters.prompts`: the questions the interactive builders ask.
- each ruleset's own sheet rules and builder live in its folder (``rulesets/<name>/sheet.py``, WitchHammer's creation
  and advancement in ``rulesets/witchhammer/characters/``) and are named by its plug-in record.

Importing this package installs the sheet reader of :mod:`affray.core.sheets`, so a scenario combatant can say
``sheet: ../characters/hilde.yaml``. See ``docs/characters.md``.
"""

from affray.characters.sheet import (
    FORMAT,
    Refused,
    Summary,
    check,
    dump,
    fight_sheet,
    library,
    load,
    markdown,
    read_sheet,
    rules_for,
    write_sheet,
)
from affray.core.sheets import set_sheet_reader

set_sheet_reader(fight_sheet)

__all__ = [
    "FORMAT",
    "Refused",
    "Summary",
    "check",
    "dump",
    "library",
    "load",
    "markdown",
    "read_sheet",
    "rules_for",
    "write_sheet",
]
